/* sim_exec_float.c — floating-point arithmetic (f32, f64, f16, bf16 and their x2 forms), the cvt
 * family with PTX rounding modes, and float comparisons.  Counts FP instructions per thread with the
 * predicate on, as Nsight Compute's smsp__sass_thread_inst_executed_op_{f,d,h}{add,mul,fma} do. */
#include <fenv.h>

#include "sim_exec.h"

double sim_to_double(uint64_t bits, enum ptx_type t)
{
	switch (t) {
	case PT_F16: return sim_f16_to_f32((uint16_t)bits);
	case PT_BF16: return sim_bf16_to_f32((uint16_t)bits);
	case PT_F32: case PT_TF32: return sim_f32(bits);
	case PT_F64: return sim_f64(bits);
	default:
		if (ptx_type_is_signed(t))
			return (double)sim_sext(bits, ptx_type_bytes(t));
		return (double)sim_trunc(bits, ptx_type_bytes(t));
	}
}

static int fe_mode(int rnd)
{
	switch (rnd) {
	case PR_RZ: case PR_RZI: return FE_TOWARDZERO;
	case PR_RM: case PR_RMI: return FE_DOWNWARD;
	case PR_RP: case PR_RPI: return FE_UPWARD;
	default: return FE_TONEAREST;
	}
}

static int half_mode(int rnd)
{
	switch (rnd) {
	case PR_RZ: case PR_RZI: return SIM_RZ;
	case PR_RM: case PR_RMI: return SIM_RM;
	case PR_RP: case PR_RPI: return SIM_RP;
	default: return SIM_RN;
	}
}

/* Round a double to the integral value the rounding mode asks for (rni/rzi/rmi/rpi). */
static double round_integral(double v, int rnd)
{
	switch (rnd) {
	case PR_RZI: return trunc(v);
	case PR_RMI: return floor(v);
	case PR_RPI: return ceil(v);
	case PR_RNI: return nearbyint(v); /* ties to even in the default mode */
	default: return v;
	}
}

static uint64_t to_int_saturating(double v, enum ptx_type t, int rnd)
{
	unsigned n = ptx_type_bytes(t);
	if (isnan(v))
		return 0;
	v = round_integral(v, rnd == PR_NONE ? PR_RZI : rnd);
	if (ptx_type_is_signed(t)) {
		double lo = -ldexp(1.0, 8 * (int)n - 1), hi = ldexp(1.0, 8 * (int)n - 1);
		if (v < lo)
			return sim_trunc((uint64_t)(int64_t)lo, n);
		if (v >= hi)
			return sim_trunc((uint64_t)(n == 8 ? INT64_MAX : (int64_t)hi - 1), n);
		return sim_trunc((uint64_t)(int64_t)v, n);
	}
	double hi = ldexp(1.0, 8 * (int)n);
	if (v <= 0)
		return 0;
	if (v >= hi)
		return n == 8 ? UINT64_MAX : (uint64_t)hi - 1;
	return (uint64_t)v;
}

uint64_t sim_from_double(double v, enum ptx_type t, int rnd)
{
	switch (t) {
	case PT_F16: return sim_round_f16(v, half_mode(rnd));
	case PT_BF16: return sim_round_bf16(v, half_mode(rnd));
	case PT_F32: {
		if (rnd == PR_RN || rnd == PR_NONE)
			return sim_f32_bits((float)v);
		int old = fegetround();
		fesetround(fe_mode(rnd));
		volatile float f = (float)v;
		fesetround(old);
		return sim_f32_bits(f);
	}
	case PT_F64: return sim_f64_bits(v);
	default: return to_int_saturating(v, t, rnd);
	}
}

bool sim_compare_float(enum ptx_cmp cmp, enum ptx_type t, uint64_t ab, uint64_t bb)
{
	double a = sim_to_double(ab, t), b = sim_to_double(bb, t);
	bool un = isnan(a) || isnan(b);
	switch (cmp) {
	case CMP_EQ: return !un && a == b;
	case CMP_NE: return !un && a != b;
	case CMP_LT: return !un && a < b;
	case CMP_LE: return !un && a <= b;
	case CMP_GT: return !un && a > b;
	case CMP_GE: return !un && a >= b;
	case CMP_EQU: return un || a == b;
	case CMP_NEU: return un || a != b;
	case CMP_LTU: return un || a < b;
	case CMP_LEU: return un || a <= b;
	case CMP_GTU: return un || a > b;
	case CMP_GEU: return un || a >= b;
	case CMP_NUM: return !un;
	case CMP_NAN: return un;
	default: return false;
	}
}

