/* options.c — the one option parser of every command (tmux's cmd_entry.args idea): each command declares
 * its options and positional counts in its table entry; parsing, checking, "did you mean" and the option
 * lines of --help all come from that table. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/util.h"

enum { COMMON_DB = -1, COMMON_JSON = -2, COMMON_CSV = -3, COMMON_HELP = -4, COMMON_COLOR = -5, COMMON_QUIET = -6,
       COMMON_VERSION = -7, COMMON_VERBOSE = -8 };

const struct gl_opt gl_common_opts[] = {
	GL_STR("db", "PATH", COMMON_DB, "results database (default: $GPULAB_DB, else $XDG_DATA_HOME/gpulab/gpulab.db)"),
	GL_FLAG("json", COMMON_JSON, "machine-readable JSON output"),
	GL_FLAG("csv", COMMON_CSV, "CSV output"),
	GL_STR("color", "WHEN", COMMON_COLOR, "colour: auto (default: on a terminal unless NO_COLOR), always, never"),
	{.name = "quiet", .short_name = 'q', .kind = GL_OPT_FLAG, .help = "no notes on stderr (errors still)",
	 .code = COMMON_QUIET},
	{.name = "verbose", .short_name = 'v', .kind = GL_OPT_FLAG,
	 .help = "every note, also those said once per terminal session (which backend runs and why)",
	 .code = COMMON_VERBOSE},
	{.name = "help", .short_name = 'h', .kind = GL_OPT_FLAG, .help = "this help", .code = COMMON_HELP},
	{0},
};
#define common_opts gl_common_opts

/* Only before the command: `gpulab -V`. */
const struct gl_opt gl_version_opt[] = {
	{.name = "version", .short_name = 'V', .kind = GL_OPT_FLAG, .help = "print the version", .code = COMMON_VERSION},
	{0},
};

void gl_ctx_color(struct gl_ctx *ctx, enum gl_color_mode mode)
{
	const char *no_color = getenv("NO_COLOR");
	ctx->color_mode = mode;
	if (mode == GL_COLOR_AUTO)
		ctx->color = isatty(STDOUT_FILENO) && !(no_color && no_color[0]);
	else
		ctx->color = mode == GL_COLOR_ALWAYS;
	gl_render_set_color(ctx->color);
}

static bool format_refused(const struct gl_cmd *cmd, const struct gl_opt *o)
{
	return cmd && ((o->code == COMMON_JSON && (cmd->no_formats & GL_NO_JSON)) ||
		       (o->code == COMMON_CSV && (cmd->no_formats & GL_NO_CSV)));
}

static bool opt_end(const struct gl_opt *o)
{
	return !o->name && !o->short_name;
}

static void opt_left(const struct gl_opt *o, char *left, size_t size)
{
	int n;
	if (o->short_name && o->name)
		n = snprintf(left, size, "-%c, --%s", o->short_name, o->name);
	else if (o->short_name)
		n = snprintf(left, size, "-%c", o->short_name);
	else
		n = snprintf(left, size, "--%s", o->name);
	if (o->value && n > 0 && (size_t)n < size)
		snprintf(left + n, size - (size_t)n, " %s", o->value);
}

/* Print `line` (no newline in it) wrapped to `width` columns: the first `hang` bytes as they are, the
 * rest word by word (keeping the spaces between words that stay on one line), each continuation line
 * indented by `hang`; a word longer than the room gets a line of its own. */
static void wrap_line(FILE *out, const char *line, size_t hang, int width)
{
	size_t len = strlen(line);
	/* (a column past the middle of a narrow terminal is kept whole rather than squeezed) */
	if ((int)len <= width || hang >= len || (int)hang > width / 2) {
		fprintf(out, "%s\n", line);
		return;
	}
	int room = width - (int)hang, col = 0;
	fprintf(out, "%.*s", (int)hang, line);
	for (const char *p = line + hang; *p;) {
		size_t gap = strspn(p, " "), word = strcspn(p + gap, " ");
		if (!word)
			break;
		if (col && col + (int)(gap + word) > room) {
			fprintf(out, "\n%*s", (int)hang, "");
			col = 0;
			p += gap;
			gap = 0;
		}
		fprintf(out, "%.*s", (int)(gap + word), p);
		col += (int)(gap + word);
		p += gap + word;
	}
	fputc('\n', out);
}

