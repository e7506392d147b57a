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
#include "sim_jit_expr.h"

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
	/* bfi as the interpreter's bfi (sim_exec.c) computes it */
	"static inline uint64_t BFI(uint64_t a, uint64_t b, unsigned pos, unsigned len, unsigned bits) { "
	"if (pos >= bits || len == 0) return b; unsigned top = pos + len < bits ? pos + len : bits; "
	"uint64_t m = (top - pos == 64 ? ~0ull : (1ull << (top - pos)) - 1) << pos; return (b & ~m) | ((a << pos) & m); }\n"
	/* the function runs full warps only (sim_jit.h): 32 lanes, all active */
	"#define FLUSH() do { *W->inst += ni; *W->thread_inst += ni * 32; *W->sass_inst += ns; "
	"*W->sass_thread_inst += ns * 32; *W->executed += ni; ni = ns = 0; } while (0)\n"
	"#define GUARD(g, neg) do { uint32_t on_ = 0; for (int l = 0; l < 32; l++) on_ |= (uint32_t)(r[(g) + l] & 1) << l; "
	"mask = (neg) ? ~on_ : on_; } while (0)\n"
	/* un-count the n instructions (SASS weight w) of the segment after an exit (sim_jit_gen.c) */
	"#define UNCOUNT(n, w) do { ni -= (n); ns -= (w); pending -= (n); } while (0)\n"
	"#define LANES(expr, dst) do { for (int l = 0; l < 32; l++) { uint64_t v_ = (expr); "
	"r[(dst) + l] = (mask >> l & 1) ? v_ : r[(dst) + l]; } } while (0)\n"
	/* an unguarded instruction: a plain loop that writes every lane */
	"#define ALL(expr, dst) do { for (int l = 0; l < 32; l++) r[(dst) + l] = (expr); } while (0)\n"
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
	"typedef uint64_t VQ __attribute__((vector_size(32)));\n"
	"typedef int64_t VSQ __attribute__((vector_size(32)));\n"
	"typedef uint32_t VD __attribute__((vector_size(32)));\n"
	"typedef int32_t VI __attribute__((vector_size(32)));\n"
	"typedef float VF __attribute__((vector_size(32)));\n"
	/* the four AVX2/FMA instructions used, through the compiler's builtins when it has them (GCC's and
	 * Clang's names agree): <immintrin.h> alone takes a quarter of a second to parse, as long as
	 * compiling a small kernel */
	"#if defined(__AVX2__) && defined(__FMA__) && defined(__has_builtin)\n"
	"#if __has_builtin(__builtin_ia32_pmuludq256) && __has_builtin(__builtin_ia32_pmuldq256) && "
	"__has_builtin(__builtin_ia32_vfmaddps256) && __has_builtin(__builtin_ia32_movmskps256) && "
	"__has_builtin(__builtin_ia32_cmpps256)\n#define GL_BUILTINS 1\n#endif\n#endif\n"
	"#if defined(GL_BUILTINS)\n"
	"#define MULEPU32(a, b) ((VQ)__builtin_ia32_pmuludq256((VI)(a), (VI)(b)))\n"
	"#define MULEPI32(a, b) ((VQ)__builtin_ia32_pmuldq256((VI)(a), (VI)(b)))\n"
	"#define FMADDPS(a, b, c) ((VQ)__builtin_ia32_vfmaddps256((VF)(a), (VF)(b), (VF)(c)))\n"
	"#define UNORDMASK(v) __builtin_ia32_movmskps256(__builtin_ia32_cmpps256((VF)(v), (VF)(v), 3))\n"
	"#define UNORDBITS(v) ((VQ)__builtin_ia32_cmpps256((VF)(v), (VF)(v), 3))\n"
	"#define ANYBITS(m) (__builtin_ia32_movmskps256((VF)(m)) != 0)\n"
	"#elif defined(__AVX__)\n#include <immintrin.h>\n"
	"#define MULEPU32(a, b) ((VQ)_mm256_mul_epu32((__m256i)(a), (__m256i)(b)))\n"
	"#define MULEPI32(a, b) ((VQ)_mm256_mul_epi32((__m256i)(a), (__m256i)(b)))\n"
	"#define FMADDPS(a, b, c) ((VQ)_mm256_fmadd_ps((__m256)(a), (__m256)(b), (__m256)(c)))\n"
	"#define UNORDMASK(v) _mm256_movemask_ps(_mm256_cmp_ps((__m256)(v), (__m256)(v), _CMP_UNORD_Q))\n"
	"#define UNORDBITS(v) ((VQ)_mm256_cmp_ps((__m256)(v), (__m256)(v), _CMP_UNORD_Q))\n"
	"#define ANYBITS(m) (_mm256_movemask_ps((__m256)(m)) != 0)\n"
	"#endif\n"
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
	/* selp, min and max: lanes of all ones in m take a, the others b */
	"VINLINE VQ VBLEND(VQ m, VQ a, VQ b) { return (a & m) | (b & ~m); }\n"
	"VINLINE VQ VSEL(VQ p, VQ a, VQ b) { return VBLEND(VK(0) - (p & VK(1)), a, b); }\n"
	"#define VPICK32S(a, b, op) (VBLEND((VQ)((VI)(a) op (VI)(b)) & LO, a, b) & LO)\n"
	"#define VPICK32U(a, b, op) (VBLEND((VQ)((VD)(a) op (VD)(b)) & LO, a, b) & LO)\n"
	"#define VPICK64S(a, b, op) VBLEND((VQ)((VSQ)(a) op (VSQ)(b)), a, b)\n"
	"#define VPICK64U(a, b, op) VBLEND((VQ)((VSQ)((a) ^ VK(1ull << 63)) op (VSQ)((b) ^ VK(1ull << 63))), a, b)\n"
	/* mul.wide.{u32,s32}: the low halves' 64-bit product (vpmuludq/vpmuldq compute exactly that) */
	"#if defined(__AVX2__)\n"
	"VINLINE VQ VMULWU(VQ a, VQ b) { return MULEPU32(a, b); }\n"
	"VINLINE VQ VMULWS(VQ a, VQ b) { return MULEPI32(a, b); }\n"
	"#else\n"
	"VINLINE VQ VMULWU(VQ a, VQ b) { return (a & LO) * (b & LO); }\n"
	"VINLINE VQ VMULWS(VQ a, VQ b) { return (VQ)((VSQ)VSX32(a) * (VSQ)VSX32(b)); }\n"
	"#endif\n"
	/* f32: one IEEE operation per element under the same MXCSR as the scalar code, so every non-NaN
	 * result is the same bits; fma is fused (one rounding) in both paths */
	/* a NaN result (rare): NANPICK per lane, as the scalar helpers do */
	"#if defined(__AVX__)\n"
	"VINLINE int VNAN(VQ v) { return UNORDMASK(v) != 0; }\n"
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
	"return VNANFIX(FMADDPS(a, b, c) & LO, a, b, c); }\n"
	"#else\n"
	"VINLINE VQ VFMA(VQ a, VQ b, VQ c) { VQ d; for (int i = 0; i < 4; i++) d[i] = FFMA(a[i], b[i], c[i]); return d; }\n"
	"#endif\n"
	"#define VW(p, v) do { VQ w_ = (v); memcpy((p), &w_, sizeof w_); } while (0)\n"
	/* A full warp's add/sub/mul/fma.f32 on registers only (a tiled GEMM's inner loop), out of line: one
	 * small function per kernel that -O1 compiles into straight code, where a loop per instruction keeps
	 * reloading its pointers.  The 8 vectors stay in registers and one NaN test covers them (their
	 * unordered-compare masks ORed as vectors: one mask move, no register per vector); with a NaN
	 * anywhere, every lane takes the scalar form, from operands not yet overwritten (a lane reads only
	 * its own lane, so a destination that is also a source is safe). */
	"#if defined(__AVX__)\n"
	"#define WOPS(name, decl, vraw, sexpr) static __attribute__((noinline, unused)) void name decl { VQ t[8], nan = VK(0); "
	"_Pragma(\"GCC unroll 8\") for (int q = 0; q < 8; q++) { t[q] = (vraw) & LO; nan |= UNORDBITS(t[q]); } "
	"if (ANYBITS(nan)) { for (int l = 0; l < 32; l++) d[l] = (sexpr); return; } "
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
	"FMADDPS(WVF(a), WVF(b), WVF(c)), FFMA(a[l], b[l], c[l]))\n"
	"#else\n"
	"static __attribute__((noinline, unused)) void WFMA(uint64_t *d, const uint64_t *a, const uint64_t *b, "
	"const uint64_t *c) "
	"{ for (int l = 0; l < 32; l++) d[l] = FFMA(a[l], b[l], c[l]); }\n"
	"#endif\n"
	/* an unguarded instruction as 8 vectors of 4 lanes */
	"#define VALL(vexpr, dst) do { for (int q = 0; q < 32; q += 4) VW(r + (dst) + q, (vexpr)); } while (0)\n"
	/* a jump to instruction t in another part of the function: back to gl_jit_run, which enters that part */
	"#define JUMP(t) do { FLUSH(); W->pending = pending; return (t); } while (0)\n";

