/* sim_core.c — what every instruction executor shares: integer width helpers, the integer and float
 * comparison that setp, set, selp and the atomics use, and the finding for an unsupported form.  The
 * executors (sim_exec*.c, sim_atom.c, sim_mma.c, sim_wmma.c, sim_warpops.c, sim_call.c, sim_mem.c) call
 * these; none of them calls back into the dispatcher in sim_exec.c. */
#include "sim_core.h"

uint64_t sim_trunc(uint64_t v, unsigned bytes)
{
	return bytes >= 8 ? v : v & ((1ull << (bytes * 8)) - 1);
}

int64_t sim_sext(uint64_t v, unsigned bytes)
{
	if (bytes >= 8)
		return (int64_t)v;
	unsigned s = 64 - 8 * bytes;
	return (int64_t)(v << s) >> s;
}

static bool compare_int(enum ptx_cmp cmp, uint64_t a, uint64_t b, unsigned n, bool sgn)
{
	int64_t sa = sim_sext(a, n), sb = sim_sext(b, n);
	uint64_t ua = sim_trunc(a, n), ub = sim_trunc(b, n);
	switch (cmp) {
	case CMP_EQ: return ua == ub;
	case CMP_NE: return ua != ub;
	case CMP_LT: return sgn ? sa < sb : ua < ub;
	case CMP_LE: return sgn ? sa <= sb : ua <= ub;
	case CMP_GT: return sgn ? sa > sb : ua > ub;
	case CMP_GE: return sgn ? sa >= sb : ua >= ub;
	case CMP_LO: return ua < ub;
	case CMP_LS: return ua <= ub;
	case CMP_HI: return ua > ub;
	case CMP_HS: return ua >= ub;
	default: return false;
	}
}

bool sim_compare(const struct ptx_insn *ins, enum ptx_type t, uint64_t a, uint64_t b)
{
	if (ptx_type_is_float(t))
		return sim_compare_float((enum ptx_cmp)ins->sub, t, a, b);
	return compare_int((enum ptx_cmp)ins->sub, a, b, ptx_type_bytes(t) ? ptx_type_bytes(t) : 1,
			   ptx_type_is_signed(t));
}

int sim_unsupported(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const char *what)
{
	sim_finding(cta, ins, __builtin_ctz(w->active ? w->active : 1), "unsupported", PS_NONE, 0, 0, false,
		    "the simulator does not support %s (PTX line %d)", what, ins->line);
	return -1;
}