/* Where a prose line's text continues when it wraps: under its second column when it has one (the text
 * after the first run of two spaces or more, "  start NAME      start (or resume)", within the first 40
 * columns), else under its first character. */
static size_t prose_hang(const char *line)
{
	size_t indent = strspn(line, " ");
	const char *gap = strstr(line + indent, "  ");
	if (!gap || gap - line >= 40)
		return indent;
	size_t col = (size_t)(gap - line) + strspn(gap, " ");
	return line[col] ? col : indent;
}

/* Does a hand-wrapped line continue the paragraph before it?  Under a column ("  gemm        one k ...")
 * a line indented to that column does; at the left margin a line does when the one before did not end a
 * sentence or introduce a list. */
static bool continues(const char *para, size_t hang, const char *line)
{
	size_t indent = strspn(line, " "), end = strlen(para);
	if (!line[indent] || indent != hang)
		return false;
	if (hang > strspn(para, " "))
		return true;
	char last = end ? para[end - 1] : '.';
	return hang == 0 && last != '.' && last != ':';
}

void gl_help_text(FILE *out, const char *text, int width)
{
	struct gl_str para = {0};
	size_t hang = 0;
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
		if (para.buf && continues(para.buf, hang, line)) {
			gl_str_addf(&para, " %s", line + hang);
		} else {
			if (para.buf)
				wrap_line(out, para.buf, hang, width);
			para.len = 0;
			gl_str_add(&para, line);
			hang = prose_hang(line);
		}
		p += n + (p[n] == '\n');
	}
	if (para.buf)
		wrap_line(out, para.buf, hang, width);
	gl_str_free(&para);
}

/* One line per option, the help texts in one column (as wide as the widest option needs, wrapped under
 * it to the terminal's width); the formats `cmd` cannot print are left out. */
void gl_print_opts(const struct gl_cmd *cmd, const struct gl_opt *opts, FILE *out)
{
	char left[64], line[1024];
	int width = 12, cols = gl_term_width();
	for (const struct gl_opt *o = opts; o && !opt_end(o); o++) {
		opt_left(o, left, sizeof left);
		width = (int)strlen(left) > width ? (int)strlen(left) : width;
	}
	for (const struct gl_opt *o = opts; o && !opt_end(o); o++) {
		if (format_refused(cmd, o))
			continue;
		opt_left(o, left, sizeof left);
		snprintf(line, sizeof line, "  %-*s  %s", width, left, o->help ? o->help : "");
		wrap_line(out, line, (size_t)width + 4, cols);
	}
}

/* The usage lines: "usage: gpulab CMD ..." and any "       gpulab CMD ..." after it, wrapped under the
 * arguments. */
static void print_usage_lines(const struct gl_cmd *cmd, FILE *out, int width)
{
	char line[1024];
	const char *u = cmd->usage;
	for (bool first = true; *u; first = false) {
		size_t n = strcspn(u, "\n");
		if (first)
			snprintf(line, sizeof line, "usage: gpulab %s %.*s", cmd->name, (int)n, u);
		else
			snprintf(line, sizeof line, "%.*s", (int)n, u);
		const char *g = strstr(line, "gpulab ");
		size_t hang = g ? (size_t)(g - line) + 7 + strlen(cmd->name) + 1 : 0;
		wrap_line(out, line, hang, width);
		u += n + (u[n] == '\n');
	}
}

