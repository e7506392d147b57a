/* cli.h — the command table (tmux style: one file per command, one table entry each) and the context
 * every command receives.  Commands return an exit status; only main() exits. */
#ifndef GL_CLI_H
#define GL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "common/err.h"
#include "render/render.h" /* enum gl_format, gl_sgr */

enum gl_color_mode { GL_COLOR_AUTO, GL_COLOR_ALWAYS, GL_COLOR_NEVER };

/* The formats a command cannot print (struct gl_cmd.no_formats): the parser refuses them with exit 2 and
 * its --help does not list them.  0, the default, means the command prints a table, --json and --csv. */
enum { GL_NO_JSON = 1, GL_NO_CSV = 2, GL_TEXT_ONLY = GL_NO_JSON | GL_NO_CSV };

struct gl_ctx {
	const char *argv0;
	char *argv_joined;   /* the whole command line, stored with each run */
	const char *db_path; /* --db, else NULL: the store resolves $GPULAB_DB / XDG */
	enum gl_format format;
	bool color;          /* --color, else stdout is a terminal and NO_COLOR is unset or empty */
	enum gl_color_mode color_mode; /* what --color said (views decide for their own terminal) */
	bool quiet;          /* --quiet: no notes on stderr (errors still) */
	bool verbose;        /* -v: every note, also those said once per terminal session */
	bool stderr_tty;     /* progress bars only on a terminal */
	struct gl_err err;
};

/* One option of a command's table entry.  The one parser (gl_cmd_parse) reads them; `gpulab CMD --help`
 * prints them, so a man page or completions could be generated from the same table. */
enum gl_opt_kind {
	GL_OPT_FLAG,   /* takes no value */
	GL_OPT_STRING, /* takes a value, checked by the command */
	GL_OPT_LONG,   /* takes an integer value in [min, max], checked by the parser */
};

struct gl_opt {
	const char *name;  /* long name without "--"; NULL for a short-only option (-I) */
	char short_name;   /* 0 when none */
	enum gl_opt_kind kind;
	const char *value; /* the value's name in help ("N", "PATH"); NULL for a flag */
	const char *help;  /* one line */
	long min, max;     /* GL_OPT_LONG only */
	int code;          /* what the command's option handler switches on (0 if it only looks options up) */
};

/* Table rows: a flag, an option with a value (VAL names it in help), an integer option in [LO, HI]. */
#define GL_FLAG(NAME, CODE, HELP) {.name = NAME, .kind = GL_OPT_FLAG, .help = HELP, .code = CODE}
#define GL_STR(NAME, VAL, CODE, HELP) {.name = NAME, .kind = GL_OPT_STRING, .value = VAL, .help = HELP, .code = CODE}
#define GL_NUM(NAME, VAL, LO, HI, CODE, HELP)                                                                \
	{.name = NAME, .kind = GL_OPT_LONG, .value = VAL, .min = LO, .max = HI, .help = HELP, .code = CODE}

#define GL_ARGS_MAX 256

struct gl_optval {
	const struct gl_opt *opt;
	const char *value; /* NULL for a flag */
};

/* A parsed command line: options in the order given (a repeated option appears each time), then the
 * positional arguments. */
struct gl_args {
	struct gl_optval opts[GL_ARGS_MAX];
	int nopts;
	char *pos[GL_ARGS_MAX];
	int npos;
};

struct gl_cmd {
	const char *name;
	const char *usage;   /* arguments after the name */
	const char *summary; /* one line for `gpulab --help` */
	const char *help;    /* prose after the generated option lines in `gpulab CMD --help`, may be NULL */
	const struct gl_opt *opts; /* the command's options, ended by an entry without name and short_name */
	int min_args, max_args;    /* positional arguments (max_args < 0: any number) */
	const char *args_missing;  /* the message when fewer than min_args are given */
	const char *args_name;     /* what the arguments are, for too many: "one TOPIC", "no arguments" */
	unsigned no_formats;       /* GL_NO_JSON | GL_NO_CSV: formats it cannot print (0: all three) */
	/* What completion offers for its positional arguments (man page and shell completion): "topic",
	 * "topic variant", "lesson-sub lesson", "view topic", "exercise" (a name after the subcommand, a file after
	 * check's), "file", or NULL for nothing. */
	const char *complete;
	const char *const *subcommands; /* words its first argument may be (lesson list|start|...), NULL-ended */
	bool topic_params;         /* takes a topic's parameters as options (--rows V): completion offers them */
	int (*exec)(struct gl_ctx *ctx, int argc, char **argv);
};