static void count_flops(struct sim_cta *cta, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t n = (uint64_t)__builtin_popcount(mask);
	bool fma = ins->op == OP_FMA || ins->op == OP_MAD;
	bool add = ins->op == OP_ADD || ins->op == OP_SUB;
	bool mul = ins->op == OP_MUL;
	switch (ins->type) {
	case PT_F32: cta->c.ffma += fma ? n : 0; cta->c.fadd += add ? n : 0; cta->c.fmul += mul ? n : 0; break;
	case PT_F64: cta->c.dfma += fma ? n : 0; cta->c.dadd += add ? n : 0; cta->c.dmul += mul ? n : 0; break;
	case PT_F16: case PT_F16X2: case PT_BF16: case PT_BF16X2:
		cta->c.hfma += fma ? n : 0; cta->c.hadd += add ? n : 0; cta->c.hmul += mul ? n : 0; break;
	default: break;
	}
}

/* One element: the operation in double precision (exact for f16/bf16 products, rounded once after). */
static double float_op(const struct ptx_insn *ins, double a, double b, double c)
{
	switch (ins->op) {
	case OP_ADD: return a + b;
	case OP_SUB: return a - b;
	case OP_MUL: return a * b;
	case OP_FMA: case OP_MAD: return fma(a, b, c);
	case OP_DIV: return a / b;
	case OP_MIN: return (isnan(a) && !(ins->mods & PM_NAN)) ? b : (isnan(b) && !(ins->mods & PM_NAN)) ? a
			    : (isnan(a) || isnan(b)) ? NAN : (a < b || (a == b && signbit(a))) ? a : b;
	case OP_MAX: return (isnan(a) && !(ins->mods & PM_NAN)) ? b : (isnan(b) && !(ins->mods & PM_NAN)) ? a
			    : (isnan(a) || isnan(b)) ? NAN : (a > b || (a == b && !signbit(a))) ? a : b;
	case OP_ABS: return fabs(a);
	case OP_NEG: return -a;
	case OP_RCP: return 1.0 / a;
	case OP_SQRT: return sqrt(a);
	case OP_RSQRT: return 1.0 / sqrt(a);
	case OP_SIN: return sin(a);
	case OP_COS: return cos(a);
	case OP_LG2: return log2(a);
	case OP_EX2: return exp2(a);
	case OP_TANH: return tanh(a);
	case OP_COPYSIGN: return copysign(b, a);
	default: return 0;
	}
}

/* The NaN that add/sub/mul/fma.f32 return: the first NaN operand in source order, quieted, else the
 * operation's own NaN.  That is x86's rule for SSE/AVX, but the C compiler may swap the operands of a
 * commutative operation (it does at -O1), so the rule is pinned here, and the compiled engine applies
 * the same one (NANPICK in sim_jit_gen.c's prelude). */
static float f32_nan(float r, float a, float b, float c)
{
	if (!isnan(r))
		return r;
	float n = isnan(a) ? a : isnan(b) ? b : isnan(c) ? c : r;
	return sim_f32((uint32_t)sim_f32_bits(n) | 0x400000u);
}

static inline float f32_add(float a, float b) { return f32_nan(a + b, a, b, a); }
static inline float f32_sub(float a, float b) { return f32_nan(a - b, a, b, a); }
static inline float f32_mul(float a, float b) { return f32_nan(a * b, a, b, a); }
static inline float f32_fma(float a, float b, float c) { return f32_nan(fmaf(a, b, c), a, b, c); }

/* f32 in single precision so that rounding matches the hardware's (one rounding per operation). */
static float f32_op(const struct ptx_insn *ins, float a, float b, float c)
{
	switch (ins->op) {
	case OP_ADD: return f32_add(a, b);
	case OP_SUB: return f32_sub(a, b);
	case OP_MUL: return f32_mul(a, b);
	case OP_FMA: case OP_MAD: return f32_fma(a, b, c);
	case OP_DIV: return a / b;
	case OP_RCP: return 1.0f / a;
	case OP_SQRT: return sqrtf(a);
	case OP_RSQRT: return 1.0f / sqrtf(a);
	case OP_SIN: return sinf(a);
	case OP_COS: return cosf(a);
	case OP_LG2: return log2f(a);
	case OP_EX2: return exp2f(a);
	case OP_TANH: return tanhf(a);
	default: return (float)float_op(ins, a, b, c);
	}
}

/* .ftz on half types: subnormal inputs and results become zeros of the same sign. */
static double half_ftz(double v, enum ptx_type t)
{
	double tiny = t == PT_F16 ? 0x1p-14 : 0x1p-126;
	return fabs(v) < tiny ? copysign(0.0, v) : v;
}

