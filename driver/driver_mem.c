/* driver_mem.c — the memory map: every allocation a kernel or a copy may reach, in one table sorted by
 * address, and the simulator's view of it for a launch.
 *
 * Device, pinned host and managed memory live in one arena of address space reserved at the first
 * allocation (DRV_ARENA bytes, PROT_NONE, no memory behind it until pages are touched; less where the
 * process may not reserve that much, as under a `ulimit -v` or valgrind).  Each allocation
 * starts on its own DRV_GRANULARITY granule, its granules are made readable and writable, and one
 * unmapped granule follows it, so the device address is the host address (unified addressing: what
 * cudaHostAlloc returns works on both sides, as does managed memory) and a stray access past the
 * granules ends in unmapped space.  Registered host memory and modules' data are entered at their own
 * addresses.  drv_mem_regions is the one place a launch's address map is made. */
#define _GNU_SOURCE
#include "driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/util.h"

#define DRV_ARENA (1ull << 40) /* 1 TiB of address space: 2 MiB granules for a quarter million allocations */
#define DRV_ARENA_MIN (1ull << 30)

static struct {
	uint8_t *arena;
	size_t arena_size;
	struct drv_alloc **items; /* sorted by base */
	int n, cap;
	size_t used;              /* bytes of device, host and managed allocations */
	unsigned long long next_id;
	unsigned long long counts[DRV_MEM_MODULE + 1];
} map;

static const char *kind_name(enum drv_mem_kind k)
{
	static const char *names[] = {"cudaMalloc", "cudaHostAlloc", "cudaMallocManaged", "cudaHostRegister",
				      "module data"};
	return names[k];
}

static size_t round_up(size_t n, size_t unit)
{
	return (n + unit - 1) / unit * unit;
}

size_t drv_mem_total(void)
{
	return (size_t)gl_host_memory_limit();
}

size_t drv_mem_used(void)
{
	return map.used;
}

