/* test_sim_quiet_near.c — the one-load form of a quiet read's bitmap window (near_bits/near_set,
 * sim/sim_quiet.h), which the lean shared loads use for words below bit SIM_QUIET_NEAR_BITS of their
 * window, against the two-word form every other path uses (window_of/window_set): for random bitmaps,
 * windows starting at every bit of a few words and random words, the same bits read and the same
 * bitmap after setting them. */
#include <string.h>

#include "check.h"
#include "xorshift.h"
#include "sim/sim_quiet.h"

enum { WORDS = 8 }; /* the bitmap: windows start in the first 6 words, the last is the spare */

int main(void)
{
	uint64_t seed = 0x51ab1e5eedull, near[WORDS], two[WORDS];
	unsigned differ_read = 0, differ_set = 0;
	for (int round = 0; round < 200; round++) {
		for (int k = 0; k < WORDS; k++)
			near[k] = two[k] = xs_next64(&seed) & xs_next64(&seed); /* about a quarter of the bits set */
		for (uint64_t lo = 0; lo < 64 * (WORDS - 2); lo++) {
			uint64_t words = xs_next64(&seed) >> (64 - SIM_QUIET_NEAR_BITS);
			if (lo % 3 == 0)
				words = 1; /* a broadcast */
			differ_read += (near_bits(near, lo) & words) != (window_of(two, lo) & words);
			near_set(near, lo, words);
			window_set(two, lo, words);
			differ_set += memcmp(near, two, sizeof near) != 0;
		}
	}
	CHECK_EQ(differ_read, 0);
	CHECK_EQ(differ_set, 0);
	/* the last bit of the reach, at the largest shift within a byte: bit 15 + 56 = 71 */
	uint64_t map[WORDS] = {0};
	near_set(map, 15, 1ull << (SIM_QUIET_NEAR_BITS - 1));
	CHECK_EQ(map[0], 0);
	CHECK_EQ(map[1], 1ull << (15 + SIM_QUIET_NEAR_BITS - 1 - 64));
	CHECK_EQ(near_bits(map, 15) >> (SIM_QUIET_NEAR_BITS - 1), 1);
	CHECK_DONE();
}
