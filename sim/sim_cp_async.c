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

/* The counts of a copy depend only on its shape: the sources' sectors (gl_mm_global_sectors) on their
 * addresses relative to lane 0's and on where lane 0's lies in its sector, the destinations' wavefronts
 * (gl_mm_shared_wavefronts) on theirs relative to lane 0's (a shift by whole words only rotates the banks,
 * memmodel.h).  A site's shape stays the same for each warp from tile to tile, so the last counts of each
 * (site, warp) are kept, per worker thread: a pure memo, right for whoever asks. */
struct copy_memo {
	const struct ptx_insn *site;
	unsigned warp, size, start, sectors, wf;
	uint64_t src_rel[32];
	uint32_t dst_rel[32];
};

static void copy_counts(const struct sim_warp *w, const struct ptx_insn *ins, const uint64_t src[32],
			const uint32_t d32[32], unsigned size, unsigned *sectors, unsigned *wf)
{
	static _Thread_local struct copy_memo memo[64];
	struct copy_memo *m = &memo[((uintptr_t)ins / sizeof *ins * 8 + w->id) % 64];
	uint64_t diff = 0, rel[32];
	uint32_t drel[32];
	for (int l = 0; l < 32; l++) {
		rel[l] = src[l] - src[0];
		drel[l] = d32[l] - d32[0];
		diff |= (rel[l] ^ m->src_rel[l]) | (drel[l] ^ m->dst_rel[l]);
	}
	if (m->site != ins || m->warp != w->id || m->size != size || m->start != src[0] % GL_SECTOR_BYTES || diff) {
		*m = (struct copy_memo){ins, w->id, size, (unsigned)(src[0] % GL_SECTOR_BYTES),
					gl_mm_global_sectors(src, 0xffffffffu, size),
					gl_mm_shared_wavefronts(d32, 0xffffffffu, size), {0}, {0}};
		memcpy(m->src_rel, rel, sizeof rel);
		memcpy(m->dst_rel, drel, sizeof drel);
	}
	*sectors = m->sectors;
	*wf = m->wf;
}

/* exec_cp_async's counters and trace for a full warp, every lane reading its source. */
static void count_copy(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const uint64_t src[32],
		       const uint64_t dst[32], unsigned size)
{
	uint32_t d32[32];
	for (int l = 0; l < 32; l++)
		d32[l] = (uint32_t)dst[l];
	unsigned sectors, wf;
	copy_counts(w, ins, src, d32, size, &sectors, &wf);
	cta->c.ldgsts_inst++;
	cta->c.ldgsts_req++;
	cta->c.ldgsts_sect += sectors;
	sim_touch_mark(&cta->L->touch, false, src, 0xffffffffu, size); /* the source is part of the footprint */
	sim_l1_load(cta, src, 0xffffffffu, size, ins->mods & PM_CG);
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
