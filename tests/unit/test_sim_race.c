/* test_sim_race.c — the global race table: a race between two warps in one barrier interval is found,
 * none across a barrier or a new CTA, and the table stops growing at SIM_RACE_MAX_ENTRIES slots (words
 * beyond go unchecked) so one CTA touching a huge buffer cannot exhaust host memory.  The table holds one
 * barrier interval's words: a CTA whose intervals each touch a few thousand words keeps a small table. */
#include "check.h"
#include "xorshift.h"
#include "sim/sim_race.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static unsigned next(unsigned n)
{
	return xs_below(&rng, n);
}

/* One warp-level access through sim_race_warp on a and lane by lane through sim_race_access on b (generation
 * 5): the same result for every lane.  Returns how many lanes race. */
static long same_as_lanes(struct sim_race *a, struct sim_race *b, uint32_t epoch, unsigned warp,
			  const uint64_t addr[32], uint32_t mask, unsigned n, bool is_store)
{
	uint8_t other[32];
	uint32_t racing = sim_race_warp(a, 5, epoch, warp, addr, mask, n, is_store, other);
	long races = 0;
	for (unsigned l = 0; l < 32; l++) {
		if (!(mask >> l & 1))
			continue;
		unsigned want = sim_race_access(b, 5, epoch, warp, addr[l], n, is_store);
		CHECK_EQ(other[l], want);
		CHECK_EQ(racing >> l & 1, want != 0);
		races += want != 0;
	}
	return races;
}

/* sim_race_warp against sim_race_access lane by lane: random warp accesses (aligned words, broadcasts,
 * misaligned and partial-word lanes, 8- and 16-byte vectors) by 6 warps over 64 words, with barriers. */
static void warp_matches_lanes(void)
{
	struct sim_race a = {0}, b = {0};
	sim_race_new_cta(&a);
	sim_race_new_cta(&b);
	uint32_t epoch = 0;
	long races = 0;
	for (int step = 0; step < 5000; step++) {
		if (next(25) == 0) {
			epoch++;
			continue;
		}
		static const unsigned sizes[] = {4, 4, 4, 2, 1, 8, 16};
		unsigned n = sizes[next(7)], warp = next(6), kind = next(3), base = 0x4000 + next(64) * 4;
		bool is_store = next(2);
		uint64_t addr[32];
		for (unsigned l = 0; l < 32; l++)
			addr[l] = kind == 0 ? base : kind == 1 ? 0x4000 + (base + l * n) % 256 : 0x4000 + next(256 - 16);
		uint32_t mask = next(2) ? 0xffffffffu : (uint32_t)rng | 1u;
		races += same_as_lanes(&a, &b, epoch, warp, addr, mask, n, is_store);
	}
	CHECK(races > 1000);
	sim_race_settle(&a);
	CHECK_EQ(a.used, b.used);
	sim_race_free(&a);
	sim_race_free(&b);
}

/* Read groups (sim_race.c): full warps reading a few address sets again and again, each named by its key
 * (shape and start, as sim_mem_hot.c names them), among writes, other reads and barriers by 8 warps;
 * every result and the table's size must be the lane-by-lane path's, with the group path taken often.
 * `hot`: through sim_race_words, the hot loads' entry (full warps, always keyed, broadcasts at more
 * words), with the reads held back put in only now and then, so that its short ways (a broadcast
 * read, a read of an intact group) meet held-back reads, fresh intervals and groups broken by writes;
 * else through sim_race_warp_keyed, some warps partial or unkeyed, the held-back reads put in at once. */
static void groups_match_lanes(bool hot)
{
	struct sim_race a = {0}, b = {0};
	sim_race_new_cta(&a);
	sim_race_new_cta(&b);
	uint32_t epoch = 0;
	long races = 0;
	for (int step = 0; step < 20000; step++) {
		if (next(hot ? 300 : 200) == 0) {
			epoch++;
			continue;
		}
		/* 3 shapes (32 rows 512 bytes apart, a broadcast, a row), 4 starts each: 12 address sets */
		unsigned shape = next(3), start = next(4), warp = next(8);
		uint64_t base = shape == 0   ? 0x8000 + start * 4
				: shape == 1 ? 0x20000 + start * 4 * (hot ? next(2) : 1)
					     : 0x30000 + start * 128;
		uint64_t addr[32];
		for (unsigned l = 0; l < 32; l++)
			addr[l] = base + (shape == 0 ? l * 512 : shape == 1 ? 0 : l * 4);
		bool is_store = next(hot ? 30 : 40) == 0, keyed = hot || next(4) != 0;
		uint32_t mask = hot || next(10) ? 0xffffffffu : (uint32_t)rng | 1u;
		struct sim_race_key key = {shape + 1, base, shape == 1};
		uint8_t other[32];
		uint32_t racing = hot ? sim_race_words(&a, 5, epoch, warp, addr, is_store, &key, other)
				      : sim_race_warp_keyed(&a, 5, epoch, warp, addr, mask, 4, is_store,
							    keyed ? &key : NULL, other);
		for (unsigned l = 0; l < 32; l++) {
			if (!(mask >> l & 1))
				continue;
			unsigned want = sim_race_access(&b, 5, epoch, warp, addr[l], 4, is_store);
			CHECK_EQ(other[l], want);
			CHECK_EQ(racing >> l & 1, want != 0);
			races += want != 0;
		}
		if (!hot || next(3) == 0)
			sim_race_settle(&a); /* reads held back go in now, so that groups form as the steps go */
	}
	CHECK(races > 100);
	CHECK(a.grouped > 2000);
	sim_race_settle(&a);
	CHECK_EQ(a.used, b.used);
	sim_race_free(&a);
	sim_race_free(&b);
}

