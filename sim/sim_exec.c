/* sim_exec.c — executes one decoded instruction for the lanes of a warp: the dispatch, integer and bit
 * arithmetic, moves, comparisons and control flow.  Floats and conversions are in sim_exec_float.c,
 * memory in sim_mem.c, warp collectives in sim_warpops.c. */
#include "sim_exec.h"
#include "sim_trace.h"

/* add/sub/mul/mad/min/max/div/rem/abs/neg on integers of 16, 32 or 64 bits. */
static uint64_t int_arith(const struct ptx_insn *ins, uint64_t a, uint64_t b, uint64_t c, unsigned n, bool sgn)
{
	int64_t sa = sim_sext(a, n), sb = sim_sext(b, n);
	uint64_t ua = sim_trunc(a, n), ub = sim_trunc(b, n);
	switch (ins->op) {
	case OP_ADD:
		if ((ins->mods & PM_SAT) && sgn && n == 4) {
			int64_t r = sa + sb;
			return (uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
		}
		return ua + ub;
	case OP_SUB:
		if ((ins->mods & PM_SAT) && sgn && n == 4) {
			int64_t r = sa - sb;
			return (uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
		}
		return ua - ub;
	case OP_MIN: return sgn ? (uint64_t)(sa < sb ? sa : sb) : (ua < ub ? ua : ub);
	case OP_MAX: return sgn ? (uint64_t)(sa > sb ? sa : sb) : (ua > ub ? ua : ub);
	case OP_ABS: return (uint64_t)(sa < 0 ? -(uint64_t)sa : (uint64_t)sa);
	case OP_SAD: /* c + |a - b| */
		if (sgn)
			return (sa > sb ? (uint64_t)sa - (uint64_t)sb : (uint64_t)sb - (uint64_t)sa) + c;
		return (ua > ub ? ua - ub : ub - ua) + c;
	case OP_NEG: return -(uint64_t)sa;
	case OP_DIV:
		if (ub == 0)
			return sgn ? (sa < 0 ? 1 : ~0ull) : ~0ull; /* undefined in PTX; hardware-like, never a trap */
		if (sgn)
			return (sa == INT64_MIN && sb == -1) ? (uint64_t)sa : (uint64_t)(sa / sb);
		return ua / ub;
	case OP_REM:
		if (ub == 0)
			return ua;
		if (sgn)
			return (sb == -1) ? 0 : (uint64_t)(sa % sb);
		return ua % ub;
	case OP_MUL: case OP_MAD: case OP_MUL24: case OP_MAD24: {
		uint64_t prod;
		if (ins->mods & PM_WIDE) {
			prod = sgn ? (uint64_t)(sa * sb) : ua * ub; /* n <= 4: exact in 64 bits */
		} else if (ins->mods & PM_HI) {
			if (n == 8) {
				__int128 p = sgn ? (__int128)sa * sb : (__int128)(unsigned __int128)ua * ub;
				prod = sgn ? (uint64_t)(p >> 64) : (uint64_t)((unsigned __int128)ua * ub >> 64);
			} else {
				prod = sgn ? (uint64_t)((sa * sb) >> (8 * n)) : (ua * ub) >> (8 * n);
			}
		} else {
			prod = ua * ub;
		}
		return (ins->op == OP_MAD || ins->op == OP_MAD24) ? prod + c : prod;
	}
	default: return 0;
	}
}

static int exec_int(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	unsigned n = ptx_type_bytes(ins->type);
	bool sgn = ptx_type_is_signed(ins->type);
	unsigned dn = (ins->mods & PM_WIDE) ? 2 * n : n;
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	const uint64_t *b = ins->nops > 2 ? SRC(2) : a;
	const uint64_t *c = ins->nops > 3 ? SRC(3) : a;
	/* the hot forms get their own loops */
	if (n == 4 && !(ins->mods & (PM_WIDE | PM_HI | PM_SAT))) {
		switch (ins->op) {
		case OP_ADD: FOR_LANES(mask, l) d[l] = (uint32_t)(a[l] + b[l]); return 0;
		case OP_SUB: FOR_LANES(mask, l) d[l] = (uint32_t)(a[l] - b[l]); return 0;
		case OP_MUL: FOR_LANES(mask, l) d[l] = (uint32_t)(a[l] * b[l]); return 0;
		case OP_MAD: FOR_LANES(mask, l) d[l] = (uint32_t)(a[l] * b[l] + c[l]); return 0;
		default: break;
		}
	}
	if (n == 4 && (ins->mods & PM_WIDE) && (ins->op == OP_MUL || ins->op == OP_MAD)) { /* index * size */
		bool mad = ins->op == OP_MAD;
		if (sgn)
			FOR_LANES(mask, l) d[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]) + (mad ? c[l] : 0);
		else
			FOR_LANES(mask, l) d[l] = (uint64_t)(uint32_t)a[l] * (uint32_t)b[l] + (mad ? c[l] : 0);
		return 0;
	}
	if (n == 8 && !(ins->mods & (PM_HI | PM_SAT))) {
		switch (ins->op) {
		case OP_ADD: FOR_LANES(mask, l) d[l] = a[l] + b[l]; return 0;
		case OP_SUB: FOR_LANES(mask, l) d[l] = a[l] - b[l]; return 0;
		default: break;
		}
	}
	if (ins->op == OP_MUL24 || ins->op == OP_MAD24) {
		FOR_LANES(mask, l) {
			uint64_t x = sgn ? (uint64_t)sim_sext(a[l], 3) : (a[l] & 0xffffff);
			uint64_t y = sgn ? (uint64_t)sim_sext(b[l], 3) : (b[l] & 0xffffff);
			uint64_t p = (ins->mods & PM_HI) ? ((sgn ? (uint64_t)((int64_t)x * (int64_t)y) : x * y) >> 16)
							 : x * y;
			d[l] = sim_trunc(ins->op == OP_MAD24 ? p + c[l] : p, 4);
		}
		return 0;
	}
	FOR_LANES(mask, l)
		d[l] = sim_trunc(int_arith(ins, a[l], b[l], c[l], n, sgn), dn);
	return 0;
}

/* add.cc / addc / sub.cc / subc / mad.cc / madc: 32- or 64-bit with a per-lane carry flag. */
static int exec_carry(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	unsigned n = ptx_type_bytes(ins->type);
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1), *b = SRC(2);
	const uint64_t *c = ins->nops > 3 ? SRC(3) : a;
	bool use_cc = ins->op == OP_ADDC || ins->op == OP_SUBC || ins->op == OP_MADC;
	FOR_LANES(mask, l) {
		unsigned __int128 x = sim_trunc(a[l], n), y = sim_trunc(b[l], n);
		unsigned __int128 cin = use_cc ? (w->carry >> l & 1) : 0, r;
		bool is_sub = ins->op == OP_SUB || ins->op == OP_SUBC;
		if (ins->op == OP_MAD || ins->op == OP_MADC) {
			unsigned __int128 p = x * y;
			p = (ins->mods & PM_HI) ? p >> (8 * n) : sim_trunc((uint64_t)p, n);
			r = p + sim_trunc(c[l], n) + cin;
		} else if (is_sub) {
			r = x - y - cin;
		} else {
			r = x + y + cin;
		}
		d[l] = sim_trunc((uint64_t)r, n);
		bool out = is_sub ? (x < y + cin) : ((r >> (8 * n)) & 1);
		if (ins->mods & PM_CC)
			w->carry = (w->carry & ~(1u << l)) | ((uint32_t)out << l);
	}
	return 0;
}

