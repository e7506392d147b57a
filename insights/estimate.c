/* estimate.c — a stored launch through the model (model.h), with its kernel launches summed. */
#include "estimate.h"

#include <math.h>
#include <string.h>

void gl_estimate_occ_input(const struct gl_launch_record *l, struct gl_occ_input *in)
{
	struct gl_model_in m;
	gl_model_in_of(l, &m);
	*in = m.occ;
}

static void estimate_one(const struct gl_gpu_model *g, const struct gl_launch_record *l, gl_model_fix fix,
			 const void *arg, struct gl_estimate *e)
{
	struct gl_model_in in;
	gl_model_in_of(l, &in);
	gl_model_estimate(g, &in, e);
	if (fix) {
		struct gl_estimate now = *e;
		fix(&in, &now, arg);
		gl_model_estimate(g, &in, e);
	}
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

/* A variant of several kernel launches takes the sum of its launches' times; its occupancy, bound and
 * waves are those of the launch that takes longest, its work and bytes the sum of theirs. */
static void estimate(const struct gl_gpu_model *g, const struct gl_launch_record *l, gl_model_fix fix, const void *arg,
		     struct gl_estimate *e)
{
	if (!l->nparts) {
		estimate_one(g, l, fix, arg, e);
		return;
	}
	struct gl_estimate sum = {0}, part, longest = {0};
	longest.time_us = -1;
	for (int k = 0; k < l->nparts; k++) {
		estimate_one(g, &l->parts[k], fix, arg, &part);
		sum.time_us += part.time_us;
		sum.flops += part.flops, sum.fp32_flops += part.fp32_flops, sum.tensor_flops += part.tensor_flops;
		for (int f = 0; f < GL_FLOP_KINDS; f++)
			sum.fl.kind[f] += part.fl.kind[f];
		sum.fl.cuda_core += part.fl.cuda_core, sum.fl.tensor += part.fl.tensor, sum.fl.total += part.fl.total;
		sum.fl.tensor_assumed |= part.fl.tensor_assumed;
		sum.dram_bytes += part.dram_bytes, sum.l2_bytes += part.l2_bytes, sum.l1_bytes += part.l1_bytes;
		sum.l1_wavefronts += part.l1_wavefronts;
		for (int b = 0; b < GL_BOUND_N; b++)
			sum.bound_us[b] += part.bound_us[b];
		if (part.time_us > longest.time_us)
			longest = part;
	}
	*e = longest;
	e->time_us = sum.time_us;
	e->fl = sum.fl;
	e->flops = sum.flops, e->fp32_flops = sum.fp32_flops, e->tensor_flops = sum.tensor_flops;
	e->dram_bytes = sum.dram_bytes, e->l2_bytes = sum.l2_bytes, e->l1_bytes = sum.l1_bytes;
	e->l1_wavefronts = sum.l1_wavefronts;
	memcpy(e->bound_us, sum.bound_us, sizeof e->bound_us);
	e->intensity_l1 = ratio(e->flops, e->l1_bytes);
	e->intensity_l2 = ratio(e->flops, e->l2_bytes);
	e->intensity = ratio(e->flops, e->dram_bytes);
	e->attainable_gflops = isnan(e->intensity) ? e->compute_peak_gflops
						    : fmin(e->compute_peak_gflops, e->intensity * g->dram_gbs);
}

void gl_estimate_launch(const struct gl_gpu_model *g, const struct gl_launch_record *l, struct gl_estimate *e)
{
	estimate(g, l, NULL, NULL, e);
}

double gl_estimate_fixed_us(const struct gl_gpu_model *g, const struct gl_launch_record *l, gl_model_fix fix,
			    const void *arg)
{
	struct gl_estimate e;
	estimate(g, l, fix, arg, &e);
	return e.time_us;
}
