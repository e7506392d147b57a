/* sim_warpops.c — warp-collective instructions, executed once per warp with the PTX ISA's lane rules:
 * shfl.sync, vote.sync, activemask, match.sync, redux.sync, ldmatrix and mma.sync (m16n8k16/m16n8k8,
 * f16/bf16 inputs, f32 or f16 accumulators). */
#include "sim_exec.h"
#include "sim_trace.h"

static int exec_shfl(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *dst = &ins->ops[0];
	uint64_t *d = sim_reg(w, dst->kind == PO_VEC ? dst->vec[0] : dst->slot);
	uint64_t *p = dst->kind == PO_VEC && dst->vec[1] >= 0 ? sim_reg(w, dst->vec[1]) : NULL;
	const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
	uint64_t src[32];
	memcpy(src, a, sizeof src); /* d may be a */
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
		if (p)
			p[l] = ok;
	}
	return 0;
}

static int exec_vote(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	bool neg = ins->ops[1].neg;
	uint32_t ballot = 0;
	FOR_LANES(mask, l) ballot |= (uint32_t)(((a[l] & 1) != 0) != neg) << l;
	uint64_t r;
	switch (ins->sub) {
	case VOTE_ALL: r = ballot == mask; break;
	case VOTE_ANY: r = ballot != 0; break;
	case VOTE_UNI: r = ballot == 0 || ballot == mask; break;
	default: r = ballot; break;
	}
	FOR_LANES(mask, l) d[l] = r;
	return 0;
}

static int exec_match(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *dst = &ins->ops[0];
	uint64_t *d = sim_reg(w, dst->kind == PO_VEC ? dst->vec[0] : dst->slot);
	uint64_t *p = dst->kind == PO_VEC && dst->vec[1] >= 0 ? sim_reg(w, dst->vec[1]) : NULL;
	const uint64_t *a = SRC(1);
	unsigned n = ptx_type_bytes((enum ptx_type)ins->type);
	uint32_t same_all = mask;
	FOR_LANES(mask, l)
		if (sim_trunc(a[l], n) != sim_trunc(a[__builtin_ctz(mask)], n))
			same_all = 0;
	FOR_LANES(mask, l) {
		uint32_t same = 0;
		FOR_LANES(mask, k) same |= (uint32_t)(sim_trunc(a[k], n) == sim_trunc(a[l], n)) << k;
		d[l] = ins->sub == VOTE_ALL ? same_all : same;
		if (p)
			p[l] = same_all != 0;
	}
	return 0;
}

static int exec_redux(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	bool sgn = ptx_type_is_signed((enum ptx_type)ins->type);
	int64_t acc = 0;
	bool first = true;
	FOR_LANES(mask, l) {
		int64_t v = sgn ? (int32_t)a[l] : (int64_t)(uint32_t)a[l];
		switch (ins->sub) {
		case AOP_ADD: acc += v; break;
		case AOP_MIN: acc = first || v < acc ? v : acc; break;
		case AOP_MAX: acc = first || v > acc ? v : acc; break;
		case AOP_AND: acc = first ? v : (acc & v); break;
		case AOP_OR: acc |= v; break;
		case AOP_XOR: acc ^= v; break;
		default: return sim_unsupported(cta, w, ins, "this redux operation");
		}
		first = false;
	}
	FOR_LANES(mask, l) d[l] = (uint32_t)acc;
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
	cta->c.sld_wf += wf;
	cta->c.sld_conf += wf > nmat ? wf - nmat : 0;
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