/* Index of the first allocation whose base is >= addr. */
static int lower_bound(uint64_t addr)
{
	int lo = 0, hi = map.n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (map.items[mid]->base < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct drv_alloc *drv_mem_find(uint64_t addr, size_t bytes)
{
	if (addr == UINT64_MAX)
		return NULL;
	int i = lower_bound(addr + 1) - 1; /* the last allocation starting at or below addr */
	if (i < 0)
		return NULL;
	struct drv_alloc *a = map.items[i];
	uint64_t off = addr - a->base;
	return !a->unmapped && off <= a->size && bytes <= a->size - off && (bytes || off < a->size) ? a : NULL;
}

struct drv_alloc *drv_mem_reserved_at(uint64_t addr)
{
	int i = lower_bound(addr);
	return i < map.n && map.items[i]->base == addr ? map.items[i] : NULL;
}

struct drv_alloc *drv_mem_at(uint64_t addr)
{
	struct drv_alloc *a = drv_mem_reserved_at(addr);
	return a && !a->unmapped ? a : NULL;
}

uint8_t *drv_mem_bytes(uint64_t addr, size_t bytes, bool host_ok)
{
	struct drv_alloc *a = drv_mem_find(addr, bytes);
	if (a)
		return a->host + (addr - a->base);
	/* the program's own memory: never a range that starts in an allocation or in the arena (freed
	 * memory, guard granules), which would run past what is mapped */
	uint64_t arena = (uint64_t)(uintptr_t)map.arena;
	if (!host_ok || !addr || drv_mem_find(addr, 0) || (arena && addr - arena < map.arena_size))
		return NULL;
	return (uint8_t *)(uintptr_t)addr;
}

static int insert(struct drv_alloc *a)
{
	if (map.n == map.cap) {
		int cap = map.cap ? 2 * map.cap : 64;
		struct drv_alloc **items = realloc(map.items, (size_t)cap * sizeof *items);
		if (!items)
			return -1;
		map.items = items;
		map.cap = cap;
	}
	int i = lower_bound(a->base);
	memmove(&map.items[i + 1], &map.items[i], (size_t)(map.n - i) * sizeof *map.items);
	map.items[i] = a;
	map.n++;
	return 0;
}

/* The first gap of the arena that holds `span` bytes (first fit over the sorted table). */
static uint64_t find_gap(size_t span)
{
	uint64_t lo = (uint64_t)(uintptr_t)map.arena, end = lo + map.arena_size, at = lo;
	for (int i = 0; i < map.n; i++) {
		const struct drv_alloc *a = map.items[i];
		if (!a->span || a->base < lo || a->base >= end)
			continue;
		if (a->base - at >= span)
			return at;
		at = a->base + a->span;
	}
	return end - at >= span ? at : 0;
}

static bool arena_ready(void)
{
	if (map.arena)
		return true;
	for (size_t size = DRV_ARENA; size >= DRV_ARENA_MIN; size /= 4) {
		void *p = mmap(NULL, size + DRV_GRANULARITY, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			continue;
		map.arena = (uint8_t *)round_up((size_t)(uintptr_t)p, DRV_GRANULARITY);
		map.arena_size = size;
		return true;
	}
	return false;
}

static void name_it(struct drv_alloc *a)
{
	snprintf(a->name, sizeof a->name, "%s #%llu (%zu bytes)", kind_name(a->kind), ++map.counts[a->kind], a->size);
}

int drv_mem_alloc(enum drv_mem_kind kind, size_t size, unsigned flags, struct drv_alloc **out)
{
	if (size == 0 || size > DRV_ARENA / 2)
		return CUDA_ERROR_INVALID_VALUE;
	if (size > drv_mem_total() - map.used || !arena_ready())
		return CUDA_ERROR_OUT_OF_MEMORY;
	size_t mapped = round_up(size, DRV_GRANULARITY);
	uint64_t at = find_gap(mapped + DRV_GRANULARITY);
	struct drv_alloc *a = at ? calloc(1, sizeof *a) : NULL;
	if (!a || mprotect((void *)(uintptr_t)at, mapped, PROT_READ | PROT_WRITE) != 0) {
		free(a);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*a = (struct drv_alloc){.base = at, .size = size, .host = (uint8_t *)(uintptr_t)at,
				.span = mapped + DRV_GRANULARITY, .kind = kind, .flags = flags, .ctx = drv_ctx_current(),
				.id = ++map.next_id};
	name_it(a);
	if (insert(a) != 0) {
		mprotect((void *)(uintptr_t)at, mapped, PROT_NONE);
		free(a);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	map.used += size;
	*out = a;
	return CUDA_SUCCESS;
}

int drv_mem_enter(enum drv_mem_kind kind, uint64_t base, uint8_t *host, size_t size, unsigned flags,
		  struct drv_alloc **out)
{
	if (!size || base + size < base)
		return CUDA_ERROR_INVALID_VALUE;
	int i = lower_bound(base);
	if ((i < map.n && map.items[i]->base < base + size) || (i > 0 && drv_mem_find(base, 1)))
		return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED; /* overlaps an allocation */
	struct drv_alloc *a = calloc(1, sizeof *a);
	if (!a)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*a = (struct drv_alloc){.base = base, .size = size, .host = host, .kind = kind, .flags = flags,
				.ctx = drv_ctx_current(), .id = ++map.next_id};
	name_it(a);
	if (insert(a) != 0) {
		free(a);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*out = a;
	return CUDA_SUCCESS;
}

void drv_mem_release(struct drv_alloc *a)
{
	int i = lower_bound(a->base);
	if (i < map.n && map.items[i] == a) {
		memmove(&map.items[i], &map.items[i + 1], (size_t)(map.n - i - 1) * sizeof *map.items);
		map.n--;
	}
	if (a->span && !a->unmapped) { /* give the pages back and unmap the granules again */
		size_t mapped = a->span - DRV_GRANULARITY;
		madvise(a->host, mapped, MADV_DONTNEED);
		mprotect(a->host, mapped, PROT_NONE);
		map.used -= a->size;
	}
	free(a);
}

void drv_mem_unmap(struct drv_alloc *a)
{
	size_t mapped = a->span - DRV_GRANULARITY;
	madvise(a->host, mapped, MADV_DONTNEED);
	mprotect(a->host, mapped, PROT_NONE);
	a->unmapped = true;
	map.used -= a->size;
}

int drv_mem_remap(struct drv_alloc *a)
{
	if (!a->unmapped)
		return CUDA_SUCCESS;
	if (a->size > drv_mem_total() - map.used || mprotect(a->host, a->span - DRV_GRANULARITY, PROT_READ | PROT_WRITE))
		return CUDA_ERROR_OUT_OF_MEMORY;
	a->unmapped = false;
	map.used += a->size;
	return CUDA_SUCCESS;
}

void drv_mem_release_ctx(struct CUctx_st *ctx)
{
	for (int i = map.n - 1; i >= 0; i--)
		if (map.items[i]->ctx == ctx && map.items[i]->kind != DRV_MEM_MODULE) {
			if (map.items[i]->kind == DRV_MEM_REGISTERED) { /* the program's memory stays the program's */
				free(map.items[i]);
				memmove(&map.items[i], &map.items[i + 1], (size_t)(map.n - i - 1) * sizeof *map.items);
				map.n--;
			} else {
				drv_mem_release(map.items[i]);
			}
		}
}

static bool listed(uint64_t base, size_t size, const uint64_t *first, int nfirst)
{
	for (int k = 0; k < nfirst; k++)
		if (first[k] - base < size)
			return true;
	return false;
}

void drv_mem_regions(const uint64_t *first, int nfirst, struct gl_sim_region **out, int *n, int *ntouch)
{
	struct gl_sim_region *r = gl_xmalloc((size_t)(map.n ? map.n : 1) * sizeof *r);
	int k = 0;
	*ntouch = 0;
	/* the simulator looks regions up in order: the kernel's own buffers first; the arena's allocations
	 * before the others, as their distinct sectors are the footprint (ntouch) */
	for (int pass = 0; pass < 4; pass++) {
		for (int i = 0; i < map.n; i++) {
			const struct drv_alloc *a = map.items[i];
			bool arena = a->span != 0, mine = listed(a->base, a->size, first, nfirst);
			if (!a->unmapped && arena == (pass < 2) && mine == (pass % 2 == 0))
				r[k++] = (struct gl_sim_region){a->base, a->size, a->host, a->name};
		}
		if (pass == 1)
			*ntouch = k;
	}
	*out = r;
	*n = k;
}

void drv_mem_mapped(struct gl_sim_mapping **mapped, int *n)
{
	struct gl_sim_mapping *m = gl_xmalloc((size_t)(map.n ? map.n : 1) * sizeof *m);
	int k = 0;
	for (int i = 0; i < map.n; i++) { /* sorted by base and disjoint, as the simulator wants them */
		const struct drv_alloc *a = map.items[i];
		if (!a->unmapped)
			m[k++] = (struct gl_sim_mapping){a->base, a->span ? a->span - DRV_GRANULARITY : a->size, a->host};
	}
	*mapped = m;
	*n = k;
}
