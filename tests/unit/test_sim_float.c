/* test_sim_float.c — floating-point instructions against host-computed results: the floatops and
 * halfops fixtures (nvcc -O3 output, including cuda_fp16.h/cuda_bf16.h inline asm), then hand-written
 * PTX sweeping the cvt family (every rounding mode, f16/bf16 both ways, float <-> integer saturation),
 * half-precision arithmetic and comparisons, and f32 rounding modes, ftz, sat and NaN rules.
 * References: IEEE arithmetic on the host, and f16/bf16 rounding by bracketing between neighbours. */
#include <fenv.h>
#include <limits.h>
#include <math.h>

#include "tests/unit/sim_fixture.h"

enum { RN, RZ, RM, RP };

/* ---- independent half-precision references */

static double h2d(uint16_t h)
{
	int sign = h >> 15, exp = (h >> 10) & 31, mant = h & 1023;
	double v = exp == 0 ? ldexp(mant, -24) : exp == 31 ? (mant ? NAN : INFINITY) : ldexp(1024 + mant, exp - 25);
	return sign ? -v : v;
}

static double b2d(uint16_t h)
{
	return (double)fx_f32((uint32_t)h << 16);
}

/* Round x to a 16-bit format whose non-negative patterns 0..maxfin are increasing in value and
 * maxfin + 1 is infinity: bracket |x| between neighbours and pick by mode. */
static uint16_t round16(double x, int mode, double (*val)(uint16_t), uint16_t maxfin)
{
	if (isnan(x))
		return 0x7fff;
	uint16_t sign = signbit(x) ? 0x8000 : 0;
	double ax = fabs(x);
	if (sign && (mode == RM || mode == RP))
		mode = mode == RM ? RP : RM; /* rounding |x| down is rounding x up */
	if (isinf(ax))
		return sign | (uint16_t)(maxfin + 1);
	unsigned lo = 0, hi = maxfin;
	if (ax >= val(maxfin)) {
		lo = maxfin;
	} else {
		while (lo < hi) { /* largest h with val(h) <= ax */
			unsigned mid = (lo + hi + 1) / 2;
			if (val((uint16_t)mid) <= ax)
				lo = mid;
			else
				hi = mid - 1;
		}
	}
	double vlo = val((uint16_t)lo);
	if (vlo == ax)
		return sign | (uint16_t)lo;
	/* the upper neighbour; past the largest finite value it is the next power step (for RN) */
	double vhi = lo < maxfin ? val((uint16_t)(lo + 1)) : vlo + (vlo - val((uint16_t)(maxfin - 1)));
	unsigned up = lo + 1; /* maxfin + 1 is infinity */
	switch (mode) {
	case RZ: case RM: return sign | (uint16_t)lo;
	case RP: return sign | (uint16_t)up;
	default:
		if (ax - vlo < vhi - ax)
			return sign | (uint16_t)lo;
		if (ax - vlo > vhi - ax)
			return sign | (uint16_t)up;
		return sign | (uint16_t)((lo & 1) ? up : lo);
	}
}

static uint16_t d2h(double x, int mode)
{
	return round16(x, mode, h2d, 0x7bff);
}

static uint16_t d2b(double x, int mode)
{
	return round16(x, mode, b2d, 0x7f7f);
}

/* PTX min/max: a NaN operand yields the other; -0 is below +0 */
static double min_ptx(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : (a < b || (a == b && signbit(a))) ? a : b;
}

static double max_ptx(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : (a > b || (a == b && !signbit(a))) ? a : b;
}

static int same_f32(float a, float b)
{
	return (isnan(a) && isnan(b)) || fx_bits(a) == fx_bits(b);
}

static int same_f64(double a, double b)
{
	return (isnan(a) && isnan(b)) || fx_bits64(a) == fx_bits64(b);
}

static int same_h(uint16_t a, uint16_t b)
{
	return a == b || (isnan(h2d(a)) && isnan(h2d(b)));
}

static int near_f(double got, double want, double rel)
{
	if (isnan(want))
		return isnan(got);
	if (isinf(want))
		return got == want;
	return fabs(got - want) <= rel * fabs(want) + 1e-30;
}

/* ---- float <-> integer references with PTX's saturation (NaN -> 0) */

static double rounded(double v, int mode)
{
	switch (mode) {
	case RZ: return trunc(v);
	case RM: return floor(v);
	case RP: return ceil(v);
	default: return nearbyint(v); /* ties to even */
	}
}

static int64_t to_s(double v, int mode, int bits)
{
	if (isnan(v))
		return 0;
	v = rounded(v, mode);
	double lo = -ldexp(1, bits - 1), hi = ldexp(1, bits - 1);
	if (v < lo)
		return bits == 64 ? INT64_MIN : (int64_t)lo;
	if (v >= hi)
		return bits == 64 ? INT64_MAX : (int64_t)hi - 1;
	return (int64_t)v;
}

static uint64_t to_u(double v, int mode, int bits)
{
	if (isnan(v))
		return 0;
	v = rounded(v, mode);
	if (v <= 0)
		return 0;
	if (v >= ldexp(1, bits))
		return bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
	return (uint64_t)v;
}

