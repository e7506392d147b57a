/* test_sim_memmodel.c — the counting rules, with hand-computed cases (memory-model.md §1-2). */
#include <stdio.h>

#include "sim/memmodel.h"
#include "tests/unit/check.h"

#define ALL 0xffffffffu

static void strided32(uint32_t a[32], uint32_t base, uint32_t stride_words)
{
	for (int l = 0; l < 32; l++)
		a[l] = base + 4u * stride_words * (uint32_t)l;
}

static void test_global_sectors(void)
{
	uint64_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000 + 4u * l; /* coalesced floats: 128 bytes, 4 sectors */
	CHECK_EQ(gl_mm_global_sectors(a, ALL, 4), 4);
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000 + 4u * l + 4; /* misaligned by 4 bytes: spills into a 5th sector */
	CHECK_EQ(gl_mm_global_sectors(a, ALL, 4), 5);
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000 + 4096u * l; /* column walk: one sector per lane */
	CHECK_EQ(gl_mm_global_sectors(a, ALL, 4), 32);
	CHECK_EQ(gl_mm_global_sectors(a, 0, 4), 0);   /* no lane active */
	CHECK_EQ(gl_mm_global_sectors(a, 0x1, 4), 1); /* one lane */
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000 + 16u * l; /* float4: 512 bytes, 16 sectors */
	CHECK_EQ(gl_mm_global_sectors(a, ALL, 16), 16);
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000 + 8u * l; /* double: 8 sectors */
	CHECK_EQ(gl_mm_global_sectors(a, ALL, 8), 8);
	CHECK_EQ(gl_mm_global_sectors(a, 0x0000ffffu, 8), 4); /* half the warp */
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000; /* everyone reads one word */
	CHECK_EQ(gl_mm_global_sectors(a, ALL, 4), 1);
	a[0] = 0x101e; /* a 4-byte access straddling a sector boundary touches two (misaligned) */
	CHECK_EQ(gl_mm_global_sectors(a, 0x1, 4), 2);
}

static void test_global_lines(void)
{
	uint64_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000 + 4u * l; /* coalesced floats: one 128-byte line */
	CHECK_EQ(gl_mm_global_lines(a, ALL, 4), 1);
	CHECK_EQ(gl_mm_global_lines(a, ALL, 16), 2); /* 16 bytes at a 4-byte stride: 140 bytes, two lines */
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000 + 16u * l; /* float4: 512 bytes */
	CHECK_EQ(gl_mm_global_lines(a, ALL, 16), 4);
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000 + 4u * l + 4; /* misaligned by 4: the last lane spills into a second line */
	CHECK_EQ(gl_mm_global_lines(a, ALL, 4), 2);
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000 + 4096u * (31 - l); /* a column walked backwards: a line per lane */
	CHECK_EQ(gl_mm_global_lines(a, ALL, 4), 32);
	CHECK_EQ(gl_mm_global_lines(a, 0x3, 4), 2);
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000 + 32u * (l % 8); /* 4 lanes per sector, 8 sectors: two lines, revisited */
	CHECK_EQ(gl_mm_global_lines(a, ALL, 4), 2);
	CHECK_EQ(gl_mm_global_lines(a, 0, 4), 0);
}

static void test_local_sectors(void)
{
	uint64_t o[32];
	for (int l = 0; l < 32; l++)
		o[l] = 0; /* every lane's first word: 32 consecutive words, 4 sectors */
	CHECK_EQ(gl_mm_local_sectors(o, ALL, 4), 4);
	CHECK_EQ(gl_mm_local_sectors(o, ALL, 16), 16); /* 4 words per lane: 4 interleaved rows */
	CHECK_EQ(gl_mm_local_sectors(o, 0x1, 8), 2);    /* one lane, 2 words in 2 rows */
	for (int l = 0; l < 32; l++)
		o[l] = 4u * (uint64_t)l; /* each lane a different word offset: 32 rows, a sector each */
	CHECK_EQ(gl_mm_local_sectors(o, ALL, 4), 32);
	CHECK_EQ(gl_mm_local_sectors(o, 0, 4), 0);
}

