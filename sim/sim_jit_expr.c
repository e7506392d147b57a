/* sim_jit_expr.c — the C expressions of the compiled engine's inline forms (sim_jit_gen.c writes the
 * function around them): for each instruction whose interpreter code is a plain per-lane expression, that
 * same expression of lane `l` (so results are bit-identical), its SIMD twin on 4 lanes where there is
 * one, and which ld/st compute their addresses inline. */
#include <stdio.h>
#include <string.h>

#include "ptx_ops.h"
#include "sim_jit_expr.h"

/* Source operand k as a C expression of lane `l`: a register load or a constant. */
const char *sim_jit_opnd(const struct ptx_function *fn, const struct ptx_insn *ins, int k, char *buf, size_t n)
{
	int s = ins->ops[k].slot;
	if (s >= fn->nslots)
		snprintf(buf, n, "0x%llxull", (unsigned long long)fn->consts[s - fn->nslots]);
	else
		snprintf(buf, n, "r[%d + l]", s * 32);
	return buf;
}

static bool slots_ok(const struct ptx_function *fn, const struct ptx_insn *ins, int nsrc)
{
	if (ins->nops < nsrc + 1 || ins->ops[0].kind != PO_SLOT || ins->ops[0].slot < 0 || ins->ops[0].slot >= fn->nslots)
		return false;
	for (int k = 1; k <= nsrc; k++)
		if (ins->ops[k].kind != PO_SLOT || ins->ops[k].slot < 0 || ins->ops[k].slot >= fn->nslots + fn->nconsts)
			return false;
	return true;
}

static const char *trunc_fmt(unsigned n)
{
	return n == 1 ? "(uint8_t)(%s)" : n == 2 ? "(uint16_t)(%s)" : n == 4 ? "(uint32_t)(%s)" : "(uint64_t)(%s)";
}

/* Integer add/sub/mul/mad: the interpreter's fast forms (exec_int). */
static bool int_expr(const struct ptx_insn *ins, const char *a, const char *b, const char *c, char *e, size_t n)
{
	unsigned bytes = ptx_type_bytes((enum ptx_type)ins->type);
	bool sgn = ptx_type_is_signed((enum ptx_type)ins->type);
	if (ptx_type_is_float((enum ptx_type)ins->type) || (ins->mods & PM_CC))
		return false;
	if (bytes == 4 && !(ins->mods & (PM_WIDE | PM_HI | PM_SAT))) {
		switch (ins->op) {
		case OP_ADD: snprintf(e, n, "(uint32_t)(%s + %s)", a, b); return true;
		case OP_SUB: snprintf(e, n, "(uint32_t)(%s - %s)", a, b); return true;
		case OP_MUL: snprintf(e, n, "(uint32_t)(%s * %s)", a, b); return true;
		case OP_MAD: snprintf(e, n, "(uint32_t)(%s * %s + %s)", a, b, c); return true;
		default: return false;
		}
	}
	if (bytes == 4 && (ins->mods & PM_WIDE) && (ins->op == OP_MUL || ins->op == OP_MAD)) {
		const char *add = ins->op == OP_MAD ? c : "0";
		if (sgn)
			snprintf(e, n, "(uint64_t)((int64_t)(int32_t)%s * (int32_t)%s) + %s", a, b, add);
		else
			snprintf(e, n, "(uint64_t)(uint32_t)%s * (uint32_t)%s + %s", a, b, add);
		return true;
	}
	if (bytes == 8 && !(ins->mods & (PM_HI | PM_SAT)) && (ins->op == OP_ADD || ins->op == OP_SUB)) {
		snprintf(e, n, "(uint64_t)(%s %c %s)", a, ins->op == OP_ADD ? '+' : '-', b);
		return true;
	}
	return false;
}