void gl_cmd_print_help(const struct gl_cmd *cmd, FILE *out)
{
	int width = gl_term_width();
	print_usage_lines(cmd, out, width);
	fputc('\n', out);
	gl_help_text(out, cmd->summary, width);
	if (cmd->opts && !opt_end(cmd->opts)) {
		fprintf(out, "\noptions:\n");
		gl_print_opts(cmd, cmd->opts, out);
	}
	if (cmd->help) {
		fputc('\n', out);
		gl_help_text(out, cmd->help, width);
	}
	fprintf(out, "\ncommon options:\n");
	gl_print_opts(cmd, common_opts, out);
}

void gl_note(const struct gl_ctx *ctx, const char *fmt, ...)
{
	if (ctx->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("gpulab: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int gl_usage_error(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!cmd->usage) /* an option before the command */
		return gl_errf(&ctx->err, GL_EUSAGE, "%s (see 'gpulab --help')", msg);
	return gl_errf(&ctx->err, GL_EUSAGE, "%s (see 'gpulab %s --help')", msg, cmd->name);
}

/* The option tables a command line is read against, in lookup order. */
struct tables {
	const struct gl_opt *t[3];
};

/* The one "did you mean" of options: the nearest long name over every table. */
static int unknown_option(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *arg, const struct tables *ts)
{
	const char *names[256];
	size_t n = 0;
	for (int k = 0; k < 3; k++)
		for (const struct gl_opt *o = ts->t[k]; o && !opt_end(o) && n < GL_ARRAY_LEN(names); o++)
			if (o->name)
				names[n++] = o->name;
	char bare[128];
	snprintf(bare, sizeof bare, "%s", arg + strspn(arg, "-"));
	bare[strcspn(bare, "=")] = '\0';
	/* a single letter is no typo of a long name: -v is not --n */
	const char *near = arg[1] == '-' ? gl_suggest(bare, names, n) : NULL;
	if (near)
		return gl_usage_error(ctx, cmd, "unknown option '%s' for %s (did you mean '--%s'?)", arg, cmd->name,
				      near);
	if (!cmd->usage)
		return gl_usage_error(ctx, cmd, "unknown option '%s' before the command", arg);
	return gl_usage_error(ctx, cmd, "unknown option '%s' for %s", arg, cmd->name);
}

/* A long option by its exact name, else by a prefix that names exactly one (as getopt_long allows). */
static const struct gl_opt *find_long(const struct tables *ts, const char *name, size_t len)
{
	const struct gl_opt *prefix = NULL;
	int nprefix = 0;
	for (int k = 0; k < 3; k++)
		for (const struct gl_opt *o = ts->t[k]; o && !opt_end(o); o++) {
			if (!o->name || strncmp(o->name, name, len) != 0)
				continue;
			if (o->name[len] == '\0')
				return o;
			if (!prefix || strcmp(prefix->name, o->name) != 0)
				nprefix++;
			prefix = o;
		}
	return nprefix == 1 ? prefix : NULL;
}

static const struct gl_opt *find_short(const struct tables *ts, char c)
{
	for (int k = 0; k < 3; k++)
		for (const struct gl_opt *o = ts->t[k]; o && !opt_end(o); o++)
			if (o->short_name == c)
				return o;
	return NULL;
}

/* Apply one option: the common ones set ctx, the others are recorded (numbers checked first). */
static int take_color(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *value)
{
	static const char *const modes[] = {"auto", "always", "never"};
	for (int i = 0; i < 3; i++)
		if (strcmp(value, modes[i]) == 0) {
			gl_ctx_color(ctx, (enum gl_color_mode)i);
			return GL_OK;
		}
	return gl_usage_error(ctx, cmd, "--color takes auto, always or never (got '%s')", value);
}

/* --json and --csv each name the one output format: both together (anywhere on the line) are refused. */
static int take_format(struct gl_ctx *ctx, const struct gl_cmd *cmd, enum gl_format f)
{
	if (ctx->format != GL_FMT_TABLE && ctx->format != f)
		return gl_usage_error(ctx, cmd, "--json and --csv exclude each other: give one of them");
	ctx->format = f;
	return GL_OK;
}

static int take(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_opt *o, const char *value,
		struct gl_args *out)
{
	switch (o->code) {
	case COMMON_DB: ctx->db_path = value; return GL_OK;
	case COMMON_JSON:
	case COMMON_CSV: return take_format(ctx, cmd, o->code == COMMON_JSON ? GL_FMT_JSON : GL_FMT_CSV);
	case COMMON_COLOR: return take_color(ctx, cmd, value);
	case COMMON_QUIET: ctx->quiet = true; return GL_OK;
	case COMMON_VERBOSE: ctx->verbose = true; return GL_OK;
	case COMMON_VERSION: return 'V';
	case COMMON_HELP:
		if (cmd->usage) /* not before the command: main prints gpulab's own help */
			gl_cmd_print_help(cmd, stdout);
		return 'h';
	default: break;
	}
	if (o->kind == GL_OPT_LONG) {
		char flag[80];
		long v;
		if (o->name)
			snprintf(flag, sizeof flag, "--%s", o->name);
		else
			snprintf(flag, sizeof flag, "-%c", o->short_name);
		if (gl_parse_long(value, o->min, o->max, flag, &v, &ctx->err))
			return ctx->err.status;
	}
	if (out->nopts >= GL_ARGS_MAX)
		return gl_usage_error(ctx, cmd, "too many options (at most %d)", GL_ARGS_MAX);
	out->opts[out->nopts++] = (struct gl_optval){o, value};
	return GL_OK;
}

static int parse_long_opt(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct tables *ts, int argc,
			  char **argv, int *i, struct gl_args *out)
{
	const char *arg = argv[*i], *name = arg + 2, *eq = strchr(name, '=');
	const struct gl_opt *o = find_long(ts, name, eq ? (size_t)(eq - name) : strlen(name));
	if (!o)
		return unknown_option(ctx, cmd, arg, ts);
	if (o->kind == GL_OPT_FLAG) {
		if (eq)
			return gl_usage_error(ctx, cmd, "option '--%s' takes no value", o->name);
		return take(ctx, cmd, o, NULL, out);
	}
	if (eq)
		return take(ctx, cmd, o, eq + 1, out);
	if (*i + 1 >= argc)
		return gl_usage_error(ctx, cmd, "option '%s' needs a value", arg);
	return take(ctx, cmd, o, argv[++*i], out);
}

/* -abc is -a -b -c; a short option that takes a value takes the rest of the word or the next one. */
static int parse_short_opts(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct tables *ts, int argc,
			    char **argv, int *i, struct gl_args *out)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct gl_opt *o = find_short(ts, *p);
		char flag[3] = {'-', *p, '\0'};
		if (!o)
			return unknown_option(ctx, cmd, flag, ts);
		int rc;
		if (o->kind == GL_OPT_FLAG) {
			if ((rc = take(ctx, cmd, o, NULL, out)))
				return rc;
			continue;
		}
		if (p[1])
			return take(ctx, cmd, o, p + 1, out);
		if (*i + 1 >= argc)
			return gl_usage_error(ctx, cmd, "option '%s' needs a value", flag);
		return take(ctx, cmd, o, argv[++*i], out);
	}
	return GL_OK;
}

