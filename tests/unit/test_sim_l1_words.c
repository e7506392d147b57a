/* test_sim_l1_words.c — the L1 model's path for a hot global load (sim_l1_load_words, which looks up
 * only the lanes whose sector is not the sector of the lane before them) against its general path
 * (sim_l1_load over the 32 addresses): random sequences of full-warp 4-byte loads with unit, column,
 * broadcast and scattered shapes, starts anywhere in a sector, interleaved with other loads, `.cg`
 * bypasses and new CTAs, must count the same misses after every access (so they leave the same tags). */
#include <stdlib.h>

#include "check.h"
#include "sim/sim_internal.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static unsigned next(unsigned n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (unsigned)((rng * 0x2545F4914F6CDD1Dull) >> 33) % n;
}

/* A shape's offsets from lane 0, whole words: lane l at 4 l, one word, sectors apart, or scattered over
 * a few kilobytes either side of lane 0 (so that lanes share and revisit sectors and sets fill). */
static void random_shape(int64_t rel[32])
{
	unsigned kind = next(4), stride = 32u * (1 + next(64));
	for (int l = 0; l < 32; l++)
		rel[l] = kind == 0 ? 4 * l : kind == 1 ? 0 : kind == 2 ? (int64_t)stride * l : 4 * ((int64_t)next(2048) - 1024);
	for (int l = 31; l >= 0; l--)
		rel[l] -= rel[0];
}

/* The rule sim_l1_load_words takes its lanes by: lane 0, and each lane whose sector is not its predecessor's. */
static uint32_t lookup_lanes(uint64_t a0, const int64_t rel[32])
{
	uint32_t lanes = 1;
	for (int l = 1; l < 32; l++)
		if ((a0 + (uint64_t)rel[l]) / 32 != (a0 + (uint64_t)rel[l - 1]) / 32)
			lanes |= 1u << l;
	return lanes;
}

int main(void)
{
	struct sim_cta general = {.gen = 1}, words = {.gen = 1};
	long compared = 0;
	for (int i = 0; i < 200000; i++) {
		if (next(5000) == 0) /* a new CTA: both models start empty */
			general.gen = ++words.gen;
		int64_t rel[32];
		random_shape(rel);
		uint64_t a0 = (1u << 20) + 4 * (uint64_t)next(1 << 16), addr[32];
		for (int l = 0; l < 32; l++)
			addr[l] = a0 + (uint64_t)rel[l];
		bool bypass = next(20) == 0;
		if (next(4) == 0) { /* another access: the general path on both */
			uint32_t mask = (uint32_t)next(1u << 16) * 65537u | 1u;
			sim_l1_load(&general, addr, mask, 4, bypass);
			sim_l1_load(&words, addr, mask, 4, bypass);
		} else {
			sim_l1_load(&general, addr, 0xffffffffu, 4, bypass);
			sim_l1_load_words(&words, a0, rel, lookup_lanes(a0, rel), gl_mm_global_sectors(addr, 0xffffffffu, 4),
					  bypass);
			compared++;
		}
		if (general.c.l1_miss != words.c.l1_miss) {
			CHECK_EQ(general.c.l1_miss, words.c.l1_miss);
			break;
		}
	}
	CHECK(compared > 100000);
	CHECK(general.c.l1_miss > 1000000); /* the sequences do miss, and evict */
	sim_l1_free(&general);
	sim_l1_free(&words);
	CHECK_DONE();
}