/* Many address sets in one interval (3000, each 32 rows 64 KiB apart, none sharing a word), read by 8 warps
 * in turn, then written by one: the groups must be found again by key however their index slots collide
 * (a miss only costs a read word by word), and every result must be the lane-by-lane path's. */
static void many_groups(void)
{
	struct sim_race a = {0}, b = {0};
	sim_race_new_cta(&a);
	sim_race_new_cta(&b);
	enum { SETS = 3000 };
	uint8_t other[32];
	uint64_t addr[32];
	long races = 0;
	for (unsigned round = 0; round <= 8; round++)
		for (uint64_t k = 0; k < SETS; k++) {
			bool is_store = round == 8;
			for (unsigned l = 0; l < 32; l++)
				addr[l] = 0x1000000 + k * 4 + (uint64_t)l * 65536;
			struct sim_race_key key = {1, addr[0], false};
			uint32_t racing = sim_race_words(&a, 1, 0, round % 8, addr, is_store, &key, other);
			for (unsigned l = 0; l < 32; l++) {
				unsigned want = sim_race_access(&b, 1, 0, round % 8, addr[l], 4, is_store);
				CHECK_EQ(other[l], want);
				CHECK_EQ(racing >> l & 1, want != 0);
				races += want != 0;
			}
		}
	CHECK_EQ(races, SETS * 32); /* warp 0 writes what warp 7 read last */
	CHECK(a.grouped >= 7 * SETS - 70); /* rounds 1..7 found (nearly) every group again */
	CHECK_EQ(a.used, b.used);
	sim_race_free(&a);
	sim_race_free(&b);
}

/* The warp path checks the table's room once per warp when every lane is a whole aligned word; across
 * the growth threshold it must still match the lane-by-lane path: same results, entries and size. */
static void warp_matches_lanes_at_growth(void)
{
	struct sim_race a = {0}, b = {0};
	sim_race_new_cta(&a);
	sim_race_new_cta(&b);
	long races = 0;
	for (unsigned i = 0; i < 16; i++) { /* 16 words first, so the threshold falls inside a warp */
		sim_race_access(&a, 1, 0, 2, 0x90000 + i * 4, 4, false);
		sim_race_access(&b, 1, 0, 2, 0x90000 + i * 4, 4, false);
	}
	for (uint64_t word = 0; word < 3100; word += 32) { /* contiguous warps of 32 words, writes by warp 0 */
		uint64_t addr[32];
		uint8_t other[32];
		for (unsigned l = 0; l < 32; l++)
			addr[l] = 0x10000 + (word + l) * 4;
		sim_race_warp(&a, 1, 0, 0, addr, 0xffffffffu, 4, true, other);
		for (unsigned l = 0; l < 32; l++)
			sim_race_access(&b, 1, 0, 0, addr[l], 4, true);
		CHECK_EQ(a.used, b.used);
		CHECK_EQ(a.cap, b.cap);
	}
	CHECK(a.cap > 4096); /* the table grew during one of those warps (3/4 of 4096 is 3072 words) */
	for (uint64_t word = 0; word < 3200; word += 32) { /* warp 1 reads them back, half racing */
		uint64_t addr[32];
		uint8_t other[32];
		for (unsigned l = 0; l < 32; l++)
			addr[l] = 0x10000 + (word + l + 16) * 4;
		uint32_t racing = sim_race_warp(&a, 1, 0, 1, addr, 0x5555ffffu, 4, false, other);
		for (unsigned l = 0; l < 32; l++) {
			if (!(0x5555ffffu >> l & 1))
				continue;
			unsigned want = sim_race_access(&b, 1, 0, 1, addr[l], 4, false);
			CHECK_EQ(other[l], want);
			CHECK_EQ(racing >> l & 1, want != 0);
			races += want != 0;
		}
	}
	CHECK(races > 2000);
	CHECK_EQ(a.used, b.used);
	CHECK_EQ(a.cap, b.cap);
	sim_race_free(&a);
	sim_race_free(&b);
}

