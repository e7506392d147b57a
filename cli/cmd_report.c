/* cmd_report.c — `gpulab report [RUN|last]`: show a stored run as `gpulab run` showed it, with the
 * guidance lines (WRN) that Nsight Compute's rules would give. */
#include <string.h>

#include "cli.h"
#include "common/util.h"
#include "render/render.h"
#include "sanitizer_opts.h"

static const struct gl_cmd *self(void);

static int exec_report(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int print_limit = GL_PRINT_LIMIT_DEFAULT;
	int prc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (prc)
		return prc;
	const char *limit = gl_args_get(&args, "print-limit");
	if (limit && gl_parse_print_limit(ctx, self(), limit, &print_limit))
		return ctx->err.status;
	long id = 0;
	if (args.npos && strcmp(args.pos[0], "last") != 0 &&
	    gl_parse_long(args.pos[0], 1, 1L << 62, "run id", &id, &ctx->err))
		return ctx->err.status;
	struct gl_store *store;
	int rc = gl_store_open(ctx->db_path, 1, &store, &ctx->err);
	if (rc)
		return rc;
	struct gl_run_record rec;
	const char *gpu = gl_args_get(&args, "gpu");
	const struct gl_gpu_model *g = NULL;
	rc = gpu ? gl_gpu_model_lookup(gpu, &g, &ctx->err) : GL_OK;
	if (rc == GL_OK)
		rc = gl_store_load_run(store, id, &rec, &ctx->err);
	if (rc == GL_OK) {
		bool details = gl_args_has(&args, "details");
		if (details && ctx->format == GL_FMT_TABLE)
			gl_render_details(stdout, &rec, g ? g : gl_render_gpu_of(&rec));
		else if (details && ctx->format == GL_FMT_CSV)
			gl_render_details_csv(stdout, &rec, g ? g : gl_render_gpu_of(&rec));
		else
			gl_render_run_gpu(stdout, &rec, ctx->format, print_limit, g);
		gl_run_record_free(&rec);
	}
	gl_store_close(store);
	return rc;
}

static const struct gl_opt report_opts[] = {
	GL_STR("print-limit", "N", 0, "distinct sanitizer findings shown per launch (default 100, 0 = all)"),
	GL_FLAG("details", 0, "per launch: launch, memory, compute, occupancy, roofline and estimate, guidance"),
	GL_STR("gpu", "G", 0, "GPU model of the occupancy and estimate (default: the run's GPU, else H100)"),
	{0},
};

const struct gl_cmd gl_cmd_report_entry = {
	.name = "report",
	.usage = "[RUN|last] [--details] [--gpu G] [--print-limit N] [--json|--csv]",
	.summary = "show a stored run: metrics, derived ratios and guidance",
	.help = "RUN is a run id from 'gpulab run' or 'gpulab query \"SELECT id FROM runs\"'; default: last\n",
	.opts = report_opts,
	.max_args = 1,
	.args_name = "one RUN at most",
	.exec = exec_report,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_report_entry;
}