/* --json or --csv (here or before the command) where the command cannot print it: exit 2 naming what it can. */
static int check_format(struct gl_ctx *ctx, const struct gl_cmd *cmd)
{
	const char *f = ctx->format == GL_FMT_JSON ? "json" : ctx->format == GL_FMT_CSV ? "csv" : NULL;
	unsigned bit = ctx->format == GL_FMT_JSON ? GL_NO_JSON : GL_NO_CSV;
	if (!f || !(cmd->no_formats & bit))
		return GL_OK;
	if ((cmd->no_formats & GL_TEXT_ONLY) == GL_TEXT_ONLY)
		return gl_usage_error(ctx, cmd, "%s prints text only: --%s makes no sense here", cmd->name, f);
	return gl_usage_error(ctx, cmd, "%s prints a table or --%s, not --%s", cmd->name,
			      bit == GL_NO_JSON ? "csv" : "json", f);
}

static int check_counts(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_args *out)
{
	if (out->npos < cmd->min_args)
		return cmd->args_missing ? gl_usage_error(ctx, cmd, "%s", cmd->args_missing)
					 : gl_usage_error(ctx, cmd, "%s needs %s", cmd->name, cmd->args_name);
	if (cmd->max_args >= 0 && out->npos > cmd->max_args) {
		const char *extra = out->pos[cmd->max_args];
		if (cmd->max_args == 0)
			return gl_usage_error(ctx, cmd, "unexpected argument '%s'", extra);
		return gl_usage_error(ctx, cmd, "%s takes %s but got %d: unexpected argument '%s'", cmd->name,
				      cmd->args_name ? cmd->args_name : "fewer arguments", out->npos, extra);
	}
	return GL_OK;
}

