/* test_sim_memmodel_words.c — per-word wavefront assignment (the banks view's colours): hand-computed
 * cases, and on random accesses the two invariants that make it an assignment of the counted
 * wavefronts: as many as gl_mm_shared_wavefronts, and no bank serves two words in one wavefront. */
#include <stdlib.h>

#include "sim/memmodel.h"
#include "tests/unit/check.h"

#define ALL 0xffffffffu

static int max_wf(int8_t wf[32][4])
{
	int m = -1;
	for (int l = 0; l < 32; l++)
		for (int k = 0; k < 4; k++)
			if (wf[l][k] > m)
				m = wf[l][k];
	return m;
}

/* No (wavefront, bank) slot holds two different words. */
static int slots_ok(const uint32_t a[32], uint32_t mask, unsigned size, int8_t wf[32][4])
{
	static uint32_t slot[128][32];
	static int used[128][32];
	memset(used, 0, sizeof used);
	unsigned nwords = size <= 4 ? 1 : size / 4;
	for (int l = 0; l < 32; l++) {
		if (!(mask >> l & 1))
			continue;
		for (unsigned k = 0; k < nwords; k++) {
			uint32_t w = a[l] / 4 + k;
			int f = wf[l][k];
			if (f < 0 || f >= 128)
				return 0;
			if (used[f][w % 32] && slot[f][w % 32] != w)
				return 0;
			used[f][w % 32] = 1;
			slot[f][w % 32] = w;
		}
	}
	return 1;
}

static void test_hand_cases(void)
{
	uint32_t a[32];
	int8_t wf[32][4];
	for (int l = 0; l < 32; l++)
		a[l] = 128u * l; /* column of tile[32][32]: lane l waits for wavefront l */
	CHECK_EQ(gl_mm_shared_word_wavefronts(a, ALL, 4, wf), 32);
	for (int l = 0; l < 32; l++)
		CHECK_EQ(wf[l][0], l);
	CHECK_EQ(wf[3][1], -1);
	for (int l = 0; l < 32; l++)
		a[l] = 132u * l; /* padded: all in wavefront 0 */
	CHECK_EQ(gl_mm_shared_word_wavefronts(a, ALL, 4, wf), 1);
	CHECK_EQ(max_wf(wf), 0);
	for (int l = 0; l < 32; l++)
		a[l] = 8u * l; /* stride-2 words: lanes 16..31 wrap onto the banks of 0..15 */
	CHECK_EQ(gl_mm_shared_word_wavefronts(a, ALL, 4, wf), 2);
	CHECK_EQ(wf[15][0], 0);
	CHECK_EQ(wf[16][0], 1);
	CHECK_EQ(gl_mm_shared_word_wavefronts(a, 0x5, 4, wf), 1); /* lanes 0 and 2 only */
	CHECK_EQ(wf[1][0], -1);
	CHECK_EQ(wf[2][0], 0);
	CHECK_EQ(gl_mm_shared_word_wavefronts(a, 0, 4, wf), 0);
	CHECK_EQ(max_wf(wf), -1);
	/* 64-bit, consecutive: two half-warp phases; lane 16's words come in wavefront 1 */
	CHECK_EQ(gl_mm_shared_word_wavefronts(a, ALL, 8, wf), 2);
	CHECK_EQ(wf[0][0], 0);
	CHECK_EQ(wf[0][1], 0);
	CHECK_EQ(wf[16][0], 1);
	CHECK_EQ(wf[31][1], 1);
	/* 128-bit, consecutive: four quarter phases */
	for (int l = 0; l < 32; l++)
		a[l] = 16u * l;
	CHECK_EQ(gl_mm_shared_word_wavefronts(a, ALL, 16, wf), 4);
	CHECK_EQ(wf[7][3], 0);
	CHECK_EQ(wf[8][0], 1);
	CHECK_EQ(wf[24][2], 3);
	/* ldmatrix .x4 with a 128-byte row stride: 8 rows of each matrix in one bank group */
	for (int l = 0; l < 32; l++)
		a[l] = 128u * (l % 8) + 16u * (l / 8);
	CHECK_EQ(gl_mm_ldmatrix_word_wavefronts(a, 4, wf), 32);
	CHECK_EQ(wf[0][0], 0);
	CHECK_EQ(wf[7][3], 7);
	CHECK_EQ(wf[8][0], 8);
	CHECK_EQ(wf[31][0], 31);
	for (int l = 0; l < 32; l++)
		a[l] = 16u * l; /* swizzle-free consecutive rows: one wavefront per matrix */
	CHECK_EQ(gl_mm_ldmatrix_word_wavefronts(a, 4, wf), 4);
	CHECK_EQ(wf[9][0], 1);
	CHECK_EQ(gl_mm_ldmatrix_word_wavefronts(a, 1, wf), 1);
	CHECK_EQ(wf[8][0], -1);
}

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)*s;
}

static void test_random_agree(void)
{
	static const unsigned sizes[] = {1, 2, 4, 8, 16};
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int8_t wf[32][4];
	for (int iter = 0; iter < 4000; iter++) {
		unsigned size = sizes[iter % 5];
		uint32_t a[32], mask = rnd(&seed) | (iter & 1 ? ALL : 0);
		unsigned span = 1u << (4 + rnd(&seed) % 8); /* small spans make conflicts and duplicates */
		for (int l = 0; l < 32; l++)
			a[l] = (rnd(&seed) % span) / size * size;
		if (iter % 7 == 0)
			for (int l = 1; l < 32; l += 2)
				a[l] = a[l - 1]; /* merged phases for 64/128-bit */
		unsigned n = gl_mm_shared_word_wavefronts(a, mask, size, wf);
		CHECK_EQ(n, gl_mm_shared_wavefronts(a, mask, size));
		CHECK_EQ(max_wf(wf) + 1, (int)n);
		CHECK(slots_ok(a, mask, size, wf));
		unsigned nmat = 1 + iter % 4;
		for (int l = 0; l < 32; l++)
			a[l] = (rnd(&seed) % span) / 16 * 16;
		CHECK_EQ(gl_mm_ldmatrix_word_wavefronts(a, nmat, wf), gl_mm_ldmatrix_wavefronts(a, nmat));
	}
}

int main(void)
{
	test_hand_cases();
	test_random_agree();
	CHECK_DONE();
}