/* min/max.xorsign.abs: the larger/smaller magnitude, with the xor of the operands' signs. */
static double xorsign_minmax(const struct ptx_insn *ins, double a, double b)
{
	double r = float_op(ins, fabs(a), fabs(b), 0);
	return isnan(r) ? r : copysign(r, (signbit(a) != signbit(b)) ? -1.0 : 1.0);
}

/* fma.rn.f32 over the lanes, NaNs as f32_fma gives them.  fmaf is one correctly rounded operation
 * whichever way it is computed, but built for any x86-64 it is a call per lane into libm (which itself
 * picks the FMA instruction when the CPU has one); on such a CPU a copy of the loop built for it
 * computes the same bits inline. */
static void fma_lanes_soft(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint32_t mask)
{
	FOR_LANES(mask, l) d[l] = sim_f32_bits(f32_fma(sim_f32(a[l]), sim_f32(b[l]), sim_f32(c[l])));
}

#if defined(__x86_64__) && defined(__GNUC__)
/* A full warp as SIMD: the results go to a buffer first, so the lanes whose result is a NaN can be
 * redone by f32_fma from operands that d (often the same register as c) has not overwritten yet. */
__attribute__((target("avx2,fma"))) static void fma_warp_hw(uint64_t *d, const uint64_t *a, const uint64_t *b,
							     const uint64_t *c)
{
	uint64_t r[32];
	uint32_t nan = 0;
	for (int l = 0; l < 32; l++) {
		r[l] = sim_f32_bits(__builtin_fmaf(sim_f32(a[l]), sim_f32(b[l]), sim_f32(c[l])));
		nan |= ((uint32_t)r[l] & 0x7fffffffu) > 0x7f800000u;
	}
	if (nan)
		for (int l = 0; l < 32; l++)
			r[l] = sim_f32_bits(f32_fma(sim_f32(a[l]), sim_f32(b[l]), sim_f32(c[l])));
	memcpy(d, r, sizeof r);
}

__attribute__((target("avx2,fma"))) static void fma_lanes_hw(uint64_t *d, const uint64_t *a, const uint64_t *b,
							      const uint64_t *c, uint32_t mask)
{
	if (mask == 0xffffffffu)
		fma_warp_hw(d, a, b, c);
	else
		FOR_LANES(mask, l) d[l] = sim_f32_bits(f32_fma(sim_f32(a[l]), sim_f32(b[l]), sim_f32(c[l])));
}

static void fma_lanes(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint32_t mask)
{
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) /* what libgcc found at start-up */
		fma_lanes_hw(d, a, b, c, mask);
	else
		fma_lanes_soft(d, a, b, c, mask);
}
#else
#define fma_lanes fma_lanes_soft
#endif

static int exec_f32(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	const uint64_t *b = ins->nops > 2 ? SRC(2) : a;
	const uint64_t *c = ins->nops > 3 ? SRC(3) : a;
	bool plain = !(ins->mods & (PM_FTZ | PM_SAT)) && (ins->rnd == PR_NONE || ins->rnd == PR_RN);
	if (plain) {
		switch (ins->op) {
		case OP_ADD: FOR_LANES(mask, l) d[l] = sim_f32_bits(f32_add(sim_f32(a[l]), sim_f32(b[l]))); return 0;
		case OP_MUL: FOR_LANES(mask, l) d[l] = sim_f32_bits(f32_mul(sim_f32(a[l]), sim_f32(b[l]))); return 0;
		case OP_FMA: case OP_MAD: fma_lanes(d, a, b, c, mask); return 0;
		default: break;
		}
	}
	bool ftz = ins->mods & PM_FTZ;
	int old = fegetround();
	if (ins->rnd != PR_NONE && ins->rnd != PR_RN)
		fesetround(fe_mode(ins->rnd));
	FOR_LANES(mask, l) {
		float x = sim_f32(a[l]), y = sim_f32(b[l]), z = sim_f32(c[l]);
		if (ftz) {
			x = sim_ftz(x);
			y = sim_ftz(y);
			z = sim_ftz(z);
		}
		float r = (ins->mods & PM_XORSIGN) && (ins->op == OP_MIN || ins->op == OP_MAX) ? (float)xorsign_minmax(ins, x, y)
											     : f32_op(ins, x, y, z);
		if (ftz)
			r = sim_ftz(r);
		if (ins->mods & PM_SAT)
			r = sim_sat(r);
		d[l] = sim_f32_bits(r);
	}
	fesetround(old);
	return 0;
}

