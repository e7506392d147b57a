/* sim_jit_gen.c — the C source of a kernel's compiled function (sim_jit.h).  Each instruction becomes a
 * label: an inline lane loop for the forms whose interpreter code is a plain per-lane expression (the
 * same expression, so results are bit-identical), or a call into the interpreter for everything else.
 * Both paths count the instruction exactly as run_warp does. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_ops.h"
#include "sim_jit.h"

/* The prelude every generated file starts with: the ABI, bit casts, and the counting macros. */
static const char prelude[] =
	"#include <stdint.h>\n#include <string.h>\n#include <math.h>\n" SIM_JIT_ABI_TEXT "\n"
	"static inline float F(uint64_t b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }\n"
	"static inline uint64_t FB(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }\n"
	/* min/max.f32 as float_op computes them (in double; a NaN operand gives the other one) */
	"static inline uint64_t FMIN(uint64_t x, uint64_t y) { double a = F(x), b = F(y); "
	"return FB((float)(isnan(a) ? b : isnan(b) ? a : (a < b || (a == b && signbit(a))) ? a : b)); }\n"
	"static inline uint64_t FMAX(uint64_t x, uint64_t y) { double a = F(x), b = F(y); "
	"return FB((float)(isnan(a) ? b : isnan(b) ? a : (a > b || (a == b && !signbit(a))) ? a : b)); }\n"
	"#define FLUSH() do { *W->inst += ni; *W->thread_inst += ni * P; *W->sass_inst += ns; "
	"*W->sass_thread_inst += ns * P; *W->executed += ni; ni = ns = 0; } while (0)\n"
	"#define GUARD(g, neg) do { uint32_t on_ = 0; for (int l = 0; l < 32; l++) on_ |= (uint32_t)(r[(g) + l] & 1) << l; "
	"mask = (neg) ? act & ~on_ : act & on_; } while (0)\n"
	"#define NEXT(i) do { if (++pending == 4096) { W->last = (i); *W->pc = (i) + 1; goto out_budget; } } while (0)\n"
	"#define LANES(expr, dst) do { for (int l = 0; l < 32; l++) { uint64_t v_ = (expr); "
	"r[(dst) + l] = (mask >> l & 1) ? v_ : r[(dst) + l]; } } while (0)\n"
	/* an unguarded instruction of a full warp (the common case): a plain loop without the per-lane select */
	"#define ALL(expr, dst) do { if (act == 0xffffffffu) { for (int l = 0; l < 32; l++) r[(dst) + l] = (expr); } "
	"else LANES(expr, dst); } while (0)\n"
	/* add/sub/mul/fma.f32: a NaN result is the first NaN operand, quieted (x86's rule in source order), else
	 * the operation's own; pinned because the compiler may swap a commutative operation's operands (the
	 * interpreter's f32_nan pins the same rule) */
	"static inline uint64_t NANPICK(uint64_t r, uint64_t a, uint64_t b, uint64_t c) { return F(r) == F(r) ? r : "
	"F(a) != F(a) ? ((uint32_t)a | 0x400000u) : F(b) != F(b) ? ((uint32_t)b | 0x400000u) : "
	"F(c) != F(c) ? ((uint32_t)c | 0x400000u) : r; }\n"
	"static inline uint64_t FADD(uint64_t a, uint64_t b) { return NANPICK(FB(F(a) + F(b)), a, b, a); }\n"
	"static inline uint64_t FSUB(uint64_t a, uint64_t b) { return NANPICK(FB(F(a) - F(b)), a, b, a); }\n"
	"static inline uint64_t FMUL(uint64_t a, uint64_t b) { return NANPICK(FB(F(a) * F(b)), a, b, a); }\n"
	"static inline uint64_t FFMA(uint64_t a, uint64_t b, uint64_t c) { "
	"return NANPICK(FB(fmaf(F(a), F(b), F(c))), a, b, c); }\n"
	/* Full-warp SIMD forms (VALL/FALL below).  A 32-byte vector holds 4 lanes' 64-bit slots (VQ); the
	 * same bytes seen as 8 halves (VD, VI, VF) put each lane's low half in an even element.  A 32-bit
	 * form computes on all 8 halves and clears the odd ones, as the scalar expression's (uint32_t) cast
	 * clears the high half; the odd halves' values never reach a result.  GCC lowers these types to SIMD
	 * even at -O1, where it vectorises no loop. */
	"#if defined(__AVX__)\n#include <immintrin.h>\n#endif\n"
	"typedef uint64_t VQ __attribute__((vector_size(32)));\n"
	"typedef int64_t VSQ __attribute__((vector_size(32)));\n"
	"typedef uint32_t VD __attribute__((vector_size(32)));\n"
	"typedef int32_t VI __attribute__((vector_size(32)));\n"
	"typedef float VF __attribute__((vector_size(32)));\n"
	/* forced: -O1 leaves some of them out of line, and 32-byte vectors passed by value go through memory */
	"#define VINLINE static inline __attribute__((always_inline))\n"
	"VINLINE VQ VLD(const uint64_t *p) { VQ v; memcpy(&v, p, sizeof v); return v; }\n"
	"VINLINE VQ VK(uint64_t c) { return (VQ){c, c, c, c}; }\n"
	"#define VR(s) VLD(r + (s) + q)\n"
	"#define LO VK(0xffffffffu)\n"
	"VINLINE VQ VADD32(VQ a, VQ b) { return (VQ)((VD)a + (VD)b) & LO; }\n"
	"VINLINE VQ VSUB32(VQ a, VQ b) { return (VQ)((VD)a - (VD)b) & LO; }\n"
	"VINLINE VQ VMUL32(VQ a, VQ b) { return (VQ)((VD)a * (VD)b) & LO; }\n"
	"VINLINE VQ VMAD32(VQ a, VQ b, VQ c) { return (VQ)((VD)a * (VD)b + (VD)c) & LO; }\n"
	/* shifts: the count is the low half; 32 and more give 0 (shr.s32: the sign, as a shift by 31) like the
	 * scalar forms' explicit tests, and the C shift itself never sees a count past 31 */
	"VINLINE VQ VSHL32(VQ a, VQ b) { VD n = (VD)b; return (VQ)(((VD)a << (n & 31)) & (VD)(n < 32)) & LO; }\n"
	"VINLINE VQ VSHR32U(VQ a, VQ b) { VD n = (VD)b; return (VQ)(((VD)a >> (n & 31)) & (VD)(n < 32)) & LO; }\n"
	"VINLINE VQ VSHR32S(VQ a, VQ b) { VD n = (VD)b, big = (VD)(n > 31); "
	"return (VQ)((VI)a >> (VI)((n & ~big) | (31 & big))) & LO; }\n"
	"VINLINE VQ VSHL64(VQ a, VQ b) { VQ n = b & LO; return (a << (n & 63)) & (VQ)(n < 64); }\n"
	"VINLINE VQ VSHR64U(VQ a, VQ b) { VQ n = b & LO; return (a >> (n & 63)) & (VQ)(n < 64); }\n"
	/* the low half sign-extended to 64 bits (cvt.s64.s32) */
	"VINLINE VQ VSX32(VQ a) { return (a & LO) | (VQ)((VI)a >> 31) << 32; }\n"
	/* setp: a comparison's all-ones/zero halves become 0/1 slots (bit 0 of the even half) */
	"VINLINE VQ VSETP(VI m) { return (VQ)m & VK(1); }\n"
	/* mul.wide.{u32,s32}: the low halves' 64-bit product (vpmuludq/vpmuldq compute exactly that) */
	"#if defined(__AVX2__)\n"
	"VINLINE VQ VMULWU(VQ a, VQ b) { return (VQ)_mm256_mul_epu32((__m256i)a, (__m256i)b); }\n"
	"VINLINE VQ VMULWS(VQ a, VQ b) { return (VQ)_mm256_mul_epi32((__m256i)a, (__m256i)b); }\n"
	"#else\n"
	"VINLINE VQ VMULWU(VQ a, VQ b) { return (a & LO) * (b & LO); }\n"
	"VINLINE VQ VMULWS(VQ a, VQ b) { return (VQ)((VSQ)VSX32(a) * (VSQ)VSX32(b)); }\n"
	"#endif\n"
	/* f32: one IEEE operation per element under the same MXCSR as the scalar code, so every non-NaN
	 * result is the same bits; fma is fused (one rounding) in both paths */
	/* a NaN result (rare): NANPICK per lane, as the scalar helpers do */
	"#if defined(__AVX__)\n"
	"VINLINE int VNAN(VQ v) { return _mm256_movemask_ps(_mm256_cmp_ps((__m256)v, (__m256)v, _CMP_UNORD_Q)) != 0; }\n"
	"#else\n"
	"VINLINE int VNAN(VQ v) { VF x = (VF)v; VQ m = (VQ)(x != x); return (m[0] | m[1] | m[2] | m[3]) != 0; }\n"
	"#endif\n"
	/* out of line, so that the common path keeps its vectors in registers */
	"static __attribute__((noinline, cold)) VQ VNANSLOW(VQ v, VQ a, VQ b, VQ c) { for (int i = 0; i < 4; i++) "
	"v[i] = NANPICK(v[i], a[i], b[i], c[i]); return v; }\n"
	"VINLINE VQ VNANFIX(VQ v, VQ a, VQ b, VQ c) { return VNAN(v) ? VNANSLOW(v, a, b, c) : v; }\n"
	"VINLINE VQ VFADD(VQ a, VQ b) { return VNANFIX((VQ)((VF)a + (VF)b) & LO, a, b, a); }\n"
	"VINLINE VQ VFSUB(VQ a, VQ b) { return VNANFIX((VQ)((VF)a - (VF)b) & LO, a, b, a); }\n"
	"VINLINE VQ VFMUL(VQ a, VQ b) { return VNANFIX((VQ)((VF)a * (VF)b) & LO, a, b, a); }\n"
	"#if defined(__FMA__)\n"
	"VINLINE VQ VFMA(VQ a, VQ b, VQ c) { "
	"return VNANFIX((VQ)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c) & LO, a, b, c); }\n"
	"#else\n"
	"VINLINE VQ VFMA(VQ a, VQ b, VQ c) { VQ d; for (int i = 0; i < 4; i++) d[i] = FFMA(a[i], b[i], c[i]); return d; }\n"
	"#endif\n"
	"#define VW(p, v) do { VQ w_ = (v); memcpy((p), &w_, sizeof w_); } while (0)\n"
	/* A full warp's add/sub/mul/fma.f32 on registers only (a tiled GEMM's inner loop), out of line: one
	 * small function per kernel that -O1 compiles into straight code, where a loop per instruction keeps
	 * reloading its pointers.  The 8 vectors stay in registers and one NaN test covers them; with a NaN
	 * anywhere, every lane takes the scalar form, from operands not yet overwritten (a lane reads only
	 * its own lane, so a destination that is also a source is safe). */
	"#if defined(__AVX__)\n"
	"#define WOPS(name, decl, vraw, sexpr) static __attribute__((noinline, unused)) void name decl { VQ t[8]; int nan = 0; "
	"_Pragma(\"GCC unroll 8\") for (int q = 0; q < 8; q++) { t[q] = (vraw) & LO; nan |= VNAN(t[q]); } "
	"if (nan) { for (int l = 0; l < 32; l++) d[l] = (sexpr); return; } "
	"_Pragma(\"GCC unroll 8\") for (int q = 0; q < 8; q++) VW(d + 4 * q, t[q]); }\n"
	"#else\n"
	"#define WOPS(name, decl, vraw, sexpr) static __attribute__((noinline, unused)) void name decl { "
	"for (int l = 0; l < 32; l++) d[l] = (sexpr); }\n"
	"#endif\n"
	"#define WVF(p) ((VF)VLD((p) + 4 * q))\n"
	"#define W2 (uint64_t *d, const uint64_t *a, const uint64_t *b)\n"
	"WOPS(WFADD, W2, (VQ)(WVF(a) + WVF(b)), FADD(a[l], b[l]))\n"
	"WOPS(WFSUB, W2, (VQ)(WVF(a) - WVF(b)), FSUB(a[l], b[l]))\n"
	"WOPS(WFMUL, W2, (VQ)(WVF(a) * WVF(b)), FMUL(a[l], b[l]))\n"
	"#if defined(__FMA__)\n"
	"WOPS(WFMA, (uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c), "
	"(VQ)_mm256_fmadd_ps((__m256)WVF(a), (__m256)WVF(b), (__m256)WVF(c)), FFMA(a[l], b[l], c[l]))\n"
	"#else\n"
	"static __attribute__((noinline, unused)) void WFMA(uint64_t *d, const uint64_t *a, const uint64_t *b, "
	"const uint64_t *c) "
	"{ for (int l = 0; l < 32; l++) d[l] = FFMA(a[l], b[l], c[l]); }\n"
	"#endif\n"
	/* a full warp's unguarded instruction as 8 vectors of 4 lanes; otherwise the scalar LANES loop */
	"#define VALL(vexpr, expr, dst) do { if (act == 0xffffffffu) { for (int q = 0; q < 32; q += 4) "
	"VW(r + (dst) + q, (vexpr)); } else LANES(expr, dst); } while (0)\n";

