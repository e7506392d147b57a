/* test_sim_unit_stride.c — the coalesced-warp fast paths against the lane-by-lane rules: for warps whose
 * 32 lanes access one contiguous span in lane order (gl_mm_unit_stride), gl_mm_global_sectors counts the
 * span by arithmetic and sim_touch_mark marks its sectors as one range; both must give what the general
 * path gives (distinct sectors counted by hand; the touch map marked one lane at a time), for every size,
 * aligned and misaligned bases, spans crossing a buffer's ends, and near-unit-stride warps that must not
 * take the fast path. */
#include "check.h"
#include "xorshift.h"
#include "sim/sim_internal.h"
#include "sector_ref.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(uint64_t n)
{
	return (xs_next64(&rng) >> 16) % n;
}

static void test_detect(void)
{
	uint64_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = 0x1000 + 4u * (unsigned)l;
	CHECK(gl_mm_unit_stride(a, 0xffffffffu, 4));
	CHECK(!gl_mm_unit_stride(a, 0x7fffffffu, 4)); /* a lane off */
	CHECK(!gl_mm_unit_stride(a, 0xffffffffu, 8)); /* overlapping lanes are not one span in order */
	a[31] += 4;
	CHECK(!gl_mm_unit_stride(a, 0xffffffffu, 4));
	for (int l = 0; l < 32; l++)
		a[l] = UINT64_MAX - 64 + 4u * (unsigned)l; /* wraps past the top of the address space */
	CHECK(!gl_mm_unit_stride(a, 0xffffffffu, 4));
}

static void test_sectors(void)
{
	static const unsigned sizes[] = {1, 2, 4, 8, 16};
	int fast = 0;
	for (int i = 0; i < 20000; i++) {
		unsigned size = sizes[next(5)];
		uint64_t a[32], base = 0x10000 + next(4096) * (next(2) ? size : 1);
		for (int l = 0; l < 32; l++)
			a[l] = base + (uint64_t)l * size;
		if (next(4) == 0) /* a near miss: one lane elsewhere */
			a[next(32)] += size * (1 + next(3));
		uint32_t mask = next(8) ? 0xffffffffu : (uint32_t)rng | 1u;
		fast += gl_mm_unit_stride(a, mask, size);
		CHECK_EQ(gl_mm_global_sectors(a, mask, size), ref_distinct_sectors(a, mask, size));
	}
	CHECK(fast > 10000);
}

/* Both touch maps hold the same bits, and more than `least` sectors of each kind were marked; frees both. */
static void check_same_maps(struct sim_touch *fast, struct sim_touch *slow, uint64_t least)
{
	size_t words = (size_t)((fast->nsect + 63) / 64);
	int same = 1;
	for (size_t w = 0; w < words; w++)
		same &= fast->ld[w] == slow->ld[w] && fast->st[w] == slow->st[w];
	CHECK(same);
	uint64_t ld, st;
	sim_touch_count(fast, &ld, &st);
	CHECK(ld > least && st > least);
	sim_touch_free(fast);
	sim_touch_free(slow);
}

static void test_touch(void)
{
	struct sim_region regions[2] = {{.base = 0x10000, .size = 3000}, {.base = 0x11000, .size = 500}};
	struct sim_touch fast, slow;
	sim_touch_init(&fast, regions, 2);
	sim_touch_init(&slow, regions, 2);
	static const unsigned sizes[] = {1, 2, 4, 8, 16};
	for (int i = 0; i < 400; i++) {
		unsigned size = sizes[next(5)];
		bool is_store = next(2);
		uint64_t a[32], base = 0xf000 + next(0x3000); /* spans below, inside, between and past the buffers */
		for (int l = 0; l < 32; l++)
			a[l] = base + (uint64_t)l * size;
		CHECK(gl_mm_unit_stride(a, 0xffffffffu, size));
		sim_touch_mark(&fast, is_store, a, 0xffffffffu, size);
		for (int l = 0; l < 32; l++)
			sim_touch_mark(&slow, is_store, a, 1u << l, size); /* one lane: the general path */
		uint64_t fl, fs, sl, ss;
		sim_touch_count(&fast, &fl, &fs);
		sim_touch_count(&slow, &sl, &ss);
		CHECK_EQ(fl, sl);
		CHECK_EQ(fs, ss);
	}
	check_same_maps(&fast, &slow, 50);
}

/* sim_touch_mark_lanes (a hot access: whole words, lane 0 and each lane whose sector is not its
 * predecessor's) against marking the 32 words one lane at a time: scattered, strided and clustered
 * shapes over and around the buffers. */
static void test_touch_lanes(void)
{
	struct sim_region regions[2] = {{.base = 0x10000, .size = 3000}, {.base = 0x11000, .size = 500}};
	struct sim_touch fast, slow;
	sim_touch_init(&fast, regions, 2);
	sim_touch_init(&slow, regions, 2);
	for (int i = 0; i < 400; i++) {
		bool is_store = next(2);
		uint64_t a0 = 0xf000 + 4 * next(0x1000), a[32];
		int64_t rel[32];
		unsigned kind = (unsigned)next(3), stride = 4 * (1 + (unsigned)next(40));
		for (int l = 0; l < 32; l++)
			rel[l] = kind == 0 ? (int64_t)stride * l : kind == 1 ? 4 * (int64_t)(l / 8) : 4 * ((int64_t)next(256) - 128);
		for (int l = 31; l >= 0; l--)
			rel[l] -= rel[0];
		uint32_t lanes = 1;
		for (int l = 0; l < 32; l++) {
			a[l] = a0 + (uint64_t)rel[l];
			if (l && a[l] / 32 != a[l - 1] / 32)
				lanes |= 1u << l;
		}
		sim_touch_mark_lanes(&fast, is_store, a0, rel, lanes);
		for (int l = 0; l < 32; l++)
			sim_touch_mark(&slow, is_store, a, 1u << l, 4);
	}
	check_same_maps(&fast, &slow, 20);
}

int main(void)
{
	test_detect();
	test_sectors();
	test_touch();
	test_touch_lanes();
	CHECK_DONE();
}