static int exec_f64(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	const uint64_t *b = ins->nops > 2 ? SRC(2) : a;
	const uint64_t *c = ins->nops > 3 ? SRC(3) : a;
	int old = fegetround();
	if (ins->rnd != PR_NONE && ins->rnd != PR_RN)
		fesetround(fe_mode(ins->rnd));
	FOR_LANES(mask, l) d[l] = sim_f64_bits(float_op(ins, sim_f64(a[l]), sim_f64(b[l]), sim_f64(c[l])));
	fesetround(old);
	return 0;
}

/* f16, bf16 and their packed x2 forms: each 16-bit element separately, rounded once. */
static int exec_half(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	enum ptx_type t = (ins->type == PT_F16 || ins->type == PT_F16X2) ? PT_F16 : PT_BF16;
	bool ftz = ins->mods & PM_FTZ, xorsign = (ins->mods & PM_XORSIGN) && (ins->op == OP_MIN || ins->op == OP_MAX);
	int parts = (ins->type == PT_F16X2 || ins->type == PT_BF16X2) ? 2 : 1;
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	const uint64_t *b = ins->nops > 2 ? SRC(2) : a;
	const uint64_t *c = ins->nops > 3 ? SRC(3) : a;
	FOR_LANES(mask, l) {
		uint64_t r = 0;
		for (int p = 0; p < parts; p++) {
			double x = sim_to_double(a[l] >> (16 * p) & 0xffff, t), y = sim_to_double(b[l] >> (16 * p) & 0xffff, t);
			double z = sim_to_double(c[l] >> (16 * p) & 0xffff, t);
			if (ftz)
				x = half_ftz(x, t), y = half_ftz(y, t), z = half_ftz(z, t);
			double v = xorsign ? xorsign_minmax(ins, x, y) : float_op(ins, x, y, z);
			if (ins->mods & PM_SAT)
				v = isnan(v) ? 0 : v < 0 ? 0 : v > 1 ? 1 : v;
			if ((ins->mods & PM_RELU) && !(v >= 0))
				v = isnan(v) ? v : 0;
			uint64_t h = sim_from_double(v, t, ins->rnd) & 0xffff;
			if (ftz)
				h = sim_from_double(half_ftz(sim_to_double(h, t), t), t, PR_RN) & 0xffff;
			r |= h << (16 * p);
		}
		d[l] = r;
	}
	return 0;
}

static int exec_testp(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	FOR_LANES(mask, l) {
		double v = sim_to_double(a[l], (enum ptx_type)ins->type);
		int cls = fpclassify(ins->type == PT_F32 ? (double)sim_f32(a[l]) : v);
		bool r = false;
		switch (ins->sub) {
		case TESTP_FINITE: r = isfinite(v); break;
		case TESTP_INFINITE: r = isinf(v); break;
		case TESTP_NUMBER: r = !isnan(v); break;
		case TESTP_NOTANUMBER: r = isnan(v); break;
		case TESTP_NORMAL: r = ins->type == PT_F32 ? fpclassify(sim_f32(a[l])) == FP_NORMAL : cls == FP_NORMAL; break;
		case TESTP_SUBNORMAL:
			r = ins->type == PT_F32 ? fpclassify(sim_f32(a[l])) == FP_SUBNORMAL : cls == FP_SUBNORMAL;
			break;
		}
		d[l] = r;
	}
	return 0;
}

/* neg, abs and copysign only move sign bits (also of NaNs), as the hardware's operand modifiers do. */
static int exec_sign(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	enum ptx_type t = (enum ptx_type)ins->type;
	uint64_t sign = t == PT_F64 ? 1ull << 63
		      : (t == PT_F16X2 || t == PT_BF16X2) ? 0x80008000u
		      : (t == PT_F16 || t == PT_BF16) ? 0x8000u : 0x80000000u;
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	const uint64_t *b = ins->nops > 2 ? SRC(2) : a;
	bool ftz = (ins->mods & PM_FTZ) && t == PT_F32;
	FOR_LANES(mask, l) {
		uint64_t x = ins->op == OP_COPYSIGN ? b[l] : a[l];
		if (ftz && fpclassify(sim_f32(x)) == FP_SUBNORMAL)
			x &= sign;
		switch (ins->op) {
		case OP_NEG: d[l] = x ^ sign; break;
		case OP_ABS: d[l] = x & ~sign; break;
		default: d[l] = (x & ~sign) | (a[l] & sign); break; /* copysign d, a, b: b's magnitude, a's sign */
		}
	}
	return 0;
}

