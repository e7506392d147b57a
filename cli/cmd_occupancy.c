/* cmd_occupancy.c — `gpulab occupancy TOPIC --variant V [--gpu G]`: a variant's theoretical occupancy by
 * the CUDA occupancy calculator's rules, with the limiter, and how it changes with the block size and
 * the registers per thread (the calculator's graphs, as text). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common/json.h"
#include "session/session.h"

static const struct gl_cmd *self(void);

static void bar(int warps, int max)
{
	int w = max ? 40 * warps / max : 0;
	printf(" |");
	for (int i = 0; i < 40; i++)
		putchar(i < w ? '#' : ' ');
	printf("| %2d/%d warps\n", warps, max);
}

/* One graph: the steps from..to, with the variant's own value among them (marked *). */
static void graph(const struct gl_gpu_model *g, const struct gl_occ_input *in, bool regs, int from, int to, int step)
{
	int own = regs ? in->regs_per_thread : in->threads_per_block;
	bool shown = false;
	for (int x = from; x <= to || !shown; x += step) {
		int v = x;
		if (!shown && own <= x) { /* the variant's own value comes in its place, then the step */
			v = own;
			shown = true;
			x -= own < x ? step : 0;
		}
		if (v > to && shown && v != own)
			break;
		struct gl_occ_input c = *in;
		*(regs ? &c.regs_per_thread : &c.threads_per_block) = v;
		struct gl_occupancy o;
		gl_occupancy_compute(g, &c, &o);
		printf("  %4d%s", v, v == own ? "*" : " ");
		bar(o.warps_per_sm, o.max_warps_per_sm);
	}
}

/* Occupancy against block size and registers per thread, as the calculator's graphs. */
static void graphs(const struct gl_gpu_model *g, const struct gl_occ_input *in)
{
	printf("\noccupancy vs threads per block (registers and shared memory as now):\n");
	graph(g, in, false, 64, g->max_threads_per_block, 64);
	printf("\noccupancy vs registers per thread (block size as now):\n");
	graph(g, in, true, 16, 240, 16);
	printf("  (* the variant's own; registers are allocated %d per warp, warps in groups of %d)\n",
	       g->reg_alloc_unit, g->warp_alloc_granularity);
}

static void show_table(const struct gl_topic *t, const struct gl_variant *v, const struct gl_gpu_model *g,
		       const struct gl_occ_input *in, const struct gl_occupancy *o)
{
	char lim[64];
	printf("%s %s on %s (cc %d.%d, %d SMs; registers and shared memory from ptxas -v for %s)\n", t->name, v->name,
	       g->full_name, g->cc_major, g->cc_minor, g->sm_count, g->arch);
	printf("  threads per block    %6d  (%d warps)\n", in->threads_per_block, o->warps_per_block);
	printf("  registers per thread %6d  (%d allocated per warp)\n", in->regs_per_thread, o->regs_per_warp);
	printf("  shared per block     %6d  (static %d + dynamic %d; %d allocated with the %d B reserve)\n",
	       in->static_smem + in->dyn_smem, in->static_smem, in->dyn_smem, o->smem_per_block,
	       g->smem_reserved_per_block);
	printf("  blocks per SM allowed by   warps %d   registers %d   shared memory %d   the SM %d\n", o->limit_warps,
	       o->limit_regs >= GL_OCC_UNLIMITED ? -1 : o->limit_regs,
	       o->limit_smem >= GL_OCC_UNLIMITED ? -1 : o->limit_smem, o->limit_blocks);
	printf("  theoretical occupancy  %d blocks, %d of %d warps per SM = %.1f%%, limited by %s\n", o->blocks_per_sm,
	       o->warps_per_sm, o->max_warps_per_sm, o->pct, gl_occupancy_limiter_name(o->limiter, lim, sizeof lim));
	if (o->why_zero)
		printf("  the launch cannot run: %s\n", o->why_zero);
}

static void show_json(const struct gl_topic *t, const struct gl_variant *v, const struct gl_gpu_model *g,
		      const struct gl_occ_input *in, const struct gl_occupancy *o)
{
	struct gl_json j;
	char lim[64];
	gl_json_init(&j, stdout);
	gl_json_begin_object(&j, NULL);
	gl_json_string(&j, "topic", t->name);
	gl_json_string(&j, "variant", v->name);
	gl_json_string(&j, "gpu", g->name);
	gl_json_int(&j, "threads_per_block", in->threads_per_block);
	gl_json_int(&j, "registers", in->regs_per_thread);
	gl_json_int(&j, "shared_bytes", in->static_smem + in->dyn_smem);
	gl_json_int(&j, "blocks_per_sm", o->blocks_per_sm);
	gl_json_int(&j, "theoretical_warps_per_sm", o->warps_per_sm);
	gl_json_number(&j, "theoretical_pct", o->pct);
	gl_json_string(&j, "limiter", gl_occupancy_limiter_name(o->limiter, lim, sizeof lim));
	gl_json_end_object(&j);
}

static int exec_occupancy(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int rc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (rc)
		return rc;
	const struct gl_topic *t;
	const struct gl_variant *v;
	const struct gl_gpu_model *g;
	const char *vname = gl_args_get(&args, "variant");
	if ((rc = gl_topic_lookup(args.pos[0], &t, &ctx->err)))
		return rc;
	if (!vname)
		return gl_usage_error(ctx, self(), "occupancy needs --variant V (one of %s's variants, see 'gpulab list %s')",
				      t->name, t->name);
	if ((rc = gl_variant_lookup(t, vname, &v, &ctx->err)) || (rc = gl_session_gpu(gl_args_get(&args, "gpu"), &g, &ctx->err)))
		return rc;
	struct gl_occ_input in;
	if ((rc = gl_session_variant_occ_input(t, v, g, &in, &ctx->err)))
		return rc;
	struct gl_occupancy o;
	gl_occupancy_compute(g, &in, &o);
	if (ctx->format == GL_FMT_JSON) {
		show_json(t, v, g, &in, &o);
		return GL_OK;
	}
	show_table(t, v, g, &in, &o);
	graphs(g, &in);
	return GL_OK;
}

static const struct gl_opt occupancy_opts[] = {
	GL_STR("variant", "V", 0, "the variant (see 'gpulab list TOPIC')"),
	GL_STR("gpu", "G", 0, "the GPU model: A100|H100|H200|L4|RTX4090|RTX3090|A6000 (default: the GPU present, else H100)"),
	{0},
};

const struct gl_cmd gl_cmd_occupancy_entry = {
	.no_formats = GL_NO_CSV,
	.complete = "topic",
	.name = "occupancy",
	.usage = "TOPIC --variant V [--gpu G] [--json]",
	.summary = "a variant's theoretical occupancy on a GPU model, its limiter, and graphs of block size and registers",
	.help = "Applies the CUDA occupancy calculator's rules (docs/insights.md) to the variant's block size at the\n"
		"topic's default sizes and to ptxas's registers and shared memory for the model's architecture.\n",
	.opts = occupancy_opts,
	.min_args = 1,
	.max_args = 1,
	.args_missing = "occupancy needs a TOPIC (see 'gpulab list')",
	.args_name = "one TOPIC",
	.exec = exec_occupancy,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_occupancy_entry;
}
