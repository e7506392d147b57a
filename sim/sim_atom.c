/* sim_atom.c — atom and red (16, 32 and 64 bits, packed f16x2/bf16x2 adds) on global and shared
 * memory.  Lanes apply in lane order; global memory is
 * shared by the worker threads running other CTAs, so global updates are real host atomics (a CAS
 * loop), which keeps every update even when CTAs race; only the order between CTAs may differ. */
#include "sim_exec.h"
#include "sim_trace.h"

/* add.noftz.f16x2 / .bf16x2: each half rounded on its own. */
static uint64_t add_packed(uint64_t old, uint64_t b, enum ptx_type t)
{
	enum ptx_type e = t == PT_F16X2 ? PT_F16 : PT_BF16;
	uint64_t r = 0;
	for (int h = 0; h < 2; h++) {
		double x = sim_to_double((old >> (16 * h)) & 0xffff, e), y = sim_to_double((b >> (16 * h)) & 0xffff, e);
		r |= (sim_from_double(x + y, e, PR_RN) & 0xffff) << (16 * h);
	}
	return r;
}

static uint64_t apply(const struct ptx_insn *ins, uint64_t old, uint64_t b, uint64_t c, unsigned n)
{
	enum ptx_type t = (enum ptx_type)ins->type;
	bool sgn = ptx_type_is_signed(t);
	switch (ins->sub) {
	case AOP_ADD:
		if (t == PT_F16X2 || t == PT_BF16X2)
			return add_packed(old, b, t);
		if (ptx_type_is_float(t))
			return sim_from_double(sim_to_double(old, t) + sim_to_double(b, t), t, PR_RN);
		return old + b;
	case AOP_MIN:
		if (ptx_type_is_float(t))
			return sim_to_double(b, t) < sim_to_double(old, t) ? b : old;
		return sgn ? (sim_sext(b, n) < sim_sext(old, n) ? b : old) : (sim_trunc(b, n) < old ? b : old);
	case AOP_MAX:
		if (ptx_type_is_float(t))
			return sim_to_double(b, t) > sim_to_double(old, t) ? b : old;
		return sgn ? (sim_sext(b, n) > sim_sext(old, n) ? b : old) : (sim_trunc(b, n) > old ? b : old);
	case AOP_INC: return old >= sim_trunc(b, n) ? 0 : old + 1;
	case AOP_DEC: return (old == 0 || old > sim_trunc(b, n)) ? b : old - 1;
	case AOP_EXCH: return b;
	case AOP_CAS: return old == sim_trunc(b, n) ? c : old;
	case AOP_AND: return old & b;
	case AOP_OR: return old | b;
	case AOP_XOR: return old ^ b;
	default: return old;
	}
}

/* Read-modify-write one location of 2, 4 or 8 bytes; returns the old value.  Shared memory belongs to
 * the one CTA this worker runs; global memory is updated with a host compare-and-swap loop. */
#define RMW(T)                                                                                                 \
	do {                                                                                                   \
		T *q = (T *)(void *)p;                                                                         \
		T old = shared_space ? *q : __atomic_load_n(q, __ATOMIC_RELAXED);                              \
		for (;;) {                                                                                     \
			T nv = (T)apply(ins, old, b, c, sizeof(T));                                            \
			if (shared_space) {                                                                    \
				*q = nv;                                                                       \
				return old;                                                                    \
			}                                                                                      \
			if (__atomic_compare_exchange_n(q, &old, nv, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
				return old;                                                                    \
		}                                                                                              \
	} while (0)

static uint64_t rmw(const struct ptx_insn *ins, uint8_t *p, uint64_t b, uint64_t c, unsigned n, bool shared_space)
{
	switch (n) {
	case 2: RMW(uint16_t);
	case 4: RMW(uint32_t);
	default: RMW(uint64_t);
	}
}
#undef RMW

/* One warp-level atomic: ATOMS for the lanes in shared memory (a generic address may land there), an
 * L1TEX request with its sectors for the lanes in global memory, which a traced CTA also records. */
static void count_atom(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const uint64_t addr[32],
		       uint32_t mask, unsigned n)
{
	uint32_t shared = 0;
	if (ins->space == PS_SHARED)
		shared = mask;
	else if (ins->space != PS_GLOBAL)
		FOR_LANES(mask, l)
			if (addr[l] - PTX_SHARED_WINDOW < PTX_WINDOW_SIZE)
				shared |= 1u << l;
	uint32_t global = mask & ~shared;
	if (shared)
		cta->c.satom_inst++;
	if (!global)
		return;
	sim_touch_mark(&cta->L->touch, true, addr, global, n);
	unsigned sectors = gl_mm_global_sectors(addr, global, n);
	if (ins->op == OP_RED) {
		cta->c.gred_req++;
		cta->c.gred_sect += sectors;
	} else {
		cta->c.gatom_req++;
		cta->c.gatom_sect += sectors;
	}
	if (cta->trace)
		sim_trace_record(cta, w, ins, PS_GLOBAL, addr, global, n, true, sectors);
}

int sim_exec_atom(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	bool has_dst = ins->op == OP_ATOM;
	int first = has_dst ? 1 : 0;
	unsigned n = ptx_type_bytes((enum ptx_type)ins->type);
	if (n != 2 && n != 4 && n != 8)
		return sim_unsupported(cta, w, ins, "atomics on types other than 16, 32 and 64 bits");
	if (ins->sub == AOP_NONE)
		return sim_unsupported(cta, w, ins, "this atomic operation");
	uint64_t addr[32];
	sim_lane_addresses(cta, w, &ins->ops[first], mask, addr);
	sim_addr_wrap_warp((enum ptx_space)ins->space, addr, mask);
	count_atom(cta, w, ins, addr, mask, n);
	const uint64_t *b = sim_src(cta, w, ins->ops[first + 1].slot);
	const uint64_t *c = ins->nops > first + 2 ? sim_src(cta, w, ins->ops[first + 2].slot) : b;
	uint64_t *d = has_dst ? DST(0) : NULL;
	FOR_LANES(mask, l) {
		enum ptx_space sp = ins->space ? (enum ptx_space)ins->space : PS_GENERIC;
		uint8_t *p = sim_translate(cta, w, (int)l, &sp, addr[l], n, true, ins);
		if (!p)
			continue;
		uint64_t old = rmw(ins, p, sim_trunc(b[l], n), sim_trunc(c[l], n), n, sp == PS_SHARED);
		if (sp == PS_SHARED)
			sim_shadow_atomic(cta, w, (uint64_t)(p - cta->shared), n);
		if (d)
			d[l] = ptx_type_is_signed((enum ptx_type)ins->type) ? (uint64_t)sim_sext(old, n) : old;
	}
	return 0;
}
