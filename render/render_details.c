/* render_details.c — `gpulab report RUN --details`: per launch, sections like Nsight Compute's details
 * page: launch, memory, compute, occupancy, roofline and estimate, guidance. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/csv.h"
#include "common/derived.h"
#include "common/metrics.h"
#include "render/render.h"

static double mv(const struct gl_launch_record *l, const char *name)
{
	const double *v = gl_metrics_get(&l->metrics, name);
	return v ? *v : NAN;
}

static void row(FILE *out, const char *name, double v, const char *unit)
{
	if (isnan(v))
		fprintf(out, "    %-38s %16s\n", name, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(out, "    %-38s %16.0f %s\n", name, v, unit);
	else
		fprintf(out, "    %-38s %16.3f %s\n", name, v, unit);
}

static double per(double a, double b)
{
	return isnan(a) || isnan(b) || b == 0 ? NAN : a / b;
}

static void section_launch(FILE *out, const struct gl_launch_record *l)
{
	fprintf(out, "  Launch\n");
	fprintf(out, "    %-38s %16s\n", "grid", "");
	unsigned long long blocks = (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2];
	unsigned threads = l->block[0] * l->block[1] * l->block[2];
	fprintf(out, "      %u x %u x %u, block %u x %u x %u: %llu block%s of %u thread%s\n", l->grid[0], l->grid[1],
		l->grid[2], l->block[0], l->block[1], l->block[2], blocks, blocks == 1 ? "" : "s", threads,
		threads == 1 ? "" : "s");
	row(out, "registers per thread", l->regs >= 0 ? l->regs : NAN, "");
	row(out, "shared memory per block (static)", l->static_smem >= 0 ? l->static_smem : NAN, "B");
	row(out, "shared memory per block (dynamic)", l->dyn_smem, "B");
}

static void section_memory(FILE *out, const struct gl_launch_record *l)
{
	struct gl_traffic t;
	gl_traffic_of(&l->metrics, &t);
	fprintf(out, "  Memory\n");
	row(out, "global load requests", mv(l, GL_M_GLD_REQ), "");
	row(out, "global load sectors per request", per(mv(l, GL_M_GLD_SECT), mv(l, GL_M_GLD_REQ)), "");
	row(out, "  ideal for the access width", per(mv(l, GL_M_GLD_IDEAL), mv(l, GL_M_GLD_REQ)), "");
	row(out, "global store requests", mv(l, GL_M_GST_REQ), "");
	row(out, "global store sectors per request", per(mv(l, GL_M_GST_SECT), mv(l, GL_M_GST_REQ)), "");
	row(out, "  ideal for the access width", per(mv(l, GL_M_GST_IDEAL), mv(l, GL_M_GST_REQ)), "");
	row(out, "cp.async (LDGSTS) requests", mv(l, GL_M_LDGSTS_REQ), "");
	row(out, "cp.async (LDGSTS) sectors", mv(l, GL_M_LDGSTS_SECT), "");
	row(out, "load sectors (ld.global + cp.async)", t.ld_sectors, "");
	row(out, "distinct sectors loaded / stored", t.footprint_ld, "");
	row(out, "", t.footprint_st, "");
	row(out, "L1 bytes (sectors + shared wavefronts)", t.l1_bytes, "B");
	row(out, t.l1_modelled ? "L2 bytes (L1 misses by the L1 model)" : "L2 bytes (every sector)", t.l2_bytes, "B");
	row(out, "shared load wavefronts per instruction", per(mv(l, GL_M_SLD_WF), mv(l, GL_M_SLD_INST)), "");
	row(out, "shared store wavefronts per instruction", per(mv(l, GL_M_SST_WF), mv(l, GL_M_SST_INST)), "");
	row(out, "shared bank conflicts (loads)", mv(l, GL_M_SLD_CONF), "");
	row(out, "shared bank conflicts (stores)", mv(l, GL_M_SST_CONF), "");
	double lreq = mv(l, GL_M_LLD_REQ), sreq = mv(l, GL_M_LST_REQ);
	row(out, "local memory requests", isnan(lreq) && isnan(sreq) ? 0 : (isnan(lreq) ? 0 : lreq) + (isnan(sreq) ? 0 : sreq),
	    "");
	double atom = mv(l, GL_M_GATOM_REQ), red = mv(l, GL_M_GRED_REQ);
	row(out, "global atomic requests (atom + red)", (isnan(atom) ? 0 : atom) + (isnan(red) ? 0 : red), "");
}

static void section_compute(FILE *out, const struct gl_launch_record *l, const struct gl_estimate *e)
{
	fprintf(out, "  Compute\n");
	row(out, "warp instructions executed", mv(l, GL_M_INST), "");
	row(out, "active threads per warp instruction", mv(l, GL_M_THREADS_PER_INST), "of 32");
	for (int k = 0; k < GL_FLOP_KINDS; k++)
		if (k == GL_FLOP_FP32 || e->fl.kind[k] > 0) {
			char name[64];
			snprintf(name, sizeof name, "%s FLOPs%s", gl_flop_kind_label((enum gl_flop_kind)k),
				 k == GL_FLOP_TC_FP16 && e->fl.tensor_assumed ? " (HMMA x 4096)" : "");
			row(out, name, e->fl.kind[k], "");
		}
	row(out, "FLOPs in all", e->flops, "");
	row(out, "FFMA / FADD / FMUL thread instructions", mv(l, GL_M_FFMA), "");
	row(out, "", mv(l, GL_M_FADD), "");
	row(out, "", mv(l, GL_M_FMUL), "");
}

static void section_occupancy(FILE *out, const struct gl_estimate *e)
{
	const struct gl_occupancy *o = &e->occ;
	char lim[64];
	fprintf(out, "  Occupancy (%s, the calculator's rules)\n", e->gpu->name);
	row(out, "blocks per SM: by warps", o->limit_warps, "");
	row(out, "  by registers", o->limit_regs >= GL_OCC_UNLIMITED ? NAN : o->limit_regs, "");
	row(out, "  by shared memory", o->limit_smem >= GL_OCC_UNLIMITED ? NAN : o->limit_smem, "");
	row(out, "  by the SM's block limit", o->limit_blocks, "");
	row(out, "theoretical warps per SM", o->warps_per_sm, "");
	row(out, "theoretical occupancy", o->pct, "%");
	fprintf(out, "    %-38s %16s\n", "limiter", gl_occupancy_limiter_name(o->limiter, lim, sizeof lim));
}

static void section_estimate(FILE *out, const struct gl_estimate *e)
{
	static const char *const names[GL_BOUND_N] = {"DRAM bytes at peak bandwidth", "L2 bytes at peak bandwidth",
						      "L1/shared wavefronts, 1 per clock per SM",
						      "CUDA-core FLOPs at peak", "tensor FLOPs at peak",
						      "warp instructions issued", "load latency over resident warps"};
	fprintf(out, "  Roofline and estimate (model) on %s\n", e->gpu->full_name);
	row(out, e->dram_measured ? "DRAM bytes (measured)" : "DRAM bytes (model: the footprint)", e->dram_bytes, "B");
	row(out, "arithmetic intensity: L1", e->intensity_l1, "FLOP/B");
	row(out, "  L2", e->intensity_l2, "FLOP/B");
	row(out, "  DRAM", e->intensity, "FLOP/B");
	row(out, "DRAM roofline at that intensity", e->attainable_gflops, "GFLOP/s");
	for (int b = 0; b < GL_BOUND_N; b++)
		row(out, names[b], e->bound_us[b], "us");
	row(out, "waves", e->waves, "");
	row(out, "wave factor (partial last wave)", e->wave_factor, "x");
	row(out, "warps in flight per SM", e->warps_in_flight, "");
	row(out, "average load latency", e->load_latency_clk, "clk");
	fprintf(out, "    %-38s %16.3f us  (%s-bound)\n", "estimate (model)", e->time_us, gl_bound_name(e->bound));
}

void gl_render_details(FILE *out, const struct gl_run_record *r, const struct gl_gpu_model *g)
{
	fprintf(out, "run %ld  %s  backend %s  %s  (estimates for %s)\n", r->id, r->started_at, r->info.backend,
		r->info.device, g->name);
	for (size_t i = 0; i < r->nlaunches; i++) {
		const struct gl_launch_record *l = &r->launches[i];
		struct gl_estimate e;
		gl_estimate_launch(g, l, &e);
		fprintf(out, "\n%s %s  %s  verified %s\n", l->topic, l->variant, l->params_json ? l->params_json : "{}",
			gl_render_verdict(l->verified));
		section_launch(out, l);
		section_memory(out, l);
		section_compute(out, l, &e);
		section_occupancy(out, &e);
		section_estimate(out, &e);
		if (!isnan(l->duration_ns))
			fprintf(out, "    %-38s %16.3f us\n", "measured", l->duration_ns / 1000);
		fprintf(out, "  Guidance%s\n", l->nguidance ? "" : ": none stored");
		gl_render_guidance(out, l);
		if (l->note[0])
			fprintf(out, "  note: %s\n", l->note);
	}
}

static void csv_num(FILE *out, double v)
{
	fputc(',', out);
	gl_csv_number(out, v);
}

/* `report --details --csv`: one row per launch with the sections' figures and the rules that fired. */
void gl_render_details_csv(FILE *out, const struct gl_run_record *r, const struct gl_gpu_model *g)
{
	fputs("run_id,topic,variant,grid,block,registers,shared_bytes,gld_sectors_per_request,gld_ideal_per_request,"
	      "gst_sectors_per_request,gst_ideal_per_request,threads_per_instruction,flops,tensor_flops,gpu,blocks_per_sm,"
	      "theoretical_warps_per_sm,theoretical_pct,limiter,dram_bytes,intensity,intensity_l2,intensity_l1,"
	      "estimate_us,bound,measured_us,guidance\n",
	      out);
	for (size_t i = 0; i < r->nlaunches; i++) {
		const struct gl_launch_record *l = &r->launches[i];
		struct gl_estimate e;
		char buf[128], lim[64];
		gl_estimate_launch(g, l, &e);
		fprintf(out, "%ld,%s,%s,%u:%u:%u,%u:%u:%u", r->id, l->topic, l->variant, l->grid[0], l->grid[1], l->grid[2],
			l->block[0], l->block[1], l->block[2]);
		csv_num(out, l->regs >= 0 ? l->regs : NAN);
		csv_num(out, l->static_smem >= 0 ? (double)l->static_smem + l->dyn_smem : NAN);
		csv_num(out, per(mv(l, GL_M_GLD_SECT), mv(l, GL_M_GLD_REQ)));
		csv_num(out, per(mv(l, GL_M_GLD_IDEAL), mv(l, GL_M_GLD_REQ)));
		csv_num(out, per(mv(l, GL_M_GST_SECT), mv(l, GL_M_GST_REQ)));
		csv_num(out, per(mv(l, GL_M_GST_IDEAL), mv(l, GL_M_GST_REQ)));
		csv_num(out, mv(l, GL_M_THREADS_PER_INST));
		csv_num(out, e.flops);
		csv_num(out, e.tensor_flops);
		fprintf(out, ",%s,%d,%d", g->name, e.occ.blocks_per_sm, e.occ.warps_per_sm);
		csv_num(out, e.occ.pct);
		fputc(',', out);
		gl_csv_field(out, gl_occupancy_limiter_name(e.occ.limiter, lim, sizeof lim));
		csv_num(out, e.dram_bytes);
		csv_num(out, e.intensity);
		csv_num(out, e.intensity_l2);
		csv_num(out, e.intensity_l1);
		csv_num(out, e.time_us);
		fprintf(out, ",%s", gl_bound_name(e.bound));
		csv_num(out, l->duration_ns / 1000);
		fputc(',', out);
		size_t at = 0;
		buf[0] = '\0';
		for (int k = 0; k < l->nguidance && at < sizeof buf; k++) {
			int w = snprintf(buf + at, sizeof buf - at, "%s%s", k ? " " : "", l->guidance[k].rule);
			at += w > 0 ? (size_t)w : 0;
		}
		gl_csv_field(out, buf);
		fputc('\n', out);
	}
}
