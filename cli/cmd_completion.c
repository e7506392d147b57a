/* cmd_completion.c — `gpulab completion bash|zsh`: the shell completion script, generated from the
 * command, topic, view and lesson tables (gen_docs.c), so it lists what this binary knows. */
#include <stdio.h>

#include "cli.h"

static const struct gl_cmd *self(void);

static int exec_completion(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int rc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (rc)
		return rc;
	return gl_gen_completion(ctx, args.pos[0], stdout);
}

static const char *const shells[] = {"bash", "zsh", NULL};

const struct gl_cmd gl_cmd_completion_entry = {
	.name = "completion",
	.usage = "bash|zsh",
	.summary = "print the shell completion script for bash or zsh",
	.help = "make install puts them where bash-completion and zsh look; to try one now:\n"
		"  source <(gpulab completion bash)\n",
	.min_args = 1,
	.max_args = 1,
	.args_missing = "completion needs a shell: bash or zsh",
	.args_name = "one shell",
	.no_formats = GL_TEXT_ONLY,
	.subcommands = shells,
	.exec = exec_completion,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_completion_entry;
}
