/* test_sim_memmodel_memo.c — the counting fast paths against the general rules.
 * gl_mm_shared_wavefronts_memo gives gl_mm_shared_wavefronts' count for
 * every access (random shapes: broadcasts, conflicting strides, random words and bytes, every size,
 * partial masks, several call sites sharing slots), answers an access shifted by a multiple of 4
 * bytes from its entry, and recounts one shifted by anything else or with addresses of 2^31 and up. */
#include "check.h"
#include "xorshift.h"
#include "sim/memmodel.h"
#include "sector_ref.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t next(uint32_t n)
{
	return (uint32_t)(xs_next64(&rng) >> 32) % n;
}

static void shape(uint32_t a[GL_WARP], unsigned size)
{
	static const uint32_t strides[] = {0, 1, 2, 4, 8, 16, 32, 33, 64, 128};
	uint32_t kind = next(3), base = next(4096) * size, stride = strides[next(10)] * 4;
	for (int l = 0; l < GL_WARP; l++)
		a[l] = kind == 0 ? base + (uint32_t)l * stride : kind == 1 ? next(1024) * size : base + (uint32_t)(l / 4) * 128;
}

/* gl_mm_global_sectors' one-pass count of ascending lanes against a plain count of distinct sectors,
 * on ascending, descending, shuffled and wrapping addresses. */
static void global_sectors(void)
{
	static const unsigned sizes[] = {1, 2, 4, 8, 16};
	for (int i = 0; i < 20000; i++) {
		unsigned size = sizes[next(5)], kind = next(4);
		uint64_t a[GL_WARP], base = kind == 3 ? UINT64_MAX - 200 : 0x10000 + next(4096);
		uint32_t stride = next(5) * size, mask = next(2) ? 0xffffffffu : (uint32_t)rng | 1u;
		for (int l = 0; l < GL_WARP; l++)
			a[l] = kind == 0 ? base + (uint64_t)l * stride
			       : kind == 1 ? base + (uint64_t)(31 - l) * stride
			       : kind == 2 ? base + next(512) : base + (uint64_t)l * (size + 1);
		CHECK_EQ(gl_mm_global_sectors(a, mask, size), ref_distinct_sectors(a, mask, size));
	}
}

int main(void)
{
	global_sectors();
	static struct gl_mm_memo memo; /* zeroed */
	static const unsigned sizes[] = {1, 2, 4, 4, 8, 16};
	long conflicted = 0;
	for (int i = 0; i < 20000; i++) {
		unsigned size = sizes[next(6)];
		uint32_t a[GL_WARP], mask = next(3) ? 0xffffffffu : (uint32_t)rng | 1u;
		shape(a, size);
		uintptr_t site = 0x1000 + 8 * next(100);
		unsigned want = gl_mm_shared_wavefronts(a, mask, size);
		conflicted += want > gl_mm_shared_ideal_wavefronts(mask, size);
		CHECK_EQ(gl_mm_shared_wavefronts_memo(&memo, site, a, mask, size), want);
		uint32_t shift = next(4) ? 4 * next(4096) : 1 + next(3); /* a hit, or (for sub-word sizes) a new shape */
		for (int l = 0; l < GL_WARP; l++)
			a[l] += shift;
		CHECK_EQ(gl_mm_shared_wavefronts_memo(&memo, site, a, mask, size), gl_mm_shared_wavefronts(a, mask, size));
	}
	CHECK(conflicted > 2000); /* the shapes include bank conflicts */

	/* the entry answers a shift by 36 bytes (a poisoned count shows it did), not one by 2 */
	uint32_t a[GL_WARP];
	for (int l = 0; l < GL_WARP; l++)
		a[l] = 256 + 8 * (uint32_t)l; /* 2-way conflicts */
	CHECK_EQ(gl_mm_shared_wavefronts_memo(&memo, 0x42, a, 0xffffffffu, 4), 2);
	for (int i = 0; i < GL_MM_MEMO_SLOTS; i++)
		if (memo.e[i].site == 0x42)
			memo.e[i].units = 77;
	for (int l = 0; l < GL_WARP; l++)
		a[l] += 36;
	CHECK_EQ(gl_mm_shared_wavefronts_memo(&memo, 0x42, a, 0xffffffffu, 4), 77);
	for (int l = 0; l < GL_WARP; l++)
		a[l] += 2; /* misaligned 4-byte accesses: a new shape, counted */
	CHECK_EQ(gl_mm_shared_wavefronts_memo(&memo, 0x42, a, 0xffffffffu, 4), 2);
	/* addresses of 2^31 and above are always counted */
	for (int l = 0; l < GL_WARP; l++)
		a[l] = 0x80000000u + 8 * (uint32_t)l;
	CHECK_EQ(gl_mm_shared_wavefronts_memo(&memo, 0x43, a, 0xffffffffu, 4), 2);
	for (int i = 0; i < GL_MM_MEMO_SLOTS; i++)
		memo.e[i].units = 77;
	CHECK_EQ(gl_mm_shared_wavefronts_memo(&memo, 0x43, a, 0xffffffffu, 4), 2);
	CHECK_DONE();
}
