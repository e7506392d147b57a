/* sim_addr.c — the checked translation of sim_addr.h: simulated address + size + space -> host pointer
 * or the reason there is none.  Nothing here adds a size to an address (see the rule in the header). */
#include "sim_addr.h"
#include "sim_simd.h"

/* A full warp: one pass the compiler vectorises (sim_simd.h). */
SIM_SIMD_CLONES static void cut_warp(uint64_t *addr)
{
	for (int l = 0; l < 32; l++)
		addr[l] &= 0xffffffffu;
}

void sim_addr_wrap_warp(enum ptx_space space, uint64_t addr[32], uint32_t mask)
{
	if (space != PS_SHARED && space != PS_LOCAL)
		return;
	if (mask == 0xffffffffu) {
		cut_warp(addr);
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		addr[l] = (uint32_t)addr[l];
	}
}

enum ptx_space sim_resolve_generic(uint64_t *addr)
{
	/* a - W < SIZE is a range test that cannot wrap: addresses below W become huge */
	if (*addr - PTX_SHARED_WINDOW < PTX_WINDOW_SIZE) {
		*addr -= PTX_SHARED_WINDOW;
		return PS_SHARED;
	}
	if (*addr - PTX_LOCAL_WINDOW < PTX_WINDOW_SIZE) {
		*addr -= PTX_LOCAL_WINDOW;
		return PS_LOCAL;
	}
	if (*addr - PTX_PARAM_WINDOW < PTX_WINDOW_SIZE) {
		*addr -= PTX_PARAM_WINDOW;
		return PS_PARAM;
	}
	return PS_GLOBAL;
}

static void find_region(const struct sim_memmap *m, uint64_t addr, struct sim_xlat *x)
{
	for (int i = 0; i < m->nregions; i++) {
		const struct sim_region *r = &m->regions[i];
		if (addr - r->base < r->size) {
			x->region = r;
			return;
		}
		if (addr >= r->base && (!x->near || r->base > x->near->base))
			x->near = r;
	}
}

/* The mapping holding all `size` bytes at `addr`, or NULL. */
static uint8_t *find_mapped(const struct sim_memmap *m, uint64_t addr, unsigned size)
{
	for (int i = 0; i < m->nmapped; i++) {
		const struct gl_sim_mapping *g = &m->mapped[i];
		if (addr - g->base < g->size && sim_span_in(addr - g->base, size, g->size))
			return g->host + (addr - g->base);
	}
	return NULL;
}

/* One contiguous space of `end` bytes at `host`. */
static void in_space(struct sim_xlat *x, uint8_t *host, uint64_t end, unsigned size)
{
	if (host && sim_span_in(x->offset, size, end))
		x->host = host + x->offset;
	else
		x->miss = SIM_OUT_OF_BOUNDS;
}

struct sim_xlat sim_addr_translate(const struct sim_memmap *m, enum ptx_space space, uint64_t addr, unsigned size,
				   bool is_store)
{
	struct sim_xlat x = {.space = space, .offset = sim_addr_wrap(space, addr), .miss = SIM_HIT};
	if (space == PS_GENERIC || space == PS_NONE)
		x.space = sim_resolve_generic(&x.offset);
	/* parameters are packed by the caller's layout, so only they may be unaligned */
	if (size > 1 && (x.offset & (size - 1)) && x.space != PS_PARAM) {
		x.miss = SIM_MISALIGNED;
		return x;
	}
	switch (x.space) {
	case PS_SHARED:
		in_space(&x, m->shared, m->shared_size, size);
		return x;
	case PS_LOCAL:
		in_space(&x, m->local, m->local_size, size);
		return x;
	case PS_PARAM:
		if (is_store)
			x.miss = SIM_READ_ONLY;
		else
			in_space(&x, (uint8_t *)m->params, m->params_size, size);
		return x;
	default:
		break;
	}
	find_region(m, x.offset, &x);
	const struct sim_region *r = x.region;
	if (x.space == PS_CONST && is_store)
		x.miss = SIM_READ_ONLY;
	else if (r && (x.space != PS_CONST || r->base == m->module_base) && sim_span_in(x.offset - r->base, size, r->size))
		x.host = r->host + (x.offset - r->base);
	else
		x.miss = SIM_OUT_OF_BOUNDS;
	if (x.miss == SIM_OUT_OF_BOUNDS && x.space == PS_GLOBAL)
		x.mapped = find_mapped(m, x.offset, size);
	return x;
}
