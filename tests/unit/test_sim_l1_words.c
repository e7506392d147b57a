/* test_sim_l1_words.c — the L1 model's path for a hot global load (sim_l1_load_words, which looks up
 * only the lanes whose sector is not the sector of the lane before them, and skips the lookups of a load
 * whose shape's memo proves they hit) against its general path (sim_l1_load over the 32 addresses):
 * random sequences of full-warp 4-byte loads with unit, column, broadcast and scattered shapes, starts
 * anywhere in a sector, interleaved with other loads, `.cg` bypasses and new CTAs, must count the same
 * misses after every access (so they leave the same tags).  A second run walks a few shapes along
 * rows, word by word, as unrolled loops do, so that the memos are used and then broken by fills. */
#include <stdlib.h>

#include "check.h"
#include "xorshift.h"
#include "sim/sim_internal.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static unsigned next(unsigned n)
{
	return xs_below(&rng, n);
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

/* A load of shape rel through `key` (the caller's, kept per shape), or through a new key when NULL. */
static void both_keyed(struct sim_cta *general, struct sim_cta *words, uint64_t a0, const int64_t rel[32],
		       bool bypass, struct sim_l1_key *key)
{
	uint64_t addr[32];
	for (int l = 0; l < 32; l++)
		addr[l] = a0 + (uint64_t)rel[l];
	struct sim_l1_key fresh = {sim_l1_rel_hash(rel), 0};
	sim_l1_load(general, addr, 0xffffffffu, 4, bypass);
	sim_l1_load_words(words, a0, rel, lookup_lanes(a0, rel), gl_mm_global_sectors(addr, 0xffffffffu, 4), bypass,
			  key ? key : &fresh, sim_l1_pattern(rel, (unsigned)(a0 % 32) / 4));
}

static void both_words(struct sim_cta *general, struct sim_cta *words, uint64_t a0, const int64_t rel[32],
		       bool bypass)
{
	both_keyed(general, words, a0, rel, bypass, NULL);
}

static void both_other(struct sim_cta *general, struct sim_cta *words, uint64_t a0, const int64_t rel[32],
		       bool bypass)
{
	uint64_t addr[32];
	for (int l = 0; l < 32; l++)
		addr[l] = a0 + (uint64_t)rel[l];
	uint32_t mask = (uint32_t)next(1u << 16) * 65537u | 1u;
	sim_l1_load(general, addr, mask, 4, bypass);
	sim_l1_load(words, addr, mask, 4, bypass);
}

/* Random shapes and starts: the lookups themselves. */
static void random_loads(struct sim_cta *general, struct sim_cta *words)
{
	long compared = 0;
	for (int i = 0; i < 200000; i++) {
		if (next(5000) == 0) /* a new CTA: both models start empty */
			general->gen = ++words->gen;
		int64_t rel[32];
		random_shape(rel);
		uint64_t a0 = (1u << 20) + 4 * (uint64_t)next(1 << 16);
		bool bypass = next(20) == 0;
		if (next(4) == 0) { /* another access: the general path on both */
			both_other(general, words, a0, rel, bypass);
		} else {
			both_words(general, words, a0, rel, bypass);
			compared++;
		}
		if (general->c.l1_miss != words->c.l1_miss) {
			CHECK_EQ(general->c.l1_miss, words->c.l1_miss);
			return;
		}
	}
	CHECK(compared > 100000);
	CHECK(general->c.l1_miss > 1000000); /* the sequences do miss, and evict */
}

/* A few shapes (a column of rows, a row, a broadcast, a scattered one) walked along word by word, each at
 * several sites, with other loads and new CTAs between: the memos are taken, used and broken.  Each site
 * keeps its key, as sim_mem_hot.c does per shape; the keys of two shapes share a hash, so they take each
 * other's memo over and must not trust the class they kept. */
static void walked_loads(struct sim_cta *general, struct sim_cta *words)
{
	int64_t rel[4][32];
	for (int l = 0; l < 32; l++) {
		rel[0][l] = 4096 * l;
		rel[1][l] = 4 * l;
		rel[2][l] = 0;
		rel[3][l] = 4 * ((int64_t)next(512) - 256);
	}
	for (int l = 31; l >= 0; l--)
		rel[3][l] -= rel[3][0];
	uint64_t base[4] = {1u << 22, 1u << 23, 1u << 24, 1u << 25};
	struct sim_l1_key keys[4][2]; /* two sites of each shape; shapes 2k and 2k+1 share a hash */
	for (int k = 0; k < 4; k++)
		keys[k][0] = keys[k][1] = (struct sim_l1_key){(uint64_t)k / 2, 0};
	for (int i = 0; i < 400000; i++) {
		unsigned k = next(4);
		if (next(20000) == 0)
			general->gen = ++words->gen;
		if (next(8) == 0) /* a load elsewhere: a fill that may break a memo */
			both_other(general, words, (1u << 26) + 4 * (uint64_t)next(1 << 18), rel[next(4)], false);
		both_keyed(general, words, base[k], rel[k], next(50) == 0, &keys[k][next(2)]);
		base[k] += 4 * (next(3) == 0); /* the next word, or the same again */
		if (next(500) == 0) /* where the shape that shares its hash is: its memo's sector */
			base[k] = base[k ^ 1];
		if (next(3000) == 0)
			base[k] = (1u << 22) * (k + 1) + 4 * (uint64_t)next(1 << 12); /* somewhere else */
		if (general->c.l1_miss != words->c.l1_miss) {
			CHECK_EQ(general->c.l1_miss, words->c.l1_miss);
			return;
		}
	}
	CHECK(sim_l1_skipped(words) > 100000); /* the memos were used */
}

/* sim_l1.c's placement (a multiplicative hash of the sector number into 512 sets), restated to find
 * sectors that share a set. */
static unsigned set_of(uint64_t sector)
{
	return (unsigned)((sector * 0x9E3779B97F4A7C15ull) >> 40) % 512;
}

/* A load whose later lane's fill evicts an earlier lane's sector (a hit at the way replaced next) must
 * not leave a memo: the same load again misses that sector. */
static void evicting_load(void)
{
	struct sim_cta general = {.gen = 1}, words = {.gen = 1};
	uint64_t first = 1u << 16, same[5] = {first}, n = 1;
	for (uint64_t s = first + 1; n < 5; s++)
		if (set_of(s) == set_of(first))
			same[n++] = s;
	int64_t zero[32] = {0}, rel[32] = {0};
	for (int k = 0; k < 4; k++) /* the set holds same[0..3]; same[0]'s way is replaced next */
		both_words(&general, &words, same[k] * 32, zero, false);
	for (int l = 1; l < 32; l++)
		rel[l] = (int64_t)(same[4] - same[0]) * 32; /* lane 0 hits same[0], lane 1 fills over it */
	both_words(&general, &words, same[0] * 32, rel, false);
	CHECK_EQ(general.c.l1_miss, 5u);
	both_words(&general, &words, same[0] * 32, rel, false); /* same[0] is gone, same[4] is there */
	CHECK_EQ(general.c.l1_miss, 6u);
	CHECK_EQ(words.c.l1_miss, general.c.l1_miss);
	sim_l1_free(&general);
	sim_l1_free(&words);
}

int main(void)
{
	evicting_load();
	struct sim_cta general = {.gen = 1}, words = {.gen = 1};
	random_loads(&general, &words);
	walked_loads(&general, &words);
	CHECK(general.c.l1_miss > 2000000);
	/* the pattern: a column of rows a multiple of 32 bytes apart lies alike at every word; a row does not */
	int64_t column[32], row[32];
	for (int l = 0; l < 32; l++)
		column[l] = 4096 * l, row[l] = 4 * l;
	CHECK_EQ(sim_l1_pattern(column, 7), 0u);
	CHECK_EQ(sim_l1_pattern(row, 0), 0u);
	CHECK_EQ(sim_l1_pattern(row, 1), 1u);
	sim_l1_free(&general);
	sim_l1_free(&words);
	CHECK_DONE();
}