/* The kernel's code is written as several C functions ("parts") of about PART_INSNS instructions each,
 * which gl_jit_run enters in turn: the C compiler's time grows faster than linearly with a function's
 * size (934 instructions of the tiled GEMM in one function took 3 s at -O1, in parts of 128 about 1 s),
 * and a jump between two parts costs one return and one call.  A part starts at an entry (mark_entries),
 * so gl_jit_run can enter it there. */
#define PART_INSNS 128

/* The part being written: instructions [lo, hi) of fn, and where a warp may enter. */
struct gen {
	FILE *f;
	const struct ptx_function *fn;
	const bool *entry;
	int lo, hi;
	int seg_end;  /* the end of the segment being written (see emit_segment) */
	int native;   /* instructions translated inline so far */
	bool *token;  /* per register slot: the part has a shape token for it (emit_tokens) */
};

/* A jump to instruction t: a goto inside the part, JUMP to another. */
static void emit_goto(const struct gen *g, int t)
{
	if (t >= g->lo && t < g->hi)
		fprintf(g->f, "goto L%d;", t);
	else
		fprintf(g->f, "JUMP(%d);", t);
}

static uint32_t weight(const struct ptx_function *fn, int i)
{
	return fn->sass ? fn->sass[i].weight : 0;
}

/* UNCOUNT(n, w) for the instructions of the segment from `from` on: an exit at `from` (not run) or after
 * from - 1 leaves them uncounted. */
