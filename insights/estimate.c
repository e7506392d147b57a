/* estimate.c — the first-order estimate: per-resource times at peak rates, the largest named. */
#include "estimate.h"

#include <math.h>
#include <string.h>

#include "common/metrics.h"

static double m(const struct gl_launch_record *l, const char *name)
{
	const double *v = gl_metrics_get(&l->metrics, name);
	return v ? *v : 0;
}

const char *gl_bound_name(enum gl_bound b)
{
	static const char *const names[GL_BOUND_N] = {"DRAM", "L2", "L1/shared", "FP32", "tensor", "issue"};
	return b < GL_BOUND_N ? names[b] : "?";
}

void gl_estimate_occ_input(const struct gl_launch_record *l, struct gl_occ_input *in)
{
	in->threads_per_block = (int)(l->block[0] * l->block[1] * l->block[2]);
	in->regs_per_thread = l->regs > 0 ? l->regs : 0;
	in->static_smem = l->static_smem > 0 ? l->static_smem : 0;
	in->dyn_smem = (int)l->dyn_smem;
}

/* DRAM bytes: measured on a GPU (dram__bytes_*); on the simulator, the launch's footprint (the distinct
 * sectors it loaded and stored) crosses DRAM once: inputs are not in L2 when the kernel starts and
 * outputs are written back.  Repeated traffic hits in L2 while the footprint fits in it; past that the
 * share of it the L2 cannot hold goes to DRAM again.  Without a footprint (older runs) the L2 traffic,
 * an upper bound, stands in (docs/insights.md). */
static void dram_bytes(const struct gl_gpu_model *g, const struct gl_launch_record *l, struct gl_estimate *e)
{
	const double *rd = gl_metrics_get(&l->metrics, GL_M_DRAM_RD), *wr = gl_metrics_get(&l->metrics, GL_M_DRAM_WR);
	if (rd || wr) {
		e->dram_bytes = (rd ? *rd : 0) + (wr ? *wr : 0);
		e->dram_measured = true;
		return;
	}
	double uniq = 32.0 * (m(l, GL_M_UNIQ_LD_SECT) + m(l, GL_M_UNIQ_ST_SECT));
	if (uniq <= 0) {
		e->dram_bytes = e->l2_bytes;
		return;
	}
	/* reuse beyond the first touch hits in L2 while the footprint fits; past it, the share of the
	 * repeated traffic that the L2 cannot hold goes to DRAM again */
	double repeat = e->l2_bytes > uniq ? e->l2_bytes - uniq : 0;
	double miss = uniq > g->l2_bytes ? 1.0 - g->l2_bytes / uniq : 0.0;
	e->dram_bytes = uniq + repeat * miss;
}

static void bounds(const struct gl_gpu_model *g, const struct gl_launch_record *l, struct gl_estimate *e)
{
	double clk = g->clock_mhz * 1e6, sms = g->sm_count;
	e->fp32_flops = 2 * m(l, GL_M_FFMA) + m(l, GL_M_FADD) + m(l, GL_M_FMUL);
	e->tensor_flops = 4096.0 * m(l, GL_M_HMMA); /* one HMMA.16816: 2 * 16 * 8 * 16 FLOP */
	e->flops = e->fp32_flops + e->tensor_flops;
	double sectors = m(l, GL_M_GLD_SECT) + m(l, GL_M_GST_SECT) + m(l, GL_M_GATOM_SECT) + m(l, GL_M_GRED_SECT) +
			 m(l, GL_M_LDGSTS_SECT) + m(l, GL_M_LLD_SECT) + m(l, GL_M_LST_SECT);
	e->l2_bytes = 32.0 * sectors;
	/* L1: one wavefront per shared wavefront; a global request needs at least one, and one per 128-byte
	 * line (4 sectors) it touches */
	double gwf = fmax(m(l, GL_M_GLD_REQ), m(l, GL_M_GLD_SECT) / 4) + fmax(m(l, GL_M_GST_REQ), m(l, GL_M_GST_SECT) / 4) +
		     fmax(m(l, GL_M_GATOM_REQ) + m(l, GL_M_GRED_REQ), (m(l, GL_M_GATOM_SECT) + m(l, GL_M_GRED_SECT)) / 4);
	e->l1_wavefronts = m(l, GL_M_SLD_WF) + m(l, GL_M_SST_WF) + gwf;
	dram_bytes(g, l, e);
	e->bound_us[GL_BOUND_DRAM] = e->dram_bytes / (g->dram_gbs * 1e9) * 1e6;
	e->bound_us[GL_BOUND_L2] = g->l2_bytes_per_clk > 0 ? e->l2_bytes / (g->l2_bytes_per_clk * clk) * 1e6 : NAN;
	e->bound_us[GL_BOUND_L1] = e->l1_wavefronts / (sms * clk) * 1e6;
	e->bound_us[GL_BOUND_FP32] = e->fp32_flops / (g->fp32_tflops * 1e12) * 1e6;
	e->bound_us[GL_BOUND_TENSOR] = g->tensor_tflops > 0 ? e->tensor_flops / (g->tensor_tflops * 1e12) * 1e6 : NAN;
	e->bound_us[GL_BOUND_ISSUE] = m(l, GL_M_INST) / (sms * g->issue_per_clk_sm * clk) * 1e6;
}

