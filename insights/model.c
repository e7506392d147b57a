/* model.c — the performance model (model.h): each resource's time at its peak rate, the time the
 * resident warps need to wait out their loads' latency, and the larger of the two. */
#include "model.h"

#include <math.h>
#include <string.h>

static double v0(const struct gl_metrics *m, const char *name)
{
	return gl_metrics_value_or(m, name, 0);
}

static double vnan(const struct gl_metrics *m, const char *name)
{
	return gl_metrics_value_or(m, name, NAN);
}

const char *gl_bound_name(enum gl_bound b)
{
	static const char *const names[GL_BOUND_N] = {"DRAM", "L2", "L1/shared", "FP32", "tensor", "issue", "latency"};
	return b < GL_BOUND_N ? names[b] : "?";
}

bool gl_bound_is_memory(enum gl_bound b)
{
	return b == GL_BOUND_DRAM || b == GL_BOUND_L2 || b == GL_BOUND_L1 || b == GL_BOUND_LATENCY;
}

/* The L1's work for global and local requests: one tag lookup per 128-byte line a request touches
 * (the simulator counts the lines; a GPU run has sectors only, and a request needs at least one). */
static double tag_lookups(const struct gl_metrics *m)
{
	double lines = v0(m, GL_M_GLD_LINES) + v0(m, GL_M_GST_LINES);
	if (!gl_metrics_get(m, GL_M_GLD_LINES))
		lines = fmax(v0(m, GL_M_GLD_REQ), v0(m, GL_M_GLD_SECT) / 4) + fmax(v0(m, GL_M_GST_REQ), v0(m, GL_M_GST_SECT) / 4);
	double atom = v0(m, GL_M_GATOM_REQ) + v0(m, GL_M_GRED_REQ), atom_sect = v0(m, GL_M_GATOM_SECT) + v0(m, GL_M_GRED_SECT);
	double local = v0(m, GL_M_LLD_REQ) + v0(m, GL_M_LST_REQ), local_sect = v0(m, GL_M_LLD_SECT) + v0(m, GL_M_LST_SECT);
	return lines + fmax(atom, atom_sect / 4) + fmax(local, local_sect / 4) +
	       fmax(v0(m, GL_M_LDGSTS_REQ), v0(m, GL_M_LDGSTS_SECT) / 4);
}

void gl_model_in_of(const struct gl_launch_record *l, struct gl_model_in *in)
{
	const struct gl_metrics *m = &l->metrics;
	memset(in, 0, sizeof *in);
	gl_flops_of(m, &in->flops);
	gl_traffic_of(m, &in->traffic);
	/* cp.async does not hold the warp: its copies overlap the work until the wait, so they are no waits */
	in->gld_requests = v0(m, GL_M_GLD_REQ) + v0(m, GL_M_LLD_REQ);
	in->gld_req = v0(m, GL_M_GLD_REQ), in->gst_req = v0(m, GL_M_GST_REQ);
	in->gld_sect = v0(m, GL_M_GLD_SECT), in->gst_sect = v0(m, GL_M_GST_SECT);
	in->gld_lines = gl_metrics_value_or(m, GL_M_GLD_LINES, fmax(in->gld_req, in->gld_sect / 4));
	in->gst_lines = gl_metrics_value_or(m, GL_M_GST_LINES, fmax(in->gst_req, in->gst_sect / 4));
	in->local_req = v0(m, GL_M_LLD_REQ) + v0(m, GL_M_LST_REQ);
	double sld = gl_metrics_shared_ld_requests(m);
	in->sld_requests = isnan(sld) ? 0 : sld;
	in->gld_sectors_ideal = vnan(m, GL_M_GLD_IDEAL);
	in->gst_sectors_ideal = vnan(m, GL_M_GST_IDEAL);
	in->tag_lookups = tag_lookups(m);
	in->shared_wf_ld = v0(m, GL_M_SLD_WF);
	in->shared_wf_st = v0(m, GL_M_SST_WF) + v0(m, GL_M_SST_LDGSTS_WF);
	in->shared_conf_ld = v0(m, GL_M_SLD_CONF);
	in->shared_conf_st = v0(m, GL_M_SST_CONF);
	in->inst = v0(m, GL_M_INST);
	in->thread_inst = v0(m, GL_M_THREAD_INST);
	const double *rd = gl_metrics_get(m, GL_M_DRAM_RD), *wr = gl_metrics_get(m, GL_M_DRAM_WR);
	in->dram_bytes_measured = rd || wr ? (rd ? *rd : 0) + (wr ? *wr : 0) : NAN;
	in->occ.threads_per_block = (int)(l->block[0] * l->block[1] * l->block[2]);
	in->occ.regs_per_thread = l->regs > 0 ? l->regs : 0;
	in->occ.static_smem = l->static_smem > 0 ? l->static_smem : 0;
	in->occ.dyn_smem = (int)l->dyn_smem;
	in->grid = (double)l->grid[0] * l->grid[1] * l->grid[2];
}

