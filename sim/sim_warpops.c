/* sim_warpops.c — warp-collective instructions, executed once per warp with the PTX ISA's lane rules:
 * shfl.sync, vote.sync, activemask, match.sync, redux.sync, ldmatrix and mma.sync (m16n8k16/m16n8k8,
 * f16/bf16 inputs, f32 or f16 accumulators). */
#include "sim_exec.h"
#include "sim_simd.h"
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

/* Do all 32 lanes hold v[0]?  One vectorised pass (sim_simd.h). */
SIM_SIMD_CLONES static bool lanes_equal(const uint64_t *v)
{
	uint64_t diff = 0;
	for (int l = 0; l < 32; l++)
		diff |= v[l] ^ v[0];
	return diff == 0;
}

/* Does operand k hold the same value in every lane (the usual shfl offset, clamp and member mask: an
 * immediate, or a register set from one)? */
static bool uniform_operand(const struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins, int k)
{
	if (k < 0 || ins->ops[k].kind != PO_SLOT)
		return false;
	if (ins->ops[k].slot >= w->nslots)
		return true; /* a constant */
	return lanes_equal(sim_src(cta, w, ins->ops[k].slot));
}

/* shfl.sync of a full warp whose offset, clamp and member mask are the same in every lane, the mask
 * naming every lane: no member can break the rules, and each lane's source lane comes from the same
 * arithmetic as in exec_shfl, with the mode chosen once. */
static bool shfl_uniform(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	int k = member_operand(ins);
	if (mask != 0xffffffffu || !uniform_operand(cta, w, ins, k) || (uint32_t)SRC(k)[0] != 0xffffffffu ||
	    !uniform_operand(cta, w, ins, 2) || !uniform_operand(cta, w, ins, 3))
		return false;
	const struct ptx_operand *dst = &ins->ops[0];
	uint64_t *d = sim_reg(w, dst->kind == PO_VEC ? dst->vec[0] : dst->slot);
	uint64_t *p = dst->kind == PO_VEC && dst->vec[1] >= 0 ? sim_reg(w, dst->vec[1]) : NULL;
	uint64_t src[32];
	memcpy(src, SRC(1), sizeof src); /* d may be a */
	uint32_t bv = (uint32_t)SRC(2)[0], cv = (uint32_t)SRC(3)[0];
	uint32_t segmask = (cv >> 8) & 0x1f, clamp = cv & 0x1f;
	int32_t j[32];
	bool ok[32];
	for (uint32_t l = 0; l < 32; l++) { /* exec_shfl's source lane, with the mode's test hoisted */
		int32_t max_lane = (int32_t)((l & segmask) | (clamp & ~segmask));
		if (ins->sub == SHFL_UP)
			j[l] = (int32_t)l - (int32_t)bv, ok[l] = j[l] >= max_lane;
		else if (ins->sub == SHFL_DOWN)
			j[l] = (int32_t)(l + bv), ok[l] = j[l] <= max_lane;
		else if (ins->sub == SHFL_BFLY)
			j[l] = (int32_t)(l ^ bv), ok[l] = j[l] <= max_lane;
		else
			j[l] = (int32_t)((l & segmask) | (bv & 0x1f & ~segmask)), ok[l] = j[l] <= max_lane;
		j[l] = ok[l] && j[l] >= 0 && j[l] <= 31 ? j[l] : (int32_t)l;
	}
	for (int l = 0; l < 32; l++)
		d[l] = (uint32_t)src[j[l]];
	if (p)
		for (int l = 0; l < 32; l++)
			p[l] = ok[l];
	if (cta->trace) { /* the lane each lane read, as exec_shfl records it */
		uint64_t from[32];
		for (int l = 0; l < 32; l++)
			from[l] = (uint64_t)j[l];
		sim_trace_record_sync(cta, w, ins, false, mask, from);
	}
	return true;
}

