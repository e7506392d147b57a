/* test_sim_shadow_warp.c — the warp-level shared-memory shadow (sim_shadow_warp's inlined path for
 * aligned 4- and 8-byte accesses) against the per-lane reference it replaces (sim_shadow_read/write for each
 * lane, skipping a lane whose address repeats the previous lane's): random sequences of accesses by
 * several warps, with broadcasts, strides, misaligned, partial-word (2-byte) and 8-byte accesses, strong
 * accesses, atomics, barriers, new CTAs, initcheck on and off and reserved shared memory, must leave the
 * same shadow and the same findings (kinds, lines, counts, first messages) in both.  Full warps' stores of
 * whole words try sim_shadow_store_words first, as sim_mem_hot.c does. */
#include <stdlib.h>

#include "check.h"
#include "xorshift.h"
#include "sim/sim_quiet.h"
#include "sim/sim_trace.h"
#include "tests/unit/sim_fixture.h"

#define WORDS 64 /* 256 bytes of shared memory */

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static unsigned next(unsigned n)
{
	return xs_below(&rng, n);
}

static void reference_warp(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
			   const uint64_t addr[32], unsigned n, bool is_store)
{
	uint64_t prev = UINT64_MAX;
	FOR_LANES(mask, l) {
		if (addr[l] == prev)
			continue;
		prev = addr[l];
		if (is_store)
			sim_shadow_write(cta, w, ins, (int)l, addr[l], n);
		else
			sim_shadow_read(cta, w, ins, (int)l, addr[l], n);
	}
}

/* sim_ld_st_at's order for a full warp's aligned 4-byte reads within 64 words: sim_shadow_quiet_reads
 * first (with one window; sim_mem.c's windows of wider shapes are test_sim_mem's).  True when it took
 * them. */
static bool warp_quiet_reads(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
			     const uint64_t addr[32], unsigned n)
{
	if (mask != 0xffffffffu || n != 4)
		return false;
	uint64_t min = addr[0], max = addr[0], bits = 0;
	for (int l = 0; l < 32; l++) {
		if (addr[l] & 3)
			return false;
		min = addr[l] < min ? addr[l] : min;
		max = addr[l] > max ? addr[l] : max;
	}
	if (max - min >= 256)
		return false;
	for (int l = 0; l < 32; l++)
		bits |= 1ull << (addr[l] - min) / 4;
	const int32_t win[1] = {0};
	return sim_shadow_quiet_reads(cta, w, ins, min / 4, 1, win, &bits);
}

/* sim_mem_hot.c's order for a full warp's aligned 4-byte stores within 64 words: sim_shadow_store_words
 * first, which takes them when no lane can find a race.  True when it took them (counted in *taken). */
static long taken;
static bool warp_store_words(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
			     const uint64_t addr[32], unsigned n)
{
	if (mask != 0xffffffffu || n != 4)
		return false;
	uint64_t min = addr[0], max = addr[0], bits = 0;
	for (int l = 0; l < 32; l++) {
		if (addr[l] & 3)
			return false;
		min = addr[l] < min ? addr[l] : min;
		max = addr[l] > max ? addr[l] : max;
	}
	if (max - min >= 256)
		return false;
	for (int l = 0; l < 32; l++)
		bits |= 1ull << (addr[l] - min) / 4;
	const int32_t win[1] = {0};
	bool took = sim_shadow_store_words(cta, w, ins, min / 4, 1, win, &bits);
	taken += took;
	return took;
}

/* Lane addresses: a broadcast, a word stride, random words, or random bytes (misaligned); for 8-byte
 * accesses, half the time rounded down to 8 bytes (aligned: the inlined path's two words). */
static void addresses(uint64_t addr[32], unsigned n)
{
	unsigned kind = next(4), base = next(WORDS) * 4, stride = (1 + next(3)) * 4;
	uint64_t round = n == 8 && next(2) ? ~7ull : ~0ull;
	for (unsigned l = 0; l < 32; l++) {
		uint64_t a = kind == 0 ? base : kind == 1 ? base + l * stride : kind == 2 ? next(WORDS) * 4u : next(4 * WORDS);
		addr[l] = a % (4 * WORDS - n + 1) & round;
	}
}

static bool same_shadow(const struct sim_shadow *a, const struct sim_shadow *b)
{
	for (int i = 0; i < WORDS; i++)
		if (a[i].gen != b[i].gen || a[i].epoch != b[i].epoch || a[i].writer != b[i].writer ||
		    a[i].reader != b[i].reader || a[i].wbytes != b[i].wbytes || a[i].rbytes != b[i].rbytes ||
		    a[i].init != b[i].init)
			return false;
	return true;
}

/* The quiet-read state (sim_trace.c): the bitmaps and the intervals they describe. */
static bool same_quiet(const struct sim_cta *a, const struct sim_cta *b)
{
	size_t rows = SIM_QUIET_ROWS(a->L);
	const struct sim_quiet *p = &a->quiet, *q = &b->quiet;
	return p->full_gen == q->full_gen && p->reads_gen == q->reads_gen && p->reads_epoch == q->reads_epoch &&
	       p->readers == q->readers && p->wrote_gen == q->wrote_gen && p->wrote_epoch == q->wrote_epoch &&
	       memcmp(p->full, q->full, rows * sizeof *p->full) == 0 &&
	       memcmp(p->reads, q->reads, rows * 8 * sizeof *p->reads) == 0;
}

