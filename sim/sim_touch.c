/* sim_touch.c — which 32-byte sectors of the global buffers a launch touched (loads and stores apart):
 * one bit per sector, set with an atomic OR only when still clear, so workers share the map cheaply.
 * The count is the launch's footprint, which the time estimate's DRAM model reads (docs/insights.md). */
#include "sim_internal.h"

#include <stdlib.h>

void sim_touch_init(struct sim_touch *t, const struct sim_region *regions, int n)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int i = 0; i < n; i++)
		if (regions[i].size) {
			lo = regions[i].base < lo ? regions[i].base : lo;
			uint64_t end = regions[i].base + regions[i].size;
			hi = end > hi ? end : hi;
		}
	*t = (struct sim_touch){0};
	if (lo >= hi)
		return;
	t->first = lo / GL_SECTOR_BYTES;
	t->nsect = (hi + GL_SECTOR_BYTES - 1) / GL_SECTOR_BYTES - t->first;
	size_t words = (size_t)((t->nsect + 63) / 64);
	t->ld = gl_xcalloc(words, sizeof *t->ld);
	t->st = gl_xcalloc(words, sizeof *t->st);
}

static void mark(_Atomic uint64_t *map, uint64_t i)
{
	uint64_t bit = 1ull << (i % 64);
	if (!(atomic_load_explicit(&map[i / 64], memory_order_relaxed) & bit))
		atomic_fetch_or_explicit(&map[i / 64], bit, memory_order_relaxed);
}

void sim_touch_mark(struct sim_touch *t, bool is_store, const uint64_t addr[32], uint32_t mask, unsigned size)
{
	if (!t->ld || !size)
		return;
	_Atomic uint64_t *map = is_store ? t->st : t->ld;
	if (gl_mm_unit_stride(addr, mask, size)) { /* one span: its sectors in order, the same set of bits */
		uint64_t a = addr[0] / GL_SECTOR_BYTES, b = (addr[0] + (uint64_t)32 * size - 1) / GL_SECTOR_BYTES;
		for (uint64_t s = a; s <= b; s++)
			if (s >= t->first && s - t->first < t->nsect)
				mark(map, s - t->first);
		return;
	}
	uint64_t prev = UINT64_MAX; /* the sector just marked: neighbouring lanes mostly share one */
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		uint64_t a = addr[l] / GL_SECTOR_BYTES, b = (addr[l] + size - 1) / GL_SECTOR_BYTES;
		for (uint64_t s = a; s <= b; s++) /* addresses outside the buffers (module globals) are not counted */
			if (s != prev && s >= t->first && s - t->first < t->nsect) {
				mark(map, s - t->first);
				prev = s;
			}
	}
}

void sim_touch_mark_one(struct sim_touch *t, bool is_store, uint64_t addr, unsigned size)
{
	if (!t->ld || !size)
		return;
	_Atomic uint64_t *map = is_store ? t->st : t->ld;
	for (uint64_t s = addr / GL_SECTOR_BYTES; s <= (addr + size - 1) / GL_SECTOR_BYTES; s++)
		if (s >= t->first && s - t->first < t->nsect)
			mark(map, s - t->first);
}

void sim_touch_mark_lanes(struct sim_touch *t, bool is_store, uint64_t a0, const int64_t rel[32], uint32_t lanes)
{
	if (!t->ld)
		return;
	_Atomic uint64_t *map = is_store ? t->st : t->ld;
	for (uint32_t m = lanes; m; m &= m - 1) {
		uint64_t s = (a0 + (uint64_t)rel[__builtin_ctz(m)]) / GL_SECTOR_BYTES;
		if (s >= t->first && s - t->first < t->nsect)
			mark(map, s - t->first);
	}
}

void sim_touch_count(const struct sim_touch *t, uint64_t *ld, uint64_t *st)
{
	*ld = *st = 0;
	for (size_t w = 0; t->ld && w < (size_t)((t->nsect + 63) / 64); w++) {
		*ld += (uint64_t)__builtin_popcountll(atomic_load(&t->ld[w]));
		*st += (uint64_t)__builtin_popcountll(atomic_load(&t->st[w]));
	}
}

void sim_touch_free(struct sim_touch *t)
{
	free((void *)t->ld);
	free((void *)t->st);
	*t = (struct sim_touch){0};
}