extern const struct gl_cmd *const gl_cmd_table[];
const struct gl_cmd *gl_cmd_find(const char *name);
void gl_cmd_print_help(const struct gl_cmd *cmd, FILE *out);
/* The options every command takes (--db, --json, --csv, --color, --quiet, --help), ended by {0}. */
extern const struct gl_opt gl_common_opts[];
extern const struct gl_opt gl_version_opt[]; /* -V, --version: only before a command */
/* The option lines of a help page (the formats `cmd` refuses left out; cmd may be NULL). */
void gl_print_opts(const struct gl_cmd *cmd, const struct gl_opt *opts, FILE *out);
/* Help prose wrapped to `width` columns (gl_term_width()): a line that is too long continues under its
 * second column ("  gemm        one k per step ...") or its indentation; short lines are kept as they are. */
void gl_help_text(FILE *out, const char *text, int width);

/* Global options before the command (`gpulab --db X -q list`): reads argv[1..] while they are options of
 * gl_common_opts, setting ctx; *next is the index of the command's name.  Returns 0, 'h' for --help or
 * 'V' for --version (nothing printed), or a usage error in ctx->err. */
int gl_global_parse(struct gl_ctx *ctx, int argc, char **argv, int *next);
/* ctx->color from the mode and the environment: always, never, or auto = stdout is a terminal and
 * NO_COLOR is unset or empty (no-color.org). */
void gl_ctx_color(struct gl_ctx *ctx, enum gl_color_mode mode);
/* gl_sgr (render.h) follows the last gl_ctx_color: colour is one setting per process. */

/* Parse argv[1..argc) (argv[0] is the command's name) against the command's options and `extra`
 * (options made at run time, e.g. topic parameters; may be NULL), filling *out.  --db, --json, --csv and
 * --help are every command's and set ctx; "--opt=value", "-Ivalue" and "--" (the rest are positional) are
 * understood, options and positional arguments may mix.  Returns 0, 'h' after printing --help, or a usage
 * error recorded in ctx->err: an unknown option (with the nearest known one), a missing or unwanted value,
 * a number out of range, or a positional count outside the command's min_args..max_args. */
int gl_cmd_parse_extra(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_opt *extra, int argc,
		       char **argv, struct gl_args *out);
int gl_cmd_parse(struct gl_ctx *ctx, const struct gl_cmd *cmd, int argc, char **argv, struct gl_args *out);

/* The last value of option `name` (long name, or the letter of a short-only option), else NULL. */
const char *gl_args_get(const struct gl_args *a, const char *name);
bool gl_args_has(const struct gl_args *a, const char *name);
/* An integer option the parser checked (GL_OPT_LONG); `def` when absent. */
long gl_args_long(const struct gl_args *a, const char *name, long def);
/* The values of a repeatable option in order: up to max into vals; returns how many were given. */
int gl_args_list(const struct gl_args *a, const char *name, const char **vals, int max);
/* The value of one parsed option as a number (GL_OPT_LONG, already checked). */
long gl_optval_long(const struct gl_optval *a);

/* True when stderr is a terminal whose session has not been told `what` (a word) yet; records that it has
 * now (said_once.c).  For notes a learner needs once, not at every command. */
bool gl_cli_first_in_session(const char *what);

/* A gpulab command line to suggest, "gpulab ARGS", that works when pasted: the binary as started when
 * that was a path (build/gpulab ARGS), with --db when the database is not the default one (hint.c). */
void gl_cli_hint(const struct gl_ctx *ctx, const char *args, char *buf, size_t n);

/* A note on stderr ("gpulab: ..." and a newline), unless --quiet. */
void gl_note(const struct gl_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Generated from the tables (gen_docs.c): the man page (roff), and bash or zsh completion ("bash", "zsh";
 * GL_EUSAGE for another shell). */
void gl_gen_man(FILE *out);
int gl_gen_completion(struct gl_ctx *ctx, const char *shell, FILE *out);

/* Record a usage error that ends with a hint: "(see 'gpulab CMD --help')". */
int gl_usage_error(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