static void emit_uncount(const struct gen *g, int from)
{
	uint32_t w = 0;
	for (int j = from; j < g->seg_end; j++)
		w += weight(g->fn, j);
	if (g->seg_end > from)
		fprintf(g->f, "UNCOUNT(%d, %uu); ", g->seg_end - from, w);
}

/* A segment runs from an entry to the next: every warp that enters it runs its instructions in order
 * until one leaves the function (a call into the interpreter, an abort, a branch, the turn's end), and
 * only the last one of a segment may take a branch or call the interpreter (mark_entries).  So the
 * instructions are counted when the segment starts (executed, thread- and SASS instructions, and the
 * budget's pending count), and an exit before its end un-counts the rest.  When the budget check
 * (run_warp's, every SIM_JIT_BUDGET_STEP instructions) falls inside the segment, the interpreter runs it
 * instead, one instruction at a time up to the next entry, and checks the budget at the same
 * instruction as always. */
static void emit_segment(struct gen *g, int i)
{
	int end = i + 1;
	while (end < g->hi && !g->entry[end])
		end++;
	g->seg_end = end;
	uint32_t w = 0;
	for (int j = i; j < end; j++)
		w += weight(g->fn, j);
	fprintf(g->f, "\tif (pending + %d >= %d) { *W->pc = %d; goto out_interp; }\n"
		      "\tpending += %d; ni += %d; ns += %uu;\n",
		end - i, SIM_JIT_BUDGET_STEP, i, end - i, end - i, w);
}

