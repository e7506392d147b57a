/* test_sim_coverage.c — the coverage fixture (tests/fixtures/sim/coverage.cu): CUDA intrinsics whose PTX
 * forms nvcc -O3 emits rarely elsewhere — __syncthreads_count/and/or (bar.red), __dp4a/__dp2a (dp4a,
 * dp2a), __fns (fns), rounded float intrinsics (add.rm, mul.rp, div.rz, rcp.rm, sqrt.rp, fma.rz, f64
 * add.rp/mul.rm), cvt.sat, cache-hinted loads and stores, __vabsdiffu4 (vabsdiff4), 16-bit CAS and
 * packed-half atomics (CAS loops), 64-bit atomic min/max — against host references; then special
 * registers in hand-written PTX. */
#include <fenv.h>

#include "tests/unit/sim_fixture.h"

enum { T = 64 };

static float mode_op(int op, float a, float b, float c, int fe)
{
	int old = fegetround();
	fesetround(fe);
	volatile float x = a, y = b, z = c, r;
	switch (op) {
	case 0: r = x + y; break;
	case 1: r = x * y; break;
	case 2: r = x / y; break;
	case 3: r = 1.0f / y; break;
	case 4: r = sqrtf(y); break;
	default: r = fmaf(x, y, z); break;
	}
	fesetround(old);
	return r;
}

static double mode_op64(int op, double a, double b, int fe)
{
	int old = fegetround();
	fesetround(fe);
	volatile double x = a, y = b, r = op == 0 ? x + y : x * y;
	fesetround(old);
	return r;
}

static int64_t sbyte(uint32_t v, int i)
{
	return (int8_t)(v >> (8 * i));
}

static int64_t ubyte(uint32_t v, int i)
{
	return (uint8_t)(v >> (8 * i));
}

/* __fns from the PTX ISA pseudocode */
static uint32_t fns_ref(uint32_t m, uint32_t base, int offset)
{
	if (offset == 0)
		return (m >> base) & 1 ? base : 0xffffffffu;
	int inc = offset > 0 ? 1 : -1, count = (offset > 0 ? offset : -offset) - 1;
	for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc)
		if ((m >> pos) & 1) {
			if (count == 0)
				return (uint32_t)pos;
			count--;
		}
	return 0xffffffffu;
}