/* Source operand k as a C expression of lane `l`: a register load or a constant. */
static const char *opnd(const struct ptx_function *fn, const struct ptx_insn *ins, int k, char *buf, size_t n)
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
static bool native_expr(const struct ptx_function *fn, const struct ptx_insn *ins, char *e, size_t n,
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
		opnd(fn, ins, 1, a, sizeof a);
		opnd(fn, ins, 2, b, sizeof b);
		if (nsrc == 3)
			opnd(fn, ins, 3, c, sizeof c);
		if (ptx_type_is_float((enum ptx_type)ins->type))
			return f32_expr(ins, a, b, c, e, n, flops);
		return ins->op != OP_FMA && int_expr(ins, a, b, c, e, n);
	}
	case OP_AND: case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR:
		if (!slots_ok(fn, ins, 2) || ins->nops != 3)
			return false;
		return bits_expr(ins, opnd(fn, ins, 1, a, sizeof a), opnd(fn, ins, 2, b, sizeof b), e, n);
	case OP_NOT:
		if (!slots_ok(fn, ins, 1) || ins->nops != 2)
			return false;
		return bits_expr(ins, opnd(fn, ins, 1, a, sizeof a), a, e, n);
	case OP_SETP:
		if (!slots_ok(fn, ins, 2))
			return false;
		opnd(fn, ins, 1, a, sizeof a);
		opnd(fn, ins, 2, b, sizeof b);
		return setp_expr(ins, a, b, e, n) || setp_f32_expr(ins, a, b, e, n);
	case OP_MIN: case OP_MAX: case OP_DIV:
		if (!slots_ok(fn, ins, 2) || ins->nops != 3)
			return false;
		opnd(fn, ins, 1, a, sizeof a);
		opnd(fn, ins, 2, b, sizeof b);
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
		snprintf(e, n, "FB(exp2f(F(%s)))", opnd(fn, ins, 1, a, sizeof a));
		return true;
	case OP_CVT:
		if (!slots_ok(fn, ins, 1) || ins->nops != 2)
			return false;
		return cvt_expr(ins, opnd(fn, ins, 1, a, sizeof a), e, n);
	case OP_MOV:
		if (!slots_ok(fn, ins, 1) || ins->nops != 2)
			return false;
		opnd(fn, ins, 1, a, sizeof a);
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
		snprintf(x, sizeof x, "%s %c 0x%llxull", opnd(fn, ins, 1, a, sizeof a), ins->sub ? '-' : '+',
			 (unsigned long long)cvta_window((enum ptx_space)ins->space));
		snprintf(e, n, trunc_fmt(bytes), x);
		return true;
	}
	case OP_SELP: {
		if (!slots_ok(fn, ins, 3) || ins->nops != 4 || (bytes != 4 && bytes != 8))
			return false;
		char x[160];
		snprintf(x, sizeof x, "((%s & 1) != %d) ? %s : %s", opnd(fn, ins, 3, c, sizeof c), ins->ops[3].neg ? 1 : 0,
			 opnd(fn, ins, 1, a, sizeof a), opnd(fn, ins, 2, b, sizeof b));
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
static bool warp_call(const struct ptx_function *fn, const struct ptx_insn *ins, char *v, size_t n)
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

/* A full-warp SIMD expression for an instruction native_expr translated (the same operands, results
 * bit-identical to its lane expression), or false when it has none. */
static bool vec_expr(const struct ptx_function *fn, const struct ptx_insn *ins, char *v, size_t n)
{
	char a[40], b[40], c[40];
	int nsrc = ins->nops - 1;
	unsigned bytes = ptx_type_bytes((enum ptx_type)ins->type);
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
static bool inline_mem(const struct ptx_function *fn, const struct ptx_insn *ins)
{
	if (ins->op != OP_LD && ins->op != OP_ST)
		return false;
	const struct ptx_operand *mo = &ins->ops[ins->op == OP_ST ? 0 : 1];
	return ins->nops >= 2 && mo->kind == PO_MEM && mo->slot < fn->nslots + fn->nconsts;
}

static void emit_mem(FILE *f, const struct ptx_function *fn, const struct ptx_insn *ins, int i)
{
	const struct ptx_operand *mo = &ins->ops[ins->op == OP_ST ? 0 : 1];
	char base[48];
	fprintf(f, "\tif (mask) {\n\t\tuint64_t a_[32];\n");
	if (mo->slot >= 0 && mo->slot < fn->nslots) { /* a register: 8 vectors (-O1 vectorises no loop itself) */
		fprintf(f, "\t\tfor (int q = 0; q < 32; q += 4) VW(a_ + q, VR(%d) + VK(0x%llxull));\n",
			mo->slot * 32, (unsigned long long)mo->offset);
	} else {
		if (mo->slot < 0)
			snprintf(base, sizeof base, "0");
		else
			opnd(fn, ins, ins->op == OP_ST ? 0 : 1, base, sizeof base);
		fprintf(f, "\t\tfor (int l = 0; l < 32; l++) a_[l] = %s + 0x%llxull;\n", base,
			(unsigned long long)mo->offset);
	}
	fprintf(f,
		"\t\tif (W->mem(W->cta, W->w, %d, mask, a_) < 0) { *W->pc = %d; W->last = %d; goto out_abort; }\n\t}\n"
		"\tNEXT(%d);\n",
		i, i, i, i);
}

static void emit_head(FILE *f, const struct ptx_function *fn, const struct ptx_insn *ins, int i)
{
	uint32_t weight = fn->sass ? fn->sass[i].weight : 0;
	fprintf(f, "L%d: /* PTX line %d: %s */\n\tni++; ns += %uu;\n", i, ins->line, ptx_op_name((enum ptx_op)ins->op),
		weight);
	if (ins->guard >= 0 && ins->guard < fn->nslots)
		fprintf(f, "\tGUARD(%d, %d);\n", ins->guard * 32, ins->guard_neg ? 1 : 0);
	else
		fprintf(f, "\tmask = act;\n");
}

/* A call into the interpreter for one instruction, with run_warp's handling of its result. */
static void emit_call(FILE *f, int i)
{
	fprintf(f,
		"\tFLUSH(); *W->pc = %d; W->last = %d;\n"
		"\trc = W->exec(W->cta, W->w, %d, mask);\n"
		"\tif (rc < 0) goto out_abort;\n"
		"\tif (rc > 0) { if (++pending == 4096) goto out_budget; goto out_continue; }\n"
		"\tif (*W->active != act || *W->live != act) goto out_step;\n"
		"\tNEXT(%d);\n",
		i, i, i, i);
}

/* bra: uniform inline (taken by all or none), divergent through the interpreter (sim_branch). */
static void emit_branch(FILE *f, const struct ptx_function *fn, const struct ptx_insn *ins, int i)
{
	int target = (int)ins->ops[0].offset;
	if (target <= i) /* run_warp's turn quantum, checked before the branch counts */
		fprintf(f, "L%d:\n\tif (++W->loops > %d && W->multiwarp) { *W->pc = %d; W->last = %d; goto out_yield; }\n",
			i, SIM_JIT_QUANTUM, i, i);
	else
		fprintf(f, "L%d:\n", i);
	uint32_t weight = fn->sass ? fn->sass[i].weight : 0;
	fprintf(f, "\tni++; ns += %uu; /* PTX line %d: bra */\n", weight, ins->line);
	if (ins->guard >= 0 && ins->guard < fn->nslots)
		fprintf(f, "\tGUARD(%d, %d);\n", ins->guard * 32, ins->guard_neg ? 1 : 0);
	else
		fprintf(f, "\tmask = act;\n");
	fprintf(f,
		"\tif (mask == act) { if (++pending == 4096) { W->last = %d; *W->pc = %d; goto out_budget; } goto L%d; }\n"
		"\tif (mask != 0) {\n",
		i, target, target);
	emit_call(f, i);
	fprintf(f, "\t}\n\tNEXT(%d);\n", i);
}

/* What the compiled engine leaves to the interpreter as a whole: calls into other .func bodies (their
 * code is not this function's) and guards that are not registers.  NULL when it takes the function. */
static bool refuse(const struct ptx_module *m, const struct ptx_function *fn, char *why, size_t whyn)
{
	for (int i = 0; i < fn->ncode; i++) {
		const struct ptx_insn *ins = &fn->code[i];
		if (ins->guard >= fn->nslots) {
			snprintf(why, whyn, "PTX line %d: a guard predicate that is not a register", ins->line);
			return true;
		}
		if (ins->op != OP_CALL)
			continue;
		const char *callee = NULL;
		bool builtin = false;
		for (int k = 0; k < ins->nops; k++)
			if (ins->ops[k].kind == PO_FUNC && ins->ops[k].offset >= 0 && ins->ops[k].offset < m->nfuncs) {
				callee = m->funcs[ins->ops[k].offset].name;
				builtin = m->funcs[ins->ops[k].offset].builtin != PTX_BUILTIN_NONE;
			}
		if (!builtin) {
			snprintf(why, whyn, "PTX line %d: a call to %s (the compiled engine runs kernels whose only calls "
				 "are printf and assert)", ins->line, callee ? callee : "a function pointer");
			return true;
		}
	}
	return false;
}

/* Where a warp may enter the compiled function: the start, branch targets, and the instruction after
 * each one that may leave it (a call into the interpreter or a backward branch).  A warp anywhere else
 * is interpreted until it reaches one; fewer entries keep the function's control flow simple enough to
 * compile quickly. */
static void mark_entries(const struct ptx_function *fn, bool *entry)
{
	entry[0] = true;
	char e[512];
	const char *flops;
	for (int i = 0; i < fn->ncode; i++) {
		const struct ptx_insn *ins = &fn->code[i];
		if (ins->op == OP_BRA && ins->ops[0].kind == PO_LABEL && ins->ops[0].offset >= 0 &&
		    ins->ops[0].offset < fn->ncode) {
			entry[ins->ops[0].offset] = true;
			entry[i] = entry[i] || ins->ops[0].offset <= i; /* where a yielding warp resumes */
			entry[i + 1] = true;
		} else if (ins->op != OP_NOP && ins->op != OP_MEMBAR && !inline_mem(fn, ins) &&
			   !native_expr(fn, ins, e, sizeof e, &flops)) {
			entry[i + 1] = true;
		}
	}
}

char *sim_jit_source(const struct ptx_module *m, const struct ptx_function *fn, int *native, char *why, size_t whyn)
{
	if (refuse(m, fn, why, whyn))
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		snprintf(why, whyn, "out of memory writing the generated C");
		return NULL;
	}
	*native = 0;
	fprintf(f, "/* gpulab compiled kernel %s: %d PTX instructions */\n%s\n", fn->name, fn->ncode, prelude);
	fprintf(f, "int gl_jit_run(struct sim_jit_warp *W)\n{\n"
		   "\tuint64_t *r = W->r;\n\tconst uint32_t act = *W->active;\n"
		   "\tconst uint64_t P = (uint64_t)__builtin_popcount(act);\n"
		   "\tuint64_t ni = 0, ns = 0, pending = W->pending;\n\tuint32_t mask;\n\tint rc;\n"
		   "\t(void)rc; (void)mask;\n\tswitch (*W->pc) {\n");
	bool *entry = calloc((size_t)fn->ncode + 1, 1);
	if (!entry) {
		fclose(f);
		free(buf);
		snprintf(why, whyn, "out of memory writing the generated C");
		return NULL;
	}
	mark_entries(fn, entry);
	for (int i = 0; i < fn->ncode; i++)
		if (entry[i])
			fprintf(f, "\tcase %d: goto L%d;\n", i, i);
	free(entry);
	fprintf(f, "\tdefault: return %d;\n\t}\n", SIM_JIT_NO_ENTRY);
	for (int i = 0; i < fn->ncode; i++) {
		const struct ptx_insn *ins = &fn->code[i];
		char e[512];
		const char *flops;
		if (ins->op == OP_BRA && ins->ops[0].kind == PO_LABEL && ins->ops[0].offset >= 0 &&
		    ins->ops[0].offset < fn->ncode) {
			emit_branch(f, fn, ins, i);
			++*native;
			continue;
		}
		emit_head(f, fn, ins, i);
		if (ins->op == OP_NOP || ins->op == OP_MEMBAR) {
			fprintf(f, "\tNEXT(%d);\n", i);
			++*native;
		} else if (inline_mem(fn, ins)) {
			emit_mem(f, fn, ins, i);
			++*native;
		} else if (native_expr(fn, ins, e, sizeof e, &flops)) {
			bool guarded = ins->guard >= 0 && ins->guard < fn->nslots;
			char v[512];
			if (guarded)
				fprintf(f, "\tLANES(%s, %d);\n", e, ins->ops[0].slot * 32);
			else if (warp_call(fn, ins, v, sizeof v))
				fprintf(f, "\tif (act == 0xffffffffu) %s; else LANES(%s, %d);\n", v, e,
					ins->ops[0].slot * 32);
			else if (vec_expr(fn, ins, v, sizeof v))
				fprintf(f, "\tVALL(%s, %s, %d);\n", v, e, ins->ops[0].slot * 32);
			else
				fprintf(f, "\tALL(%s, %d);\n", e, ins->ops[0].slot * 32);
			if (flops)
				fprintf(f, "\t*W->%s += (uint64_t)__builtin_popcount(mask);\n", flops);
			fprintf(f, "\tNEXT(%d);\n", i);
			++*native;
		} else {
			emit_call(f, i);
		}
	}
	fprintf(f, "\t*W->pc = %d; W->last = %d;\n"
		   "out_continue: FLUSH(); W->pending = pending; return %d;\n"
		   "out_yield: FLUSH(); W->pending = pending; return %d;\n"
		   "out_abort: FLUSH(); W->pending = pending; return %d;\n"
		   "out_budget: FLUSH(); W->pending = pending; return %d;\n"
		   "out_step: FLUSH(); W->pending = pending; return %d;\n}\n",
		fn->ncode, fn->ncode - 1, SIM_JIT_CONTINUE, SIM_JIT_YIELD, SIM_JIT_ABORT, SIM_JIT_BUDGET, SIM_JIT_STEP);
	if (fclose(f) != 0) {
		free(buf);
		snprintf(why, whyn, "out of memory writing the generated C");
		return NULL;
	}
	return buf;
}