/* and/or/xor/not/shl/shr: exec_bits' results for 32- and 64-bit and predicate types. */
static bool bits_expr(const struct ptx_insn *ins, const char *a, const char *b, char *e, size_t n)
{
	enum ptx_type t = (enum ptx_type)ins->type;
	unsigned bytes = ptx_type_bytes(t);
	if (t == PT_PRED) {
		switch (ins->op) {
		case OP_AND: snprintf(e, n, "((%s & %s) & 1)", a, b); return true;
		case OP_OR: snprintf(e, n, "((%s | %s) & 1)", a, b); return true;
		case OP_XOR: snprintf(e, n, "((%s ^ %s) & 1)", a, b); return true;
		case OP_NOT: snprintf(e, n, "(uint64_t)!(%s & 1)", a); return true;
		default: return false;
		}
	}
	if (bytes != 4 && bytes != 8)
		return false;
	const char *ut = bytes == 4 ? "uint32_t" : "uint64_t";
	unsigned bits = 8 * bytes;
	switch (ins->op) {
	case OP_AND: snprintf(e, n, "(%s)(%s & %s)", ut, a, b); return true;
	case OP_OR: snprintf(e, n, "(%s)(%s | %s)", ut, a, b); return true;
	case OP_XOR: snprintf(e, n, "(%s)(%s ^ %s)", ut, a, b); return true;
	case OP_NOT: snprintf(e, n, "(%s)~(%s)", ut, a); return true;
	case OP_SHL: snprintf(e, n, "((uint32_t)%s >= %u ? 0 : (%s)(%s << (uint32_t)%s))", b, bits, ut, a, b); return true;
	case OP_SHR:
		if (ptx_type_is_signed(t))
			snprintf(e, n, "(%s)(uint64_t)((int%u_t)%s >> ((uint32_t)%s >= %u ? %u : (uint32_t)%s))", ut, bits, a,
				 b, bits, bits - 1, b);
		else
			snprintf(e, n, "((uint32_t)%s >= %u ? 0 : (%s)%s >> (uint32_t)%s)", b, bits, ut, a, b);
		return true;
	default: return false;
	}
}

/* setp.cmp.{s32,u32,b32} p, a, b without a combiner (exec_setp's setp_fast). */
static bool setp_expr(const struct ptx_insn *ins, const char *a, const char *b, char *e, size_t n)
{
	bool sgn = ins->type == PT_S32;
	if ((!sgn && ins->type != PT_U32 && ins->type != PT_B32) || ins->nops != 3)
		return false;
	static const char *const ops[] = {[CMP_EQ] = "==", [CMP_NE] = "!=", [CMP_LT] = "<", [CMP_LE] = "<=",
					  [CMP_GT] = ">", [CMP_GE] = ">=", [CMP_LO] = "<", [CMP_LS] = "<=",
					  [CMP_HI] = ">", [CMP_HS] = ">="};
	if (ins->sub > CMP_HS)
		return false;
	const char *t = sgn && ins->sub >= CMP_LT && ins->sub <= CMP_GE ? "int32_t" : "uint32_t";
	snprintf(e, n, "(uint64_t)((%s)%s %s (%s)%s)", t, a, ops[ins->sub], t, b);
	return true;
}

/* add/sub/mul/fma/mad.f32 without ftz, sat or a directed rounding (exec_f32's plain forms); *flops names
 * the counter. */
static bool f32_expr(const struct ptx_insn *ins, const char *a, const char *b, const char *c, char *e, size_t n,
		     const char **flops)
{
	if (ins->type != PT_F32 || (ins->mods & (PM_FTZ | PM_SAT)) || (ins->rnd != PR_NONE && ins->rnd != PR_RN))
		return false;
	switch (ins->op) {
	case OP_ADD: *flops = "fadd"; snprintf(e, n, "FADD(%s, %s)", a, b); return true;
	case OP_SUB: *flops = "fadd"; snprintf(e, n, "FSUB(%s, %s)", a, b); return true;
	case OP_MUL: *flops = "fmul"; snprintf(e, n, "FMUL(%s, %s)", a, b); return true;
	case OP_FMA: case OP_MAD: *flops = "ffma"; snprintf(e, n, "FFMA(%s, %s, %s)", a, b, c); return true;
	default: return false;
	}
}

