/* gpu_models.c — the GPU model table.  Every number is restated with its public source in
 * docs/insights.md ("GPU models"); a number NVIDIA does not publish is 0 here and the estimate leaves
 * that bound out (and says so), never guesses it. */
#include "gpu_models.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define KB 1024

/* Limits shared by a compute capability (CUDA Programming Guide, Compute Capabilities table;
 * cuda_occupancy.h): threads, warps, blocks, registers and shared memory per SM. */
#define CC80 8, 0, "sm_80", .max_threads_per_block = 1024, .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, \
	     .smem_per_sm = 164 * KB, .smem_per_block_optin = 163 * KB
#define CC86 8, 6, "sm_80", .max_threads_per_block = 1024, .max_threads_per_sm = 1536, .max_blocks_per_sm = 16, \
	     .smem_per_sm = 100 * KB, .smem_per_block_optin = 99 * KB
#define CC89 8, 9, "sm_80", .max_threads_per_block = 1024, .max_threads_per_sm = 1536, .max_blocks_per_sm = 24, \
	     .smem_per_sm = 100 * KB, .smem_per_block_optin = 99 * KB
#define CC90 9, 0, "sm_90", .max_threads_per_block = 1024, .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, \
	     .smem_per_sm = 228 * KB, .smem_per_block_optin = 227 * KB, .block_barrier_slots = 64
/* What every cc >= 8.0 shares: 64 K registers per SM and per block, 255 per thread, allocated 256 per
 * warp, 4 sub-partitions; 48 KB per block without opt-in, 1 KB reserved per block, 128-byte units. */
#define AMPERE_PLUS .regs_per_sm = 65536, .regs_per_block = 65536, .max_regs_per_thread = 255, .reg_alloc_unit = 256, \
	     .warp_alloc_granularity = 4, .smem_per_block = 48 * KB, .smem_reserved_per_block = KB, \
	     .smem_alloc_unit = 128, .smem_bytes_per_clk_sm = 128, .issue_per_clk_sm = 4

const struct gl_gpu_model gl_gpu_models[] = {
	{"A100", "A100 SXM4 80GB", "A100", CC80, AMPERE_PLUS, .sm_count = 108, .clock_mhz = 1410, .fp32_tflops = 19.5,
	 .tensor_tflops = 312, .tf32_tflops = 156, .int8_tops = 624, .fp64_tflops = 9.7, .fp64_tensor_tflops = 19.5,
	 .dram_gbs = 2039, .l2_bytes = 40.0 * KB * KB, .l2_bytes_per_clk = 5120, .source = "A100 whitepaper, datasheet"},
	{"H100", "H100 SXM5 80GB", "H100", CC90, AMPERE_PLUS, .sm_count = 132, .clock_mhz = 1980, .fp32_tflops = 66.9,
	 .tensor_tflops = 989.4, .tf32_tflops = 494.7, .int8_tops = 1978.9, .fp64_tflops = 33.5,
	 .fp64_tensor_tflops = 66.9, .dram_gbs = 3352, .l2_bytes = 50.0 * KB * KB,
	 .l2_bytes_per_clk = GL_L2_BYTES_PER_CLK_PER_SM * 132, .l2_bw_assumed = true, .source = "H100 whitepaper"},
	{"H200", "H200 SXM 141GB", "H200", CC90, AMPERE_PLUS, .sm_count = 132, .clock_mhz = 1980, .fp32_tflops = 67,
	 .tensor_tflops = 989, .tf32_tflops = 494.5, .int8_tops = 1979, .fp64_tflops = 34, .fp64_tensor_tflops = 67,
	 .dram_gbs = 4800, .l2_bytes = 60.0 * KB * KB,
	 .l2_bytes_per_clk = GL_L2_BYTES_PER_CLK_PER_SM * 132, .l2_bw_assumed = true, .source = "H200 product page"},
	{"L4", "L4", "L4", CC89, AMPERE_PLUS, .sm_count = 58, .clock_mhz = 2040, .fp32_tflops = 30.3, .tensor_tflops = 121,
	 .tf32_tflops = 60, .int8_tops = 242, .dram_gbs = 300, .l2_bytes = 48.0 * KB * KB,
	 .l2_bytes_per_clk = GL_L2_BYTES_PER_CLK_PER_SM * 58, .l2_bw_assumed = true, .source = "L4 product page"},
	{"RTX4090", "GeForce RTX 4090", "RTX 4090", CC89, AMPERE_PLUS, .sm_count = 128, .clock_mhz = 2520,
	 .fp32_tflops = 82.6, .tensor_tflops = 165.2, .tf32_tflops = 82.6, .int8_tops = 660.6, .dram_gbs = 1008,
	 .l2_bytes = 72.0 * KB * KB, .l2_bytes_per_clk = GL_L2_BYTES_PER_CLK_PER_SM * 128, .l2_bw_assumed = true,
	 .source = "Ada whitepaper, appendix A"},
	{"RTX3090", "GeForce RTX 3090", "RTX 3090", CC86, AMPERE_PLUS, .sm_count = 82, .clock_mhz = 1695,
	 .fp32_tflops = 35.6, .tensor_tflops = 71, .tf32_tflops = 35.6, .int8_tops = 284, .dram_gbs = 936,
	 .l2_bytes = 6.0 * KB * KB, .l2_bytes_per_clk = GL_L2_BYTES_PER_CLK_PER_SM * 82, .l2_bw_assumed = true,
	 .source = "GA102 whitepaper, appendix A"},
	/* SGEMM_CUDA's published timings were taken on this one (docs/insights.md) */
	{"A6000", "RTX A6000", "RTX A6000", CC86, AMPERE_PLUS, .sm_count = 84, .clock_mhz = 1800, .fp32_tflops = 38.7,
	 .tensor_tflops = 154.8, .tf32_tflops = 77.4, .int8_tops = 309.7, .dram_gbs = 768, .l2_bytes = 6.0 * KB * KB,
	 .l2_bytes_per_clk = GL_L2_BYTES_PER_CLK_PER_SM * 84, .l2_bw_assumed = true, .source = "RTX A6000 datasheet"},
	{0},
};

