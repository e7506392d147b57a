/* lesson_cmd.c — the commands of a ```gpulab block: split into words and checked when the lesson is read
 * (a gpulab command that exists; a `run` or `compare` line the command's own parser accepts), so a typo in
 * a lesson is an authoring error with path:line, not a failure in front of the learner. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "kernels/registry.h"
#include "lessons/lesson_int.h"

static int bad(const char *path, int line, struct gl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad(const char *path, int line, struct gl_err *err, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return gl_errf(err, GL_EUSAGE, "%s:%d: %s", path, line, msg);
}

/* The command names, handed in by the command layer (lessons sit below it and cannot read its table). */
static const char *const *known_commands;

void lesson_set_commands(const char *const *names)
{
	known_commands = names;
}

static bool command_known(const char *name)
{
	for (const char *const *c = known_commands; c && *c; c++)
		if (strcmp(*c, name) == 0)
			return true;
	return false;
}

static int unknown_command(const char *path, int line, const char *name, struct gl_err *err)
{
	size_t n = 0;
	while (known_commands && known_commands[n])
		n++;
	const char *near = gl_suggest(name, known_commands, n);
	return near ? bad(path, line, err, "unknown gpulab command '%s' (did you mean '%s'?)", name, near)
		    : bad(path, line, err, "unknown gpulab command '%s' (see 'gpulab --help')", name);
}

/* The run lines' parser, handed in by the command layer like the command names. */
static lesson_run_parser run_parser;

void lesson_set_run_parser(lesson_run_parser parse)
{
	run_parser = parse;
}

int lesson_run_line_of(const struct lesson_cmd *c, struct lesson_run_line *out, struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	if (!run_parser || c->argc < 1 || (strcmp(c->argv[0], "run") != 0 && strcmp(c->argv[0], "compare") != 0))
		return GL_OK;
	return run_parser(c->argc, c->argv, out, err);
}

/* A `run` or `compare` line must be one the command accepts: its options, topic and variant names (sizes
 * it refuses are refused when the step runs, like any command's usage error). */
static int check_run_line(const char *path, int line, const struct lesson_cmd *c, struct gl_err *err)
{
	struct lesson_run_line r;
	struct gl_err e = {0};
	if (lesson_run_line_of(c, &r, &e) == GL_OK)
		return GL_OK;
	return gl_errf(err, GL_EUSAGE, "%s:%d: %s", path, line, e.msg);
}

/* A command the step expects to fail ends in a shell comment, "# exits N" (a program whose own error check
 * stops it): the status it must end with, 1..255, and where the command itself ends.  0: none. */
static int expected_exit(const char *text, size_t *cmd_len, int *status, const char *path, int line,
			 struct gl_err *err)
{
	static const char mark[] = " # exits ";
	const char *at = strstr(text, mark);
	*cmd_len = strlen(text);
	*status = 0;
	if (!at)
		return GL_OK;
	char *end;
	long n = strtol(at + sizeof mark - 1, &end, 10);
	if (end == at + sizeof mark - 1 || *end || n < 1 || n > 255)
		return bad(path, line, err, "'# exits N' needs the exit status the command ends with, 1 to 255, "
			   "at the end of the line (found '%s')", at + 3);
	*cmd_len = (size_t)(at - text);
	*status = (int)n;
	return GL_OK;
}

int lesson_cmd_parse(const char *text, const char *path, int line, struct lesson_cmd *out, struct gl_err *err)
{
	char why[128];
	char **words;
	int nwords;
	size_t cmd_len;
	int expect;
	memset(out, 0, sizeof *out);
	if (expected_exit(text, &cmd_len, &expect, path, line, err))
		return GL_EUSAGE;
	char *cmd = gl_xcalloc(cmd_len + 1, 1);
	memcpy(cmd, text, cmd_len);
	bool split = lesson_split_words(cmd, &words, &nwords, why, sizeof why);
	free(cmd);
	if (!split)
		return bad(path, line, err, "%s in '%s'", why, text);
	int rc = GL_OK;
	if (nwords < 2 || strcmp(words[0], "gpulab") != 0)
		rc = bad(path, line, err, "a ```gpulab block holds gpulab commands ('gpulab run ...'), found '%s'",
			 text);
	else if (strcmp(words[1], "lesson") == 0)
		rc = bad(path, line, err, "a lesson cannot run 'gpulab lesson' commands");
	else if (!command_known(words[1]))
		rc = unknown_command(path, line, words[1], err);
	if (rc) {
		lesson_words_free(words);
		return rc;
	}
	out->line = line;
	out->text = gl_xstrdup(text);
	out->expect_status = expect;
	out->argv = gl_xcalloc((size_t)nwords, sizeof *out->argv);
	for (int i = 1; i < nwords; i++)
		out->argv[out->argc++] = words[i];
	free(words[0]);
	free(words);
	rc = check_run_line(path, line, out, err);
	if (rc)
		lesson_cmd_free(out);
	return rc;
}

void lesson_cmd_free(struct lesson_cmd *c)
{
	for (int i = 0; i < c->argc; i++)
		free(c->argv[i]);
	free(c->argv);
	free(c->text);
	memset(c, 0, sizeof *c);
}