/* An f32 instruction that exec_f32 computes with f32_op alone: no ftz, sat or other modifier (.approx and
 * .full change nothing there) and round-to-nearest. */
static bool f32_plain(const struct ptx_insn *ins)
{
	return ins->type == PT_F32 && !(ins->mods & ~(uint32_t)(PM_APPROX | PM_FULL)) &&
	       (ins->rnd == PR_NONE || ins->rnd == PR_RN);
}

/* setp.cmp.f32 p, a, b without a combiner (sim_compare_float: the comparison of the exact values, false
 * for the ordered forms and true for the unordered ones when either is NaN; ftz does not change it). */
static bool setp_f32_expr(const struct ptx_insn *ins, const char *a, const char *b, char *e, size_t n)
{
	if (ins->type != PT_F32 || ins->nops != 3)
		return false;
	const char *fmt;
	switch (ins->sub) { /* C's <, <=, >, >=, == are false on NaN; the rest are built from them */
	case CMP_EQ: fmt = "(F(%1$s) == F(%2$s))"; break;
	case CMP_NE: fmt = "(F(%1$s) < F(%2$s) || F(%1$s) > F(%2$s))"; break;
	case CMP_LT: fmt = "(F(%1$s) < F(%2$s))"; break;
	case CMP_LE: fmt = "(F(%1$s) <= F(%2$s))"; break;
	case CMP_GT: fmt = "(F(%1$s) > F(%2$s))"; break;
	case CMP_GE: fmt = "(F(%1$s) >= F(%2$s))"; break;
	case CMP_EQU: fmt = "!(F(%1$s) < F(%2$s) || F(%1$s) > F(%2$s))"; break;
	case CMP_NEU: fmt = "!(F(%1$s) == F(%2$s))"; break;
	case CMP_LTU: fmt = "!(F(%1$s) >= F(%2$s))"; break;
	case CMP_LEU: fmt = "!(F(%1$s) > F(%2$s))"; break;
	case CMP_GTU: fmt = "!(F(%1$s) <= F(%2$s))"; break;
	case CMP_GEU: fmt = "!(F(%1$s) < F(%2$s))"; break;
	case CMP_NUM: fmt = "(F(%1$s) == F(%1$s) && F(%2$s) == F(%2$s))"; break;
	case CMP_NAN: fmt = "!(F(%1$s) == F(%1$s) && F(%2$s) == F(%2$s))"; break;
	default: return false;
	}
	char x[320];
	snprintf(x, sizeof x, fmt, a, b);
	snprintf(e, n, "(uint64_t)%s", x);
	return true;
}

static const char *int_ctype(unsigned bytes, bool sgn)
{
	static const char *const u[] = {[1] = "uint8_t", [2] = "uint16_t", [4] = "uint32_t", [8] = "uint64_t"};
	static const char *const s[] = {[1] = "int8_t", [2] = "int16_t", [4] = "int32_t", [8] = "int64_t"};
	return bytes > 8 || !u[bytes] ? NULL : sgn ? s[bytes] : u[bytes];
}

/* min/max on 16-, 32- and 64-bit integers without modifiers (int_arith: compared at the type's width and
 * signedness, the result truncated to it). */
static bool minmax_expr(const struct ptx_insn *ins, const char *a, const char *b, char *e, size_t n)
{
	enum ptx_type t = (enum ptx_type)ins->type;
	unsigned bytes = ptx_type_bytes(t);
	bool sgn = ptx_type_is_signed(t);
	const char *ct = int_ctype(bytes, sgn), *ut = int_ctype(bytes, false);
	if (ptx_type_is_float(t) || t == PT_PRED || ins->mods || bytes < 2 || !ct)
		return false;
	snprintf(e, n, "(uint64_t)(%s)((%s)%s %c (%s)%s ? %s : %s)", ut, ct, a, ins->op == OP_MIN ? '<' : '>', ct, b, a, b);
	return true;
}

