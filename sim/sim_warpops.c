/* sim_warpops.c — warp-collective instructions, executed once per warp with the PTX ISA's lane rules:
 * shfl.sync, vote.sync, activemask, match.sync, redux.sync, ldmatrix and mma.sync (m16n8k16/m16n8k8,
 * f16/bf16 inputs, f32 or f16 accumulators). */
#include "sim_exec.h"
#include "sim_trace.h"

/* The member mask operand of a .sync collective: shfl.sync d, a, b, c, membermask; vote/match/redux.sync
 * d, a, membermask.  -1 for the legacy forms without one (vote.ballot.b32 on sm_6x). */
static int member_operand(const struct ptx_insn *ins)
{
	int at = ins->op == OP_SHFL ? 4 : 2;
	return ins->nops > at ? at : -1;
}

/* The PTX rules for a .sync collective's member masks (ISA: shfl.sync, vote.sync, match.sync, redux.sync):
 * the executing lane must be in its own mask, and every non-exited lane it names must execute the same
 * instruction with the same mask.  The first broken rule of this execution is a "warp-sync" finding (as
 * compute-sanitizer's synccheck reports it); the warp goes on with each lane's own group. */
static void check_members(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
			  const uint64_t *mm)
{
	const char *op = ptx_op_name((enum ptx_op)ins->op);
	FOR_LANES(mask, l) {
		uint32_t m = (uint32_t)mm[l], t = w->id * 32 + l;
		uint32_t absent = m & w->live & ~mask;
		if (!(m >> l & 1)) {
			sim_finding(cta, ins, (int)l, "warp-sync", PS_NONE, 0, 0, false,
				    "%s.sync in thread %u: member mask 0x%08x does not include the thread's own lane %u", op,
				    t, m, l);
			return;
		}
		if (absent) {
			unsigned k = (unsigned)__builtin_ctz(absent);
			sim_finding(cta, ins, (int)l, "warp-sync", PS_NONE, 0, 0, false,
				    "%s.sync in thread %u names lane %u (member mask 0x%08x), but thread %u does not "
				    "execute this instruction (divergent or predicated off)", op, t, k, m, w->id * 32 + k);
			return;
		}
		FOR_LANES(m & mask, k)
			if ((uint32_t)mm[k] != m) {
				sim_finding(cta, ins, (int)l, "warp-sync", PS_NONE, 0, 0, false,
					    "%s.sync: thread %u names lane %u with member mask 0x%08x, but thread %u "
					    "passes 0x%08x", op, t, k, m, w->id * 32 + k, (uint32_t)mm[k]);
				return;
			}
	}
}

/* The group each executing lane operates over: its member mask restricted to the lanes executing the
 * instruction.  Returns true when every lane has the same group (the common, fast case). */
static bool member_groups(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
			  uint32_t group[32])
{
	int k = member_operand(ins);
	const uint64_t *mm = k >= 0 ? SRC(k) : NULL;
	bool uniform = true;
	uint32_t first = mm ? (uint32_t)mm[__builtin_ctz(mask)] : mask;
	FOR_LANES(mask, l) {
		group[l] = mm ? (uint32_t)mm[l] & mask : mask;
		uniform &= !mm || (uint32_t)mm[l] == first;
	}
	if (mm && (!uniform || (mask & ~first) || (first & w->live & ~mask)))
		check_members(cta, w, ins, mask, mm);
	return uniform;
}

