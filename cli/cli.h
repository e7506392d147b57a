/* cli.h — the command table (tmux style: one file per command, one table entry each) and the context
 * every command receives.  Commands return an exit status; only main() exits. */
#ifndef GL_CLI_H
#define GL_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "common/err.h"

enum gl_format { GL_FMT_TABLE, GL_FMT_JSON, GL_FMT_CSV };

struct gl_ctx {
	const char *argv0;
	char *argv_joined;   /* the whole command line, stored with each run */
	const char *db_path; /* --db, else NULL: the store resolves $GPULAB_DB / XDG */
	enum gl_format format;
	bool color;          /* stdout is a terminal and NO_COLOR is unset */
	bool stderr_tty;     /* progress bars only on a terminal */
	struct gl_err err;
};

struct gl_cmd {
	const char *name;
	const char *usage;   /* arguments after the name */
	const char *summary; /* one line for `gpulab --help` */
	const char *help;    /* option details for `gpulab CMD --help`, may be NULL */
	int (*exec)(struct gl_ctx *ctx, int argc, char **argv);
};

extern const struct gl_cmd *const gl_cmd_table[];
const struct gl_cmd *gl_cmd_find(const char *name);
void gl_cmd_print_help(const struct gl_cmd *cmd, FILE *out);

/* getopt_long with gpulab's error messages: unknown options are reported with the nearest valid one.
 * Returns the option value, -1 at the end, or '?' after recording a usage error in ctx->err.
 * Handles --db, --json, --csv and --help (prints help, returns 'h') for every command. */
int gl_getopt(struct gl_ctx *ctx, const struct gl_cmd *cmd, int argc, char **argv, const char *shortopts,
	      const struct option *longopts);

/* Options every command accepts; long option codes above 256 for command-specific ones. */
enum { GL_OPT_DB = 1000, GL_OPT_JSON, GL_OPT_CSV, GL_OPT_HELP };

/* Record a usage error that ends with a hint: "(see 'gpulab CMD --help')". */
int gl_usage_error(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