/* cvt between integers without .sat (cvt_one: extended by the source's signedness, truncated to the
 * destination), and cvt.rn.f32 of an integer. */
static bool cvt_expr(const struct ptx_insn *ins, const char *a, char *e, size_t n)
{
	enum ptx_type dt = (enum ptx_type)ins->type, st = (enum ptx_type)ins->type2;
	if (dt == PT_PRED || st == PT_PRED || ptx_type_is_float(st) || (ins->mods & PM_SAT))
		return false;
	const char *sc = int_ctype(ptx_type_bytes(st), ptx_type_is_signed(st));
	const char *wide = ptx_type_is_signed(st) ? "int64_t" : "uint64_t";
	if (!sc)
		return false;
	if (dt == PT_F32 && (ins->rnd == PR_NONE || ins->rnd == PR_RN) && !ins->mods) {
		snprintf(e, n, "FB((float)(%s)(%s)%s)", wide, sc, a);
		return true;
	}
	const char *dc = int_ctype(ptx_type_bytes(dt), false);
	if (ptx_type_is_float(dt) || !dc || ins->mods || ins->rnd != PR_NONE)
		return false;
	snprintf(e, n, "(uint64_t)(%s)(uint64_t)(%s)(%s)%s", dc, wide, sc, a);
	return true;
}

static uint64_t cvta_window(enum ptx_space s)
{
	return s == PS_SHARED ? PTX_SHARED_WINDOW : s == PS_LOCAL ? PTX_LOCAL_WINDOW : s == PS_PARAM ? PTX_PARAM_WINDOW : 0;
}

