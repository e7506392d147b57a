/* options.c — option parsing shared by all commands: common options, unknown-option suggestions. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common/util.h"

void gl_cmd_print_help(const struct gl_cmd *cmd, FILE *out)
{
	fprintf(out, "usage: gpulab %s %s\n\n%s\n", cmd->name, cmd->usage, cmd->summary);
	if (cmd->help)
		fprintf(out, "\n%s", cmd->help);
	fprintf(out, "\ncommon options:\n"
		     "  --db PATH     results database (default: $GPULAB_DB, else $XDG_DATA_HOME/gpulab/gpulab.db)\n"
		     "  --json        machine-readable JSON output\n"
		     "  --csv         CSV output\n"
		     "  --help        this help\n");
}

int gl_usage_error(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return gl_errf(&ctx->err, GL_EUSAGE, "%s (see 'gpulab %s --help')", msg, cmd->name);
}

static int unknown_option(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *arg,
			  const struct option *longopts)
{
	const char *names[128];
	size_t n = 0;
	static const char *const common[] = {"db", "json", "csv", "help"};
	for (size_t i = 0; i < GL_ARRAY_LEN(common); i++)
		names[n++] = common[i];
	for (const struct option *o = longopts; o && o->name && n < GL_ARRAY_LEN(names); o++)
		names[n++] = o->name;
	const char *word = arg;
	while (*word == '-')
		word++;
	char bare[128];
	snprintf(bare, sizeof bare, "%s", word);
	char *eq = strchr(bare, '=');
	if (eq)
		*eq = '\0';
	const char *near = gl_suggest(bare, names, n);
	if (near)
		return gl_usage_error(ctx, cmd, "unknown option '%s' for %s (did you mean '--%s'?)", arg, cmd->name,
				      near);
	return gl_usage_error(ctx, cmd, "unknown option '%s' for %s", arg, cmd->name);
}

int gl_getopt(struct gl_ctx *ctx, const struct gl_cmd *cmd, int argc, char **argv, const char *shortopts,
	      const struct option *longopts)
{
	struct option all[128];
	size_t n = 0;
	for (const struct option *o = longopts; o && o->name && n < GL_ARRAY_LEN(all) - 5; o++)
		all[n++] = *o;
	all[n++] = (struct option){"db", required_argument, NULL, GL_OPT_DB};
	all[n++] = (struct option){"json", no_argument, NULL, GL_OPT_JSON};
	all[n++] = (struct option){"csv", no_argument, NULL, GL_OPT_CSV};
	all[n++] = (struct option){"help", no_argument, NULL, GL_OPT_HELP};
	all[n] = (struct option){0};

	char shorts[64];
	snprintf(shorts, sizeof shorts, ":%s", shortopts ? shortopts : "");
	opterr = 0;
	for (;;) {
		int c = getopt_long(argc, argv, shorts, all, NULL);
		switch (c) {
		case GL_OPT_DB:
			ctx->db_path = optarg;
			continue;
		case GL_OPT_JSON:
			ctx->format = GL_FMT_JSON;
			continue;
		case GL_OPT_CSV:
			ctx->format = GL_FMT_CSV;
			continue;
		case GL_OPT_HELP:
			gl_cmd_print_help(cmd, stdout);
			return 'h';
		case ':':
			gl_usage_error(ctx, cmd, "option '%s' needs a value", argv[optind - 1]);
			return '?';
		case '?': {
			char shortbad[3] = {'-', (char)optopt, '\0'};
			unknown_option(ctx, cmd, optopt ? shortbad : argv[optind - 1], longopts);
			return '?';
		}
		default:
			return c;
		}
	}
}