/* Runs held back (sim_race.c): intervals that start with full warps' stores of 32 consecutive words, by 6
 * warps over 128 words (so runs often share words, with another warp's or their own), then any access
 * (reads, other stores, partial warps) or a barrier.  Every result and the table's size must be the
 * lane-by-lane path's, and runs must have been held back often enough to be compared. */
static void runs_match_lanes(void)
{
	struct sim_race a = {0}, b = {0};
	sim_race_new_cta(&a);
	sim_race_new_cta(&b);
	uint32_t epoch = 0;
	long races = 0;
	for (int step = 0; step < 6000; step++) {
		if (next(8) == 0) {
			epoch++;
			continue;
		}
		unsigned warp = next(6), n = 4;
		bool is_store = true, run = next(3) != 0;
		uint64_t addr[32];
		uint32_t mask = 0xffffffffu;
		if (run) {
			uint64_t first = 0x4000 / 4 + next(96);
			for (unsigned l = 0; l < 32; l++)
				addr[l] = (first + l) * 4;
		} else {
			is_store = next(2);
			n = next(4) == 0 ? 8 : 4;
			for (unsigned l = 0; l < 32; l++)
				addr[l] = 0x4000 + next(128) * 4;
			mask = next(2) ? mask : (uint32_t)rng | 1u;
		}
		races += same_as_lanes(&a, &b, epoch, warp, addr, mask, n, is_store);
	}
	CHECK(races > 1000);
	CHECK(a.held_runs > 300);
	sim_race_settle(&a);
	CHECK_EQ(a.used, b.used);
	sim_race_free(&a);
	sim_race_free(&b);
}

int main(void)
{
	warp_matches_lanes();
	runs_match_lanes();
	warp_matches_lanes_at_growth();
	groups_match_lanes(false);
	groups_match_lanes(true);
	many_groups();
	struct sim_race t = {0};
	sim_race_new_cta(&t);
	CHECK_EQ(sim_race_access(&t, 1, 0, 0, 0x1000, 4, true), 0);
	CHECK_EQ(sim_race_access(&t, 1, 0, 1, 0x1000, 4, false), 1); /* warp 1 reads what warp 0 wrote */
	CHECK_EQ(sim_race_access(&t, 1, 1, 1, 0x1000, 4, false), 0); /* after a barrier */
	sim_race_new_cta(&t);
	CHECK_EQ(sim_race_access(&t, 2, 0, 1, 0x1000, 4, false), 0); /* a new CTA starts clean */

	/* one CTA touching more distinct words than the table may hold */
	sim_race_new_cta(&t);
	uint32_t gen = 3;
	CHECK_EQ(sim_race_access(&t, gen, 0, 0, 0, 4, true), 0);
	for (uint64_t w = 1; w <= SIM_RACE_MAX_ENTRIES; w++)
		sim_race_access(&t, gen, 0, 0, w * 4, 4, true);
	CHECK_EQ(t.cap, SIM_RACE_MAX_ENTRIES);
	CHECK(4 * (uint64_t)t.used <= 3 * (uint64_t)t.cap);
	CHECK_EQ(sim_race_access(&t, gen, 0, 1, 0, 4, false), 1);       /* recorded early: still checked */
	uint64_t beyond = (uint64_t)SIM_RACE_MAX_ENTRIES * 4 + 64;
	CHECK_EQ(sim_race_access(&t, gen, 0, 0, beyond, 4, true), 0);
	CHECK_EQ(sim_race_access(&t, gen, 0, 1, beyond, 4, false), 0); /* beyond the cap: unchecked */
	CHECK_EQ(t.cap, SIM_RACE_MAX_ENTRIES);
	sim_race_free(&t);

	/* ten intervals of 3000 distinct words each: the table sized for one interval, races still found */
	struct sim_race u = {0};
	sim_race_new_cta(&u);
	for (uint32_t epoch = 0; epoch < 10; epoch++) {
		uint64_t base = 0x100000 + (uint64_t)epoch * 3000 * 4;
		for (uint64_t w = 0; w < 3000; w++)
			CHECK_EQ(sim_race_access(&u, 7, epoch, epoch % 2, base + w * 4, 4, true), 0);
		CHECK_EQ(u.used, 3000);
		CHECK_EQ(sim_race_access(&u, 7, epoch, 2, base + 1500 * 4 + 2, 2, false), epoch % 2 + 1);
		CHECK_EQ(sim_race_access(&u, 7, epoch, 2, base - 4, 4, false), 0); /* the last interval's word */
	}
	CHECK_EQ(u.cap, 4096); /* 3001 live entries fit 4096 slots; all 30000 words would need 65536 */
	sim_race_new_cta(&u);
	CHECK_EQ(sim_race_access(&u, 8, 0, 1, 0x100000, 4, false), 0); /* a new CTA: nothing carried over */
	CHECK_EQ(u.used, 1);
	sim_race_free(&u);
	CHECK_DONE();
}