static int exec_shfl(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	if (shfl_uniform(cta, w, ins, mask))
		return 0;
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

/* The wavefronts of an ldmatrix (gl_mm_ldmatrix_wavefronts) depend only on its row addresses relative to
 * lane 0's, up to a shift by whole 16-byte rows, which moves every row's bank group ((addr >> 4) & 7) by
 * the same amount.  A kernel has a few ldmatrix sites, and at each a warp's shapes seldom change (a
 * swizzled tile gives each warp its own, a loop over k may alternate two), so each (site, warp) keeps its
 * last two shapes and counts (per worker thread: a pure memo, right for any site that asks). */
struct ldsm_memo {
	const struct ptx_insn *site;
	unsigned warp, nmat, wf;
	uint32_t a0, rel[32];
};

static unsigned ldmatrix_wavefronts(const struct ptx_insn *ins, unsigned warp, const uint32_t a32[32], unsigned nmat)
{
	static _Thread_local struct ldsm_memo memo[64][2];
	static _Thread_local uint8_t older[64];
	unsigned set = (unsigned)(((uintptr_t)ins / sizeof *ins * 8 + warp) % 64);
	uint32_t rel[32];
	for (int l = 0; l < 32; l++)
		rel[l] = l < (int)(8 * nmat) ? a32[l] - a32[0] : 0;
	for (unsigned way = 0; way < 2; way++) {
		const struct ldsm_memo *m = &memo[set][way];
		uint32_t diff = (a32[0] - m->a0) & 15;
		for (int l = 0; l < 32; l++)
			diff |= rel[l] ^ m->rel[l];
		if (m->site == ins && m->warp == warp && m->nmat == nmat && !diff) {
			older[set] = (uint8_t)(1 - way);
			return m->wf;
		}
	}
	struct ldsm_memo *m = &memo[set][older[set]];
	older[set] = (uint8_t)(1 - older[set]);
	*m = (struct ldsm_memo){ins, warp, nmat, gl_mm_ldmatrix_wavefronts(a32, nmat), a32[0], {0}};
	memcpy(m->rel, rel, sizeof rel);
	return m->wf;
}

typedef uint16_t ldsm_u16x8 __attribute__((vector_size(16)));
typedef uint16_t ldsm_u16x16 __attribute__((vector_size(32)));
typedef uint32_t ldsm_u32x4 __attribute__((vector_size(16)));
typedef uint32_t ldsm_u32x8 __attribute__((vector_size(32)));
typedef uint64_t ldsm_u64x4 __attribute__((vector_size(32)));

/* Four 32-bit values into d[0..3], zero-extended. */
static inline __attribute__((always_inline)) void put4(uint64_t *d, ldsm_u32x4 v)
{
	ldsm_u64x4 x = __builtin_convertvector(v, ldsm_u64x4);
	memcpy(d, &x, sizeof x);
}

/* One matrix's register: thread t holds row t / 4, columns 2 (t % 4) and one more (the matrix's 32-bit words
 * in order), or with .trans the same of the transposed matrix: columns t / 4 of rows 2 (t % 4) and one more,
 * which pairs row 2j's and row 2j + 1's halves (threads 4i + j, i = 0..7). */
SIM_SIMD_CLONES static void ldmatrix_one(uint64_t *restrict d, const uint8_t *const r[8], bool trans)
{
	if (!trans) {
		for (int i = 0; i < 8; i++) {
			ldsm_u32x4 v;
			memcpy(&v, r[i], sizeof v);
			put4(d + 4 * i, v);
		}
		return;
	}
	ldsm_u16x8 row[8];
	for (int i = 0; i < 8; i++)
		memcpy(&row[i], r[i], sizeof row[i]);
	ldsm_u32x8 p[4]; /* p[j][i]: row 2j's half i, then row 2j + 1's */
	for (int j = 0; j < 4; j++) {
		ldsm_u16x16 z = __builtin_shufflevector(row[2 * j], row[2 * j + 1], 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13,
							6, 14, 7, 15);
		memcpy(&p[j], &z, sizeof z);
	}
	ldsm_u32x8 a = __builtin_shufflevector(p[0], p[1], 0, 8, 1, 9, 2, 10, 3, 11);
	ldsm_u32x8 ah = __builtin_shufflevector(p[0], p[1], 4, 12, 5, 13, 6, 14, 7, 15);
	ldsm_u32x8 b = __builtin_shufflevector(p[2], p[3], 0, 8, 1, 9, 2, 10, 3, 11);
	ldsm_u32x8 bh = __builtin_shufflevector(p[2], p[3], 4, 12, 5, 13, 6, 14, 7, 15);
	put4(d + 0, __builtin_shufflevector(a, b, 0, 1, 8, 9));
	put4(d + 4, __builtin_shufflevector(a, b, 2, 3, 10, 11));
	put4(d + 8, __builtin_shufflevector(a, b, 4, 5, 12, 13));
	put4(d + 12, __builtin_shufflevector(a, b, 6, 7, 14, 15));
	put4(d + 16, __builtin_shufflevector(ah, bh, 0, 1, 8, 9));
	put4(d + 20, __builtin_shufflevector(ah, bh, 2, 3, 10, 11));
	put4(d + 24, __builtin_shufflevector(ah, bh, 4, 5, 12, 13));
	put4(d + 28, __builtin_shufflevector(ah, bh, 6, 7, 14, 15));
}

/* Matrix m's register from rows[8m..8m+7]. */
static void ldmatrix_deliver(struct sim_warp *w, const struct ptx_operand *dst, unsigned nmat, bool trans,
			     const uint8_t *const rows[32])
{
	for (unsigned m = 0; m < nmat && m < 4; m++) /* .x1, .x2 or .x4: rows holds four matrices */
		ldmatrix_one(sim_reg(w, dst->vec[m]), rows + 8 * m, trans);
}

/* The counters and trace of one ldmatrix. */
static void ldmatrix_count(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const uint64_t addr[32],
			   unsigned nmat)
{
	uint32_t a32[32];
	for (int l = 0; l < 32; l++)
		a32[l] = (uint32_t)addr[l];
	unsigned wf = ldmatrix_wavefronts(ins, w->id, a32, nmat), conflicts = wf > nmat ? wf - nmat : 0;
	cta->c.ldsm_inst++;
	cta->c.ldsm_wf += wf;
	cta->c.sld_wf += wf; /* LDSM wavefronts are in ..._shared_op_ld (docs/sim.md) */
	cta->c.sld_conf += conflicts;
	cta->c.ptx_sld_wf += wf; /* one PTX ldmatrix is one LDSM */
	cta->c.ptx_sld_conf += conflicts;
	sim_spots_add(cta, ins, SIM_SPOT_SLD, conflicts);
	if (cta->trace)
		sim_trace_record(cta, w, ins, PS_SHARED, addr, nmat == 4 ? 0xffffffffu : (1u << (8 * nmat)) - 1, 16,
				 false, wf);
}

/* ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16: lanes 8k..8k+7 give matrix k's row addresses.
 * Rows all in shared memory and aligned (sim_shared_span) have their shadow recorded a warp at a time
 * (sim_shadow_read_rows) unless that would find something; anything else goes lane by lane. */
static int exec_ldmatrix(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	unsigned nmat = ins->sub;
	const struct ptx_operand *dst = &ins->ops[0];
	if (mask != 0xffffffffu || dst->kind != PO_VEC || dst->nvec != nmat)
		return sim_unsupported(cta, w, ins, "ldmatrix with a partial warp or a destination of the wrong size");
	uint64_t addr[32] = {0};
	sim_lane_addresses(cta, w, &ins->ops[1], 0xffffffffu, addr);
	sim_addr_wrap_warp((enum ptx_space)ins->space, addr, 0xffffffffu);
	uint32_t used = nmat == 4 ? 0xffffffffu : (1u << (8 * nmat)) - 1; /* the lanes giving row addresses */
	uint8_t *shared = ins->space == PS_SHARED ? sim_shared_span(cta, w, addr, used, 16) : NULL;
	uint8_t rows[32][16];
	const uint8_t *at[32];
	if (shared && sim_shadow_read_rows(cta, w, ins, used, addr, 16)) {
		FOR_LANES(used, l) at[l] = shared + addr[l]; /* read in place: no lane writes */
	} else {
		FOR_LANES(used, l) {
			enum ptx_space sp = ins->space ? (enum ptx_space)ins->space : PS_GENERIC;
			uint8_t *p = shared ? shared + addr[l]
					    : sim_translate(cta, w, (int)l, &sp, addr[l], 16, false, ins);
			if (!p)
				return 0;
			memcpy(rows[l], p, 16);
			at[l] = rows[l];
			if (sp == PS_SHARED)
				sim_shadow_read(cta, w, ins, (int)l, (uint64_t)(p - cta->shared), 16);
		}
	}
	ldmatrix_count(cta, w, ins, addr, nmat);
	ldmatrix_deliver(w, dst, nmat, ins->mods & PM_TRANS, at);
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