/* DRAM bytes: measured on a GPU; on the simulator the launch's footprint (the distinct sectors it
 * loaded and stored, cp.async sources included) crosses DRAM once: inputs are not in L2 when the kernel
 * starts and outputs are written back.  Traffic past the L1 beyond the footprint hits in L2 while the
 * footprint fits in it; past that, the share the L2 cannot hold goes to DRAM again.  Without a footprint
 * (older runs) the L2 traffic, an upper bound, stands in. */
static void dram_bytes(const struct gl_gpu_model *g, const struct gl_model_in *in, struct gl_estimate *e)
{
	if (!isnan(in->dram_bytes_measured)) {
		e->dram_bytes = in->dram_bytes_measured;
		e->dram_measured = true;
		return;
	}
	const struct gl_traffic *t = &in->traffic;
	double uniq = 32.0 * ((isnan(t->footprint_ld) ? 0 : t->footprint_ld) + (isnan(t->footprint_st) ? 0 : t->footprint_st));
	if (!(uniq > 0)) {
		e->dram_bytes = e->l2_bytes;
		return;
	}
	double repeat = e->l2_bytes > uniq ? e->l2_bytes - uniq : 0;
	double miss = uniq > g->l2_bytes ? 1.0 - g->l2_bytes / uniq : 0.0;
	e->dram_bytes = uniq + repeat * miss;
}

/* A rate in TFLOP/s for a FLOP count: the time in us, 0 for no FLOPs, NAN for a rate the model lacks. */
static double at_rate(double flops, double tflops)
{
	if (!(flops > 0))
		return 0;
	return tflops > 0 ? flops / (tflops * 1e12) * 1e6 : NAN;
}

/* The compute bounds: each kind of FLOP at its own peak.  FP16 on the CUDA cores runs packed, twice the
 * FP32 rate; FP64 without a published rate takes GeForce's 1/64 of FP32.  The tensor kinds share the
 * tensor cores, so their times add. */
static void compute_bounds(const struct gl_gpu_model *g, const struct gl_flops *f, struct gl_estimate *e)
{
	double fp64 = g->fp64_tflops > 0 ? g->fp64_tflops : g->fp32_tflops / 64;
	e->bound_us[GL_BOUND_FP32] = at_rate(f->kind[GL_FLOP_FP32], g->fp32_tflops) +
				     at_rate(f->kind[GL_FLOP_FP16], 2 * g->fp32_tflops) + at_rate(f->kind[GL_FLOP_FP64], fp64);
	double dmma = g->fp64_tensor_tflops > 0 ? g->fp64_tensor_tflops : fp64;
	e->bound_us[GL_BOUND_TENSOR] = at_rate(f->kind[GL_FLOP_TC_FP16] + f->kind[GL_FLOP_TC_BF16], g->tensor_tflops) +
				       at_rate(f->kind[GL_FLOP_TC_TF32], g->tf32_tflops) +
				       at_rate(f->kind[GL_FLOP_TC_INT8], g->int8_tops) +
				       at_rate(f->kind[GL_FLOP_TC_FP64], dmma);
	double t = 0;
	if (!isnan(e->bound_us[GL_BOUND_FP32]))
		t += e->bound_us[GL_BOUND_FP32];
	if (!isnan(e->bound_us[GL_BOUND_TENSOR]))
		t += e->bound_us[GL_BOUND_TENSOR];
	e->compute_peak_gflops = t > 0 ? f->total / t / 1e3 : g->fp32_tflops * 1e3;
}

/* Waves: a full wave holds blocks_per_sm blocks on every SM; the last, partial wave takes as long as a
 * full one.  A grid smaller than the SM count leaves SMs idle: the rates scale by the SMs it uses. */
static void waves(const struct gl_gpu_model *g, const struct gl_model_in *in, struct gl_estimate *e)
{
	double per_wave = (double)e->occ.blocks_per_sm * g->sm_count;
	e->waves = in->grid / per_wave;
	if (in->no_tail)
		e->wave_factor = 1;
	else if (in->grid < g->sm_count)
		e->wave_factor = g->sm_count / in->grid;
	else if (e->waves < 1)
		e->wave_factor = 1;
	else
		e->wave_factor = ceil(e->waves) / e->waves;
}

/* Latency (Little's law): a warp waits out each load before it can use it, so an SM with W resident
 * warps completes at most W loads per load latency.  The latency of a global load is that of where its
 * sectors hit: the L1 (the simulator's L1 model), else the L2, else DRAM (the DRAM model's share of the
 * L2 traffic).  One load in flight per warp is the conservative case; a warp that issues independent
 * loads back to back does better (docs/insights.md). */