static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
	uint64_t v = (uint64_t)y << 32 | x;
	uint32_t r = 0;
	for (int n = 0; n < 4; n++)
		r |= (uint32_t)((v >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
	return r;
}

static void coverage_ref(const float *in, int t, uint32_t *o, int *approx)
{
	float a = in[2 * t], b = in[2 * t + 1];
	uint32_t ua = fx_bits(a), ub = fx_bits(b);
	int cnt = 0, all = 1, any = 0;
	for (int k = 0; k < T; k++) {
		cnt += in[2 * k] > 0.5f;
		all &= in[2 * k] < 2.0f;
		any |= in[2 * k] > 0.9f;
	}
	memset(approx, 0, 32 * sizeof *approx);
	o[0] = (uint32_t)cnt;
	o[1] = (uint32_t)(all + 2 * any);
	int64_t d4s = 7, d4u = 5, d2lo = 3, d2hi = 9;
	for (int i = 0; i < 4; i++) {
		d4s += sbyte(ua, i) * sbyte(ub, i);
		d4u += ubyte(ua, i) * ubyte(ub, i);
	}
	for (int i = 0; i < 2; i++) {
		d2lo += (int16_t)(ua >> (16 * i)) * sbyte(ub, i);
		d2hi += (int64_t)(uint16_t)(ua >> (16 * i)) * ubyte(ub, 2 + i);
	}
	o[2] = (uint32_t)d4s, o[3] = (uint32_t)d4u, o[4] = (uint32_t)d2lo, o[5] = (uint32_t)d2hi;
	o[6] = fns_ref(ua, (unsigned)t % 32, (int)(ub % 7) - 3);
	o[7] = fx_bits(mode_op(0, a, b, 0, FE_DOWNWARD));
	o[8] = fx_bits(mode_op(1, a, b, 0, FE_UPWARD));
	o[9] = fx_bits(mode_op(2, a, b, 0, FE_TOWARDZERO));
	o[10] = fx_bits(mode_op(3, a, b, 0, FE_DOWNWARD));
	o[11] = fx_bits(mode_op(4, a, b, 0, FE_UPWARD));
	o[12] = fx_bits(mode_op(5, a, b, 1.0f, FE_TOWARDZERO));
	float d = a - b;
	o[13] = fx_bits(d < 0 ? 0.0f : d > 1 ? 1.0f : d);
	double dr = mode_op64(0, a, 1e-20, FE_UPWARD) + mode_op64(1, a, b, FE_DOWNWARD);
	o[14] = (uint32_t)(fx_bits64(dr) >> 32);
	float x = in[t]; /* the cache-hinted loads read in[t] */
	o[15] = fx_bits(x + x + x + x + x);
	o[16] = 16, o[17] = 17, o[18] = 18, o[19] = 7, o[20] = 3;
	uint32_t vad = 0, vadd = 0;
	for (int i = 0; i < 4; i++) {
		int64_t x = ubyte(ua, i) - ubyte(ub, i);
		vad |= (uint32_t)(x < 0 ? -x : x) << (8 * i);
	}
	for (int i = 0; i < 2; i++)
		vadd |= (uint32_t)(uint16_t)((ua >> (16 * i)) + (ub >> (16 * i))) << (16 * i);
	o[21] = vad;
	o[22] = vadd;
	o[23] = byte_perm(ua, ub, 0x5140);
	o[24] = (uint32_t)__builtin_popcountll((uint64_t)ua << 32 | ub);
	o[25] = (uint32_t)((int64_t)(((int32_t)(ua << 8)) >> 8) * (((int32_t)(ub << 8)) >> 8));
	o[26] = (ua > ub ? ua - ub : ub - ua) + 1;
	o[27] = fx_bits(a / (b + 1.0f)), approx[27] = 1;
	o[28] = fx_bits(powf(a + 1.0f, 1.5f)), approx[28] = 1;
	o[29] = fx_bits(tanf(a)), approx[29] = 1;
	o[30] = fx_bits(powf(10.0f, a)), approx[30] = 1;
	o[31] = fx_bits(erff(a) + lgammaf(a + 1.0f)), approx[31] = 1;
}

static void test_coverage(void)
{
	struct ptx_module *m = fx_fixture("coverage");
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "coverage", 1, 1, T, 1);
	float *in = fx_buffer(&l, "in", GL_F32, 2 * T);
	uint32_t *out = fx_buffer(&l, "out", GL_U32, 32 * T);
	uint32_t *halves = fx_buffer(&l, "halves", GL_U32, 8);
	uint16_t *h16 = fx_buffer(&l, "h16", GL_U16, T);
	uint64_t seed = 2024;
	for (int i = 0; i < 2 * T; i++)
		in[i] = (float)(fx_rand(&seed) >> 40) * 0x1p-23f; /* [0, 2) */
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	int bad = 0;
	for (int t = 0; t < T; t++) {
		uint32_t want[32];
		int approx[32];
		coverage_ref(in, t, want, approx);
		for (int k = 0; k < 32; k++) {
			uint32_t got = out[32 * t + k];
			int ok = approx[k] ? fabsf(fx_f32(got) - fx_f32(want[k])) <= 2e-5f * (fabsf(fx_f32(want[k])) + 1.0f)
					   : got == want[k];
			if (!ok && bad++ < 10)
				fprintf(stderr, "coverage t=%d o[%d]: sim 0x%08x (%g) host 0x%08x (%g), a=%a b=%a\n", t, k, got,
					fx_f32(got), want[k], fx_f32(want[k]), in[2 * t], in[2 * t + 1]);
		}
	}
	CHECK_EQ(bad, 0);
	/* atomics: 64 threads add 0.5 to an f16, (1, 2) to an f16x2, 0.25 to a bf16, (1, -1) to a bf16x2 */
	CHECK_EQ(halves[0] & 0xffff, 0x5000);     /* 32.0 in f16 */
	CHECK_EQ(halves[1], 0x58005400u);         /* (64, 128) */
	CHECK_EQ(halves[2] & 0xffff, 0x4180);     /* 16.0 in bf16 */
	CHECK_EQ(halves[3], 0xc2804280u);         /* (64, -64) */
	CHECK_EQ(halves[4], 63);                  /* u64 max */
	CHECK_EQ(halves[6], (uint32_t)-63);       /* s64 min */
	CHECK_EQ(halves[7], 0xffffffffu);
	for (int t = 0; t < T; t++)
		CHECK_EQ(h16[t], t + 1);
	/* bar.red is one instruction per warp however it is run */
	CHECK(fx_metric(&res, GL_M_INST) > 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* Special registers: thread/CTA indexes and sizes, lane masks, warp ids, dynamic shared size. */
static void test_specials(void)
{
	static const char *const text =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u64 p)\n{\n"
		"\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<8>;\n"
		"\tld.param.u64 %rd1, [p];\n"
		"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n\tmov.u32 %r3, %tid.z;\n"
		"\tmov.u32 %r4, %ntid.x;\n\tmov.u32 %r5, %ntid.y;\n\tmov.u32 %r6, %ntid.z;\n"
		"\tmov.u32 %r7, %ctaid.x;\n\tmov.u32 %r8, %ctaid.y;\n\tmov.u32 %r9, %ctaid.z;\n"
		"\tmov.u32 %r10, %nctaid.x;\n\tmov.u32 %r11, %nctaid.y;\n\tmov.u32 %r12, %nctaid.z;\n"
		"\tmov.u32 %r13, %laneid;\n\tmov.u32 %r14, %warpid;\n\tmov.u32 %r15, %lanemask_lt;\n"
		"\tmov.u32 %r16, %lanemask_le;\n\tmov.u32 %r17, %lanemask_gt;\n\tmov.u32 %r18, %lanemask_ge;\n"
		"\tmov.u32 %r19, %lanemask_eq;\n\tmov.u32 %r20, %dynamic_smem_size;\n"
		/* linear thread id in the grid -> 20 words each */
		"\tmad.lo.u32 %r21, %r3, %r5, %r2;\n\tmad.lo.u32 %r21, %r21, %r4, %r1;\n"
		"\tmul.lo.u32 %r22, %r4, %r5;\n\tmul.lo.u32 %r22, %r22, %r6;\n"
		"\tmad.lo.u32 %r23, %r9, %r11, %r8;\n\tmad.lo.u32 %r23, %r23, %r10, %r7;\n"
		"\tmad.lo.u32 %r21, %r23, %r22, %r21;\n\tmul.wide.u32 %rd2, %r21, 80;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
		"\tst.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n\tst.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};\n"
		"\tst.global.v4.u32 [%rd3+32], {%r9, %r10, %r11, %r12};\n"
		"\tst.global.v4.u32 [%rd3+48], {%r13, %r14, %r15, %r16};\n"
		"\tst.global.v4.u32 [%rd3+64], {%r17, %r18, %r19, %r20};\n\tret;\n}\n";
	struct ptx_module *m = fx_parse(text, "specials.ptx");
	if (!m)
		return;
	struct gl_launch l = {0};
	l.entry = "k";
	unsigned grid[3] = {2, 3, 2}, block[3] = {5, 4, 3}; /* 60 threads: warp 1 is partial */
	memcpy(l.grid, grid, sizeof grid);
	memcpy(l.block, block, sizeof block);
	l.dyn_smem = 48;
	unsigned n = 2 * 3 * 2 * 60;
	uint32_t *out = fx_buffer(&l, "out", GL_U32, 20 * (size_t)n);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	int bad = 0;
	for (unsigned cz = 0; cz < 2; cz++)
		for (unsigned cy = 0; cy < 3; cy++)
			for (unsigned cx = 0; cx < 2; cx++)
				for (unsigned t = 0; t < 60; t++) {
					unsigned cta = (cz * 3 + cy) * 2 + cx, lane = t % 32;
					const uint32_t *o = out + 20 * (cta * 60 + t);
					uint32_t want[20] = {t % 5, t / 5 % 4, t / 20, 5, 4, 3, cx, cy, cz, 2, 3, 2, lane, t / 32,
							     (1u << lane) - 1, (uint32_t)((2ull << lane) - 1),
							     ~(uint32_t)((2ull << lane) - 1), ~((1u << lane) - 1), 1u << lane, 48};
					for (int k = 0; k < 20; k++)
						if (o[k] != want[k] && bad++ < 6)
							fprintf(stderr, "special %d of cta %u thread %u: sim %u, expected %u\n", k, cta,
								t, o[k], want[k]);
				}
	CHECK_EQ(bad, 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* isspacep on a pointer chosen at run time; generic loads from shared, local and constant memory. */
static void test_isspacep(void)
{
	struct ptx_module *m = fx_fixture("isspacep");
	if (!m)
		return;
	static const int ctab[4] = {1, 2, 3, 4};
	for (int sel = 0; sel < 4; sel++) {
		struct gl_launch l = {0};
		fx_geometry(&l, "k", 1, 1, 4, 1);
		int32_t *p = fx_buffer(&l, "p", GL_I32, 4);
		int32_t *out = fx_buffer(&l, "out", GL_I32, 4);
		gl_launch_arg_scalar(&l, (uint64_t)sel, 4);
		for (int i = 0; i < 4; i++)
			p[i] = 10 * i + 1;
		struct gl_sim_result res;
		CHECK_EQ(fx_run(m, &l, &res), GL_OK);
		CHECK_EQ(res.nerrors, 0);
		for (int t = 0; t < 4; t++) {
			int v = sel == 0 ? p[t] : sel == 2 ? sel + t : sel == 3 ? ctab[t] : 0;
			int want = (1 << sel) + 16 * v;
			if (sel == 1) /* shared s[] is read before it is written: the poison pattern, with a warning */
				want = (int)(2u + 16u * 0xa5a5a5a5u);
			CHECK_EQ(out[t], want);
		}
		CHECK_EQ(res.findings_total, sel == 1 ? 4 : 0);
		gl_sim_result_free(&res);
		gl_launch_free(&l);
	}
	ptx_module_free(m);
}

int main(void)
{
	test_coverage();
	test_isspacep();
	test_specials();
	CHECK_DONE();
}
