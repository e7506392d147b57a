/* sim_addr.h — the one checked translation from a simulated address to host memory.  Every load, store,
 * atomic, ldmatrix, cp.async and printf argument read of the simulator gets its host pointer from
 * sim_addr_translate (through sim_translate in sim_internal.h, or the warp fast path in sim_mem.c, which
 * calls it for the lowest and highest lane).  The rule: an access of `size` bytes at offset `a` of a
 * space of `end` bytes is inside when size <= end && a <= end - size; `a + size <= end` is never
 * computed, because it wraps for addresses within `size` bytes of 2^64.
 *
 * Address widths (PTX ISA, "Addresses as Operands"; docs/sim.md, "Address widths"): an address is
 * truncated to its state space's width.  .shared and .local addresses are 32 bits wide, so
 * [reg + offset] in those spaces wraps modulo 2^32 whatever the register's width (nvcc -O3 addresses
 * shared arrays as a "negative" 32-bit base plus a positive offset).  Generic, global, const and param
 * addresses are 64 bits wide (.address_size 64) and never wrap at 32 bits. */
#ifndef GL_SIM_ADDR_H
#define GL_SIM_ADDR_H

#include <stdbool.h>
#include <stdint.h>

#include "ptx.h"
#include "sim.h"

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
	const struct gl_sim_mapping *mapped; /* mapped device memory around the regions (sim.h); may be NULL */
	int nmapped;
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
	uint8_t *mapped;           /* a global access outside every region whose bytes all lie in one mapping:
				    * its first byte there (what a GPU would access); NULL otherwise */
};

/* The address an access of `space` makes of the 64-bit sum `a` of its register and offset: the low 32
 * bits for .shared and .local, `a` itself for every other space.  A generic address is never cut: the
 * offset it resolves to in the shared or local window is below 4 GiB already (PTX_WINDOW_SIZE). */
static inline uint64_t sim_addr_wrap(enum ptx_space space, uint64_t a)
{
	return space == PS_SHARED || space == PS_LOCAL ? (uint32_t)a : a;
}

/* sim_addr_wrap for the lanes of `mask`, in place: what every warp-level access of an instruction
 * family does to its lanes' addresses before counting, tracing, shadowing or translating them. */
void sim_addr_wrap_warp(enum ptx_space space, uint64_t addr[32], uint32_t mask);

/* Generic address -> (space, offset in it): shared, local and param have one window each
 * (PTX_*_WINDOW, PTX_WINDOW_SIZE bytes); every other address is global. */
enum ptx_space sim_resolve_generic(uint64_t *addr);

/* Translate `size` bytes (1..16, a power of two for aligned spaces) at `addr` of `space` (PS_GENERIC
 * or PS_NONE: resolve by window; .shared and .local: cut by sim_addr_wrap first).  Never dereferences
 * anything; the result says what is wrong when the access is not entirely inside one allocation of the
 * resolved space. */
struct sim_xlat sim_addr_translate(const struct sim_memmap *m, enum ptx_space space, uint64_t addr, unsigned size,
				   bool is_store);

#endif
