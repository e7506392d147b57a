/* estimate.h — a first-order time estimate of a launch on a GPU model, and its roofline coordinates.
 * The time is the largest of the times each resource needs at its peak rate (DRAM bytes, L2 sectors,
 * L1/shared wavefronts, FP32 and tensor FLOPs, issued warp instructions), stretched by the partial last
 * wave and by occupancy too low to hide latency.  It is a model, always shown as "estimate (model)";
 * docs/insights.md says what it ignores. */
#ifndef GL_ESTIMATE_H
#define GL_ESTIMATE_H

#include "insights/gpu_models.h"
#include "insights/occupancy.h"
#include "common/record.h"

enum gl_bound { GL_BOUND_DRAM, GL_BOUND_L2, GL_BOUND_L1, GL_BOUND_FP32, GL_BOUND_TENSOR, GL_BOUND_ISSUE, GL_BOUND_N };

/* Below this theoretical occupancy (percent) the model assumes memory latency is no longer hidden and
 * the memory bounds slow in proportion (docs/insights.md: a stated assumption, not a measurement). */
#define GL_EST_OCC_HIDE_PCT 50.0

struct gl_estimate {
	const struct gl_gpu_model *gpu;
	struct gl_occupancy occ;
	double bound_us[GL_BOUND_N];  /* each resource's time at its peak rate; NAN when the GPU's rate is unknown */
	enum gl_bound bound;          /* the largest */
	double waves, wave_factor;    /* grid / (blocks per SM * SMs); ceil(waves) / waves */
	double occ_factor;            /* >= 1: the dominating bound's slowdown for low occupancy */
	double time_us;               /* max(bound_us * its occupancy factor) * wave_factor; NAN when it cannot run */
	double flops, fp32_flops, tensor_flops;
	double dram_bytes;            /* measured (dram__bytes_*) or modelled (docs/insights.md) */
	bool dram_measured;
	double l2_bytes, l1_wavefronts;
	double intensity;             /* FLOP per DRAM byte */
	double attainable_gflops;     /* the roofline at that intensity */
};

/* The launch's occupancy input (block size, registers, shared memory) from its record. */
void gl_estimate_occ_input(const struct gl_launch_record *l, struct gl_occ_input *in);
void gl_estimate_launch(const struct gl_gpu_model *g, const struct gl_launch_record *l, struct gl_estimate *out);
const char *gl_bound_name(enum gl_bound b);

#endif