/* The lane expression of an instruction translated inline, or false when it calls the interpreter. */
bool sim_jit_native_expr(const struct ptx_function *fn, const struct ptx_insn *ins, char *e, size_t n,
			const char **flops)
{
	char a[40], b[40], c[40];
	unsigned bytes = ptx_type_bytes((enum ptx_type)ins->type);
	*flops = NULL;
	switch (ins->op) {
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA: {
		int nsrc = ins->op == OP_MAD || ins->op == OP_FMA ? 3 : 2;
		if (!slots_ok(fn, ins, nsrc) || ins->nops != nsrc + 1)
			return false;
		sim_jit_opnd(fn, ins, 1, a, sizeof a);
		sim_jit_opnd(fn, ins, 2, b, sizeof b);
		if (nsrc == 3)
			sim_jit_opnd(fn, ins, 3, c, sizeof c);
		if (ptx_type_is_float((enum ptx_type)ins->type))
			return f32_expr(ins, a, b, c, e, n, flops);
		return ins->op != OP_FMA && int_expr(ins, a, b, c, e, n);
	}
	case OP_AND: case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR:
		if (!slots_ok(fn, ins, 2) || ins->nops != 3)
			return false;
		return bits_expr(ins, sim_jit_opnd(fn, ins, 1, a, sizeof a), sim_jit_opnd(fn, ins, 2, b, sizeof b), e, n);
	case OP_NOT:
		if (!slots_ok(fn, ins, 1) || ins->nops != 2)
			return false;
		return bits_expr(ins, sim_jit_opnd(fn, ins, 1, a, sizeof a), a, e, n);
	case OP_SETP:
		if (!slots_ok(fn, ins, 2))
			return false;
		sim_jit_opnd(fn, ins, 1, a, sizeof a);
		sim_jit_opnd(fn, ins, 2, b, sizeof b);
		return setp_expr(ins, a, b, e, n) || setp_f32_expr(ins, a, b, e, n);
	case OP_MIN: case OP_MAX: case OP_DIV:
		if (!slots_ok(fn, ins, 2) || ins->nops != 3)
			return false;
		sim_jit_opnd(fn, ins, 1, a, sizeof a);
		sim_jit_opnd(fn, ins, 2, b, sizeof b);
		if (f32_plain(ins)) {
			if (ins->op == OP_DIV)
				snprintf(e, n, "FB(F(%s) / F(%s))", a, b);
			else
				snprintf(e, n, "%s(%s, %s)", ins->op == OP_MIN ? "FMIN" : "FMAX", a, b);
			return true;
		}
		return ins->op != OP_DIV && minmax_expr(ins, a, b, e, n);
	case OP_EX2:
		/* a register operand only: the C compiler could fold exp2f of a constant differently from libm */
		if (!slots_ok(fn, ins, 1) || ins->nops != 2 || !f32_plain(ins) || ins->ops[1].slot >= fn->nslots)
			return false;
		snprintf(e, n, "FB(exp2f(F(%s)))", sim_jit_opnd(fn, ins, 1, a, sizeof a));
		return true;
	case OP_CVT:
		if (!slots_ok(fn, ins, 1) || ins->nops != 2)
			return false;
		return cvt_expr(ins, sim_jit_opnd(fn, ins, 1, a, sizeof a), e, n);
	case OP_MOV:
		if (!slots_ok(fn, ins, 1) || ins->nops != 2)
			return false;
		sim_jit_opnd(fn, ins, 1, a, sizeof a);
		if (ins->type == PT_PRED)
			snprintf(e, n, "(%s & 1)", a);
		else if (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8)
			snprintf(e, n, trunc_fmt(bytes), a);
		else
			return false;
		return true;
	case OP_CVTA: {
		if (!slots_ok(fn, ins, 1) || (bytes != 4 && bytes != 8))
			return false;
		char x[80];
		snprintf(x, sizeof x, "%s %c 0x%llxull", sim_jit_opnd(fn, ins, 1, a, sizeof a), ins->sub ? '-' : '+',
			 (unsigned long long)cvta_window((enum ptx_space)ins->space));
		snprintf(e, n, trunc_fmt(bytes), x);
		return true;
	}
	case OP_BFI: {
		char p[40], len[40], x[240];
		if (!slots_ok(fn, ins, 4) || ins->nops != 5 || (bytes != 4 && bytes != 8))
			return false;
		sim_jit_opnd(fn, ins, 3, p, sizeof p);
		sim_jit_opnd(fn, ins, 4, len, sizeof len);
		snprintf(x, sizeof x, "BFI(%s, %s, (unsigned)(%s & 0xff), (unsigned)(%s & 0xff), %u)",
			 sim_jit_opnd(fn, ins, 1, a, sizeof a), sim_jit_opnd(fn, ins, 2, b, sizeof b), p, len, 8 * bytes);
		snprintf(e, n, trunc_fmt(bytes), x);
		return true;
	}
	case OP_SELP: {
		if (!slots_ok(fn, ins, 3) || ins->nops != 4 || (bytes != 4 && bytes != 8))
			return false;
		char x[160];
		snprintf(x, sizeof x, "((%s & 1) != %d) ? %s : %s", sim_jit_opnd(fn, ins, 3, c, sizeof c), ins->ops[3].neg ? 1 : 0,
			 sim_jit_opnd(fn, ins, 1, a, sizeof a), sim_jit_opnd(fn, ins, 2, b, sizeof b));
		snprintf(e, n, trunc_fmt(bytes), x);
		return true;
	}
	default: return false;
	}
}

/* Source operand k as a vector of 4 lanes from lane q: VR(slot) or a broadcast constant, cut to its low
 * half for the f32 forms (whose odd halves must hold no NaN to keep VNAN quiet). */
static const char *vopnd(const struct ptx_function *fn, const struct ptx_insn *ins, int k, char *buf, size_t n)
{
	int s = ins->ops[k].slot;
	if (s >= fn->nslots) {
		uint64_t c = fn->consts[s - fn->nslots];
		snprintf(buf, n, "VK(0x%llxull)", (unsigned long long)(ins->type == PT_F32 ? (uint32_t)c : c));
	} else {
		snprintf(buf, n, "VR(%d)", s * 32);
	}
	return buf;
}