static void test_shared_32bit(void)
{
	uint32_t a[32];
	strided32(a, 0, 1);
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 4), 1);
	strided32(a, 0, 2); /* 2-way */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 4), 2);
	strided32(a, 0, 4);
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 4), 4);
	strided32(a, 0, 32); /* column of a [32][32] tile: 32-way */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 4), 32);
	strided32(a, 0, 33); /* padded tile: conflict-free */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 4), 1);
	for (int l = 0; l < 32; l++)
		a[l] = 64; /* broadcast of one word */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 4), 1);
	for (int l = 0; l < 32; l++)
		a[l] = 4u * (l % 2) * 32; /* two words in bank 0: 2 wavefronts despite 16-fold reuse */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 4), 2);
	strided32(a, 0, 32);
	CHECK_EQ(gl_mm_shared_wavefronts(a, 0x0000000fu, 4), 4); /* inactive lanes don't count */
	CHECK_EQ(gl_mm_shared_wavefronts(a, 0, 4), 0);
	for (int l = 0; l < 32; l++)
		a[l] = (uint32_t)l; /* bytes: 32 lanes inside 8 words, 8 banks */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 1), 1);
	/* issue #48 of NVIDIA's code samples: shm[idx*4] floats -> 4 wavefronts per warp (3 conflicts) */
	strided32(a, 0, 4);
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 4) - gl_mm_shared_ideal_wavefronts(ALL, 4), 3);
}

static void test_shared_64bit(void)
{
	uint32_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = 8u * l; /* consecutive doubles: 2 half-warp phases, each conflict-free */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 8), 2);
	CHECK_EQ(gl_mm_shared_ideal_wavefronts(ALL, 8), 2);
	for (int l = 0; l < 32; l++)
		a[l] = 16u * l; /* stride 2 doubles: each half touches 64 words in 32 banks -> 2 each */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 8), 4);
	for (int l = 0; l < 32; l++)
		a[l] = 8u * (l / 2); /* pairs share an address: phases merge into one */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 8), 1);
	for (int l = 0; l < 32; l++)
		a[l] = 0; /* broadcast */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 8), 1);
	for (int l = 0; l < 32; l++)
		a[l] = 8u * l;
	CHECK_EQ(gl_mm_shared_wavefronts(a, 0x0000ffffu, 8), 1); /* one half active */
	CHECK_EQ(gl_mm_shared_ideal_wavefronts(0x0000ffffu, 8), 1);
	for (int l = 0; l < 32; l++)
		a[l] = 256u * l; /* 256-byte stride: 16 lanes per half in banks 0-1 -> 16 each half */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 8), 32);
}

static void test_shared_128bit(void)
{
	uint32_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = 16u * l; /* consecutive float4: 4 quarter-warp phases */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 16), 4);
	CHECK_EQ(gl_mm_shared_ideal_wavefronts(ALL, 16), 4);
	for (int l = 0; l < 32; l++)
		a[l] = 16u * (l / 2); /* lanes pair up: quarters of a half merge -> 2 */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 16), 2);
	for (int l = 0; l < 32; l++)
		a[l] = 0; /* broadcast: the halves never merge -> 2 */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 16), 2);
	for (int l = 0; l < 32; l++)
		a[l] = 128u * l; /* 128-byte stride: the 8 lanes of a quarter all in banks 0-3 -> 8 each */
	CHECK_EQ(gl_mm_shared_wavefronts(a, ALL, 16), 32);
	CHECK_EQ(gl_mm_shared_wavefronts(a, 0x000000ffu, 16), 8); /* one quarter active */
}

static void test_ldmatrix(void)
{
	uint32_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = 16u * l; /* rows packed 16 bytes apart: each matrix conflict-free */
	CHECK_EQ(gl_mm_ldmatrix_wavefronts(a, 4), 4);
	CHECK_EQ(gl_mm_ldmatrix_wavefronts(a, 1), 1);
	for (int l = 0; l < 32; l++)
		a[l] = 128u * (l % 8) + 16u * (l / 8); /* 128-byte row stride: 8 per matrix */
	CHECK_EQ(gl_mm_ldmatrix_wavefronts(a, 4), 32);
	for (int l = 0; l < 32; l++) /* XOR-swizzled rows: conflict-free again */
		a[l] = 128u * (l % 8) + 16u * ((l / 8) ^ (l % 8));
	CHECK_EQ(gl_mm_ldmatrix_wavefronts(a, 4), 4);
	/* hgemm's A tile: 64-byte rows, lane l at row l%16, column block l/16 (matrices 0-3: rows 0-7 and
	 * 8-15 of chunks 0 and 1): rows r and r+2 share a group, 4 wavefronts per matrix */
	for (int l = 0; l < 32; l++)
		a[l] = 64u * (l % 16) + 16u * (l / 16);
	CHECK_EQ(gl_mm_ldmatrix_wavefronts(a, 4), 16);
	/* the same rows through Swizzle<3,4,3> (offset ^ ((offset >> 7) & 7) << 4): one per matrix */
	for (int l = 0; l < 32; l++)
		a[l] ^= ((a[l] >> 7) & 7) << 4;
	CHECK_EQ(gl_mm_ldmatrix_wavefronts(a, 4), 4);
	/* two lanes of a matrix giving the same row read it once */
	for (int l = 0; l < 32; l++)
		a[l] = 128u * ((l % 8) / 2);
	CHECK_EQ(gl_mm_ldmatrix_wavefronts(a, 1), 4);
}