/* bfe: the PTX ISA's definition; bits past the source's msb, and past len, are the sign bit (signed
 * types) or zero. */
static uint64_t bfe(uint64_t a, unsigned pos, unsigned len, unsigned n, bool sgn)
{
	unsigned msb = 8 * n - 1;
	uint64_t v = sim_trunc(a, n);
	if (len == 0)
		return 0;
	if (pos + len - 1 <= msb && len <= msb) { /* the field lies inside the source */
		uint64_t field = (v >> pos) & ((1ull << len) - 1);
		if (sgn && ((field >> (len - 1)) & 1))
			field |= ~((1ull << len) - 1);
		return sim_trunc(field, n);
	}
	uint64_t sbit = sgn ? (v >> (pos + len - 1 > msb ? msb : pos + len - 1)) & 1 : 0, d = 0;
	for (unsigned i = 0; i <= msb; i++)
		d |= ((i < len && pos + i <= msb) ? (v >> (pos + i)) & 1 : sbit) << i;
	return d;
}

static uint64_t bit_op(const struct ptx_insn *ins, uint64_t a, uint64_t b, uint64_t c, unsigned n)
{
	unsigned bits = 8 * n;
	switch (ins->op) {
	case OP_AND: return a & b;
	case OP_OR: return a | b;
	case OP_XOR: return a ^ b;
	case OP_NOT: return ins->type == PT_PRED ? !(a & 1) : ~a;
	case OP_CNOT: return sim_trunc(a, n) == 0;
	case OP_SHL: { uint32_t s = (uint32_t)b; return s >= bits ? 0 : a << s; }
	case OP_SHR: {
		uint32_t s = (uint32_t)b;
		if (ptx_type_is_signed(ins->type))
			return (uint64_t)(sim_sext(a, n) >> (s >= bits ? bits - 1 : s));
		return s >= bits ? 0 : sim_trunc(a, n) >> s;
	}
	case OP_POPC: return (uint64_t)__builtin_popcountll(sim_trunc(a, n));
	case OP_CLZ: { uint64_t v = sim_trunc(a, n); return v ? (uint64_t)(__builtin_clzll(v) - (64 - (int)bits)) : bits; }
	case OP_BREV: {
		uint64_t v = sim_trunc(a, n), r = 0;
		for (unsigned i = 0; i < bits; i++)
			r |= ((v >> i) & 1) << (bits - 1 - i);
		return r;
	}
	case OP_BFIND: {
		uint64_t v = ptx_type_is_signed(ins->type) && sim_sext(a, n) < 0 ? ~sim_trunc(a, n) : sim_trunc(a, n);
		v = sim_trunc(v, n);
		if (!v)
			return 0xffffffffu;
		unsigned msb = 63 - (unsigned)__builtin_clzll(v);
		return (ins->mods & PM_SHIFTAMT) ? bits - 1 - msb : msb;
	}
	case OP_BFE: return bfe(a, (unsigned)(b & 0xff), (unsigned)(c & 0xff), n, ptx_type_is_signed(ins->type));
	default: return 0;
	}
}

