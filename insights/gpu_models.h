/* gpu_models.h — the GPU models gpulab can reason about without owning one: per compute capability the
 * occupancy calculator's limits and allocation granularities, per GPU the SM count, clocks and peak
 * rates a first-order time estimate needs.  Sources: docs/insights.md. */
#ifndef GL_GPU_MODELS_H
#define GL_GPU_MODELS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"

struct gl_gpu_model {
	const char *name;           /* "H100": what --gpu takes (case-insensitive) */
	const char *full_name;      /* "H100 SXM5 80GB" */
	const char *match;          /* substring of a device name that means this model ("H100") */
	int cc_major, cc_minor;
	const char *arch;           /* ptxas arch whose resource usage gpulab has for it: "sm_80", "sm_90" */
	/* occupancy limits (cuda_occupancy.h's cudaOccDeviceProp and per-cc constants) */
	int sm_count;
	int max_threads_per_block, max_threads_per_sm, max_blocks_per_sm;
	int regs_per_sm, regs_per_block, max_regs_per_thread;
	int reg_alloc_unit;         /* registers, allocated per warp */
	int warp_alloc_granularity; /* register-limited warps come in multiples of this (sub-partitions) */
	int smem_per_sm;            /* bytes, the largest carveout */
	int smem_per_block;         /* bytes without opt-in (48 KB) */
	int smem_per_block_optin;   /* bytes with cudaFuncAttributeMaxDynamicSharedMemorySize */
	int smem_reserved_per_block;/* bytes the system keeps per block (1 KB on cc >= 8) */
	int smem_alloc_unit;        /* bytes */
	int block_barrier_slots;    /* cc >= 9: 64 barrier slots per SM (0: no such limit) */
	/* peak rates */
	double clock_mhz;           /* SM boost clock (the FP32 clock where tensor runs slower) */
	double fp32_tflops;         /* non-tensor FP32 (FFMA = 2 FLOP) */
	double tensor_tflops;       /* dense FP16/BF16 tensor with FP32 accumulate; 0 when none */
	double tf32_tflops;         /* dense TF32 tensor; 0 when unknown or none */
	double int8_tops;           /* dense INT8 tensor, tera-operations per second; 0 when unknown or none */
	double fp64_tflops;         /* FP64 on the CUDA cores; 0 when unknown */
	double fp64_tensor_tflops;  /* FP64 tensor (DMMA); 0 when none */
	double dram_gbs;            /* GB/s */
	double l2_bytes;            /* L2 capacity */
	double l2_bytes_per_clk;    /* L2 bandwidth per SM clock, whole GPU (gl_gpu_l2_bytes_per_clk) */
	bool l2_bw_assumed;         /* not published: A100's 5120 B/clk per SM, times this GPU's SMs */
	double smem_bytes_per_clk_sm; /* shared/L1 data path: 32 banks x 4 B */
	double issue_per_clk_sm;    /* warp instructions issued per clock per SM (4 schedulers) */
	const char *source;         /* where the numbers come from (docs/insights.md cites them in full) */
};

/* Load latencies in SM clocks that the estimate's latency bound uses for every GPU: an L1 hit, an L2
 * hit and DRAM, as measured on a V100 by microbenchmark (docs/insights.md: Jia et al. 2018). */
#define GL_LAT_L1 28.0
#define GL_LAT_L2 193.0
#define GL_LAT_DRAM 375.0
#define GL_LAT_SHARED 19.0

/* NVIDIA publishes the L2 bandwidth of the A100 only (5120 B/clk for 108 SMs); for the others the
 * model assumes the same bytes per clock per SM (docs/insights.md). */
#define GL_L2_BYTES_PER_CLK_PER_SM (5120.0 / 108)

/* The table, terminated by a zeroed entry. */
extern const struct gl_gpu_model gl_gpu_models[];

/* The model named `name` (case-insensitive, also the full name); GL_EUSAGE listing the known names. */
int gl_gpu_model_lookup(const char *name, const struct gl_gpu_model **out, struct gl_err *err);
/* The model a device name describes ("NVIDIA H100 80GB HBM3" -> H100), NULL when none. */
const struct gl_gpu_model *gl_gpu_model_for_device(const char *device);
/* The default when no GPU says otherwise: H100. */
const struct gl_gpu_model *gl_gpu_model_default(void);
/* The CUPTI chip of a model (its GPU die, as `gpulab metrics --chip` names it: "GH100" for the H100). */
const char *gl_gpu_model_chip(const struct gl_gpu_model *g);
/* "A100|H100|..." for usage lines and messages, into buf. */
void gl_gpu_model_names(char *buf, size_t n);

#endif
