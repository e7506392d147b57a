/* cmd_plot.c — `gpulab plot roofline [--run N] [--gpu G] [--svg FILE]` and `gpulab plot compare TOPIC
 * [--run N] [--gpu G] [--svg FILE]`: a stored run as a roofline or as bars per metric per variant, in
 * the terminal or as a self-contained SVG. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/metrics.h"
#include "common/util.h"
#include "render/render.h"
#include "insights/plot.h"
#include "kernels/registry.h"

static const struct gl_cmd *self(void);

static void roofline_points(const struct gl_run_record *r, const struct gl_gpu_model *g, bool same_gpu,
			    struct gl_plot_point *p)
{
	for (size_t i = 0; i < r->nlaunches; i++) {
		const struct gl_launch_record *l = &r->launches[i];
		struct gl_estimate e;
		gl_estimate_launch(g, l, &e);
		snprintf(p[i].label, sizeof p[i].label, "%s %s", l->topic, l->variant);
		p[i].measured = same_gpu && !isnan(l->duration_ns) && l->duration_ns > 0;
		double us = p[i].measured ? l->duration_ns / 1000 : e.time_us;
		p[i].intensity[GL_ROOF_L1] = e.intensity_l1;
		p[i].intensity[GL_ROOF_L2] = e.intensity_l2;
		p[i].intensity[GL_ROOF_DRAM] = e.intensity;
		p[i].gflops = us > 0 ? e.flops / us / 1e3 : NAN;
	}
}

static int open_svg(struct gl_ctx *ctx, const char *path, FILE **out)
{
	*out = fopen(path, "w");
	if (!*out)
		return gl_errf(&ctx->err, GL_EUSAGE, "cannot write --svg %s: %s", path, strerror(errno));
	return GL_OK;
}

static int close_svg(struct gl_ctx *ctx, const char *path, FILE *f)
{
	if (fclose(f) != 0)
		return gl_errf(&ctx->err, GL_EENV, "writing %s failed: %s", path, strerror(errno));
	fprintf(stderr, "gpulab: wrote %s\n", path);
	return GL_OK;
}

static int plot_roofline(struct gl_ctx *ctx, const struct gl_run_record *r, const struct gl_gpu_model *g,
			 bool same_gpu, const char *svg)
{
	struct gl_plot_point *p = gl_xcalloc(r->nlaunches ? r->nlaunches : 1, sizeof *p);
	roofline_points(r, g, same_gpu, p);
	int rc = GL_OK;
	if (svg) {
		FILE *f;
		char title[160];
		snprintf(title, sizeof title, "run %ld %s on %s: roofline", r->id, r->nlaunches ? r->launches[0].topic : "",
			 g->full_name);
		if ((rc = open_svg(ctx, svg, &f)) == GL_OK) {
			gl_plot_roofline_svg(f, g, p, (int)r->nlaunches, title);
			rc = close_svg(ctx, svg, f);
		}
	} else {
		gl_plot_roofline_text(stdout, g, p, (int)r->nlaunches);
	}
	free(p);
	return rc;
}

enum { B_LD, B_ST, B_SWF, B_CONF, B_FLOPS, B_TIME, B_N };

static int plot_compare(struct gl_ctx *ctx, const struct gl_run_record *r, const struct gl_gpu_model *g, const char *svg)
{
	char time_name[64];
	snprintf(time_name, sizeof time_name, "estimate (model) on %s, us", g->name);
	const char *metrics[B_N] = {"global load sectors", "global store sectors", "shared wavefronts (loads + stores)",
				    "bank conflicts (loads + stores)", "FLOPs (CUDA and tensor cores)", time_name};
	size_t n = r->nlaunches;
	const char **series = gl_xcalloc(n, sizeof *series);
	double *values = gl_xcalloc(n * B_N, sizeof *values);
	for (size_t s = 0; s < n; s++) {
		struct gl_cmp_row row;
		struct gl_estimate e;
		gl_cmp_row_from(&r->launches[s], &row);
		gl_estimate_launch(g, &r->launches[s], &e);
		series[s] = r->launches[s].variant;
		double v[B_N] = {row.v[GL_CMP_LD], row.v[GL_CMP_ST], row.v[GL_CMP_SWF], row.v[GL_CMP_CONF],
				 row.v[GL_CMP_FLOPS], e.time_us};
		for (int m = 0; m < B_N; m++)
			values[m * n + s] = v[m];
	}
	char title[160];
	snprintf(title, sizeof title, "run %ld: %s %s", r->id, r->launches[0].topic,
		 r->launches[0].params_json ? r->launches[0].params_json : "");
	struct gl_plot_bars b = {title, series, (int)n, metrics, B_N, values};
	int rc = GL_OK;
	if (svg) {
		FILE *f;
		if ((rc = open_svg(ctx, svg, &f)) == GL_OK) {
			gl_plot_bars_svg(f, &b);
			rc = close_svg(ctx, svg, f);
		}
	} else {
		gl_plot_bars_text(stdout, &b);
	}
	free(series);
	free(values);
	return rc;
}

/* The run to plot: --run N, else for compare the latest run of TOPIC, else the latest run. */
static int pick_run(struct gl_ctx *ctx, struct gl_store *store, const struct gl_args *args, const char *topic, long *id)
{
	const char *run = gl_args_get(args, "run");
	*id = 0;
	if (run)
		return gl_parse_long(run, 1, 1L << 62, "--run", id, &ctx->err) ? ctx->err.status : GL_OK;
	if (!topic)
		return GL_OK;
	struct gl_run_row *rows;
	size_t n;
	int rc = gl_store_list_runs(store, topic, 1, &rows, &n, &ctx->err);
	if (rc)
		return rc;
	*id = n ? rows[0].id : -1;
	free(rows);
	if (*id < 0)
		return gl_errf(&ctx->err, GL_EUSAGE, "no stored run of topic %s: 'gpulab run %s' stores one", topic, topic);
	return GL_OK;
}