/* One access: its wavefronts, phases and bank conflicts (wavefronts - phases). */
static void check_access(const uint32_t a[32], uint32_t mask, unsigned size, unsigned wf, unsigned phases, int line)
{
	unsigned got_wf = gl_mm_shared_wavefronts(a, mask, size), got_ph = gl_mm_shared_phases(a, mask, size);
	if (got_wf != wf || got_ph != phases)
		fprintf(stderr, "line %d: %u-byte access: %u wavefronts, %u phases (want %u, %u)\n", line, size, got_wf,
			got_ph, wf, phases);
	CHECK_EQ(got_wf, wf);
	CHECK_EQ(got_ph, phases);
	CHECK_EQ(gl_mm_shared_conflicts(got_wf, got_ph), wf - phases);
}
#define ACCESS(a, mask, size, wf, phases) check_access(a, mask, size, wf, phases, __LINE__)

/* Every width against its broadcast patterns: lanes on distinct addresses, all on one, pairs (i, i^1),
 * a half or a quarter reading one address, a half repeating the other half's addresses. */
static void test_shared_phases(void)
{
	uint32_t a[32];
	/* 32 bits: always one phase, so conflicts = wavefronts - 1 */
	strided32(a, 0, 1);
	ACCESS(a, ALL, 4, 1, 1);
	for (int l = 0; l < 32; l++)
		a[l] = 64;
	ACCESS(a, ALL, 4, 1, 1);
	for (int l = 0; l < 32; l++)
		a[l] = 256u * (l / 16); /* each half broadcasts one word, both in bank 0 */
	ACCESS(a, ALL, 4, 2, 1);
	strided32(a, 0, 32);
	ACCESS(a, ALL, 4, 32, 1);
	ACCESS(a, 0, 4, 0, 0);
	for (int l = 0; l < 32; l++)
		a[l] = (uint32_t)l;
	ACCESS(a, ALL, 1, 1, 1);

	/* 64 bits: two half-warp phases unless they merge */
	for (int l = 0; l < 32; l++)
		a[l] = 8u * l; /* distinct, consecutive */
	ACCESS(a, ALL, 8, 2, 2);
	for (int l = 0; l < 32; l++)
		a[l] = 0; /* broadcast */
	ACCESS(a, ALL, 8, 1, 1);
	for (int l = 0; l < 32; l++)
		a[l] = 8u * (l / 2); /* pairs share an address: one phase */
	ACCESS(a, ALL, 8, 1, 1);
	for (int l = 0; l < 32; l++)
		a[l] = 256u * (l / 16); /* each half broadcasts one double, both in banks 0-1: merged, 2-way */
	ACCESS(a, ALL, 8, 2, 1);
	for (int l = 0; l < 32; l++)
		a[l] = 8u * (l % 16); /* the second half repeats the first: its wavefront is a conflict */
	ACCESS(a, ALL, 8, 2, 1);
	for (int l = 0; l < 32; l++)
		a[l] = 256u * l; /* 256-byte stride: 16-way in each half */
	ACCESS(a, ALL, 8, 32, 2);
	for (int l = 0; l < 32; l++)
		a[l] = 8u * l;
	ACCESS(a, 0x0000ffffu, 8, 1, 1); /* one half active */
	ACCESS(a, 0x00010001u, 8, 2, 1); /* lanes 0 and 16: partners off, so one phase, both in banks 0-1 */

	/* 128 bits: quarter-warp phases, merged inside a half, never across halves for the wavefronts */
	for (int l = 0; l < 32; l++)
		a[l] = 16u * l; /* distinct, consecutive */
	ACCESS(a, ALL, 16, 4, 4);
	for (int l = 0; l < 32; l++)
		a[l] = 16u * (l / 2); /* pairs: each half one phase */
	ACCESS(a, ALL, 16, 2, 2);
	for (int l = 0; l < 32; l++)
		a[l] = 0; /* broadcast: two wavefronts (one per half) for one phase of data */
	ACCESS(a, ALL, 16, 2, 1);
	for (int l = 0; l < 32; l++)
		a[l] = 256u * (l / 8); /* 4 chunks in banks 0-3, one per quarter: each half 2-way */
	ACCESS(a, ALL, 16, 4, 2);
	for (int l = 0; l < 32; l++)
		a[l] = 256u * (l / 16); /* 2 chunks in banks 0-3, one per half: conflict-free */
	ACCESS(a, ALL, 16, 2, 2);
	for (int l = 0; l < 32; l++)
		a[l] = 32u * (l % 16); /* 16 chunks 32 bytes apart, the second half repeating the first */
	ACCESS(a, ALL, 16, 8, 2);
	for (int l = 0; l < 32; l++)
		a[l] = 16u * (l % 4); /* every quarter reads the same 4 chunks (NVIDIA forum 77228) */
	ACCESS(a, ALL, 16, 4, 1);
	for (int l = 0; l < 32; l++)
		a[l] = 128u * l; /* 128-byte stride: 8-way in each quarter (forum 359822: 32 and 28) */
	ACCESS(a, ALL, 16, 32, 4);
	ACCESS(a, 0x000000ffu, 16, 8, 1); /* one quarter active */
	for (int l = 0; l < 32; l++)
		a[l] = 16u * l;
	ACCESS(a, 0x00000303u, 16, 2, 1); /* lanes 0,1 and 8,9: their i^2 partners are off, so the quarters
					   * merge into one phase, where chunks 0 and 8 share banks 0-3 */
}