int gl_gpu_model_lookup(const char *name, const struct gl_gpu_model **out, struct gl_err *err)
{
	for (const struct gl_gpu_model *g = gl_gpu_models; g->name; g++)
		if (strcasecmp(name, g->name) == 0 || strcasecmp(name, g->full_name) == 0) {
			*out = g;
			return GL_OK;
		}
	char names[128];
	gl_gpu_model_names(names, sizeof names);
	return gl_errf(err, GL_EUSAGE, "unknown GPU model '%s' (--gpu takes one of %s)", name, names);
}

const struct gl_gpu_model *gl_gpu_model_for_device(const char *device)
{
	for (const struct gl_gpu_model *g = gl_gpu_models; device && g->name; g++)
		if (strstr(device, g->match))
			return g;
	return NULL;
}

const struct gl_gpu_model *gl_gpu_model_default(void)
{
	return &gl_gpu_models[1];
}

/* The die each model is built on (NVIDIA's architecture whitepapers and datasheets: A100 GA100, H100
 * and H200 GH100, L4 AD104, RTX 4090 AD102, RTX 3090 GA102). */
const char *gl_gpu_model_chip(const struct gl_gpu_model *g)
{
	static const char *const chips[][2] = {{"A100", "GA100"}, {"H100", "GH100"},   {"H200", "GH100"},
					       {"L4", "AD104"},   {"RTX4090", "AD102"}, {"RTX3090", "GA102"}};
	for (size_t i = 0; i < sizeof chips / sizeof chips[0]; i++)
		if (strcmp(g->name, chips[i][0]) == 0)
			return chips[i][1];
	return "";
}

void gl_gpu_model_names(char *buf, size_t n)
{
	size_t at = 0;
	buf[0] = '\0';
	for (const struct gl_gpu_model *g = gl_gpu_models; g->name && at < n; g++) {
		int w = snprintf(buf + at, n - at, "%s%s", at ? "|" : "", g->name);
		at += w > 0 ? (size_t)w : 0;
	}
}