int gl_cmd_parse_extra(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_opt *extra, int argc,
		       char **argv, struct gl_args *out)
{
	struct tables ts = {{cmd->opts, extra, common_opts}};
	out->nopts = out->npos = 0;
	bool only_positional = false;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int rc = GL_OK;
		if (!only_positional && strcmp(arg, "--") == 0)
			only_positional = true;
		else if (!only_positional && arg[0] == '-' && arg[1] == '-')
			rc = parse_long_opt(ctx, cmd, &ts, argc, argv, &i, out);
		else if (!only_positional && arg[0] == '-' && arg[1])
			rc = parse_short_opts(ctx, cmd, &ts, argc, argv, &i, out);
		else if (out->npos < GL_ARGS_MAX)
			out->pos[out->npos++] = argv[i];
		else
			rc = gl_usage_error(ctx, cmd, "too many arguments (at most %d)", GL_ARGS_MAX);
		if (rc)
			return rc;
	}
	int rc = check_format(ctx, cmd);
	return rc ? rc : check_counts(ctx, cmd, out);
}

int gl_global_parse(struct gl_ctx *ctx, int argc, char **argv, int *next)
{
	struct tables ts = {{common_opts, gl_version_opt, NULL}};
	struct gl_args scratch;
	static const struct gl_cmd gpulab = {.name = "gpulab"};
	scratch.nopts = scratch.npos = 0;
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *arg = argv[i];
		int rc;
		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (arg[1] == '-')
			rc = parse_long_opt(ctx, &gpulab, &ts, argc, argv, &i, &scratch);
		else
			rc = parse_short_opts(ctx, &gpulab, &ts, argc, argv, &i, &scratch);
		if (rc)
			return rc;
	}
	*next = i;
	return GL_OK;
}

int gl_cmd_parse(struct gl_ctx *ctx, const struct gl_cmd *cmd, int argc, char **argv, struct gl_args *out)
{
	return gl_cmd_parse_extra(ctx, cmd, NULL, argc, argv, out);
}

static bool arg_is(const struct gl_optval *a, const char *name)
{
	if (a->opt->name)
		return strcmp(a->opt->name, name) == 0;
	return name[0] == a->opt->short_name && name[1] == '\0';
}

const char *gl_args_get(const struct gl_args *a, const char *name)
{
	for (int i = a->nopts - 1; i >= 0; i--)
		if (arg_is(&a->opts[i], name))
			return a->opts[i].value ? a->opts[i].value : "";
	return NULL;
}

bool gl_args_has(const struct gl_args *a, const char *name)
{
	return gl_args_get(a, name) != NULL;
}

long gl_optval_long(const struct gl_optval *a)
{
	return strtol(a->value, NULL, 10);
}

long gl_args_long(const struct gl_args *a, const char *name, long def)
{
	for (int i = a->nopts - 1; i >= 0; i--)
		if (arg_is(&a->opts[i], name))
			return gl_optval_long(&a->opts[i]);
	return def;
}

int gl_args_list(const struct gl_args *a, const char *name, const char **vals, int max)
{
	int n = 0;
	for (int i = 0; i < a->nopts; i++)
		if (arg_is(&a->opts[i], name)) {
			if (n < max)
				vals[n] = a->opts[i].value;
			n++;
		}
	return n;
}