/* Occupancy: the memory bounds need enough warps in flight to cover latency (below
 * GL_EST_OCC_HIDE_PCT the model slows them in proportion); the pipes need one warp per scheduler. */
static double occ_factor(const struct gl_gpu_model *g, const struct gl_occupancy *o, enum gl_bound b)
{
	if (b == GL_BOUND_DRAM || b == GL_BOUND_L2 || b == GL_BOUND_L1)
		return o->pct < GL_EST_OCC_HIDE_PCT ? GL_EST_OCC_HIDE_PCT / o->pct : 1.0;
	return o->warps_per_sm < g->issue_per_clk_sm ? g->issue_per_clk_sm / o->warps_per_sm : 1.0;
}

/* Waves: a full wave holds blocks_per_sm blocks on every SM; the last, partial wave takes as long as a
 * full one.  A grid smaller than the SM count leaves SMs idle: the rates scale by the SMs it uses; a
 * grid between that and one wave keeps every SM busy. */
static void waves(const struct gl_gpu_model *g, double grid, struct gl_estimate *e)
{
	double per_wave = (double)e->occ.blocks_per_sm * g->sm_count;
	e->waves = grid / per_wave;
	if (grid < g->sm_count)
		e->wave_factor = g->sm_count / grid;
	else if (e->waves < 1)
		e->wave_factor = 1;
	else
		e->wave_factor = ceil(e->waves) / e->waves;
}

static void estimate_one(const struct gl_gpu_model *g, const struct gl_launch_record *l, struct gl_estimate *e)
{
	memset(e, 0, sizeof *e);
	e->gpu = g;
	struct gl_occ_input in;
	gl_estimate_occ_input(l, &in);
	gl_occupancy_compute(g, &in, &e->occ);
	bounds(g, l, e);
	e->intensity = e->dram_bytes > 0 ? e->flops / e->dram_bytes : NAN;
	double peak = (e->tensor_flops > 0 ? g->tensor_tflops : g->fp32_tflops) * 1e3;
	e->attainable_gflops = isnan(e->intensity) ? peak : fmin(peak, e->intensity * g->dram_gbs);
	double grid = (double)l->grid[0] * l->grid[1] * l->grid[2];
	e->time_us = NAN;
	if (e->occ.blocks_per_sm <= 0 || grid <= 0)
		return;
	waves(g, grid, e);
	double worst = -1;
	for (int b = 0; b < GL_BOUND_N; b++) {
		double t = e->bound_us[b] * occ_factor(g, &e->occ, (enum gl_bound)b);
		if (!isnan(t) && t > worst) {
			worst = t;
			e->bound = (enum gl_bound)b;
			e->occ_factor = occ_factor(g, &e->occ, (enum gl_bound)b);
		}
	}
	e->time_us = worst * e->wave_factor;
}

/* A variant of several kernel launches takes the sum of its launches' times; its occupancy, bound and
 * waves are those of the launch that takes longest, its work the sum of theirs. */
void gl_estimate_launch(const struct gl_gpu_model *g, const struct gl_launch_record *l, struct gl_estimate *e)
{
	if (!l->nparts) {
		estimate_one(g, l, e);
		return;
	}
	struct gl_estimate sum = {0}, part, longest = {0};
	longest.time_us = -1;
	for (int k = 0; k < l->nparts; k++) {
		estimate_one(g, &l->parts[k], &part);
		sum.time_us += part.time_us;
		sum.flops += part.flops, sum.fp32_flops += part.fp32_flops, sum.tensor_flops += part.tensor_flops;
		sum.dram_bytes += part.dram_bytes, sum.l2_bytes += part.l2_bytes, sum.l1_wavefronts += part.l1_wavefronts;
		for (int b = 0; b < GL_BOUND_N; b++)
			sum.bound_us[b] += part.bound_us[b];
		if (part.time_us > longest.time_us)
			longest = part;
	}
	*e = longest;
	e->time_us = sum.time_us;
	e->flops = sum.flops, e->fp32_flops = sum.fp32_flops, e->tensor_flops = sum.tensor_flops;
	e->dram_bytes = sum.dram_bytes, e->l2_bytes = sum.l2_bytes, e->l1_wavefronts = sum.l1_wavefronts;
	memcpy(e->bound_us, sum.bound_us, sizeof e->bound_us);
	e->intensity = e->dram_bytes > 0 ? e->flops / e->dram_bytes : NAN;
	double peak = (e->tensor_flops > 0 ? g->tensor_tflops : g->fp32_tflops) * 1e3;
	e->attainable_gflops = isnan(e->intensity) ? peak : fmin(peak, e->intensity * g->dram_gbs);
}