static float to_f32_mode(double v, int mode)
{
	static const int fe[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
	int old = fegetround();
	fesetround(fe[mode]);
	volatile double in = v;
	volatile float f = (float)in;
	fesetround(old);
	return f;
}

/* ---- floatops.cu */

static void floatops_ref(float a, float b, float c, float e, double x, double y, float *of, int32_t *oi,
			 double *od, int exact[24])
{
	for (int i = 0; i < 24; i++)
		exact[i] = !(i >= 7 && i <= 12); /* 7..12 are .approx: compared with a tolerance */
	of[0] = a + b;
	of[1] = a - b;
	of[2] = a * b;
	of[3] = fmaf(a, b, c);
	of[4] = a / b;
	of[5] = sqrtf(fabsf(a));
	of[6] = 1.0f / b;
	of[7] = a / b;
	of[8] = exp2f(c * 0x1.715476p+0f); /* __expf: ex2.approx(c * log2(e)) */
	of[9] = logf(fabsf(a) + 1.0f);
	of[10] = sinf(c);
	of[11] = cosf(c);
	of[12] = 1.0f / sqrtf(fabsf(b) + 1.0f);
	of[13] = (float)min_ptx(a, b);
	of[14] = (float)max_ptx(a, b);
	of[15] = copysignf(a, b);
	of[16] = -fabsf(e);
	of[17] = (float)rounded(e, RN);
	of[18] = floorf(e);
	of[19] = ceilf(e);
	of[20] = truncf(e);
	of[21] = to_f32_mode((double)(int32_t)fx_bits(c), RZ);
	of[22] = to_f32_mode(x, RM);
	of[23] = to_f32_mode(x, RP);
	oi[0] = (int32_t)to_s(e, RN, 32);
	oi[1] = (int32_t)to_s(e, RZ, 32);
	oi[2] = (int32_t)to_s(e, RM, 32);
	oi[3] = (int32_t)to_s(e, RP, 32);
	oi[4] = (int32_t)to_u(e, RN, 32);
	oi[5] = (int32_t)to_u(e, RZ, 32);
	oi[6] = (int32_t)to_s(y, RN, 32);
	oi[7] = (int32_t)to_u(y, RZ, 32);
	oi[8] = (int32_t)to_s(e, RM, 64);
	oi[9] = (int32_t)(to_s(e, RP, 64) >> 32);
	oi[10] = (int32_t)to_s(e, RZ, 32);
	oi[11] = (int32_t)to_u(e, RZ, 32);
	oi[12] = a < b;
	oi[13] = (isnan(a) ? 1 : 0) + 2 * (isinf(b) ? 1 : 0) + 4 * (a != a || b < c);
	oi[14] = (int32_t)fx_bits((float)(int32_t)fx_bits(a));
	oi[15] = (int32_t)fx_bits(to_f32_mode((double)fx_bits(b), RP));
	od[0] = x + y;
	od[1] = x * y;
	od[2] = fma(x, y, (double)a);
	od[3] = x / y;
	od[4] = sqrt(fabs(x));
	od[5] = min_ptx(x, y);
	od[6] = max_ptx(x, y);
	od[7] = (double)a * (double)b;
	od[8] = rounded(y, RN);
	od[9] = floor(x);
	od[10] = (double)to_s(y * 1e6, RZ, 64);
	od[11] = x - y;
}

static float pick_float(uint64_t *seed, int i)
{
	static const float edges[] = {2.5f, -2.5f, 3.5f, -3.5f, 0.5f, -0.5f, 1.5f, -0.0f, 0.0f, 2147483520.0f,
				      2147483648.0f, -2147483904.0f, 4294967296.0f, 1e20f, -1e20f, 1e-40f,
				      0.49999997f, 16777216.0f, 1.0f, -1.0f, 100.25f, 1e-3f};
	uint64_t r = fx_rand(seed);
	if (i % 5 == 0)
		return edges[(r >> 5) % GL_ARRAY_LEN(edges)];
	if (i % 37 == 1)
		return i % 2 ? INFINITY : NAN;
	return (float)((double)(int64_t)(r % 2000001) / 1000.0 - 1000.0) * ((r >> 40) % 3 == 0 ? 1e-3f : 1.0f);
}

static void test_floatops(void)
{
	struct ptx_module *m = fx_fixture("floatops");
	if (!m)
		return;
	enum { T = 256 };
	struct gl_launch l = {0};
	fx_geometry(&l, "floatops", 2, 1, T / 2, 1);
	float *inf = fx_buffer(&l, "inf", GL_F32, 4 * T);
	double *ind = fx_buffer(&l, "ind", GL_F64, 2 * T);
	float *outf = fx_buffer(&l, "outf", GL_F32, 24 * T);
	int32_t *outi = fx_buffer(&l, "outi", GL_I32, 16 * T);
	double *outd = fx_buffer(&l, "outd", GL_F64, 12 * T);
	uint64_t seed = 99;
	for (int i = 0; i < 4 * T; i++)
		inf[i] = pick_float(&seed, i);
	for (int i = 0; i < 2 * T; i++)
		ind[i] = i % 7 == 0 ? (double)pick_float(&seed, i) : (double)pick_float(&seed, i + 1) * 1.0000001;
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	int bad = 0;
	for (int t = 0; t < T; t++) {
		float of[24];
		int32_t oi[16];
		double od[12];
		int exact[24];
		const float *p = inf + 4 * t;
		floatops_ref(p[0], p[1], p[2], p[3], ind[2 * t], ind[2 * t + 1], of, oi, od, exact);
		for (int k = 0; k < 24; k++) {
			float got = outf[24 * t + k];
			int ok = exact[k] ? same_f32(got, of[k]) : near_f(got, of[k], 2e-6) || (isinf(of[k]) && isinf(got));
			if (!ok && bad++ < 12)
				fprintf(stderr, "floatops t=%d of[%d]: sim %.9g (0x%08x) host %.9g (0x%08x) in %g %g %g %g %g\n", t,
					k, got, fx_bits(got), of[k], fx_bits(of[k]), p[0], p[1], p[2], p[3], ind[2 * t]);
		}
		for (int k = 0; k < 16; k++)
			if (outi[16 * t + k] != oi[k] && bad++ < 12)
				fprintf(stderr, "floatops t=%d oi[%d]: sim %d host %d (e=%.9g y=%.17g)\n", t, k, outi[16 * t + k],
					oi[k], p[3], ind[2 * t + 1]);
		for (int k = 0; k < 12; k++)
			if (!same_f64(outd[12 * t + k], od[k]) && bad++ < 12)
				fprintf(stderr, "floatops t=%d od[%d]: sim %.17g host %.17g\n", t, k, outd[12 * t + k], od[k]);
	}
	CHECK_EQ(bad, 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* ---- halfops.cu */

struct half_out {
	uint16_t h[16];
	float f[8];
	int approx_f[8]; /* f[k] within one f16 ulp rather than exact */
};

static void halfops_ref(float a, float b, float c, float d, struct half_out *o)
{
	uint16_t ha = d2h(a, RN), hb = d2h(b, RZ), hc = d2h(c, RM), hd = d2h(d, RP);
	double A = h2d(ha), B = h2d(hb), C = h2d(hc), D = h2d(hd);
	memset(o, 0, sizeof *o);
	o->h[0] = ha, o->h[1] = hb, o->h[2] = hc, o->h[3] = hd;
	o->h[4] = d2h(A + B, RN);
	o->h[5] = d2h(A * C, RN);
	o->h[6] = d2h(fma(A, B, C), RN);
	o->h[7] = d2h(D - A, RN);
	uint16_t qc = d2h(c, RN), qd = d2h(d, RN);
	double QC = h2d(qc), QD = h2d(qd);
	uint16_t rlo = d2h(fma(A, QC, h2d(d2h(A + QC, RN))), RN);
	uint16_t rhi = d2h(fma(B, QD, h2d(d2h(B + QD, RN))), RN);
	o->h[8] = rlo, o->h[9] = rhi;
	uint16_t mx = A >= QC ? ha : qc, mn = B <= QD ? hb : qd;
	o->h[10] = mx ^ mn;
	uint16_t ba = d2b(a, RN), bb = d2b(b, RZ), bcv = d2b(c, RN), bdv = d2b(d, RN);
	o->h[11] = ba, o->h[12] = bb;
	o->h[13] = d2b(fma(b2d(ba), b2d(bb), b2d(bcv)), RN);
	o->h[14] = d2b(b2d(bcv) * b2d(ba), RN);
	o->h[15] = d2b(b2d(bdv) * b2d(bb), RN);
	o->f[0] = (float)A;
	o->f[1] = (float)h2d(d2h(A / D, RN));
	o->approx_f[1] = 1;
	o->f[2] = (float)h2d(rlo) + (float)h2d(rhi);
	o->f[3] = (float)b2d(bb);
	o->f[4] = (float)((A < B) + 2 * (C > D) + 4 * (A == QC && B == QD) + 8 * (isnan(C / C) ? 1 : 0));
	o->f[5] = (float)h2d(d2h(sqrt(fabs(A)), RN));
	o->approx_f[5] = 1;
	o->f[6] = (float)h2d(d2h(exp2(C), RN));
	o->approx_f[6] = 1;
	o->f[7] = (float)h2d(d2h((double)(a * 70000.0f), RN));
}

static float pick_half_input(uint64_t *seed, int i)
{
	static const float edges[] = {65504.0f, 65519.0f, 65520.0f, 1e-8f, 5.9604645e-8f, 0.1f, -0.1f, 1.0009765625f,
				      1.00048828125f, -3.0f, 0.333333f, 2048.5f, -1e-5f};
	uint64_t r = fx_rand(seed);
	if (i % 6 == 0)
		return edges[(r >> 7) % GL_ARRAY_LEN(edges)];
	return (float)((double)(r % 8000001) / 1e6 - 4.0);
}

static void test_halfops(void)
{
	struct ptx_module *m = fx_fixture("halfops");
	if (!m)
		return;
	enum { T = 256 };
	struct gl_launch l = {0};
	fx_geometry(&l, "halfops", 2, 1, T / 2, 1);
	float *in = fx_buffer(&l, "in", GL_F32, 4 * T);
	uint16_t *outh = fx_buffer(&l, "outh", GL_U16, 16 * T);
	float *outf = fx_buffer(&l, "outf", GL_F32, 8 * T);
	uint64_t seed = 1234;
	for (int i = 0; i < 4 * T; i++)
		in[i] = pick_half_input(&seed, i);
	for (int t = 0; t < T; t++) /* hd (d rounded up) divides: keep it away from zero */
		if (fabsf(in[4 * t + 3]) < 1e-3f)
			in[4 * t + 3] = 0.75f;
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	int bad = 0;
	for (int t = 0; t < T; t++) {
		struct half_out o;
		const float *p = in + 4 * t;
		halfops_ref(p[0], p[1], p[2], p[3], &o);
		for (int k = 0; k < 16; k++)
			if (!same_h(outh[16 * t + k], o.h[k]) && bad++ < 12)
				fprintf(stderr, "halfops t=%d h[%d]: sim 0x%04x host 0x%04x (in %.9g %.9g %.9g %.9g)\n", t, k,
					outh[16 * t + k], o.h[k], p[0], p[1], p[2], p[3]);
		for (int k = 0; k < 8; k++) {
			float got = outf[8 * t + k];
			int ok = o.approx_f[k] ? near_f(got, o.f[k], 1.0 / 1024) : same_f32(got, o.f[k]);
			if (!ok && bad++ < 12)
				fprintf(stderr, "halfops t=%d f[%d]: sim %.9g host %.9g (in %.9g %.9g %.9g %.9g)\n", t, k, got, o.f[k],
					p[0], p[1], p[2], p[3]);
		}
	}
	CHECK_EQ(bad, 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* ---- hand-written PTX: thread t converts in[t] (32-bit) and stores a 32-bit result */

static const char *const conv_text =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
	"\t.reg .pred %%p<8>;\n\t.reg .b16 %%h<8>;\n\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<16>;\n"
	"\t.reg .f32 %%f<8>;\n\t.reg .f64 %%fd<8>;\n"
	"\tld.param.u64 %%rd1, [pin];\n\tld.param.u64 %%rd2, [pout];\n\tmov.u32 %%r10, %%ctaid.x;\n"
	"\tmov.u32 %%r11, %%ntid.x;\n\tmov.u32 %%r12, %%tid.x;\n\tmad.lo.s32 %%r10, %%r10, %%r11, %%r12;\n"
	"\tmul.wide.u32 %%rd3, %%r10, 8;\n\tadd.s64 %%rd4, %%rd1, %%rd3;\n\tadd.s64 %%rd5, %%rd2, %%rd3;\n"
	"\tld.global.u32 %%r1, [%%rd4];\n\tld.global.u32 %%r2, [%%rd4+4];\n\tmov.b32 %%f1, %%r1;\n\tmov.b32 %%f2, %%r2;\n"
	"\tld.global.f64 %%fd1, [%%rd4];\n"
	"%s\n"
	"\tst.global.u32 [%%rd5], %%r4;\n\tst.global.u32 [%%rd5+4], %%r5;\n\tret;\n}\n";

/* Run BODY for n pairs of 32-bit inputs (in[2t], in[2t+1]; also readable as one f64 %fd1); results
 * are %r4 and %r5. */
static int run_conv(const char *body, const uint32_t *in, int n, uint32_t *out)
{
	char text[8192];
	snprintf(text, sizeof text, conv_text, body);
	struct ptx_module *m = fx_parse(text, "conv.ptx");
	if (!m)
		return -1;
	struct gl_launch l = {0};
	int per = 256;
	fx_geometry(&l, "k", (unsigned)((n + per - 1) / per), 1, (unsigned)per, 1);
	int total = (n + per - 1) / per * per;
	uint32_t *bin = fx_buffer(&l, "in", GL_U32, 2 * (size_t)total);
	uint32_t *bout = fx_buffer(&l, "out", GL_U32, 2 * (size_t)total);
	memcpy(bin, in, 2 * (size_t)n * sizeof *in);
	struct gl_sim_result res;
	int rc = fx_run(m, &l, &res);
	CHECK_EQ(rc, GL_OK);
	if (rc == GL_OK) {
		CHECK_EQ(res.findings_total, 0);
		memcpy(out, bout, 2 * (size_t)n * sizeof *out);
		gl_sim_result_free(&res);
	}
	gl_launch_free(&l);
	ptx_module_free(m);
	return rc;
}

#define NCONV 8192

/* f32 -> f16 / bf16 in every rounding mode, over exponents from below f16's subnormals to past its
 * range, ties included; and f16/bf16 -> f32 over all 65536 patterns. */
static void test_cvt_half(void)
{
	static uint32_t in[2 * NCONV], out[2 * NCONV];
	uint64_t seed = 77;
	int n = 0;
	for (; n < NCONV - 64; n++) {
		uint32_t r = (uint32_t)fx_rand(&seed);
		uint32_t exp = 100 + r % 45; /* 2^-27 .. 2^17 */
		uint32_t mant = (n % 4 == 0) ? (r >> 8 & 0x7fe000) | 0x1000 : (r >> 9); /* f16 ties */
		if (n % 8 == 1)
			mant = (r >> 9 & 0x7f0000) | 0x8000; /* bf16 ties */
		in[2 * n] = (uint32_t)(n & 1) << 31 | exp << 23 | (mant & 0x7fffff);
	}
	static const float specials[] = {INFINITY, -INFINITY, NAN, 0.0f, -0.0f, 65504.0f, 65520.0f, 65519.996f,
					 65536.0f, -65520.0f, 5.9604645e-8f, 2.9802322e-8f, 2.9802326e-8f, 1e-10f,
					 6.1035156e-5f, 6.1035153e-5f, 3.3895314e38f, 3.3961775e38f};
	for (size_t i = 0; i < GL_ARRAY_LEN(specials); i++, n++)
		in[2 * n] = fx_bits(specials[i]);
	static const char *const modes[] = {"rn", "rz", "rm", "rp"};
	for (int mode = RN; mode <= RP; mode++) {
		char body[256];
		snprintf(body, sizeof body, "\tcvt.%s.f16.f32 %%h1, %%f1;\n\tcvt.u32.u16 %%r4, %%h1;\n"
			 "\tcvt.%s.bf16.f32 %%h2, %%f1;\n\tcvt.u32.u16 %%r5, %%h2;", modes[mode], mode <= RZ ? modes[mode] : "rn");
		if (run_conv(body, in, n, out))
			return;
		int bad = 0;
		for (int i = 0; i < n; i++) {
			float x = fx_f32(in[2 * i]);
			uint16_t wh = d2h(x, mode), wb = d2b(x, mode <= RZ ? mode : RN);
			if ((!same_h((uint16_t)out[2 * i], wh) || out[2 * i] > 0xffff) && bad++ < 6)
				fprintf(stderr, "cvt.%s.f16.f32 %.9g (0x%08x): sim 0x%04x host 0x%04x\n", modes[mode], x, in[2 * i],
					out[2 * i], wh);
			if ((uint16_t)out[2 * i + 1] != wb && !(isnan(x) && isnan(b2d((uint16_t)out[2 * i + 1]))) &&
			    bad++ < 6)
				fprintf(stderr, "cvt.%s.bf16.f32 %.9g (0x%08x): sim 0x%04x host 0x%04x\n",
					modes[mode <= RZ ? mode : RN], x, in[2 * i], out[2 * i + 1], wb);
		}
		CHECK_EQ(bad, 0);
	}
	/* f16 / bf16 -> f32, every pattern: exact */
	n = 65536;
	for (int i = 0; i < n; i++)
		in[2 * (i % NCONV)] = (uint32_t)i;
	int bad = 0;
	for (int base = 0; base < n; base += NCONV) {
		for (int i = 0; i < NCONV; i++)
			in[2 * i] = (uint32_t)(base + i);
		if (run_conv("\tcvt.u16.u32 %h1, %r1;\n\tcvt.f32.f16 %f3, %h1;\n\tmov.b32 %r4, %f3;\n"
			     "\tcvt.f32.bf16 %f4, %h1;\n\tmov.b32 %r5, %f4;", in, NCONV, out))
			return;
		for (int i = 0; i < NCONV; i++) {
			uint16_t h = (uint16_t)(base + i);
			if (!same_f32(fx_f32(out[2 * i]), (float)h2d(h)) && bad++ < 6)
				fprintf(stderr, "cvt.f32.f16 0x%04x: sim 0x%08x host %.9g\n", h, out[2 * i], h2d(h));
			if (!same_f32(fx_f32(out[2 * i + 1]), (float)b2d(h)) && bad++ < 6)
				fprintf(stderr, "cvt.f32.bf16 0x%04x: sim 0x%08x\n", h, out[2 * i + 1]);
		}
	}
	CHECK_EQ(bad, 0);
}

/* cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32 d, a, b: a goes to the upper half. */
static void test_cvt_pack(void)
{
	uint32_t in[2 * 64], out[2 * 64];
	uint64_t seed = 5;
	for (int i = 0; i < 64; i++) {
		in[2 * i] = fx_bits(pick_half_input(&seed, i));
		in[2 * i + 1] = fx_bits(pick_half_input(&seed, i + 3));
	}
	if (run_conv("\tcvt.rn.f16x2.f32 %r4, %f1, %f2;\n\tcvt.rn.bf16x2.f32 %r5, %f1, %f2;", in, 64, out))
		return;
	int bad = 0;
	for (int i = 0; i < 64; i++) {
		float a = fx_f32(in[2 * i]), b = fx_f32(in[2 * i + 1]);
		uint32_t wh = (uint32_t)d2h(a, RN) << 16 | d2h(b, RN), wb = (uint32_t)d2b(a, RN) << 16 | d2b(b, RN);
		bad += out[2 * i] != wh;
		bad += out[2 * i + 1] != wb;
	}
	CHECK_EQ(bad, 0);
}

/* float -> integer with every integer rounding, saturation and NaN; integer -> float rounding. */
static void test_cvt_int(void)
{
	static uint32_t in[2 * 512], out[2 * 512];
	static const float vals[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 0.49999997f, -0.49999997f, 1e10f, -1e10f,
				     2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 4294967040.0f,
				     4294967296.0f, NAN, INFINITY, -INFINITY, -0.0f, 255.5f, 256.0f, -129.0f, 65535.5f,
				     3.7f, -3.7f, 1e-30f, 127.5f, -128.5f, 32767.5f};
	int n = (int)GL_ARRAY_LEN(vals);
	for (int i = 0; i < n; i++)
		in[2 * i] = fx_bits(vals[i]);
	static const char *const rnd[] = {"rni", "rzi", "rmi", "rpi"};
	static const struct {
		const char *type;
		int bits, sgn;
	} types[] = {{"s32", 32, 1}, {"u32", 32, 0}, {"s16", 16, 1}, {"u16", 16, 0}, {"s8", 8, 1}, {"u8", 8, 0},
		     {"s64", 64, 1}, {"u64", 64, 0}};
	for (size_t ty = 0; ty < GL_ARRAY_LEN(types); ty++)
		for (int mode = RN; mode <= RP; mode++) {
			char body[320];
			if (types[ty].bits == 64)
				snprintf(body, sizeof body, "\tcvt.%s.%s.f32 %%rd7, %%f1;\n\tmov.b64 {%%r4, %%r5}, %%rd7;",
					 rnd[mode], types[ty].type);
			else if (types[ty].bits == 32)
				snprintf(body, sizeof body, "\tcvt.%s.%s.f32 %%r4, %%f1;\n\tmov.u32 %%r5, 0;", rnd[mode],
					 types[ty].type);
			else /* narrow destinations live in 16-bit registers; 8-bit types in .b16 too */
				snprintf(body, sizeof body, "\tcvt.%s.%s.f32 %%h1, %%f1;\n\tcvt.%s32.%s %%r4, %%h1;\n"
					 "\tmov.u32 %%r5, 0;", rnd[mode], types[ty].type, types[ty].sgn ? "s" : "u", types[ty].type);
			if (run_conv(body, in, n, out))
				return;
			int bad = 0;
			for (int i = 0; i < n; i++) {
				uint64_t want = types[ty].sgn ? (uint64_t)to_s(vals[i], mode, types[ty].bits)
							     : to_u(vals[i], mode, types[ty].bits);
				uint64_t got = types[ty].bits == 64 ? (uint64_t)out[2 * i + 1] << 32 | out[2 * i]
								  : (uint64_t)(types[ty].sgn ? (uint64_t)(int64_t)(int32_t)out[2 * i]
												: out[2 * i]);
				if (types[ty].bits < 64 && types[ty].sgn)
					want = (uint64_t)(int64_t)want;
				if (got != want && bad++ < 4)
					fprintf(stderr, "cvt.%s.%s.f32 %.9g: sim 0x%llx host 0x%llx\n", rnd[mode], types[ty].type,
						vals[i], (unsigned long long)got, (unsigned long long)want);
			}
			CHECK_EQ(bad, 0);
		}
	/* integer -> f32 with rn/rz/rm/rp: 2^24+1 and friends need rounding */
	static const int32_t ints[] = {16777217, -16777217, 16777219, 2147483647, -2147483647, 33554435, 123456789, -5, 0};
	n = (int)GL_ARRAY_LEN(ints);
	for (int i = 0; i < n; i++)
		in[2 * i] = (uint32_t)ints[i];
	static const char *const frnd[] = {"rn", "rz", "rm", "rp"};
	for (int mode = RN; mode <= RP; mode++) {
		char body[200];
		snprintf(body, sizeof body, "\tcvt.%s.f32.s32 %%f3, %%r1;\n\tmov.b32 %%r4, %%f3;\n"
			 "\tcvt.%s.f32.u32 %%f4, %%r1;\n\tmov.b32 %%r5, %%f4;", frnd[mode], frnd[mode]);
		if (run_conv(body, in, n, out))
			return;
		for (int i = 0; i < n; i++) {
			CHECK_EQ(out[2 * i], fx_bits(to_f32_mode((double)ints[i], mode)));
			CHECK_EQ(out[2 * i + 1], fx_bits(to_f32_mode((double)(uint32_t)ints[i], mode)));
		}
	}
}

/* f64 -> f32 in every rounding mode; f32 -> f64; f64 rounding to integral values. */
static void test_cvt_f64(void)
{
	static uint32_t in[2 * 256], out[2 * 256];
	uint64_t seed = 21;
	int n = 256;
	for (int i = 0; i < n; i++) {
		double v = i < 4 ? (i == 0 ? 1e300 : i == 1 ? -1e-300 : i == 2 ? 3.4028235677973366e38 : 1.401298464324817e-45)
				 : (double)(int64_t)fx_rand(&seed) * ldexp(1, -(int)(fx_rand(&seed) % 120));
		memcpy(&in[2 * i], &v, 8);
	}
	static const char *const frnd[] = {"rn", "rz", "rm", "rp"};
	for (int mode = RN; mode <= RP; mode++) {
		char body[200];
		snprintf(body, sizeof body, "\tcvt.%s.f32.f64 %%f3, %%fd1;\n\tmov.b32 %%r4, %%f3;\n"
			 "\tcvt.%si.f64.f64 %%fd2, %%fd1;\n\tcvt.rn.f32.f64 %%f4, %%fd2;\n\tmov.b32 %%r5, %%f4;", frnd[mode],
			 frnd[mode]);
		if (run_conv(body, in, n, out))
			return;
		int bad = 0;
		for (int i = 0; i < n; i++) {
			double v;
			memcpy(&v, &in[2 * i], 8);
			bad += out[2 * i] != fx_bits(to_f32_mode(v, mode));
			bad += out[2 * i + 1] != fx_bits((float)rounded(v, mode));
		}
		CHECK_EQ(bad, 0);
	}
}

/* f32 arithmetic in the four rounding modes, ftz, sat, min/max with NaN and signed zeros. */
static void test_f32_modes(void)
{
	static uint32_t in[2 * 512], out[2 * 512];
	uint64_t seed = 31;
	int n = 512;
	for (int i = 0; i < n; i++) {
		in[2 * i] = i % 11 == 0 ? 0x00000003u : (uint32_t)fx_rand(&seed) & 0xbfffffffu; /* |x| < 2 mostly */
		in[2 * i + 1] = i % 13 == 0 ? 0x80000000u : (uint32_t)fx_rand(&seed) & 0xbfffffffu;
	}
	static const char *const frnd[] = {"rn", "rz", "rm", "rp"};
	static const char *const ops[] = {"add", "mul", "div", "sub"};
	for (int op = 0; op < 4; op++)
		for (int mode = RN; mode <= RP; mode++) {
			char body[256];
			snprintf(body, sizeof body, "\t%s.%s.f32 %%f3, %%f1, %%f2;\n\tmov.b32 %%r4, %%f3;\n"
				 "\tfma.%s.f32 %%f4, %%f1, %%f2, %%f1;\n\tmov.b32 %%r5, %%f4;", ops[op], frnd[mode], frnd[mode]);
			if (run_conv(body, in, n, out))
				return;
			static const int fe[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
			int bad = 0;
			for (int i = 0; i < n; i++) {
				volatile float a = fx_f32(in[2 * i]), b = fx_f32(in[2 * i + 1]);
				int old = fegetround();
				fesetround(fe[mode]);
				volatile float r = op == 0 ? a + b : op == 1 ? a * b : op == 2 ? a / b : a - b;
				volatile float f = fmaf(a, b, a);
				fesetround(old);
				if ((!same_f32(fx_f32(out[2 * i]), r) || !same_f32(fx_f32(out[2 * i + 1]), f)) && bad++ < 4)
					fprintf(stderr, "%s.%s.f32 %a %a: sim %a / %a host %a / %a\n", ops[op], frnd[mode], a, b,
						fx_f32(out[2 * i]), fx_f32(out[2 * i + 1]), r, f);
			}
			CHECK_EQ(bad, 0);
		}
	/* ftz and sat, min/max NaN and zero rules (NaN: the other operand; -0 < +0) */
	float vals[][2] = {{1e-40f, 1e-40f}, {-1e-40f, 0.0f}, {NAN, 1.0f}, {2.0f, NAN}, {-0.0f, 0.0f}, {0.0f, -0.0f},
			   {0.75f, 0.5f}, {-3.0f, 1.0f}, {NAN, NAN}, {1e-38f, 0.5f}};
	n = (int)GL_ARRAY_LEN(vals);
	for (int i = 0; i < n; i++) {
		in[2 * i] = fx_bits(vals[i][0]);
		in[2 * i + 1] = fx_bits(vals[i][1]);
	}
	if (run_conv("\tadd.ftz.f32 %f3, %f1, %f2;\n\tmov.b32 %r4, %f3;\n"
		     "\tadd.sat.f32 %f4, %f1, %f2;\n\tmov.b32 %r5, %f4;", in, n, out))
		return;
	for (int i = 0; i < n; i++) {
		float a = vals[i][0], b = vals[i][1];
		float fa = fpclassify(a) == FP_SUBNORMAL ? copysignf(0, a) : a;
		float fb = fpclassify(b) == FP_SUBNORMAL ? copysignf(0, b) : b;
		float s = fa + fb;
		s = fpclassify(s) == FP_SUBNORMAL ? copysignf(0, s) : s;
		float sat = a + b;
		sat = isnan(sat) ? 0.0f : sat < 0 ? 0.0f : sat > 1 ? 1.0f : sat;
		CHECK(same_f32(fx_f32(out[2 * i]), s));
		CHECK(same_f32(fx_f32(out[2 * i + 1]), sat));
	}
	if (run_conv("\tmin.f32 %f3, %f1, %f2;\n\tmov.b32 %r4, %f3;\n"
		     "\tmax.f32 %f4, %f1, %f2;\n\tmov.b32 %r5, %f4;", in, n, out))
		return;
	for (int i = 0; i < n; i++) {
		float a = vals[i][0], b = vals[i][1];
		float mn = isnan(a) ? b : isnan(b) ? a : (a < b || (a == b && signbit(a))) ? a : b;
		float mx = isnan(a) ? b : isnan(b) ? a : (a > b || (a == b && !signbit(a))) ? a : b;
		CHECK(same_f32(fx_f32(out[2 * i]), mn));
		CHECK(same_f32(fx_f32(out[2 * i + 1]), mx));
		if (i == 4 || i == 5) { /* min(-0, +0) = -0, max = +0, either order */
			CHECK_EQ(out[2 * i], 0x80000000u);
			CHECK_EQ(out[2 * i + 1], 0u);
		}
	}
}

/* f16 / f16x2 / bf16x2 arithmetic, comparisons (setp with two predicates, set) and min/max. */
static void test_half_arith(void)
{
	static uint32_t in[2 * 256], out[2 * 256];
	uint64_t seed = 41;
	int n = 256;
	for (int i = 0; i < n; i++) {
		in[2 * i] = (uint32_t)d2h(pick_half_input(&seed, i), RN) << 16 | d2h(pick_half_input(&seed, i + 1), RN);
		in[2 * i + 1] = (uint32_t)d2h(pick_half_input(&seed, i + 2), RN) << 16 | d2h(pick_half_input(&seed, i), RN);
	}
	in[0] = 0x7e003c00u; /* NaN : 1.0 */
	in[1] = 0x3c007e00u;
	if (run_conv("\tadd.f16x2 %r4, %r1, %r2;\n\tfma.rn.f16x2 %r5, %r1, %r2, %r1;", in, n, out))
		return;
	int bad = 0;
	for (int i = 0; i < n; i++)
		for (int half = 0; half < 2; half++) {
			double a = h2d((uint16_t)(in[2 * i] >> (16 * half))), b = h2d((uint16_t)(in[2 * i + 1] >> (16 * half)));
			bad += !same_h((uint16_t)(out[2 * i] >> (16 * half)), d2h(a + b, RN));
			bad += !same_h((uint16_t)(out[2 * i + 1] >> (16 * half)), d2h(fma(a, b, a), RN));
		}
	CHECK_EQ(bad, 0);
	if (run_conv("\tsetp.lt.f16x2 %p1|%p2, %r1, %r2;\n\tselp.u32 %r4, 1, 0, %p1;\n\tselp.u32 %r6, 2, 0, %p2;\n"
		     "\tor.b32 %r4, %r4, %r6;\n\tset.gtu.u32.f16x2 %r5, %r1, %r2;", in, n, out))
		return;
	bad = 0;
	for (int i = 0; i < n; i++) {
		double alo = h2d((uint16_t)in[2 * i]), ahi = h2d((uint16_t)(in[2 * i] >> 16));
		double blo = h2d((uint16_t)in[2 * i + 1]), bhi = h2d((uint16_t)(in[2 * i + 1] >> 16));
		uint32_t want = (alo < blo ? 1u : 0u) | (ahi < bhi ? 2u : 0u);
		uint32_t set = ((isnan(alo) || isnan(blo) || alo > blo) ? 0xffffu : 0) |
			       ((isnan(ahi) || isnan(bhi) || ahi > bhi) ? 0xffff0000u : 0);
		if ((out[2 * i] != want || out[2 * i + 1] != set) && bad++ < 4)
			fprintf(stderr, "setp/set f16x2 0x%08x 0x%08x: sim %u 0x%08x host %u 0x%08x\n", in[2 * i],
				in[2 * i + 1], out[2 * i], out[2 * i + 1], want, set);
	}
	CHECK_EQ(bad, 0);
	if (run_conv("\tmin.f16x2 %r4, %r1, %r2;\n\tmax.bf16x2 %r5, %r1, %r2;", in, n, out))
		return;
	bad = 0;
	for (int i = 0; i < n; i++)
		for (int half = 0; half < 2; half++) {
			uint16_t ah = (uint16_t)(in[2 * i] >> (16 * half)), bh = (uint16_t)(in[2 * i + 1] >> (16 * half));
			double a = h2d(ah), b = h2d(bh), ab = b2d(ah), bb = b2d(bh);
			uint16_t mn = isnan(a) ? bh : isnan(b) ? ah : (a < b || (a == b && signbit(a))) ? ah : bh;
			uint16_t mx = isnan(ab) ? bh : isnan(bb) ? ah : (ab > bb || (ab == bb && !signbit(ab))) ? ah : bh;
			bad += !same_h((uint16_t)(out[2 * i] >> (16 * half)), mn);
			bad += (uint16_t)(out[2 * i + 1] >> (16 * half)) != mx &&
			       !(isnan(b2d((uint16_t)(out[2 * i + 1] >> (16 * half)))) && isnan(b2d(mx)));
		}
	CHECK_EQ(bad, 0);
	/* .ftz flushes f16 subnormal inputs and results; max.xorsign.abs: |larger| with the xor of the signs */
	static const uint16_t hv[] = {0x0001, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x3555, 0x8200, 0x7bff, 0x0200, 0xc000};
	int nh = (int)GL_ARRAY_LEN(hv);
	for (int i = 0; i < nh * nh; i++) {
		in[2 * i] = (uint32_t)hv[i / nh] << 16 | hv[i % nh];
		in[2 * i + 1] = (uint32_t)hv[i % nh] << 16 | hv[(i / nh + 3) % nh];
	}
	if (run_conv("\tfma.rn.ftz.f16x2 %r4, %r1, %r2, %r1;\n\tmax.xorsign.abs.f16x2 %r5, %r1, %r2;", in, nh * nh, out))
		return;
	bad = 0;
	for (int i = 0; i < nh * nh; i++)
		for (int half = 0; half < 2; half++) {
			double a = h2d((uint16_t)(in[2 * i] >> (16 * half))), b = h2d((uint16_t)(in[2 * i + 1] >> (16 * half)));
			double fa = fabs(a) < 0x1p-14 ? copysign(0, a) : a, fb = fabs(b) < 0x1p-14 ? copysign(0, b) : b;
			uint16_t f = d2h(fma(fa, fb, fa), RN);
			if (fabs(h2d(f)) < 0x1p-14)
				f &= 0x8000;
			double mx = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
			uint16_t x = d2h(signbit(a) != signbit(b) ? -mx : mx, RN);
			uint16_t got_f = (uint16_t)(out[2 * i] >> (16 * half)), got_x = (uint16_t)(out[2 * i + 1] >> (16 * half));
			if ((got_f != f || got_x != x) && bad++ < 4)
				fprintf(stderr, "ftz/xorsign f16 %a %a: sim 0x%04x 0x%04x host 0x%04x 0x%04x\n", a, b, got_f, got_x, f, x);
		}
	CHECK_EQ(bad, 0);
	/* neg / abs flip and clear the sign bit only, also of NaN */
	if (run_conv("\tneg.f16x2 %r4, %r1;\n\tabs.bf16x2 %r5, %r2;", in, n, out))
		return;
	for (int i = 0; i < n; i++) {
		CHECK_EQ(out[2 * i], in[2 * i] ^ 0x80008000u);
		CHECK_EQ(out[2 * i + 1], in[2 * i + 1] & 0x7fff7fffu);
	}
}

/* sqrt/rcp/div IEEE forms are correctly rounded; testp classifies; copysign takes the first's sign. */
static void test_ieee_and_class(void)
{
	static uint32_t in[2 * 256], out[2 * 256];
	uint64_t seed = 51;
	int n = 256;
	for (int i = 0; i < n; i++) {
		in[2 * i] = (uint32_t)fx_rand(&seed) & 0x7fffffffu;
		in[2 * i + 1] = (uint32_t)fx_rand(&seed);
	}
	in[0] = 0x00000001u, in[2] = 0x7f800000u, in[4] = 0x7fc00000u, in[6] = 0;
	if (run_conv("\tsqrt.rn.f32 %f3, %f1;\n\tmov.b32 %r4, %f3;\n\tdiv.rn.f32 %f4, %f2, %f1;\n\tmov.b32 %r5, %f4;",
		     in, n, out))
		return;
	int bad = 0;
	for (int i = 0; i < n; i++) {
		float a = fx_f32(in[2 * i]), b = fx_f32(in[2 * i + 1]);
		bad += !same_f32(fx_f32(out[2 * i]), sqrtf(a));
		bad += !same_f32(fx_f32(out[2 * i + 1]), b / a);
	}
	CHECK_EQ(bad, 0);
	if (run_conv("\ttestp.normal.f32 %p1, %f1;\n\ttestp.subnormal.f32 %p2, %f1;\n\ttestp.notanumber.f32 %p3, %f1;\n"
		     "\ttestp.infinite.f32 %p4, %f1;\n\tselp.u32 %r4, 1, 0, %p1;\n\tselp.u32 %r6, 2, 0, %p2;\n"
		     "\tor.b32 %r4, %r4, %r6;\n\tselp.u32 %r6, 4, 0, %p3;\n\tor.b32 %r4, %r4, %r6;\n"
		     "\tselp.u32 %r6, 8, 0, %p4;\n\tor.b32 %r4, %r4, %r6;\n\tcopysign.f32 %f4, %f2, %f1;\n"
		     "\tmov.b32 %r5, %f4;", in, n, out))
		return;
	bad = 0;
	for (int i = 0; i < n; i++) {
		float a = fx_f32(in[2 * i]), b = fx_f32(in[2 * i + 1]);
		int c = fpclassify(a);
		uint32_t want = (c == FP_NORMAL) | (c == FP_SUBNORMAL) << 1 | (c == FP_NAN) << 2 | (c == FP_INFINITE) << 3;
		bad += out[2 * i] != want;
		bad += out[2 * i + 1] != ((in[2 * i] & 0x7fffffffu) | (in[2 * i + 1] & 0x80000000u));
		(void)b;
	}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	test_floatops();
	test_halfops();
	test_cvt_half();
	test_cvt_pack();
	test_cvt_int();
	test_cvt_f64();
	test_f32_modes();
	test_half_arith();
	test_ieee_and_class();
	CHECK_DONE();
}