/* The address operand of an inline ld/st (sim_jit_inline_mem) of shared memory at [register + offset],
 * else NULL: emit_mem passes such an access its register (emit_mem_reg), and the part keeps a token for
 * that register (emit_tokens). */
static const struct ptx_operand *shared_at_reg(const struct ptx_function *fn, const struct ptx_insn *ins)
{
	const struct ptx_operand *mo = &ins->ops[ins->op == OP_ST ? 0 : 1];
	return ins->space == PS_SHARED && mo->slot >= 0 && mo->slot < fn->nslots ? mo : NULL;
}

/* A shared access at [register + offset] passes its instruction (its offset in the decoded code is a
 * constant here: a change of the layout changes the source, so the cache key) and the register's token
 * (t<slot>, a local of the part): the simulator leaves in it the class of the shape the register's lanes
 * were found to have, or 0 (sim_mem_hot.c), and trusts it at the next access of the register.  The
 * token starts at 0 when the part is entered and is set to 0 after every instruction that may write the
 * register (note_writes), so wherever control comes from, it is 0 or the class of the register's lanes
 * as they are. */
static void emit_mem_reg(struct gen *g, int i, const struct ptx_operand *mo)
{
	FILE *f = g->f;
	fprintf(f, "\tif (mask == 0xffffffffu && W->memr(W->cta, W->w, W->code + %d * %zu, r + %d, 0x%llxull, &t%d) < 0) { ",
		i, sizeof *g->fn->code, mo->slot * 32, (unsigned long long)mo->offset, mo->slot);
	emit_uncount(g, i + 1);
	fprintf(f, "*W->pc = %d; W->last = %d; goto out_abort; }\n", i, i);
}

/* After instruction i (when the warp goes on in the part): the tokens of the registers it may have
 * written go back to 0.  Inline forms write their destination only (emit_insn writes ops[0]'s lanes, a
 * load's data goes to ops[0]); a vector destination or a call into the interpreter clears them all.  Stores,
 * branches, nop and membar write no register. */
static void note_writes(struct gen *g, const struct ptx_insn *ins, bool inline_form)
{
	const struct ptx_operand *d = &ins->ops[0];
	if (ins->op == OP_ST || ins->op == OP_NOP || ins->op == OP_MEMBAR || ins->op == OP_BRA)
		return;
	if (inline_form && ins->nops > 0 && d->kind == PO_SLOT && ins->vec <= 1 && d->slot >= 0 &&
	    d->slot < g->fn->nslots) {
		if (g->token[d->slot])
			fprintf(g->f, "\tt%d = 0;\n", d->slot);
		return;
	}
	for (int s = 0; s < g->fn->nslots; s++)
		if (g->token[s])
			fprintf(g->f, "\tt%d = 0;\n", s);
}

