/* sim_cp_async.c — the hot form of cp.async (sim_mem.c's exec_cp_async has the general one): a full warp's
 * copies of cp-size bytes without a src-size operand, every source inside one global buffer and every
 * destination inside shared memory, all aligned and no two lanes writing the same bytes.  The counts are
 * exec_cp_async's (the shared wavefronts remembered per site and shape, memmodel.h); the copies' shadow
 * and cp.async bookkeeping are recorded a warp at a time when no lane's write can find anything
 * (sim_shadow_write_rows), and lane by lane, as exec_cp_async records them, when one can. */
#include "sim_exec.h"
#include "sim_trace.h"

/* Are the n-byte blocks at addr[l] (each aligned to n) all different?  A bitmap of the blocks from the
 * lowest; false as well when they spread over more than 512 blocks (the general path decides then). */
static bool distinct_blocks(const uint64_t addr[32], unsigned n)
{
	uint64_t lo = addr[0], seen[8] = {0};
	for (int l = 1; l < 32; l++)
		lo = addr[l] < lo ? addr[l] : lo;
	for (int l = 0; l < 32; l++) {
		uint64_t b = (addr[l] - lo) / n;
		if (b >= 512 || (seen[b / 64] >> (b % 64) & 1))
			return false;
		seen[b / 64] |= 1ull << (b % 64);
	}
	return true;
}

/* Every lane's n bytes at addr[l] aligned and inside region r. */
static bool inside(const struct sim_region *r, const uint64_t addr[32], unsigned n)
{
	uint64_t bad = 0, last = r->size - n;
	for (int l = 0; l < 32; l++)
		bad |= (uint64_t)(addr[l] - r->base > last) | (addr[l] & (n - 1));
	return r->size >= n && !bad;
}

/* exec_cp_async's counters and trace for a full warp, every lane reading its source. */
static void count_copy(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const uint64_t src[32],
		       const uint64_t dst[32], unsigned size)
{
	unsigned sectors = gl_mm_global_sectors(src, 0xffffffffu, size);
	cta->c.ldgsts_inst++;
	cta->c.ldgsts_req++;
	cta->c.ldgsts_sect += sectors;
	sim_touch_mark(&cta->L->touch, false, src, 0xffffffffu, size); /* the source is part of the footprint */
	sim_l1_load(cta, src, 0xffffffffu, size, ins->mods & PM_CG);
	uint32_t d32[32];
	for (int l = 0; l < 32; l++)
		d32[l] = (uint32_t)dst[l];
	unsigned wf = gl_mm_shared_wavefronts_memo(&cta->wf_memo, (uintptr_t)ins, d32, 0xffffffffu, size);
	cta->c.ldgsts_sst_wf += wf;
	if (cta->trace) {
		sim_trace_record(cta, w, ins, PS_GLOBAL, src, 0xffffffffu, size, false, sectors);
		sim_trace_record(cta, w, ins, PS_SHARED, dst, 0xffffffffu, size, true, wf);
	}
}

/* The hot form, or false (having changed nothing) for exec_cp_async. */
static bool cp_async_hot(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	if (mask != 0xffffffffu || (ins->nops > 3 && ins->ops[3].kind == PO_SLOT))
		return false;
	unsigned size = (unsigned)sim_src(cta, w, ins->ops[2].slot)[0];
	if (size != 4 && size != 8 && size != 16)
		return false;
	uint64_t dst[32], src[32];
	sim_lane_addresses(cta, w, &ins->ops[0], mask, dst);
	sim_addr_wrap_warp(PS_SHARED, dst, mask); /* dst is a .shared address, whatever the register */
	sim_lane_addresses(cta, w, &ins->ops[1], mask, src);
	uint8_t *shared = sim_shared_span(cta, w, dst, mask, size);
	const struct sim_region *r = shared ? sim_global_region(cta, w, src[0], size, false) : NULL;
	if (!r || !inside(r, src, size) || !distinct_blocks(dst, size))
		return false;
	count_copy(cta, w, ins, src, dst, size);
	for (int l = 0; l < 32; l++)
		memcpy(shared + dst[l], r->host + (src[l] - r->base), size);
	if (sim_shadow_write_rows(cta, w, ins, mask, dst, size)) {
		sim_async_copy_warp(cta, w, mask, dst, size);
		return true;
	}
	for (int l = 0; l < 32; l++) { /* exec_cp_async's order: each lane's write, then its copy's record */
		sim_shadow_write(cta, w, ins, l, dst[l], size);
		sim_async_copy(cta, w, l, dst[l], size);
	}
	return true;
}

int sim_exec_cp_async(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	return cp_async_hot(cta, w, ins, mask) ? 0 : sim_exec_mem(cta, w, ins, mask);
}