static int exec_plot(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int rc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (rc)
		return rc;
	const char *what = args.pos[0];
	bool roof = strcmp(what, "roofline") == 0, cmp = strcmp(what, "compare") == 0;
	if (!roof && !cmp)
		return gl_usage_error(ctx, self(), "unknown plot '%s' (plots: roofline, compare)", what);
	if (roof && args.npos > 1)
		return gl_usage_error(ctx, self(), "plot roofline takes no TOPIC (it plots a run: --run N)");
	if (cmp && args.npos < 2)
		return gl_usage_error(ctx, self(), "plot compare needs a TOPIC (see 'gpulab list')");
	const struct gl_topic *t = NULL;
	if (cmp && (rc = gl_topic_lookup(args.pos[1], &t, &ctx->err)))
		return rc;
	const char *gpu = gl_args_get(&args, "gpu");
	const struct gl_gpu_model *g = NULL;
	if (gpu && (rc = gl_gpu_model_lookup(gpu, &g, &ctx->err)))
		return rc;
	struct gl_store *store;
	if ((rc = gl_store_open(ctx->db_path, 1, &store, &ctx->err)))
		return rc;
	long id;
	struct gl_run_record rec;
	rc = pick_run(ctx, store, &args, t ? t->name : NULL, &id);
	if (rc == GL_OK)
		rc = gl_store_load_run(store, id, &rec, &ctx->err);
	gl_store_close(store);
	if (rc)
		return rc;
	const struct gl_gpu_model *own = gl_render_gpu_of(&rec);
	if (rec.nlaunches == 0)
		rc = gl_errf(&ctx->err, GL_EUSAGE, "run %ld has no launches to plot", rec.id);
	else if (roof)
		rc = plot_roofline(ctx, &rec, g ? g : own, (!g || g == own) && strcmp(rec.info.backend, "cuda") == 0,
				   gl_args_get(&args, "svg"));
	else
		rc = plot_compare(ctx, &rec, g ? g : own, gl_args_get(&args, "svg"));
	gl_run_record_free(&rec);
	return rc;
}

static const struct gl_opt plot_opts[] = {
	GL_STR("run", "N", 0, "the stored run (default: the latest; for compare, the latest of TOPIC)"),
	GL_STR("gpu", "G", 0, "GPU model of the ceilings and estimates (default: the run's GPU, else H100)"),
	GL_STR("svg", "FILE", 0, "write a self-contained SVG to FILE instead of drawing in the terminal"),
	{0},
};

static const char *const plot_kinds[] = {"roofline", "compare", NULL};

const struct gl_cmd gl_cmd_plot_entry = {
	.subcommands = plot_kinds,
	.complete = "topic",
	.no_formats = GL_TEXT_ONLY,
	.name = "plot",
	.usage = "roofline|compare [TOPIC] [--run N] [--gpu G] [--svg FILE]",
	.summary = "a stored run as a roofline, or as bars per metric per variant (terminal or SVG)",
	.help = "plot roofline: the hierarchical roofline as Nsight Compute draws it: every launch of the run at\n"
		"its FLOPs (CUDA and tensor cores) per L1, L2 and DRAM byte, three points at one GFLOP/s, under the\n"
		"GPU model's L1, L2 and DRAM roofs and its FP32, FP16/BF16, TF32 and INT8 tensor ceilings; the time\n"
		"is measured on a GPU run of that model, else the estimate (model), and each point says which.\n"
		"Launches without FLOPs are listed, not placed.\n"
		"plot compare TOPIC: per metric, one bar per variant of the latest run of TOPIC (or --run N).\n",
	.opts = plot_opts,
	.min_args = 1,
	.max_args = 2,
	.args_missing = "plot needs what to plot: roofline or compare TOPIC",
	.args_name = "a plot name and, for compare, a TOPIC",
	.exec = exec_plot,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_plot_entry;
}