static void emit_mem(struct gen *g, const struct ptx_insn *ins, int i)
{
	FILE *f = g->f;
	const struct ptx_function *fn = g->fn;
	const struct ptx_operand *mo = &ins->ops[ins->op == OP_ST ? 0 : 1];
	char base[48];
	if (ins->op == OP_LD && ins->space == PS_PARAM && mo->slot < 0) {
		/* a kernel parameter at a constant address: one translation for every lane (sim_ld_param_at) */
		fprintf(f, "\tif (mask && W->param(W->cta, W->w, %d, mask, 0x%llxull) < 0) { ", i,
			(unsigned long long)mo->offset);
		emit_uncount(g, i + 1);
		fprintf(f, "*W->pc = %d; W->last = %d; goto out_abort; }\n", i, i);
		return;
	}
	if (shared_at_reg(fn, ins)) {
		/* shared memory at a register, a full warp: its lanes and the offset, added only when needed
		 * (sim_mem_hot.c); a guard that leaves some lanes off takes the addresses' way below */
		emit_mem_reg(g, i, mo);
		if (ins->guard < 0 || ins->guard >= fn->nslots)
			return;
		fprintf(f, "\telse ");
	}
	fprintf(f, "\tif (mask) {\n\t\tuint64_t a_[32];\n");
	if (mo->slot >= 0 && mo->slot < fn->nslots) { /* a register: 8 vectors (-O1 vectorises no loop itself) */
		fprintf(f, "\t\tfor (int q = 0; q < 32; q += 4) VW(a_ + q, VR(%d) + VK(0x%llxull));\n",
			mo->slot * 32, (unsigned long long)mo->offset);
	} else {
		if (mo->slot < 0)
			snprintf(base, sizeof base, "0");
		else
			sim_jit_opnd(fn, ins, ins->op == OP_ST ? 0 : 1, base, sizeof base);
		fprintf(f, "\t\tfor (int l = 0; l < 32; l++) a_[l] = %s + 0x%llxull;\n", base,
			(unsigned long long)mo->offset);
	}
	fprintf(f, "\t\tif (W->mem(W->cta, W->w, %d, mask, a_) < 0) { ", i);
	emit_uncount(g, i + 1);
	fprintf(f, "*W->pc = %d; W->last = %d; goto out_abort; }\n\t}\n", i, i);
}

static void emit_head(struct gen *g, const struct ptx_insn *ins, int i)
{
	fprintf(g->f, "L%d: /* PTX line %d: %s */\n", i, ins->line, ptx_op_name((enum ptx_op)ins->op));
	if (g->entry[i])
		emit_segment(g, i);
	if (ins->guard >= 0 && ins->guard < g->fn->nslots)
		fprintf(g->f, "\tGUARD(%d, %d);\n", ins->guard * 32, ins->guard_neg ? 1 : 0);
	else
		fprintf(g->f, "\tmask = 0xffffffffu;\n");
}

/* A call into the interpreter for one instruction (the last of its segment), with run_warp's handling of
 * its result: 0 goes on to the next instruction, more leaves at the PC it set; when it changed the warp's
 * masks, run_warp steps the PC and counts it for the budget (so it is un-counted here). */
static void emit_call(FILE *f, int i)
{
	fprintf(f,
		"\tFLUSH(); *W->pc = %d; W->last = %d;\n"
		"\trc = W->exec(W->cta, W->w, %d, mask);\n"
		"\tif (rc < 0) goto out_abort;\n"
		"\tif (rc > 0) goto out_continue;\n"
		"\tif (*W->active != 0xffffffffu || *W->live != 0xffffffffu) { pending--; goto out_step; }\n",
		i, i, i);
}

/* bra: uniform inline (taken by all or none), divergent through the interpreter (sim_branch). */
static void emit_branch(struct gen *g, const struct ptx_insn *ins, int i)
{
	FILE *f = g->f;
	int target = (int)ins->ops[0].offset;
	emit_head(g, ins, i);
	if (target <= i) { /* run_warp's turn quantum, checked before the branch counts */
		fprintf(f, "\tif (++W->loops > %d && W->multiwarp) { ", SIM_JIT_QUANTUM);
		emit_uncount(g, i);
		fprintf(f, "*W->pc = %d; W->last = %d; goto out_yield; }\n", i, i);
	}
	fprintf(f, "\tif (mask == 0xffffffffu) ");
	emit_goto(g, target);
	fprintf(f, "\n\tif (mask != 0) {\n");
	emit_call(f, i);
	fprintf(f, "\t}\n");
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
		} else if (ins->op != OP_NOP && ins->op != OP_MEMBAR && !sim_jit_inline_mem(fn, ins) &&
			   !sim_jit_native_expr(fn, ins, e, sizeof e, &flops)) {
			entry[i + 1] = true;
		}
	}
}