/* The SIMD twin of int_expr's 32-bit, .wide and 64-bit add/sub forms. */
static bool vec_int(const struct ptx_insn *ins, const char *a, const char *b, const char *c, char *v, size_t n)
{
	unsigned bytes = ptx_type_bytes((enum ptx_type)ins->type);
	if (bytes == 4 && !(ins->mods & (PM_WIDE | PM_HI | PM_SAT))) {
		static const char *const f[] = {[OP_ADD] = "VADD32", [OP_SUB] = "VSUB32", [OP_MUL] = "VMUL32"};
		if (ins->op == OP_MAD)
			snprintf(v, n, "VMAD32(%s, %s, %s)", a, b, c);
		else
			snprintf(v, n, "%s(%s, %s)", f[ins->op], a, b);
		return true;
	}
	const char *mul = ptx_type_is_signed((enum ptx_type)ins->type) ? "VMULWS" : "VMULWU";
	if (bytes == 4 && ins->op == OP_MUL)
		snprintf(v, n, "%s(%s, %s)", mul, a, b);
	else if (bytes == 4)
		snprintf(v, n, "(%s(%s, %s) + %s)", mul, a, b, c);
	else
		snprintf(v, n, "(%s %c %s)", a, ins->op == OP_ADD ? '+' : '-', b);
	return true;
}

/* The SIMD twin of bits_expr, but for shr.s64 (AVX2 has no 64-bit arithmetic shift). */
static bool vec_bits(const struct ptx_insn *ins, const char *a, const char *b, char *v, size_t n)
{
	enum ptx_type t = (enum ptx_type)ins->type;
	bool b32 = ptx_type_bytes(t) == 4;
	const char *m = t == PT_PRED ? " & VK(1)" : b32 ? " & LO" : "";
	switch (ins->op) {
	case OP_AND: snprintf(v, n, "((%s & %s)%s)", a, b, m); return true;
	case OP_OR: snprintf(v, n, "((%s | %s)%s)", a, b, m); return true;
	case OP_XOR: snprintf(v, n, "((%s ^ %s)%s)", a, b, m); return true;
	case OP_NOT: snprintf(v, n, "(~%s%s)", a, m); return true;
	case OP_SHL: snprintf(v, n, "%s(%s, %s)", b32 ? "VSHL32" : "VSHL64", a, b); return true;
	case OP_SHR:
		if (!b32 && ptx_type_is_signed(t))
			return false;
		snprintf(v, n, "%s(%s, %s)", b32 ? (ptx_type_is_signed(t) ? "VSHR32S" : "VSHR32U") : "VSHR64U", a, b);
		return true;
	default: return false;
	}
}

/* The SIMD twin of setp_expr: the 32-bit comparison on the even halves. */
static bool vec_setp(const struct ptx_insn *ins, const char *a, const char *b, char *v, size_t n)
{
	static const char *const ops[] = {[CMP_EQ] = "==", [CMP_NE] = "!=", [CMP_LT] = "<", [CMP_LE] = "<=",
					  [CMP_GT] = ">", [CMP_GE] = ">=", [CMP_LO] = "<", [CMP_LS] = "<=",
					  [CMP_HI] = ">", [CMP_HS] = ">="};
	if (ins->type != PT_S32 && ins->type != PT_U32 && ins->type != PT_B32)
		return false;
	const char *t = ins->type == PT_S32 && ins->sub >= CMP_LT && ins->sub <= CMP_GE ? "VI" : "VD";
	snprintf(v, n, "VSETP((%s)%s %s (%s)%s)", t, a, ops[ins->sub], t, b);
	return true;
}