static int exec_shfl(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *dst = &ins->ops[0];
	uint64_t *d = sim_reg(w, dst->kind == PO_VEC ? dst->vec[0] : dst->slot);
	uint64_t *p = dst->kind == PO_VEC && dst->vec[1] >= 0 ? sim_reg(w, dst->vec[1]) : NULL;
	const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
	uint64_t src[32];
	uint32_t group[32];
	member_groups(cta, w, ins, mask, group); /* the source lane is found the same way in any group */
	memcpy(src, a, sizeof src); /* d may be a */
	uint64_t from[32]; /* the lane each lane read, for the trace */
	FOR_LANES(mask, l) {
		uint32_t bv = (uint32_t)b[l], cv = (uint32_t)c[l];
		uint32_t segmask = (cv >> 8) & 0x1f, clamp = cv & 0x1f;
		uint32_t min_lane = l & segmask, max_lane = min_lane | (clamp & ~segmask);
		int32_t j;
		bool ok;
		switch (ins->sub) {
		case SHFL_UP: j = (int32_t)l - (int32_t)bv; ok = j >= (int32_t)max_lane; break;
		case SHFL_DOWN: j = (int32_t)(l + bv); ok = j <= (int32_t)max_lane; break;
		case SHFL_BFLY: j = (int32_t)(l ^ bv); ok = j <= (int32_t)max_lane; break;
		default: j = (int32_t)(min_lane | (bv & 0x1f & ~segmask)); ok = j <= (int32_t)max_lane; break;
		}
		if (!ok || j < 0 || j > 31)
			j = (int32_t)l;
		d[l] = (uint32_t)src[j];
		from[l] = (uint64_t)j;
		if (p)
			p[l] = ok;
	}
	if (cta->trace)
		sim_trace_record_sync(cta, w, ins, false, mask, from);
	return 0;
}

static uint64_t vote_result(enum ptx_vote how, uint32_t ballot, uint32_t group)
{
	switch (how) {
	case VOTE_ALL: return ballot == group;
	case VOTE_ANY: return ballot != 0;
	case VOTE_UNI: return ballot == 0 || ballot == group;
	default: return ballot;
	}
}

static int exec_vote(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	bool neg = ins->ops[1].neg;
	uint32_t group[32];
	member_groups(cta, w, ins, mask, group);
	uint32_t ballot = 0;
	FOR_LANES(mask, l) ballot |= (uint32_t)(((a[l] & 1) != 0) != neg) << l;
	uint64_t r[32];
	FOR_LANES(mask, l) r[l] = vote_result((enum ptx_vote)ins->sub, ballot & group[l], group[l]);
	FOR_LANES(mask, l) d[l] = r[l];
	return 0;
}

static int exec_match(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *dst = &ins->ops[0];
	uint64_t *d = sim_reg(w, dst->kind == PO_VEC ? dst->vec[0] : dst->slot);
	uint64_t *p = dst->kind == PO_VEC && dst->vec[1] >= 0 ? sim_reg(w, dst->vec[1]) : NULL;
	const uint64_t *a = SRC(1);
	unsigned n = ptx_type_bytes((enum ptx_type)ins->type);
	uint32_t group[32], same[32];
	member_groups(cta, w, ins, mask, group);
	FOR_LANES(mask, l) {
		same[l] = 0;
		FOR_LANES(group[l], k) same[l] |= (uint32_t)(sim_trunc(a[k], n) == sim_trunc(a[l], n)) << k;
	}
	FOR_LANES(mask, l) {
		bool all = same[l] == group[l];
		d[l] = ins->sub == VOTE_ALL ? (all ? group[l] : 0) : same[l];
		if (p)
			p[l] = all;
	}
	return 0;
}

/* redux.sync over the lanes of `group`. */
static int redux_group(const uint64_t *a, uint32_t group, int how, bool sgn, int64_t *out)
{
	int64_t acc = 0;
	bool first = true;
	FOR_LANES(group, l) {
		int64_t v = sgn ? (int32_t)a[l] : (int64_t)(uint32_t)a[l];
		switch (how) {
		case AOP_ADD: acc += v; break;
		case AOP_MIN: acc = first || v < acc ? v : acc; break;
		case AOP_MAX: acc = first || v > acc ? v : acc; break;
		case AOP_AND: acc = first ? v : (acc & v); break;
		case AOP_OR: acc |= v; break;
		case AOP_XOR: acc ^= v; break;
		default: return -1;
		}
		first = false;
	}
	*out = acc;
	return 0;
}