int sim_exec_float(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	if (ins->op == OP_NEG || ins->op == OP_ABS || ins->op == OP_COPYSIGN)
		return exec_sign(cta, w, ins, mask);
	count_flops(cta, ins, mask);
	switch (ins->type) {
	case PT_F32: return ins->op == OP_TESTP ? exec_testp(cta, w, ins, mask) : exec_f32(cta, w, ins, mask);
	case PT_F64: return ins->op == OP_TESTP ? exec_testp(cta, w, ins, mask) : exec_f64(cta, w, ins, mask);
	case PT_F16: case PT_F16X2: case PT_BF16: case PT_BF16X2: return exec_half(cta, w, ins, mask);
	default: return sim_unsupported(cta, w, ins, "this floating-point type");
	}
}

/* tf32: round the f32 mantissa to 10 bits, ties away from zero (cvt.rna.tf32.f32). */
static uint64_t to_tf32(uint64_t bits)
{
	uint32_t x = (uint32_t)bits;
	if ((x & 0x7f800000u) == 0x7f800000u)
		return x;
	return (x + 0x1000u) & 0xffffe000u;
}

static uint64_t cvt_one(const struct ptx_insn *ins, uint64_t v, enum ptx_type dt, enum ptx_type st)
{
	bool dfloat = ptx_type_is_float(dt), sfloat = ptx_type_is_float(st);
	unsigned dn = ptx_type_bytes(dt), sn = ptx_type_bytes(st);
	if (dt == PT_TF32)
		return to_tf32(v);
	if (!dfloat && !sfloat) { /* integer -> integer: extend by the source's signedness, then truncate */
		uint64_t x = ptx_type_is_signed(st) ? (uint64_t)sim_sext(v, sn) : sim_trunc(v, sn);
		if (ins->mods & PM_SAT) {
			double dv = ptx_type_is_signed(st) ? (double)(int64_t)x : (double)x;
			return to_int_saturating(dv, dt, PR_RZI);
		}
		return sim_trunc(x, dn);
	}
	if (!sfloat) { /* integer -> float */
		if (dt == PT_F32 && (ins->rnd == PR_NONE || ins->rnd == PR_RN))
			return sim_f32_bits(ptx_type_is_signed(st) ? (float)sim_sext(v, sn) : (float)sim_trunc(v, sn));
		if (dt == PT_F64 && (ins->rnd == PR_NONE || ins->rnd == PR_RN))
			return sim_f64_bits(ptx_type_is_signed(st) ? (double)sim_sext(v, sn) : (double)sim_trunc(v, sn));
		return sim_from_double(sim_to_double(v, st), dt, ins->rnd);
	}
	double x = sim_to_double(v, st);
	if ((ins->mods & PM_FTZ) && st == PT_F32)
		x = sim_ftz(sim_f32(v));
	if (!dfloat) /* float -> integer: saturating, with the integer rounding mode */
		return to_int_saturating(x, dt, ins->rnd);
	if (ins->rnd >= PR_RNI && ins->rnd <= PR_RPI) /* float -> float, rounded to an integral value */
		x = round_integral(x, ins->rnd);
	if (ins->mods & PM_SAT)
		x = isnan(x) ? 0 : x < 0 ? 0 : x > 1 ? 1 : x;
	if ((ins->mods & PM_RELU) && !(x >= 0))
		x = isnan(x) ? x : 0;
	if (dt == PT_F32 && st == PT_F64)
		return sim_from_double(x, PT_F32, ins->rnd);
	uint64_t r = sim_from_double(x, dt, ins->rnd);
	if ((ins->mods & PM_FTZ) && dt == PT_F32)
		r = sim_f32_bits(sim_ftz(sim_f32(r)));
	return r;
}

int sim_exec_cvt(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	enum ptx_type dt = (enum ptx_type)ins->type, st = (enum ptx_type)ins->type2;
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1);
	if (dt == PT_F16X2 || dt == PT_BF16X2) { /* cvt.rn.f16x2.f32 d, hi, lo */
		const uint64_t *b = SRC(2);
		enum ptx_type half = dt == PT_F16X2 ? PT_F16 : PT_BF16;
		FOR_LANES(mask, l)
			d[l] = (cvt_one(ins, a[l], half, st) & 0xffff) << 16 | (cvt_one(ins, b[l], half, st) & 0xffff);
		return 0;
	}
	if (dt == PT_S32 && st == PT_F32 && ins->rnd == PR_RZI && !(ins->mods & PM_FTZ)) { /* hot form */
		FOR_LANES(mask, l) d[l] = to_int_saturating(sim_f32(a[l]), PT_S32, PR_RZI);
		return 0;
	}
	FOR_LANES(mask, l) d[l] = cvt_one(ins, a[l], dt, st);
	return 0;
}