/* SGEMM_CUDA's kernel 5 (2D blocktiling, 128x128x8 tiles, 8x8 outputs per thread, 256 threads) with its
 * K-slice loop unrolled: per warp and slice, 16 LDS.128 of As (a thread's row: threadRow = tid / 16,
 * rows 8 floats apart) and 16 LDS.128 of Bs (threadCol = tid % 16, 8 floats per thread).  At 4096^3:
 * 1024 CTAs x 8 warps x 512 slices.  An RTX 3080 reports 402,653,184 load bank conflicts. */
static void test_blocktiling_sgemm(void)
{
	uint32_t as[32], bs[32];
	uint64_t total = 0;
	for (unsigned warp = 0; warp < 8; warp++)
		for (unsigned k = 0; k < 8; k++)
			for (unsigned half = 0; half < 2; half++) {
				for (unsigned i = 0; i < 8; i++) { /* row i of the thread's 8 rows of As, words 4*half.. */
					for (int l = 0; l < 32; l++)
						as[l] = 4u * (((32 * warp + l) / 16 * 8 + i) * 8 + 4 * half);
					if (k == 0) /* the As reads do not depend on k: 16 per slice in all */
						total += gl_mm_shared_conflicts(gl_mm_shared_wavefronts(as, ALL, 16),
										gl_mm_shared_phases(as, ALL, 16));
				}
				for (int l = 0; l < 32; l++)
					bs[l] = 4096 + 4u * (k * 128 + (32 * warp + l) % 16 * 8 + 4 * half);
				total += gl_mm_shared_conflicts(gl_mm_shared_wavefronts(bs, ALL, 16), gl_mm_shared_phases(bs, ALL, 16));
			}
	CHECK_EQ(total, 8u * 96);               /* per CTA and K slice: 16 x 0 for As, 16 x 6 for Bs per warp */
	CHECK_EQ(total * 1024 * 512, 402653184); /* the grid and the K slices */
}

int main(void)
{
	test_global_sectors();
	test_global_lines();
	test_local_sectors();
	test_shared_32bit();
	test_shared_64bit();
	test_shared_128bit();
	test_ldmatrix();
	test_shared_phases();
	test_blocktiling_sgemm();
	CHECK_DONE();
}