static int exec_bits(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	unsigned n = ptx_type_bytes(ins->type);
	if (ins->type == PT_PRED)
		n = 1;
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	const uint64_t *b = ins->nops > 2 ? SRC(2) : a;
	const uint64_t *c = ins->nops > 3 ? SRC(3) : a;
	unsigned dn = (ins->op == OP_POPC || ins->op == OP_CLZ || ins->op == OP_BFIND) ? 4 : n;
	if (ins->type == PT_PRED) {
		FOR_LANES(mask, l) d[l] = bit_op(ins, a[l], b[l], c[l], 8) & 1;
		return 0;
	}
	if (n == 4) { /* the hot forms: index arithmetic */
		switch (ins->op) {
		case OP_AND: FOR_LANES(mask, l) d[l] = (uint32_t)(a[l] & b[l]); return 0;
		case OP_OR: FOR_LANES(mask, l) d[l] = (uint32_t)(a[l] | b[l]); return 0;
		case OP_XOR: FOR_LANES(mask, l) d[l] = (uint32_t)(a[l] ^ b[l]); return 0;
		case OP_SHL: FOR_LANES(mask, l) d[l] = (uint32_t)b[l] >= 32 ? 0 : (uint32_t)(a[l] << (uint32_t)b[l]); return 0;
		default: break;
		}
	}
	FOR_LANES(mask, l) d[l] = sim_trunc(bit_op(ins, a[l], b[l], c[l], n), dn);
	return 0;
}

/* bfi d, a, b, pos, len: insert a's low `len` bits into b at `pos`; the bits that would land past the
 * type's width are not inserted, and a pos past it leaves b (the compiled engine's BFI is the same). */
static uint64_t bfi(uint64_t a, uint64_t b, unsigned pos, unsigned len, unsigned bits)
{
	uint64_t m = ptx_bfi_mask(pos, len, bits);
	return m ? (b & ~m) | ((a << pos) & m) : b;
}

