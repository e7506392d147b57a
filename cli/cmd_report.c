/* cmd_report.c — `gpulab report [RUN|last]`: show a stored run as `gpulab run` showed it, with the
 * guidance lines (WRN) that Nsight Compute's rules would give. */
#include <string.h>

#include "cli.h"
#include "common/util.h"
#include "render.h"
#include "sanitizer_opts.h"

static const struct gl_cmd *self(void);

static int exec_report(struct gl_ctx *ctx, int argc, char **argv)
{
	enum { OPT_PRINT_LIMIT = 300 };
	static const struct option opts[] = {{"print-limit", required_argument, NULL, OPT_PRINT_LIMIT}, {0}};
	int c, print_limit = GL_PRINT_LIMIT_DEFAULT;
	optind = 1;
	while ((c = gl_getopt(ctx, self(), argc, argv, "", opts)) != -1) {
		if (c == 'h')
			return 'h';
		if (c == '?' || (c == OPT_PRINT_LIMIT && gl_parse_print_limit(ctx, self(), optarg, &print_limit)))
			return ctx->err.status;
	}
	if (optind + 1 < argc)
		return gl_usage_error(ctx, self(), "report takes one RUN at most, got '%s' too", argv[optind + 1]);
	long id = 0;
	if (optind < argc && strcmp(argv[optind], "last") != 0 &&
	    gl_parse_long(argv[optind], 1, 1L << 62, "run id", &id, &ctx->err))
		return ctx->err.status;
	struct gl_store *store;
	int rc = gl_store_open(ctx->db_path, 1, &store, &ctx->err);
	if (rc)
		return rc;
	struct gl_run_record rec;
	rc = gl_store_load_run(store, id, &rec, &ctx->err);
	if (rc == GL_OK) {
		gl_render_run(stdout, &rec, ctx->format, print_limit);
		gl_run_record_free(&rec);
	}
	gl_store_close(store);
	return rc;
}

const struct gl_cmd gl_cmd_report_entry = {
	.name = "report",
	.usage = "[RUN|last] [--print-limit N] [--json|--csv]",
	.summary = "show a stored run: metrics, derived ratios and guidance",
	.help = "RUN is a run id from 'gpulab run' or 'gpulab query \"SELECT id FROM runs\"'; default: last\n"
		"  --print-limit N   distinct sanitizer findings shown per launch (default 100, 0 = all)\n",
	.exec = exec_report,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_report_entry;
}