/* The SIMD twin of cvt_expr between 32- and 64-bit integers. */
static bool vec_cvt(const struct ptx_insn *ins, const char *a, char *v, size_t n)
{
	enum ptx_type dt = (enum ptx_type)ins->type, st = (enum ptx_type)ins->type2;
	unsigned db = ptx_type_bytes(dt), sb = ptx_type_bytes(st);
	if (ptx_type_is_float(dt) || (db != 4 && db != 8) || (sb != 4 && sb != 8))
		return false;
	if (db == 8 && sb == 8)
		snprintf(v, n, "%s", a);
	else if (db == 8 && ptx_type_is_signed(st))
		snprintf(v, n, "VSX32(%s)", a); /* sign-extended from the low half */
	else
		snprintf(v, n, "(%s & LO)", a); /* zero-extended, or cut to the low half */
	return true;
}

/* The out-of-line full-warp call (WFADD, WFSUB, WFMUL, WFMA) for an f32 add/sub/mul/fma that native_expr
 * translated and whose sources are all registers, or false. */
bool sim_jit_warp_call(const struct ptx_function *fn, const struct ptx_insn *ins, char *v, size_t n)
{
	int nsrc = ins->nops - 1;
	if (ins->type != PT_F32 || nsrc < 2 || nsrc > 3)
		return false;
	for (int k = 1; k <= nsrc; k++)
		if (ins->ops[k].slot < 0 || ins->ops[k].slot >= fn->nslots)
			return false;
	const char *name = ins->op == OP_ADD ? "WFADD" : ins->op == OP_SUB ? "WFSUB" : ins->op == OP_MUL ? "WFMUL"
			 : ins->op == OP_FMA || ins->op == OP_MAD ? "WFMA" : NULL;
	if (!name || (nsrc == 3) != (strcmp(name, "WFMA") == 0))
		return false;
	int d = ins->ops[0].slot * 32, a = ins->ops[1].slot * 32, b = ins->ops[2].slot * 32;
	if (nsrc == 3)
		snprintf(v, n, "WFMA(r + %d, r + %d, r + %d, r + %d)", d, a, b, ins->ops[3].slot * 32);
	else
		snprintf(v, n, "%s(r + %d, r + %d, r + %d)", name, d, a, b);
	return true;
}

/* The SIMD twin of minmax_expr for 32- and 64-bit integers: the comparison's lanes of all ones pick a, the
 * others b.  A 32-bit form compares the low halves only (the odd 32-bit elements' masks are cut off with
 * LO, as the result's high half is); an unsigned 64-bit one compares with the sign bits flipped, since
 * AVX2 compares 64-bit lanes as signed only. */
static bool vec_minmax(const struct ptx_insn *ins, const char *a, const char *b, char *v, size_t n)
{
	enum ptx_type t = (enum ptx_type)ins->type;
	unsigned bytes = ptx_type_bytes(t);
	if (ptx_type_is_float(t) || t == PT_PRED || ins->mods || (bytes != 4 && bytes != 8))
		return false;
	char op = ins->op == OP_MIN ? '<' : '>';
	const char *f = bytes == 4 ? (ptx_type_is_signed(t) ? "VPICK32S" : "VPICK32U")
				  : (ptx_type_is_signed(t) ? "VPICK64S" : "VPICK64U");
	snprintf(v, n, "%s(%s, %s, %c)", f, a, b, op);
	return true;
}

/* The SIMD twin of selp: the predicate's lanes of 1 (0 with a negated predicate) pick a, the others b. */
static bool vec_selp(const struct ptx_insn *ins, const char *a, const char *b, const char *c, char *v, size_t n)
{
	unsigned bytes = ptx_type_bytes((enum ptx_type)ins->type);
	if (bytes != 4 && bytes != 8)
		return false;
	bool neg = ins->ops[3].neg;
	snprintf(v, n, "(VSEL(%s, %s, %s)%s)", c, neg ? b : a, neg ? a : b, bytes == 4 ? " & LO" : "");
	return true;
}

/* The SIMD twin of bfi when pos and len are constants (the usual form: nvcc's packing of two halves): the
 * mask (ptx_bfi_mask, the interpreter's) worked out here. */
