/* sim_addr.h — the one checked translation from a simulated address to host memory.  Every load, store,
 * atomic, ldmatrix, cp.async and printf argument read of the simulator gets its host pointer from
 * sim_addr_translate (through sim_translate in sim_internal.h, or the warp fast path in sim_mem.c, which
 * calls it for the lowest and highest lane).  The rule: an access of `size` bytes at offset `a` of a
 * space of `end` bytes is inside when size <= end && a <= end - size; `a + size <= end` is never
 * computed, because it wraps for addresses within `size` bytes of 2^64. */
#ifndef GL_SIM_ADDR_H
#define GL_SIM_ADDR_H

#include <stdbool.h>
#include <stdint.h>

#include "ptx.h"

struct sim_region {
	uint64_t base, size;
	uint8_t *host;
	const char *name;
};

/* [a, a + size) lies inside [0, end), without computing a + size. */
static inline bool sim_span_in(uint64_t a, uint64_t size, uint64_t end)
{
	return size <= end && a <= end - size;
}

/* The memory one thread reaches: the launch's global regions (buffers and the module's .global/.const
 * data at PTX_MODULE_BASE), its CTA's shared memory, its own local memory and the kernel parameters. */
struct sim_memmap {
	const struct sim_region *regions;
	int nregions;
	uint8_t *shared;
	uint64_t shared_size;
	uint8_t *local;            /* this thread's local memory */
	uint64_t local_size;
	const uint8_t *params;
	uint64_t params_size;
	uint64_t module_base;      /* where the module's .const data starts: the one region .const may reach */
};

enum sim_miss {
	SIM_HIT,
	SIM_MISALIGNED,            /* not a multiple of the access size */
	SIM_OUT_OF_BOUNDS,         /* not inside the space (global: not inside one region) */
	SIM_READ_ONLY,             /* a store to the parameter or constant space */
};

struct sim_xlat {
	uint8_t *host;             /* the access's first byte; NULL unless miss == SIM_HIT */
	enum sim_miss miss;
	enum ptx_space space;      /* the resolved space: a generic address lands in one */
	uint64_t offset;           /* the address inside that space (global and const: the device address) */
	const struct sim_region *region; /* global/const: the region holding the first byte, or NULL */
	const struct sim_region *near;   /* global/const: the highest region starting at or below it */
};

/* Generic address -> (space, offset in it): shared, local and param have one window each
 * (PTX_*_WINDOW, PTX_WINDOW_SIZE bytes); every other address is global. */
enum ptx_space sim_resolve_generic(uint64_t *addr);

/* Translate `size` bytes (1..16, a power of two for aligned spaces) at `addr` of `space` (PS_GENERIC
 * or PS_NONE: resolve by window).  Never dereferences anything; the result says what is wrong when the
 * access is not entirely inside one allocation of the resolved space. */
struct sim_xlat sim_addr_translate(const struct sim_memmap *m, enum ptx_space space, uint64_t addr, unsigned size,
				   bool is_store);

#endif
