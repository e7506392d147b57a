/* occupancy.c — the occupancy calculator's rules, step by step as cuda_occupancy.h applies them. */
#include "occupancy.h"

#include <stdio.h>
#include <string.h>

static int round_up(int v, int unit)
{
	return unit > 0 ? (v + unit - 1) / unit * unit : v;
}

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

/* Registers are allocated per warp in units of reg_alloc_unit; each of the SM's sub-partitions holds
 * an equal share of the register file, so register-limited warps come in multiples of the granularity.
 * A block whose allocation does not fit one SM (also as if its warps were rounded up to the
 * sub-partitions) cannot launch at all. */
static int regs_limit(const struct gl_gpu_model *g, const struct gl_occ_input *in, int warps, struct gl_occupancy *o)
{
	o->regs_per_warp = round_up(in->regs_per_thread * 32, g->reg_alloc_unit);
	if (in->regs_per_thread > g->max_regs_per_thread + 1 ||
	    g->regs_per_block < o->regs_per_warp * round_up(warps, g->warp_alloc_granularity) ||
	    g->regs_per_block < o->regs_per_warp * warps) {
		o->why_zero = "too many registers per block";
		return 0;
	}
	if (o->regs_per_warp == 0)
		return GL_OCC_UNLIMITED;
	int parts = g->warp_alloc_granularity;
	int warps_per_part = (g->regs_per_sm / parts) / o->regs_per_warp;
	return parts * warps_per_part / warps;
}

/* Shared memory is allocated per block in units of smem_alloc_unit, with the system's reserve charged
 * to every block; the kernel gets the default carveout (the SM's whole shared memory). */
static int smem_limit(const struct gl_gpu_model *g, const struct gl_occ_input *in, struct gl_occupancy *o)
{
	int need = in->static_smem + in->dyn_smem;
	o->smem_per_block = round_up(need + g->smem_reserved_per_block, g->smem_alloc_unit);
	/* a kernel that asks for more than 48 KB has opted in (cudaFuncAttributeMaxDynamicSharedMemorySize) */
	int cap = (need + g->smem_reserved_per_block > g->smem_per_block ? g->smem_per_block_optin : g->smem_per_block) +
		  g->smem_reserved_per_block;
	if (o->smem_per_block > cap) {
		o->why_zero = "too much shared memory per block";
		return 0;
	}
	return o->smem_per_block ? g->smem_per_sm / o->smem_per_block : GL_OCC_UNLIMITED;
}

void gl_occupancy_compute(const struct gl_gpu_model *g, const struct gl_occ_input *in, struct gl_occupancy *o)
{
	memset(o, 0, sizeof *o);
	int warps = (in->threads_per_block + 31) / 32;
	o->warps_per_block = warps;
	o->max_warps_per_sm = g->max_threads_per_sm / 32;
	if (warps == 0 || in->threads_per_block > g->max_threads_per_block) {
		o->why_zero = "too many threads per block";
		o->limiter = GL_OCC_WARPS;
		return;
	}
	o->limit_warps = o->max_warps_per_sm / warps;
	o->limit_regs = regs_limit(g, in, warps, o);
	o->limit_smem = smem_limit(g, in, o);
	o->limit_blocks = g->max_blocks_per_sm;
	int b = min_int(min_int(o->limit_warps, o->limit_regs), min_int(o->limit_smem, o->limit_blocks));
	int barriers = g->block_barrier_slots ? g->block_barrier_slots : GL_OCC_UNLIMITED; /* one barrier per block */
	b = min_int(b, barriers);
	o->blocks_per_sm = b;
	o->limiter = (o->limit_warps == b ? GL_OCC_WARPS : 0) | (o->limit_regs == b ? GL_OCC_REGISTERS : 0) |
		     (o->limit_smem == b ? GL_OCC_SHARED : 0) | (o->limit_blocks == b ? GL_OCC_BLOCKS : 0) |
		     (barriers == b ? GL_OCC_BARRIERS : 0);
	o->warps_per_sm = b * warps;
	o->pct = 100.0 * o->warps_per_sm / o->max_warps_per_sm;
}

const char *gl_occupancy_limiter_name(unsigned limiter, char *buf, size_t n)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {{GL_OCC_REGISTERS, "registers"}, {GL_OCC_SHARED, "shared memory"}, {GL_OCC_WARPS, "warps"},
		     {GL_OCC_BLOCKS, "blocks"}, {GL_OCC_BARRIERS, "barriers"}};
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if ((limiter & names[i].bit) && at < n) {
			int w = snprintf(buf + at, n - at, "%s%s", at ? " + " : "", names[i].name);
			at += w > 0 ? (size_t)w : 0;
		}
	return buf;
}