static int exec_redux(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	bool sgn = ptx_type_is_signed((enum ptx_type)ins->type);
	uint32_t group[32];
	member_groups(cta, w, ins, mask, group);
	uint64_t r[32];
	/* lanes of one group share the result: reduce once per distinct group */
	for (uint32_t todo = mask; todo;) {
		uint32_t g = group[__builtin_ctz(todo)], same = 0;
		FOR_LANES(todo, l) same |= (uint32_t)(group[l] == g) << l;
		int64_t acc;
		if (redux_group(a, g, ins->sub, sgn, &acc))
			return sim_unsupported(cta, w, ins, "this redux operation");
		FOR_LANES(same, l) r[l] = (uint32_t)acc;
		todo &= ~same;
	}
	FOR_LANES(mask, l) d[l] = r[l];
	return 0;
}

/* ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16: lanes 8k..8k+7 give matrix k's row addresses. */
static int exec_ldmatrix(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	unsigned nmat = ins->sub;
	const struct ptx_operand *dst = &ins->ops[0];
	if (mask != 0xffffffffu || dst->kind != PO_VEC || dst->nvec != nmat)
		return sim_unsupported(cta, w, ins, "ldmatrix with a partial warp or a destination of the wrong size");
	uint64_t addr[32] = {0};
	sim_lane_addresses(cta, w, &ins->ops[1], 0xffffffffu, addr);
	sim_addr_wrap_warp((enum ptx_space)ins->space, addr, 0xffffffffu);
	uint16_t rows[4][8][8];
	for (unsigned m = 0; m < nmat; m++)
		for (unsigned r = 0; r < 8; r++) {
			unsigned lane = 8 * m + r;
			enum ptx_space sp = ins->space ? (enum ptx_space)ins->space : PS_GENERIC;
			uint8_t *p = sim_translate(cta, w, (int)lane, &sp, addr[lane], 16, false, ins);
			if (!p)
				return 0;
			memcpy(rows[m][r], p, 16);
			if (sp == PS_SHARED)
				sim_shadow_read(cta, w, ins, (int)lane, (uint64_t)(p - cta->shared), 16);
		}
	uint32_t a32[32];
	for (int l = 0; l < 32; l++)
		a32[l] = (uint32_t)addr[l];
	unsigned wf = gl_mm_ldmatrix_wavefronts(a32, nmat);
	cta->c.ldsm_inst++;
	cta->c.ldsm_wf += wf;
	cta->c.sld_wf += wf; /* LDSM wavefronts are in ..._shared_op_ld (docs/sim.md) */
	cta->c.sld_conf += wf > nmat ? wf - nmat : 0;
	cta->c.ptx_sld_wf += wf; /* one PTX ldmatrix is one LDSM */
	cta->c.ptx_sld_conf += wf > nmat ? wf - nmat : 0;
	sim_spots_add(cta, ins, SIM_SPOT_SLD, wf > nmat ? wf - nmat : 0);
	if (cta->trace)
		sim_trace_record(cta, w, ins, PS_SHARED, addr, nmat == 4 ? 0xffffffffu : (1u << (8 * nmat)) - 1, 16,
				 false, wf);
	bool trans = ins->mods & PM_TRANS;
	for (unsigned m = 0; m < nmat; m++) {
		uint64_t *d = sim_reg(w, dst->vec[m]);
		for (unsigned t = 0; t < 32; t++) {
			unsigned r = t / 4, c = 2 * (t % 4);
			uint16_t lo = trans ? rows[m][c][r] : rows[m][r][c];
			uint16_t hi = trans ? rows[m][c + 1][r] : rows[m][r][c + 1];
			d[t] = (uint32_t)lo | (uint32_t)hi << 16;
		}
	}
	return 0;
}

int sim_exec_collective(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	switch (ins->op) {
	case OP_SHFL: return exec_shfl(cta, w, ins, mask);
	case OP_VOTE: return exec_vote(cta, w, ins, mask);
	case OP_MATCH: return exec_match(cta, w, ins, mask);
	case OP_REDUX: return exec_redux(cta, w, ins, mask);
	case OP_ACTIVEMASK: {
		uint64_t *d = DST(0);
		FOR_LANES(mask, l) d[l] = w->active;
		return 0;
	}
	case OP_LDMATRIX: return exec_ldmatrix(cta, w, ins, mask);
	case OP_MMA: return sim_exec_mma(cta, w, ins, mask);
	default: return sim_unsupported(cta, w, ins, ptx_op_name((enum ptx_op)ins->op));
	}
}
