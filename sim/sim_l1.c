/* sim_l1.c — gpulab's model of the L1 data cache for global loads (docs/sim.md, "The L1 model"): per
 * CTA a 4-way set-associative cache of 32-byte sectors, GL_SIM_L1_BYTES in all, the set chosen by a hash
 * of the sector number (a stand-in for the hardware's undocumented placement), round-robin replacement,
 * emptied when the CTA starts (a generation stamp, so starting costs nothing).  A load sector found there
 * is a hit; `.cg` loads and `cp.async.cg` bypass it, `.volatile` ones too.  The misses are the load
 * traffic the L2 sees, and they feed the estimate's L2 bound and the roofline's L2 intensity. */
#include "sim_internal.h"

#include <stdlib.h>

#define WAYS 4
#define SETS (GL_SIM_L1_BYTES / GL_SECTOR_BYTES / WAYS)

struct sim_l1 {
	uint64_t tag[SETS][WAYS]; /* sector number + 1; 0: empty */
	uint32_t gen[SETS];       /* the CTA generation the set's tags belong to */
	uint8_t next[SETS];       /* the way to replace next */
};

void sim_l1_free(struct sim_cta *cta)
{
	free(cta->l1);
	cta->l1 = NULL;
}

/* One sector: true when it hits; a miss fills it. */
static bool lookup(struct sim_l1 *c, uint32_t gen, uint64_t sector)
{
	unsigned set = (unsigned)((sector * 0x9E3779B97F4A7C15ull) >> 40) % SETS;
	if (c->gen[set] != gen) {
		c->gen[set] = gen;
		for (int w = 0; w < WAYS; w++)
			c->tag[set][w] = 0;
		c->next[set] = 0;
	}
	for (int w = 0; w < WAYS; w++)
		if (c->tag[set][w] == sector + 1)
			return true;
	c->tag[set][c->next[set]] = sector + 1;
	c->next[set] = (uint8_t)((c->next[set] + 1) % WAYS);
	return false;
}

void sim_l1_load(struct sim_cta *cta, const uint64_t addr[32], uint32_t mask, unsigned size, bool bypass)
{
	if (!mask || !size)
		return;
	if (bypass) {
		cta->c.l1_miss += gl_mm_global_sectors(addr, mask, size);
		return;
	}
	if (!cta->l1 && !(cta->l1 = calloc(1, sizeof *cta->l1))) { /* no memory: every sector misses */
		cta->c.l1_miss += gl_mm_global_sectors(addr, mask, size);
		return;
	}
	if (gl_mm_unit_stride(addr, mask, size)) { /* one span: its sectors in order */
		uint64_t a = addr[0] / GL_SECTOR_BYTES, b = (addr[0] + (uint64_t)GL_WARP * size - 1) / GL_SECTOR_BYTES;
		for (uint64_t s = a; s <= b; s++)
			cta->c.l1_miss += !lookup(cta->l1, cta->gen, s);
		return;
	}
	uint64_t prev = UINT64_MAX; /* neighbouring lanes mostly share a sector: look it up once */
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		uint64_t a = addr[l] / GL_SECTOR_BYTES, b = (addr[l] + size - 1) / GL_SECTOR_BYTES;
		for (uint64_t s = a; s <= b; s++)
			if (s != prev) {
				cta->c.l1_miss += !lookup(cta->l1, cta->gen, s);
				prev = s;
			}
	}
}