static int exec_bfi(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	unsigned bits = 8 * ptx_type_bytes(ins->type);
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1), *b = SRC(2), *p = SRC(3), *n = SRC(4);
	FOR_LANES(mask, l)
		d[l] = sim_trunc(bfi(a[l], b[l], (unsigned)(p[l] & 0xff), (unsigned)(n[l] & 0xff), bits), bits / 8);
	return 0;
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of b:a. */
static int exec_shf(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
	FOR_LANES(mask, l) {
		uint32_t s = (uint32_t)c[l];
		s = (ins->mods & PM_CLAMP) ? (s > 32 ? 32 : s) : (s & 31);
		uint64_t both = ((uint64_t)(uint32_t)b[l] << 32) | (uint32_t)a[l];
		d[l] = (ins->mods & PM_LEFT) ? (uint32_t)((both << s) >> 32) : (uint32_t)(both >> s);
	}
	return 0;
}

/* prmt's modes: for each selector value c[1:0], the bytes of b:a that make d.b0 .. d.b3 (PTX ISA). */
static const uint8_t prmt_table[PRMT_RC16][4][4] = {
	[PRMT_F4E - 1] = {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
	[PRMT_B4E - 1] = {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
	[PRMT_RC8 - 1] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
	[PRMT_ECL - 1] = {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
	[PRMT_ECR - 1] = {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
	[PRMT_RC16 - 1] = {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};

static uint32_t prmt(uint64_t bytes, uint32_t sel, unsigned mode)
{
	uint32_t r = 0;
	for (int i = 0; i < 4; i++) {
		uint32_t byte;
		if (mode == PRMT_DEFAULT) {
			unsigned s = (sel >> (4 * i)) & 0xf;
			byte = (uint32_t)(bytes >> (8 * (s & 7))) & 0xff;
			if (s & 8) /* replicate the sign bit */
				byte = (byte & 0x80) ? 0xff : 0;
		} else {
			byte = (uint32_t)(bytes >> (8 * prmt_table[mode - 1][sel & 3][i])) & 0xff;
		}
		r |= byte << (8 * i);
	}
	return r;
}

static int exec_prmt(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
	FOR_LANES(mask, l)
		d[l] = prmt(((uint64_t)(uint32_t)b[l] << 32) | (uint32_t)a[l], (uint32_t)c[l], ins->sub);
	return 0;
}

static int exec_mov(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *dst = &ins->ops[0], *src = &ins->ops[1];
	unsigned n = ptx_type_bytes(ins->type);
	if (dst->kind == PO_VEC) { /* unpack: mov.b64 {lo, hi}, x */
		unsigned part = 8 * n / dst->nvec;
		const uint64_t *a = SRC(1);
		for (int k = 0; k < dst->nvec; k++) {
			if (dst->vec[k] < 0)
				continue;
			uint64_t *d = sim_reg(w, dst->vec[k]);
			FOR_LANES(mask, l) d[l] = sim_trunc(a[l] >> (part * k), part / 8);
		}
		return 0;
	}
	uint64_t *d = DST(0);
	if (src->kind == PO_VEC) { /* pack: mov.b64 x, {lo, hi} */
		unsigned part = 8 * n / src->nvec;
		FOR_LANES(mask, l) d[l] = 0;
		for (int k = 0; k < src->nvec; k++) {
			const uint64_t *a = sim_src(cta, w, src->vec[k]);
			FOR_LANES(mask, l) d[l] |= sim_trunc(a[l], part / 8) << (part * k);
		}
		return 0;
	}
	const uint64_t *a = SRC(1);
	if (ins->type == PT_PRED) {
		FOR_LANES(mask, l) d[l] = a[l] & 1;
	} else {
		FOR_LANES(mask, l) d[l] = sim_trunc(a[l], n);
	}
	return 0;
}

static int exec_cvta(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t window = ins->space == PS_SHARED ? PTX_SHARED_WINDOW
			: ins->space == PS_LOCAL ? PTX_LOCAL_WINDOW
			: ins->space == PS_PARAM ? PTX_PARAM_WINDOW : 0;
	unsigned n = ptx_type_bytes(ins->type);
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	if (ins->sub) { /* cvta.to.SPACE: generic -> space address */
		FOR_LANES(mask, l) d[l] = sim_trunc(a[l] - window, n);
	} else {
		FOR_LANES(mask, l) d[l] = sim_trunc(a[l] + window, n);
	}
	return 0;
}

/* Is a generic address in `space`?  Shared, local and parameter addresses are in their windows; module
 * .const variables are constant; everything else is global. */
static bool in_space(const struct ptx_module *m, enum ptx_space space, uint64_t a)
{
	bool shared = a - PTX_SHARED_WINDOW < PTX_WINDOW_SIZE, local = a - PTX_LOCAL_WINDOW < PTX_WINDOW_SIZE;
	bool param = a - PTX_PARAM_WINDOW < PTX_WINDOW_SIZE, konst = false;
	for (int i = 0; i < m->nvars && !konst; i++)
		konst = m->vars[i].space == PS_CONST && a - (m->global_base + m->vars[i].offset) < m->vars[i].size;
	switch (space) {
	case PS_SHARED: return shared;
	case PS_LOCAL: return local;
	case PS_PARAM: return param;
	case PS_CONST: return konst;
	default: return !shared && !local && !param && !konst;
	}
}

/* isspacep.space p, a */
static int exec_isspacep(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	FOR_LANES(mask, l) d[l] = in_space(cta->L->m, (enum ptx_space)ins->space, a[l]);
	return 0;
}

static bool combine(const struct ptx_insn *ins, bool r, const uint64_t *c, unsigned l)
{
	if (!c)
		return r;
	bool p = c[l] & 1;
	if (ins->ops[3].neg)
		p = !p;
	switch (ins->sub2) {
	case BOOL_AND: return r && p;
	case BOOL_OR: return r || p;
	case BOOL_XOR: return r != p;
	default: return r;
	}
}

/* 32-bit integer compares without a combiner: bounds checks and loop conditions, the hot forms. */
#define SETP_LOOP(T, OP) FOR_LANES(mask, l) p[l] = (T)a[l] OP (T)b[l]
static bool setp_fast(const struct ptx_insn *ins, uint64_t *p, const uint64_t *a, const uint64_t *b, uint32_t mask)
{
	bool sgn = ins->type == PT_S32;
	if (!sgn && ins->type != PT_U32 && ins->type != PT_B32)
		return false;
	switch (ins->sub) {
	case CMP_EQ: SETP_LOOP(uint32_t, ==); return true;
	case CMP_NE: SETP_LOOP(uint32_t, !=); return true;
	case CMP_LT: if (sgn) SETP_LOOP(int32_t, <); else SETP_LOOP(uint32_t, <); return true;
	case CMP_LE: if (sgn) SETP_LOOP(int32_t, <=); else SETP_LOOP(uint32_t, <=); return true;
	case CMP_GT: if (sgn) SETP_LOOP(int32_t, >); else SETP_LOOP(uint32_t, >); return true;
	case CMP_GE: if (sgn) SETP_LOOP(int32_t, >=); else SETP_LOOP(uint32_t, >=); return true;
	case CMP_LO: SETP_LOOP(uint32_t, <); return true;
	case CMP_LS: SETP_LOOP(uint32_t, <=); return true;
	case CMP_HI: SETP_LOOP(uint32_t, >); return true;
	case CMP_HS: SETP_LOOP(uint32_t, >=); return true;
	default: return false;
	}
}
#undef SETP_LOOP

static bool is_packed_half(enum ptx_type t)
{
	return t == PT_F16X2 || t == PT_BF16X2;
}

/* Compare half `h` (0 low, 1 high) of two packed f16x2/bf16x2 values. */
static bool compare_half(const struct ptx_insn *ins, enum ptx_type t, uint64_t a, uint64_t b, int h)
{
	enum ptx_type e = t == PT_F16X2 ? PT_F16 : PT_BF16;
	return sim_compare_float((enum ptx_cmp)ins->sub, e, (a >> (16 * h)) & 0xffff, (b >> (16 * h)) & 0xffff);
}

/* setp.cmp[.bool].type p[|q], a, b[, c]; for f16x2/bf16x2, p is the low halves' result and q the high's */
static int exec_setp(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *dst = &ins->ops[0];
	uint64_t *p = sim_reg(w, dst->kind == PO_VEC ? dst->vec[0] : dst->slot);
	uint64_t *q = dst->kind == PO_VEC && dst->vec[1] >= 0 ? sim_reg(w, dst->vec[1]) : NULL;
	const uint64_t *a = SRC(1), *b = SRC(2);
	const uint64_t *c = ins->nops > 3 ? SRC(3) : NULL;
	enum ptx_type t = (enum ptx_type)ins->type;
	if (!c && !q && setp_fast(ins, p, a, b, mask))
		return 0;
	if (is_packed_half(t)) {
		FOR_LANES(mask, l) {
			p[l] = combine(ins, compare_half(ins, t, a[l], b[l], 0), c, l);
			if (q)
				q[l] = combine(ins, compare_half(ins, t, a[l], b[l], 1), c, l);
		}
		return 0;
	}
	FOR_LANES(mask, l) {
		bool r = sim_compare(ins, t, a[l], b[l]);
		p[l] = combine(ins, r, c, l);
		if (q)
			q[l] = combine(ins, !r, c, l);
	}
	return 0;
}

/* The value set writes for "true": 1.0 for float destinations, all ones for integers. */
static uint64_t set_true(enum ptx_type dt)
{
	switch (dt) {
	case PT_F32: return 0x3f800000u;
	case PT_F16: case PT_F16X2: return 0x3c00;
	case PT_BF16: case PT_BF16X2: return 0x3f80;
	default: return sim_trunc(~0ull, ptx_type_bytes(dt) ? ptx_type_bytes(dt) : 4);
	}
}

/* set.cmp[.bool].dtype.stype d, a, b[, c]; packed half sources give one result per half (0xffff or
 * 1.0 in each half of d). */
static int exec_set(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1), *b = SRC(2);
	const uint64_t *c = ins->nops > 3 ? SRC(3) : NULL;
	enum ptx_type dt = (enum ptx_type)ins->type, st = (enum ptx_type)ins->type2;
	if (is_packed_half(st)) {
		uint64_t one = (dt == PT_F16X2 || dt == PT_BF16X2) ? set_true(dt) : 0xffff;
		FOR_LANES(mask, l) {
			d[l] = 0;
			for (int h = 0; h < 2; h++)
				if (combine(ins, compare_half(ins, st, a[l], b[l], h), c, l))
					d[l] |= one << (16 * h);
		}
		return 0;
	}
	uint64_t one = set_true(dt);
	FOR_LANES(mask, l) d[l] = combine(ins, sim_compare(ins, st, a[l], b[l]), c, l) ? one : 0;
	return 0;
}

static int exec_selp(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
	unsigned n = ptx_type_bytes(ins->type);
	if (ins->op == OP_SLCT) { /* slct.dtype.stype d, a, b, c: c >= 0 ? a : b */
		FOR_LANES(mask, l) {
			bool ge = ins->type2 == PT_F32 ? !(sim_f32(c[l]) < 0.0f) : (int32_t)c[l] >= 0;
			d[l] = sim_trunc(ge ? a[l] : b[l], n);
		}
		return 0;
	}
	bool neg = ins->ops[3].neg;
	FOR_LANES(mask, l) d[l] = sim_trunc(((c[l] & 1) != neg) ? a[l] : b[l], n);
	return 0;
}

/* bar.red.{popc,and,or} d, a{, b}, {!}c: a barrier whose result combines c over the whole CTA.  The
 * warp arrives (adding its lanes to the epoch's accumulator) and parks with its PC on this instruction,
 * so that after the release it runs it once more to read the result; that second run is not counted. */
static int exec_bar_red(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint32_t bit = 1u << (w->id & 31);
	struct sim_bar_red *prev = &cta->bar_red[(cta->released - 1) & 1];
	if (prev->gen == cta->gen && prev->epoch == cta->released - 1 && (prev->arrived & bit)) { /* the result */
		prev->arrived &= ~bit;
		uint64_t *d = DST(0);
		uint64_t v = ins->sub == BAR_RED_POPC ? prev->count : ins->sub == BAR_RED_AND ? prev->all : prev->any;
		FOR_LANES(mask, l) d[l] = v;
		cta->c.inst--;
		cta->c.thread_inst -= (uint64_t)__builtin_popcount(w->active);
		if (w->fn->sass) {
			uint64_t sw = w->fn->sass[ins - w->fn->code].weight;
			cta->c.sass_inst -= sw;
			cta->c.sass_thread_inst -= sw * (uint64_t)__builtin_popcount(w->active);
		}
		w->executed--;
		return 0;
	}
	if (w->id >= 32)
		return sim_unsupported(cta, w, ins, "bar.red in CTAs of more than 1024 threads");
	struct sim_bar_red *s = &cta->bar_red[cta->released & 1];
	if (s->gen != cta->gen || s->epoch != cta->released)
		*s = (struct sim_bar_red){.gen = cta->gen, .epoch = cta->released, .all = true};
	const struct ptx_operand *po = &ins->ops[ins->nops - 1];
	const uint64_t *p = sim_src(cta, w, po->slot);
	FOR_LANES(mask, l) {
		bool on = ((p[l] & 1) != 0) != (po->neg != 0);
		s->count += on;
		s->all &= on;
		s->any |= on;
	}
	s->arrived |= bit;
	w->bar_id = (int)sim_src(cta, w, ins->ops[1].slot)[__builtin_ctz(mask)];
	w->state = W_BARRIER;
	w->pc--; /* the release advances the PC: back onto this instruction */
	return 1;
}

static int exec_bar(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	if (ins->sub == BAR_WARP_SYNC) /* __syncwarp: lanes are in lockstep here */
		return 0;
	if (mask != w->live) {
		uint32_t missing = w->live & ~mask;
		sim_finding(cta, ins, __builtin_ctz(missing), "barrier-divergence", PS_NONE, 0, 0, false,
			    "bar.sync reached by %d of the %d live threads of warp %u (divergent barrier: "
			    "thread %u and others never arrive)",
			    __builtin_popcount(mask), __builtin_popcount(w->live), w->id,
			    w->id * 32 + (unsigned)__builtin_ctz(missing));
		return -1;
	}
	int lane = __builtin_ctz(mask);
	/* bar.red's barrier id is its second operand (the first is the destination); it indexes the CTA's
	 * barrier arrays, so it is checked like bar.sync's */
	bool red = ins->sub == BAR_RED_POPC || ins->sub == BAR_RED_AND || ins->sub == BAR_RED_OR;
	int id_op = red ? 1 : 0;
	uint64_t id = ins->nops > id_op ? sim_src(cta, w, ins->ops[id_op].slot)[lane] : 0;
	uint64_t count = ins->nops > 1 && !red ? sim_src(cta, w, ins->ops[1].slot)[lane] : 0;
	if (id >= SIM_BARRIERS || count % 32 || count > 32ull * cta->L->warps_per_cta)
		return sim_unsupported(cta, w, ins, "a barrier id above 15 or a thread count that is not a multiple "
						    "of 32 up to the CTA's size");
	if (ins->sub == BAR_ARRIVE) { /* producer side of a named barrier: counted, does not wait */
		cta->bar_arrived[id]++;
		return 0;
	}
	w->bar_count = (unsigned)count;
	if (cta->trace) { /* the warp waits here: where a reduction's levels and stages begin and end */
		uint64_t ids[32];
		FOR_LANES(mask, l) ids[l] = id;
		sim_trace_record_sync(cta, w, ins, true, mask, ids);
	}
	if (red)
		return exec_bar_red(cta, w, ins, mask);
	w->bar_id = (int)id;
	w->bar_count = (unsigned)count;
	w->state = W_BARRIER;
	return 1;
}

/* cp.async copies complete when issued here; the groups are still tracked so that racecheck sees reads
 * of data a copy on the device might still be writing (sim_async.c). */
static int exec_cp_async_group(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	if (ins->op == OP_CP_ASYNC_COMMIT)
		sim_async_commit(cta, w, mask);
	else if (ins->op == OP_CP_ASYNC_WAIT_ALL)
		sim_async_wait(cta, w, mask, true, 0);
	else if (mask) /* wait_group N: N is an immediate */
		sim_async_wait(cta, w, mask, false, ins->nops ? SRC(0)[__builtin_ctz(mask)] : 0);
	return 0;
}

/* An instruction that accessed memory: when an access faulted (sim_fault.c), the CTA stops after it. */
static int stop_on_fault(const struct sim_cta *cta, int rc)
{
	return cta->fault.kind != GL_SIM_FAULT_NONE ? -1 : rc;
}

static int exec_control(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	switch (ins->op) {
	case OP_BRA:
		sim_branch(w, mask, (int)ins->ops[0].offset);
		return 1;
	case OP_RET: case OP_EXIT:
		if (!mask)
			return 0;
		if (ins->op == OP_RET && w->depth > 0) /* back to the caller */
			return sim_frame_ret(cta, w, ins, mask);
		sim_exit_lanes(w, mask);
		return 1;
	case OP_TRAP:
		if (!mask)
			return 0;
		sim_finding(cta, ins, __builtin_ctz(mask), "trap", PS_NONE, 0, 0, false, "the kernel executed trap");
		return -1;
	case OP_BAR: return exec_bar(cta, w, ins, mask);
	case OP_CALL: return stop_on_fault(cta, sim_exec_call(cta, w, ins, mask)); /* printf reads memory */
	default: return 0;
	}
}

int sim_exec(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	bool is_float = ptx_type_is_float((enum ptx_type)ins->type);
	switch (ins->op) {
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_MIN: case OP_MAX: case OP_ABS: case OP_NEG:
	case OP_DIV: case OP_REM:
		if (is_float)
			return sim_exec_float(cta, w, ins, mask);
		if (ins->mods & PM_CC)
			return exec_carry(cta, w, ins, mask);
		return exec_int(cta, w, ins, mask);
	case OP_MUL24: case OP_MAD24: case OP_SAD: return exec_int(cta, w, ins, mask);
	case OP_ADDC: case OP_SUBC: case OP_MADC: return exec_carry(cta, w, ins, mask);
	case OP_FMA: case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_LG2: case OP_EX2:
	case OP_TANH: case OP_COPYSIGN: case OP_TESTP:
		return sim_exec_float(cta, w, ins, mask);
	case OP_CVT: return sim_exec_cvt(cta, w, ins, mask);
	case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT: case OP_SHL: case OP_SHR: case OP_POPC:
	case OP_CLZ: case OP_BREV: case OP_BFIND: case OP_BFE:
		return exec_bits(cta, w, ins, mask);
	case OP_BFI: return exec_bfi(cta, w, ins, mask);
	case OP_SHF: return exec_shf(cta, w, ins, mask);
	case OP_PRMT: return exec_prmt(cta, w, ins, mask);
	case OP_MOV: return exec_mov(cta, w, ins, mask);
	case OP_CVTA: return exec_cvta(cta, w, ins, mask);
	case OP_SETP: return exec_setp(cta, w, ins, mask);
	case OP_SET: return exec_set(cta, w, ins, mask);
	case OP_SELP: case OP_SLCT: return exec_selp(cta, w, ins, mask);
	case OP_CLOCK: {
		uint64_t *d = DST(0);
		FOR_LANES(mask, l) d[l] = w->executed;
		return 0;
	}
	case OP_LD: case OP_ST: return stop_on_fault(cta, sim_exec_mem(cta, w, ins, mask));
	case OP_CP_ASYNC: return stop_on_fault(cta, sim_exec_cp_async(cta, w, ins, mask));
	case OP_ATOM: case OP_RED: return stop_on_fault(cta, sim_exec_atom(cta, w, ins, mask));
	case OP_CP_ASYNC_COMMIT: case OP_CP_ASYNC_WAIT: case OP_CP_ASYNC_WAIT_ALL:
		return exec_cp_async_group(cta, w, ins, mask);
	case OP_MBARRIER: case OP_CP_ASYNC_MBAR_ARRIVE: return stop_on_fault(cta, sim_exec_mbarrier(cta, w, ins, mask));
	case OP_MEMBAR: case OP_NOP:
		return 0;
	case OP_BRA: case OP_RET: case OP_EXIT: case OP_TRAP: case OP_BAR: case OP_CALL:
		return exec_control(cta, w, ins, mask);
	case OP_ISSPACEP: return exec_isspacep(cta, w, ins, mask);
	case OP_TEX: case OP_TLD4: case OP_TXQ: case OP_SULD: case OP_SUST: case OP_SUQ: case OP_SURED:
		return sim_exec_tex(cta, w, ins, mask);
	case OP_WMMA_LOAD: case OP_WMMA_STORE: case OP_WMMA_MMA:
		return stop_on_fault(cta, sim_exec_wmma(cta, w, ins, mask));
	case OP_DP4A: case OP_DP2A: case OP_VABSDIFF2: case OP_VABSDIFF4: case OP_FNS:
		return sim_exec_packed(cta, w, ins, mask);
	case OP_SHFL: case OP_VOTE: case OP_MATCH: case OP_REDUX: case OP_ACTIVEMASK: case OP_MMA:
	case OP_LDMATRIX: case OP_STMATRIX:
		return stop_on_fault(cta, sim_exec_collective(cta, w, ins, mask)); /* ldmatrix reads memory */
	default: return sim_unsupported(cta, w, ins, ptx_op_name((enum ptx_op)ins->op));
	}
}