/* One instruction of the part. */
static void emit_insn(struct gen *g, int i)
{
	FILE *f = g->f;
	const struct ptx_function *fn = g->fn;
	const struct ptx_insn *ins = &fn->code[i];
	char e[512], v[512];
	const char *flops;
	const struct ptx_operand *to = &ins->ops[0];
	if (ins->op == OP_BRA && to->kind == PO_LABEL && to->offset >= 0 && to->offset < fn->ncode) {
		emit_branch(g, ins, i);
		g->native++;
		return;
	}
	emit_head(g, ins, i);
	bool inline_form = true;
	if (ins->op == OP_NOP || ins->op == OP_MEMBAR) {
		g->native++;
	} else if (sim_jit_inline_mem(fn, ins)) {
		emit_mem(g, ins, i);
		g->native++;
	} else if (sim_jit_native_expr(fn, ins, e, sizeof e, &flops)) {
		bool guarded = ins->guard >= 0 && ins->guard < fn->nslots;
		if (guarded)
			fprintf(f, "\tLANES(%s, %d);\n", e, ins->ops[0].slot * 32);
		else if (sim_jit_warp_call(fn, ins, v, sizeof v))
			fprintf(f, "\t%s;\n", v);
		else if (sim_jit_vec_expr(fn, ins, v, sizeof v))
			fprintf(f, "\tVALL(%s, %d);\n", v, ins->ops[0].slot * 32);
		else
			fprintf(f, "\tALL(%s, %d);\n", e, ins->ops[0].slot * 32);
		if (flops && guarded)
			fprintf(f, "\t*W->%s += (uint64_t)__builtin_popcount(mask);\n", flops);
		else if (flops)
			fprintf(f, "\t*W->%s += 32;\n", flops);
		g->native++;
	} else {
		emit_call(f, i);
		inline_form = false;
	}
	note_writes(g, ins, inline_form);
}

/* The tokens of the part's shared accesses at registers (emit_mem_reg), one per register. */
static void emit_tokens(const struct gen *g)
{
	memset(g->token, 0, (size_t)g->fn->nslots);
	for (int i = g->lo; i < g->hi; i++) {
		const struct ptx_insn *ins = &g->fn->code[i];
		const struct ptx_operand *mo = sim_jit_inline_mem(g->fn, ins) ? shared_at_reg(g->fn, ins) : NULL;
		if (!mo || g->token[mo->slot])
			continue;
		g->token[mo->slot] = true;
		fprintf(g->f, "\tuint64_t t%d = 0;\n", mo->slot);
	}
}

/* Part k, instructions [lo, hi): entered at one of its entries (others: SIM_JIT_NO_ENTRY), it returns the
 * instruction where the warp goes on in another part, or -1 - the SIM_JIT_ code gl_jit_run returns. */