/* read_heavy: stores only in the first steps after each barrier, as in tiled kernels, so that most
 * reads fall in intervals without a write (sim_trace.c's quiet reads). */
static void run(int tools, bool reserved, bool read_heavy, int steps, long *races, long *uninit)
{
	struct sim_launch L = {.block = {256, 1, 1}, .tools = tools, .reserved_used = reserved,
			       .reserved_smem = 3 * WORDS, .shared_size = 4 * WORDS, .warps_per_cta = 8};
	struct sim_cta c[2];
	struct sim_shadow *sh[2];
	struct sim_warp warps[8];
	for (int k = 0; k < 2; k++) {
		sh[k] = calloc(WORDS, sizeof **sh);
		c[k] = (struct sim_cta){.L = &L, .shadow = sh[k], .gen = 1};
		c[k].quiet.full = calloc(SIM_QUIET_ROWS(&L), sizeof(uint64_t));
		c[k].quiet.reads = calloc(SIM_QUIET_ROWS(&L) * 8, sizeof(uint64_t));
		c[k].quiet.site = calloc(8, sizeof *c[k].quiet.site);
		c[k].shadow_site = calloc(2 * WORDS, sizeof *c[k].shadow_site);
		gl_findings_init(&c[k].findings, 64);
	}
	for (unsigned i = 0; i < 8; i++)
		warps[i] = (struct sim_warp){.id = i};
	struct ptx_insn ins[4] = {{.line = 10}, {.line = 11}, {.line = 12}, {.line = 13, .mods = PM_VOLATILE}};
	int since_barrier = 0;
	for (int step = 0; step < steps; step++, since_barrier++) {
		unsigned what = next(20);
		if (what == 0) { /* a barrier */
			c[0].epoch++;
			c[1].epoch++;
			since_barrier = 0;
			continue;
		}
		if (what == 1 && next(8) == 0) { /* the next CTA */
			for (int k = 0; k < 2; k++) {
				c[k].gen++;
				c[k].epoch = 0;
			}
			continue;
		}
		struct sim_warp *w = &warps[next(8)];
		uint64_t addr[32];
		if (what == 2 && (!read_heavy || since_barrier < 3)) { /* an atomic of one lane */
			uint64_t a = next(WORDS) * 4;
			sim_shadow_atomic(&c[0], w, a, 4);
			sim_shadow_atomic(&c[1], w, a, 4);
			continue;
		}
		static const unsigned sizes[] = {2, 4, 4, 4, 8, 8};
		unsigned n = sizes[next(6)];
		addresses(addr, n);
		uint32_t mask = next(3) == 0 ? 0xffffffffu : (uint32_t)rng | 1u;
		bool is_store = next(2) && (!read_heavy || since_barrier < 3);
		const struct ptx_insn *in = &ins[next(8) == 0 ? 3 : next(3)];
		c[0].current_warp = c[1].current_warp = w->id;
		if (!is_store && !warp_quiet_reads(&c[0], w, in, mask, addr, n))
			sim_shadow_warp(&c[0], w, in, mask, addr, n, is_store);
		else if (is_store && !warp_store_words(&c[0], w, in, mask, addr, n))
			sim_shadow_warp(&c[0], w, in, mask, addr, n, is_store);
		reference_warp(&c[1], w, in, mask, addr, n, is_store);
		if (!same_shadow(sh[0], sh[1]) || !same_quiet(&c[0], &c[1])) {
			CHECK(!"the shadows differ");
			break;
		}
	}
	fx_same_findings(&c[0].findings, &c[1].findings);
	*races = *uninit = 0;
	for (int i = 0; i < c[0].findings.n; i++) {
		*races += strcmp(c[0].findings.items[i].kind, "race") == 0 ? c[0].findings.items[i].count : 0;
		*uninit += strcmp(c[0].findings.items[i].kind, "uninitialized") == 0 ? c[0].findings.items[i].count : 0;
	}
	for (int k = 0; k < 2; k++) {
		gl_findings_free(&c[k].findings);
		free(sh[k]);
		free(c[k].quiet.full);
		free(c[k].quiet.reads);
		free(c[k].quiet.site);
		free(c[k].shadow_site);
	}
}

int main(void)
{
	long races, uninit;
	run(GL_TOOL_ALL, false, false, 4000, &races, &uninit);
	CHECK(races > 100); /* the sequences do exercise races across warps and uninitialised reads */
	CHECK(uninit > 10);
	run(GL_TOOL_RACECHECK, false, false, 4000, &races, &uninit);
	CHECK(races > 100);
	CHECK_EQ(uninit, 0);
	run(GL_TOOL_ALL, true, false, 2000, &races, &uninit); /* reserved shared memory: the per-lane path throughout */
	CHECK(races > 10);
	run(GL_TOOL_ALL, false, true, 8000, &races, &uninit); /* mostly quiet reads */
	CHECK(races > 10);
	CHECK(uninit > 10);
	run(GL_TOOL_RACECHECK, false, true, 8000, &races, &uninit);
	CHECK(races > 10);
	CHECK(taken > 50); /* whole-warp stores took the one-pass path often enough to be compared */
	CHECK_DONE();
}