static void latency_bound(const struct gl_gpu_model *g, const struct gl_model_in *in, struct gl_estimate *e)
{
	double sms_used = fmin(g->sm_count, in->grid);
	double warps = in->occ_warps_override > 0 ? in->occ_warps_override : e->occ.warps_per_sm;
	double per_block = ceil(in->occ.threads_per_block / 32.0);
	e->warps_in_flight = fmin(warps, ceil(in->grid / g->sm_count) * per_block);
	const struct gl_traffic *t = &in->traffic;
	double ld_l2 = t->l2_bytes / 32 - t->st_sectors - t->atom_sectors - t->local_sectors; /* load sectors past L1 */
	double hit_l1 = t->l1_modelled && t->ld_sectors > 0 ? 1 - ld_l2 / t->ld_sectors : 0;
	hit_l1 = fmin(fmax(hit_l1, 0), 1);
	/* the loads' share of DRAM: their footprint once, their repeats past the L2's capacity again (as the
	 * DRAM model charges them); stores never hold a warp */
	double to_dram = e->l2_bytes > 0 ? e->dram_bytes / e->l2_bytes : 1;
	if (!e->dram_measured && !isnan(t->footprint_ld) && ld_l2 > 0) {
		double uniq = (isnan(t->footprint_ld) ? 0 : t->footprint_ld) + (isnan(t->footprint_st) ? 0 : t->footprint_st);
		double miss = 32 * uniq > g->l2_bytes ? 1.0 - g->l2_bytes / (32 * uniq) : 0.0;
		double repeat = ld_l2 > t->footprint_ld ? ld_l2 - t->footprint_ld : 0;
		to_dram = (fmin(t->footprint_ld, ld_l2) + repeat * miss) / ld_l2;
	}
	to_dram = fmin(fmax(to_dram, 0), 1);
	e->load_latency_clk = hit_l1 * GL_LAT_L1 + (1 - hit_l1) * ((1 - to_dram) * GL_LAT_L2 + to_dram * GL_LAT_DRAM);
	double clk = g->clock_mhz * 1e6;
	double waits = in->gld_requests * e->load_latency_clk + in->sld_requests * GL_LAT_SHARED;
	e->bound_us[GL_BOUND_LATENCY] =
	    e->warps_in_flight > 0 && sms_used > 0 ? waits / sms_used / e->warps_in_flight / clk * 1e6 : NAN;
}

static void bounds(const struct gl_gpu_model *g, const struct gl_model_in *in, struct gl_estimate *e)
{
	double clk = g->clock_mhz * 1e6, sms = g->sm_count;
	e->l1_bytes = in->traffic.l1_bytes;
	e->l2_bytes = in->traffic.l2_bytes;
	e->l1_wavefronts = in->shared_wf_ld + in->shared_wf_st + in->tag_lookups;
	dram_bytes(g, in, e);
	e->bound_us[GL_BOUND_DRAM] = e->dram_bytes / (g->dram_gbs * 1e9) * 1e6;
	e->bound_us[GL_BOUND_L2] = g->l2_bytes_per_clk > 0 ? e->l2_bytes / (g->l2_bytes_per_clk * clk) * 1e6 : NAN;
	e->bound_us[GL_BOUND_L1] = e->l1_wavefronts / (sms * clk) * 1e6;
	compute_bounds(g, &in->flops, e);
	e->bound_us[GL_BOUND_ISSUE] = in->inst / (sms * g->issue_per_clk_sm * clk) * 1e6;
	latency_bound(g, in, e);
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

void gl_model_estimate(const struct gl_gpu_model *g, const struct gl_model_in *in, struct gl_estimate *e)
{
	memset(e, 0, sizeof *e);
	e->gpu = g;
	gl_occupancy_compute(g, &in->occ, &e->occ);
	e->fl = in->flops;
	e->flops = in->flops.total;
	e->fp32_flops = in->flops.cuda_core;
	e->tensor_flops = in->flops.tensor;
	bounds(g, in, e);
	e->intensity_l1 = ratio(e->flops, e->l1_bytes);
	e->intensity_l2 = ratio(e->flops, e->l2_bytes);
	e->intensity = ratio(e->flops, e->dram_bytes);
	e->attainable_gflops = isnan(e->intensity) ? e->compute_peak_gflops
						    : fmin(e->compute_peak_gflops, e->intensity * g->dram_gbs);
	e->time_us = NAN;
	if (e->occ.blocks_per_sm <= 0 || in->grid <= 0)
		return;
	waves(g, in, e);
	double worst = -1;
	for (int b = 0; b < GL_BOUND_N; b++) {
		double t = e->bound_us[b] * (b == GL_BOUND_LATENCY ? 1 : e->wave_factor);
		if (!isnan(t) && t > worst) {
			worst = t;
			e->bound = (enum gl_bound)b;
		}
	}
	e->time_us = worst;
}