static bool vec_bfi(const struct ptx_function *fn, const struct ptx_insn *ins, char *v, size_t n)
{
	unsigned bytes = ptx_type_bytes((enum ptx_type)ins->type);
	int ps = ins->ops[3].slot, ls = ins->ops[4].slot;
	if (ins->nops != 5 || (bytes != 4 && bytes != 8) || ps < fn->nslots || ls < fn->nslots)
		return false;
	unsigned pos = (unsigned)(fn->consts[ps - fn->nslots] & 0xff), len = (unsigned)(fn->consts[ls - fn->nslots] & 0xff);
	uint64_t m = ptx_bfi_mask(pos, len, 8 * bytes);
	char a[40], b[40];
	vopnd(fn, ins, 1, a, sizeof a);
	vopnd(fn, ins, 2, b, sizeof b);
	const char *lo = bytes == 4 ? " & LO" : "";
	if (!m) {
		snprintf(v, n, "(%s%s)", b, lo);
		return true;
	}
	snprintf(v, n, "(((%s & VK(0x%llxull)) | ((%s << %u) & VK(0x%llxull)))%s)", b, (unsigned long long)~m, a, pos,
		 (unsigned long long)m, lo);
	return true;
}

/* A full-warp SIMD expression for an instruction native_expr translated (the same operands, results
 * bit-identical to its lane expression), or false when it has none. */
bool sim_jit_vec_expr(const struct ptx_function *fn, const struct ptx_insn *ins, char *v, size_t n)
{
	char a[40], b[40], c[40];
	int nsrc = ins->nops - 1;
	unsigned bytes = ptx_type_bytes((enum ptx_type)ins->type);
	if (ins->op == OP_BFI)
		return vec_bfi(fn, ins, v, n);
	if (nsrc < 1 || nsrc > 3)
		return false;
	vopnd(fn, ins, 1, a, sizeof a);
	if (nsrc >= 2)
		vopnd(fn, ins, 2, b, sizeof b);
	if (nsrc == 3)
		vopnd(fn, ins, 3, c, sizeof c);
	switch (ins->op) {
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA:
		if (ins->type == PT_F32) {
			static const char *const f[] = {[OP_ADD] = "VFADD", [OP_SUB] = "VFSUB", [OP_MUL] = "VFMUL"};
			if (nsrc == 3)
				snprintf(v, n, "VFMA(%s, %s, %s)", a, b, c);
			else
				snprintf(v, n, "%s(%s, %s)", f[ins->op], a, b);
			return true;
		}
		return vec_int(ins, a, b, c, v, n);
	case OP_AND: case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR:
		return vec_bits(ins, a, b, v, n);
	case OP_NOT: return vec_bits(ins, a, a, v, n);
	case OP_SETP: return vec_setp(ins, a, b, v, n);
	case OP_CVT: return vec_cvt(ins, a, v, n);
	case OP_MIN: case OP_MAX: return vec_minmax(ins, a, b, v, n);
	case OP_SELP: return vec_selp(ins, a, b, c, v, n);
	case OP_MOV:
		if (ins->type == PT_PRED || bytes == 4)
			snprintf(v, n, "(%s & %s)", a, ins->type == PT_PRED ? "VK(1)" : "LO");
		else if (bytes == 8)
			snprintf(v, n, "%s", a);
		else
			return false;
		return true;
	default: return false;
	}
}

/* ld/st whose memory operand is [register + offset], [constant + offset] or [absolute]: the lanes'
 * addresses inline, then one call (W->mem) for the counting, checks and data movement. */
bool sim_jit_inline_mem(const struct ptx_function *fn, const struct ptx_insn *ins)
{
	if (ins->op != OP_LD && ins->op != OP_ST)
		return false;
	const struct ptx_operand *mo = &ins->ops[ins->op == OP_ST ? 0 : 1];
	return ins->nops >= 2 && mo->kind == PO_MEM && mo->slot < fn->nslots + fn->nconsts;
}

