/* main.c — gpulab's entry point: global options, dispatch through the command table, exit codes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/util.h"

static void print_usage(FILE *out)
{
	struct gl_str text = {0};
	int width = gl_term_width();
	gl_str_add(&text, "gpulab runs instrumented GPU kernels and records what they do to the memory system: "
			  "on an NVIDIA GPU through CUPTI, elsewhere in its own PTX simulator.\n\ncommands:\n");
	for (const struct gl_cmd *const *c = gl_cmd_table; *c; c++)
		gl_str_addf(&text, "  %-10s  %s\n", (*c)->name, (*c)->summary);
	gl_str_addf(&text, "  %-10s  %s\n  %-10s  %s\n", "help",
		    "help CMD: a command's help (as 'gpulab CMD --help'); help --man: the man page", "version",
		    "print the version");
	fprintf(out, "usage: gpulab [OPTIONS] COMMAND [ARGS]\n\n");
	gl_help_text(out, text.buf, width);
	fprintf(out, "\noptions (before the command, or after it):\n");
	gl_print_opts(NULL, gl_common_opts, out);
	gl_print_opts(NULL, gl_version_opt, out);
	gl_help_text(out, "\n'gpulab help COMMAND' shows a command's options; 'man gpulab' the whole manual.\n"
			  "exit codes: 0 ok, 1 verification or sanitizer failure, 2 usage or input error, 3 environment\n",
		     width);
	gl_str_free(&text);
}

static char *join_argv(int argc, char **argv)
{
	struct gl_str s = {0};
	for (int i = 0; i < argc; i++)
		gl_str_addf(&s, "%s%s", i ? " " : "", argv[i]);
	return s.buf ? s.buf : gl_xstrdup("");
}

static int unknown_command(const char *name)
{
	const char *names[64];
	size_t n = 0;
	for (const struct gl_cmd *const *c = gl_cmd_table; *c && n < 62; c++)
		names[n++] = (*c)->name;
	names[n++] = "help";
	names[n++] = "version";
	const char *near = gl_suggest(name, names, n);
	if (near)
		fprintf(stderr, "gpulab: unknown command '%s' (did you mean '%s'?)\n", name, near);
	else
		fprintf(stderr, "gpulab: unknown command '%s' (see 'gpulab --help')\n", name);
	return GL_EUSAGE;
}

/* Out of memory in a small allocation anywhere: one clear line and exit status 3, never a core dump.
 * Nothing half-done is stored: a run is one database transaction, committed only at its end. */
static void out_of_memory(size_t bytes)
{
	fprintf(stderr, "gpulab: out of memory (allocating %zu bytes); close other programs or choose a smaller "
		"size\n", bytes);
	fflush(stdout);
	_exit(GL_EENV);
}

static int print_version(void)
{
	printf("gpulab %s\n", GPULAB_VERSION);
	return GL_OK;
}

/* `gpulab help [CMD]`. */
static int help(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		print_usage(stdout);
		return GL_OK;
	}
	if (strcmp(argv[1], "--man") == 0) {
		gl_gen_man(stdout);
		return GL_OK;
	}
	const struct gl_cmd *cmd = gl_cmd_find(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	gl_cmd_print_help(cmd, stdout);
	return GL_OK;
}

static int finish(struct gl_ctx *ctx, int status)
{
	if (status == 'h') /* --help was printed */
		status = GL_OK;
	if (status != GL_OK && ctx->err.msg[0])
		fprintf(stderr, "gpulab: %s\n", ctx->err.msg);
	fflush(stdout);
	free(ctx->argv_joined);
	return status;
}

int main(int argc, char **argv)
{
	gl_set_oom_handler(out_of_memory);
	struct gl_ctx ctx = {
		.argv0 = argv[0],
		.argv_joined = join_argv(argc, argv),
		.format = GL_FMT_TABLE,
		.stderr_tty = isatty(STDERR_FILENO),
	};
	gl_ctx_color(&ctx, GL_COLOR_AUTO);
	int next = 1, rc = gl_global_parse(&ctx, argc, argv, &next);
	if (rc == 'V')
		return finish(&ctx, print_version());
	if (rc == 'h' || (rc == GL_OK && next < argc && strcmp(argv[next], "help") == 0))
		return finish(&ctx, rc == 'h' ? (print_usage(stdout), GL_OK) : help(argc - next, argv + next));
	if (rc)
		return finish(&ctx, rc);
	if (next >= argc) {
		print_usage(stderr);
		return finish(&ctx, GL_EUSAGE);
	}
	if (strcmp(argv[next], "version") == 0)
		return finish(&ctx, print_version());
	const struct gl_cmd *cmd = gl_cmd_find(argv[next]);
	if (!cmd)
		return finish(&ctx, unknown_command(argv[next]));
	return finish(&ctx, cmd->exec(&ctx, argc - next, argv + next));
}
