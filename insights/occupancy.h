/* occupancy.h — theoretical occupancy by the CUDA occupancy calculator's rules (cuda_occupancy.h's
 * cudaOccMaxActiveBlocksPerMultiprocessor): warps, registers with their per-warp allocation unit and
 * sub-partition granularity, shared memory with its allocation unit and per-block reserve, and the
 * resident-block limit.  Pure: docs/insights.md restates the rules. */
#ifndef GL_OCCUPANCY_H
#define GL_OCCUPANCY_H

#include "insights/gpu_models.h"

enum gl_occ_limiter {
	GL_OCC_WARPS = 1 << 0,
	GL_OCC_REGISTERS = 1 << 1,
	GL_OCC_SHARED = 1 << 2,
	GL_OCC_BLOCKS = 1 << 3,
	GL_OCC_BARRIERS = 1 << 4,
};

struct gl_occ_input {
	int threads_per_block;
	int regs_per_thread;   /* ptxas -v; 0 when unknown (no register limit is applied) */
	int static_smem;       /* bytes per block */
	int dyn_smem;          /* bytes per block */
};

struct gl_occupancy {
	int warps_per_block;
	int regs_per_warp;     /* allocated: roundUp(R * 32, 256) */
	int smem_per_block;    /* allocated: roundUp(S + D + reserve, unit) */
	int limit_warps, limit_regs, limit_smem, limit_blocks; /* blocks per SM each resource allows */
	int blocks_per_sm;     /* the minimum; 0 means the launch cannot run on this GPU */
	int warps_per_sm, max_warps_per_sm;
	double pct;            /* 100 * warps_per_sm / max_warps_per_sm */
	unsigned limiter;      /* every gl_occ_limiter bit whose limit equals blocks_per_sm */
	const char *why_zero;  /* the reason when blocks_per_sm is 0, else NULL */
};

#define GL_OCC_UNLIMITED 1000000

void gl_occupancy_compute(const struct gl_gpu_model *g, const struct gl_occ_input *in, struct gl_occupancy *out);
/* "registers", "shared memory", "warps", "blocks", joined with " + " when several bind; into buf. */
const char *gl_occupancy_limiter_name(unsigned limiter, char *buf, size_t n);

#endif