static void emit_part(struct gen *g, int k)
{
	FILE *f = g->f;
	fprintf(f, "static int P%d(struct sim_jit_warp *W, int pc)\n{\n"
		   "\tuint64_t *r = W->r;\n\tuint64_t ni = 0, ns = 0, pending = W->pending;\n"
		   "\tuint32_t mask;\n\tint rc;\n"
		   "\t(void)rc; (void)mask; (void)r;\n", k);
	emit_tokens(g);
	fprintf(f, "\tswitch (pc) {\n");
	for (int i = g->lo; i < g->hi; i++)
		if (g->entry[i])
			fprintf(f, "\tcase %d: goto L%d;\n", i, i);
	fprintf(f, "\tdefault: return %d;\n\t}\n", -1 - SIM_JIT_NO_ENTRY);
	for (int i = g->lo; i < g->hi; i++)
		emit_insn(g, i);
	if (g->hi < g->fn->ncode)
		fprintf(f, "\tJUMP(%d);\n", g->hi);
	else
		fprintf(f, "\t*W->pc = %d; W->last = %d;\n", g->fn->ncode, g->fn->ncode - 1);
	fprintf(f, "out_continue: FLUSH(); W->pending = pending; return %d;\n"
		   "out_yield: FLUSH(); W->pending = pending; return %d;\n"
		   "out_abort: FLUSH(); W->pending = pending; return %d;\n"
		   "out_step: FLUSH(); W->pending = pending; return %d;\n"
		   "out_interp: FLUSH(); W->pending = pending; return %d;\n}\n",
		-1 - SIM_JIT_CONTINUE, -1 - SIM_JIT_YIELD, -1 - SIM_JIT_ABORT, -1 - SIM_JIT_STEP,
		-1 - SIM_JIT_NO_ENTRY);
}

/* The end of the part starting at lo: the first entry at least PART_INSNS instructions on, or the end. */
static int part_end(const struct gen *g, int lo)
{
	int hi = lo + PART_INSNS;
	while (hi < g->fn->ncode && !g->entry[hi])
		hi++;
	return hi < g->fn->ncode ? hi : g->fn->ncode;
}

/* The parts, then gl_jit_run: full warps only (sim_jit.h), entering the part of the warp's PC and the
 * next one each part names until one returns a code. */
static void emit_function(struct gen *g)
{
	FILE *f = g->f;
	int nparts = 0;
	for (int lo = 0; lo < g->fn->ncode; lo = g->hi, nparts++) {
		g->lo = lo;
		g->hi = part_end(g, lo);
		emit_part(g, nparts);
	}
	fprintf(f, "int gl_jit_run(struct sim_jit_warp *W)\n{\n"
		   "\tif (*W->active != 0xffffffffu || *W->live != 0xffffffffu) return %d;\n"
		   "\tint pc = *W->pc, rc;\n\tfor (;;) {\n\t\t",
		SIM_JIT_NO_ENTRY);
	int k = 0;
	for (int lo = 0; lo < g->fn->ncode; k++) {
		int hi = part_end(g, lo);
		if (hi < g->fn->ncode)
			fprintf(f, "if (pc < %d) rc = P%d(W, pc);\n\t\telse ", hi, k);
		else
			fprintf(f, "rc = P%d(W, pc);\n", k);
		lo = hi;
	}
	fprintf(f, "\t\tif (rc < 0) return -1 - rc;\n\t\tpc = rc;\n\t}\n}\n");
}

char *sim_jit_source(const struct ptx_module *m, const struct ptx_function *fn, int *native, char *why, size_t whyn)
{
	if (refuse(m, fn, why, whyn))
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool *entry = calloc((size_t)fn->ncode + 1, 1), *token = calloc((size_t)fn->nslots + 1, 1);
	if (!f || !entry || !token) {
		if (f)
			fclose(f);
		free(buf);
		free(entry);
		free(token);
		snprintf(why, whyn, "out of memory writing the generated C");
		return NULL;
	}
	mark_entries(fn, entry);
	fprintf(f, "/* gpulab compiled kernel %s: %d PTX instructions */\n%s\n", fn->name, fn->ncode, prelude);
	struct gen g = {.f = f, .fn = fn, .entry = entry, .token = token};
	emit_function(&g);
	free(entry);
	free(token);
	*native = g.native;
	if (fclose(f) != 0) {
		free(buf);
		snprintf(why, whyn, "out of memory writing the generated C");
		return NULL;
	}
	return buf;
}
