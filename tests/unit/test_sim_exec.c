/* test_sim_exec.c — integer, bit and control-flow instructions against host-computed results: the
 * intops and control fixtures (tests/fixtures/sim/NAME.cu, as nvcc -O3 compiles them), then hand-written
 * PTX for edge cases the compiler rarely shows (bfe/bfi/prmt/shf corners, carry chains, setp combiners,
 * narrow integer types) with references written from the PTX ISA's pseudocode. */
#include <limits.h>

#include "tests/unit/sim_fixture.h"

/* ---- intops.cu */

static uint32_t brev32(uint32_t v)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= ((v >> i) & 1u) << (31 - i);
	return r;
}

static uint64_t brev64(uint64_t v)
{
	return (uint64_t)brev32((uint32_t)v) << 32 | brev32((uint32_t)(v >> 32));
}

static int clz32(uint32_t v)
{
	int n = 0;
	for (int i = 31; i >= 0 && !((v >> i) & 1); i--)
		n++;
	return n;
}

static int clz64(uint64_t v)
{
	return v >> 32 ? clz32((uint32_t)(v >> 32)) : 32 + clz32((uint32_t)v);
}

static int popc64(uint64_t v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static int ffs64(uint64_t v)
{
	for (int i = 0; i < 64; i++)
		if ((v >> i) & 1)
			return i + 1;
	return 0;
}

/* __byte_perm: byte n of the result is byte s[4n+2:4n] of y:x. */
static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
	uint64_t v = (uint64_t)y << 32 | x;
	uint32_t r = 0;
	for (int n = 0; n < 4; n++)
		r |= (uint32_t)((v >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
	return r;
}

static uint32_t funnel(uint32_t lo, uint32_t hi, uint32_t s, int left, int clamp)
{
	s = clamp ? (s > 32 ? 32 : s) : (s & 31);
	uint64_t v = (uint64_t)hi << 32 | lo;
	return left ? (uint32_t)((v << s) >> 32) : (uint32_t)(v >> s);
}

static void intops_ref(const uint32_t *x, uint32_t *o, uint64_t *o64)
{
	uint32_t a = x[0], b = x[1], c = x[2], d = x[3];
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	o[0] = a + b;
	o[1] = a - b;
	o[2] = a * b;
	o[3] = (uint32_t)(((uint64_t)a * b) >> 32);
	o[4] = (uint32_t)(((int64_t)sa * sb) >> 32);
	o[5] = b ? a / b : 0xdead;
	o[6] = b ? a % b : 0xbeef;
	int ok = sb != 0 && !(sa == INT32_MIN && sb == -1);
	o[7] = ok ? (uint32_t)(sa / sb) : 7;
	o[8] = ok ? (uint32_t)(sa % sb) : 8;
	o[9] = (uint32_t)(sa < sb ? sa : sb);
	o[10] = a > b ? a : b;
	o[11] = sa == INT32_MIN ? (uint32_t)sa : (uint32_t)(sa < 0 ? -sa : sa);
	o[12] = a << (c & 31);
	o[13] = a >> (c & 31);
	o[14] = (uint32_t)(sa >> (c & 31));
	o[15] = byte_perm(a, b, c);
	o[16] = (uint32_t)popc64(a);
	o[17] = (uint32_t)clz32(a);
	o[18] = brev32(a);
	o[19] = (uint32_t)ffs64(a);
	o[20] = funnel(a, b, c, 1, 0);
	o[21] = funnel(a, b, c, 0, 0);
	o[22] = funnel(a, b, c, 1, 1);
	o[23] = funnel(a, b, c, 0, 1);
	o[24] = (uint32_t)((sa > sb ? (int64_t)sa - sb : (int64_t)sb - sa) + c);
	o[25] = (a & 0xffffff) * (b & 0xffffff);
	o[26] = (a >> (d & 15)) & ((1u << (c & 15)) - 1u);
	o[27] = (a & 31) | ((b & 2047) << 5) | ((c & 0xffff) << 16);
	o[28] = (a & ~(0xffu << 8)) | ((b & 0xffu) << 8);
	o[29] = (uint32_t)(int8_t)a + (uint32_t)(int16_t)b + (uint32_t)(uint8_t)c * (uint32_t)(uint16_t)d;
	o[30] = (uint32_t)(int32_t)(((int64_t)sa + sb) >> 1);
	o[31] = (uint32_t)(int32_t)(((int64_t)sa + sb + 1) >> 1);
	uint64_t A = (uint64_t)b << 32 | a, B = (uint64_t)d << 32 | c;
	int64_t SA = (int64_t)A, SB = (int64_t)B;
	o64[0] = A * B;
	o64[1] = (uint64_t)(((unsigned __int128)A * B) >> 64);
	o64[2] = (uint64_t)(((__int128)SA * SB) >> 64);
	o64[3] = B ? A / B : 3;
	o64[4] = B ? A % B : 4;
	o64[5] = (SB != 0 && !(SA == INT64_MIN && SB == -1)) ? (uint64_t)(SA / SB) : 5;
	o64[6] = (uint64_t)a * b + (uint64_t)popc64(A) + (uint64_t)clz64(B) + (uint64_t)ffs64(A);
	o64[7] = (A >> (c & 63)) ^ (uint64_t)(SA >> (d & 63)) ^ brev64(B);
}

static uint32_t edge_value(uint64_t *seed)
{
	static const uint32_t edges[] = {0, 1, 2, 3, 31, 32, 33, 0x7fffffffu, 0x80000000u, 0xffffffffu,
					 0xfffffffeu, 0x00ff00ffu, 0x12345678u, 0x80000001u, 17, 0xffff};
	uint64_t r = fx_rand(seed);
	return (r & 3) == 0 ? edges[(r >> 8) % GL_ARRAY_LEN(edges)] : (uint32_t)(r >> 16);
}

static void test_intops(void)
{
	struct ptx_module *m = fx_fixture("intops");
	if (!m)
		return;
	enum { T = 256 };
	struct gl_launch l = {0};
	fx_geometry(&l, "intops", 2, 1, T / 2, 1);
	uint32_t *in = fx_buffer(&l, "in", GL_U32, 8 * T);
	uint32_t *out = fx_buffer(&l, "out", GL_U32, 32 * T);
	uint64_t *out64 = fx_buffer(&l, "out64", GL_U64, 8 * T);
	uint64_t seed = 42;
	for (int i = 0; i < 8 * T; i++)
		in[i] = edge_value(&seed);
	in[0] = 0x80000000u, in[1] = 0xffffffffu; /* INT_MIN / -1 */
	in[8] = 5, in[9] = 0;                     /* division by zero guarded */
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	int bad = 0;
	for (int t = 0; t < T; t++) {
		uint32_t o[32];
		uint64_t o64[8];
		intops_ref(in + 8 * t, o, o64);
		for (int k = 0; k < 32; k++)
			if (out[32 * t + k] != o[k] && bad++ < 10)
				fprintf(stderr, "intops t=%d o[%d]: sim 0x%08x host 0x%08x (a=0x%x b=0x%x c=0x%x d=0x%x)\n", t, k,
					out[32 * t + k], o[k], in[8 * t], in[8 * t + 1], in[8 * t + 2], in[8 * t + 3]);
		for (int k = 0; k < 8; k++)
			if (out64[8 * t + k] != o64[k] && bad++ < 10)
				fprintf(stderr, "intops t=%d o64[%d]: sim 0x%016llx host 0x%016llx\n", t, k,
					(unsigned long long)out64[8 * t + k], (unsigned long long)o64[k]);
	}
	CHECK_EQ(bad, 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* ---- control.cu */

static int collatz(unsigned v)
{
	int steps = 0;
	while (v > 1 && steps < 1000) {
		v = (v & 1) ? 3 * v + 1 : v / 2;
		steps++;
	}
	return steps;
}

static void control_ref(int t, int v, int *o)
{
	o[0] = collatz((unsigned)v);
	int acc = 0;
	for (int i = 0; i < v % 17; i++) {
		if (i % 3 == 0)
			continue;
		if (acc > 40)
			break;
		acc += i * ((t & 1) ? 2 : 1);
	}
	o[1] = acc;
	switch (v % 5) {
	case 0: o[2] = 10; break;
	case 1: o[2] = -v; break;
	case 2: o[2] = (int)((unsigned)v * (unsigned)v); break;
	case 3: o[2] = v ^ 0x55; break;
	default: o[2] = 1; break;
	}
	int x = 0;
	if (v & 1)
		x = (v & 2) ? 1 : 2;
	else if (v & 4)
		x = 3;
	o[3] = x + (t % 3 == 0 ? 100 : 0);
}

static void test_control(void)
{
	struct ptx_module *m = fx_fixture("control");
	if (!m)
		return;
	enum { N = 200 }; /* 4 CTAs of 64: the last one partly idle (t >= n returns early) */
	struct gl_launch l = {0};
	fx_geometry(&l, "control", 4, 1, 64, 1);
	int *in = fx_buffer(&l, "in", GL_I32, N);
	int *out = fx_buffer(&l, "out", GL_I32, 4 * 256);
	gl_launch_arg_scalar(&l, N, 4);
	uint64_t seed = 7;
	for (int i = 0; i < N; i++)
		in[i] = (int)(fx_rand(&seed) % 100000) - (i % 7 == 0 ? 50000 : 0);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	int bad = 0;
	for (int t = 0; t < N; t++) {
		int o[4];
		control_ref(t, in[t], o);
		for (int k = 0; k < 4; k++)
			if (out[4 * t + k] != o[k] && bad++ < 10)
				fprintf(stderr, "control t=%d v=%d o[%d]: sim %d host %d\n", t, in[t], k, out[4 * t + k], o[k]);
	}
	for (int t = N; t < 256; t++) /* threads past n never store */
		bad += out[4 * t] != 0;
	CHECK_EQ(bad, 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* ---- hand-written PTX: thread t reads a, b, c (u32 or u64) from in[3t..3t+2], BODY computes the
 * result register, which is stored to out[t]. */

static const char *const k32_text =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
	"\t.reg .pred %%p<8>;\n\t.reg .b16 %%h<8>;\n\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<16>;\n"
	"\t.reg .f32 %%f<8>;\n\t.reg .f64 %%fd<8>;\n"
	"\tld.param.u64 %%rd1, [pin];\n\tld.param.u64 %%rd2, [pout];\n\tmov.u32 %%r10, %%tid.x;\n"
	"\tmul.wide.u32 %%rd3, %%r10, %d;\n\tadd.s64 %%rd4, %%rd1, %%rd3;\n"
	"\tld.global.%s %%%s1, [%%rd4];\n\tld.global.%s %%%s2, [%%rd4+%d];\n\tld.global.%s %%%s3, [%%rd4+%d];\n"
	"%s\n"
	"\tmul.wide.u32 %%rd5, %%r10, %d;\n\tadd.s64 %%rd6, %%rd2, %%rd5;\n\tst.global.%s [%%rd6], %%%s4;\n"
	"\tret;\n}\n";

/* Run BODY over n threads with 32-bit (wide = 0: %r1..%r3 -> %r4) or 64-bit (wide = 1: %rd1..%rd3 ->
 * %rd4, note %rd1/%rd2 are reloaded after the pointers are used) operands. */
static int run_body(const char *body, int wide, const uint64_t *a, const uint64_t *b, const uint64_t *c, int n,
		    uint64_t *out)
{
	char text[8192];
	const char *ty = wide ? "u64" : "u32", *rg = wide ? "rd1" : "r";
	int sz = wide ? 8 : 4;
	if (wide) { /* the pointers live in %rd1/%rd2: load into %rd11..%rd13, store %rd14 */
		rg = "rd1";
		snprintf(text, sizeof text, k32_text, 3 * sz, ty, rg, ty, rg, sz, ty, rg, 2 * sz, body, sz, ty, rg);
	} else {
		snprintf(text, sizeof text, k32_text, 3 * sz, ty, rg, ty, rg, sz, ty, rg, 2 * sz, body, sz, ty, rg);
	}
	struct ptx_module *m = fx_parse(text, "k.ptx");
	if (!m)
		return -1;
	struct gl_launch l = {0};
	fx_geometry(&l, "k", 1, 1, (unsigned)n, 1);
	uint8_t *in = fx_buffer(&l, "in", wide ? GL_U64 : GL_U32, 3 * (size_t)n);
	uint8_t *o = fx_buffer(&l, "out", wide ? GL_U64 : GL_U32, (size_t)n);
	for (int i = 0; i < n; i++) {
		memcpy(in + (3 * i) * sz, &a[i], (size_t)sz);
		memcpy(in + (3 * i + 1) * sz, &b[i], (size_t)sz);
		memcpy(in + (3 * i + 2) * sz, &c[i], (size_t)sz);
	}
	struct gl_sim_result res;
	int rc = fx_run(m, &l, &res);
	CHECK_EQ(rc, GL_OK);
	if (rc == GL_OK) {
		CHECK_EQ(res.findings_total, 0);
		for (int i = 0; i < n; i++) {
			out[i] = 0;
			memcpy(&out[i], o + i * sz, (size_t)sz);
		}
		gl_sim_result_free(&res);
	}
	gl_launch_free(&l);
	ptx_module_free(m);
	return rc;
}

#define MAXN 1024

/* Apply BODY to every (a, b, c) and compare with ref(a, b, c). */
static void check_body(const char *body, int wide, const uint64_t *a, const uint64_t *b, const uint64_t *c, int n,
		       uint64_t (*ref)(uint64_t, uint64_t, uint64_t))
{
	uint64_t out[MAXN];
	if (run_body(body, wide, a, b, c, n, out))
		return;
	int bad = 0;
	for (int i = 0; i < n; i++) {
		uint64_t want = ref(a[i], b[i], c[i]);
		if (out[i] != want && bad++ < 6)
			fprintf(stderr, "'%s' a=0x%llx b=0x%llx c=0x%llx: sim 0x%llx, expected 0x%llx\n", body,
				(unsigned long long)a[i], (unsigned long long)b[i], (unsigned long long)c[i],
				(unsigned long long)out[i], (unsigned long long)want);
	}
	CHECK_EQ(bad, 0);
}

/* bfe from the PTX ISA pseudocode. */
static uint64_t bfe_ref(uint64_t a, uint64_t b, uint64_t c, unsigned bits, int sgn)
{
	unsigned msb = bits - 1, pos = (unsigned)(b & 0xff), len = (unsigned)(c & 0xff);
	uint64_t sbit = 0;
	if (sgn && len)
		sbit = (a >> (pos + len - 1 > msb ? msb : pos + len - 1)) & 1;
	uint64_t d = 0;
	for (unsigned i = 0; i <= msb; i++)
		d |= ((i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit) << i;
	return d;
}

static uint64_t bfe_u32(uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(a, b, c, 32, 0); }
static uint64_t bfe_s32(uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(a, b, c, 32, 1); }
static uint64_t bfe_u64(uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(a, b, c, 64, 0); }
static uint64_t bfe_s64(uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(a, b, c, 64, 1); }

/* bfi d, a, b, pos, len with pos = c & 0xff, len = c >> 8 (the test packs both in c). */
static uint64_t bfi_ref(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned pos = (unsigned)(c & 0xff), len = (unsigned)((c >> 8) & 0xff);
	uint32_t f = (uint32_t)b;
	for (unsigned i = 0; i < len && pos + i <= 31; i++)
		f = (f & ~(1u << (pos + i))) | (uint32_t)(((a >> i) & 1) << (pos + i));
	return f;
}

static void test_bitfield(void)
{
	static uint64_t a[MAXN], b[MAXN], c[MAXN];
	static const uint64_t vals[] = {0, 1, 0x80000000u, 0xffffffffu, 0x7fffffffu, 0x12345678u, 0xf0f0f0f0u,
					0x8000000000000000ull, 0xffffffffffffffffull, 0x0123456789abcdefull};
	static const unsigned pos[] = {0, 1, 7, 16, 31, 32, 33, 63, 64, 200, 255, 256 + 3};
	static const unsigned len[] = {0, 1, 4, 8, 16, 31, 32, 33, 63, 64, 100, 255};
	int n = 0;
	for (size_t i = 0; i < GL_ARRAY_LEN(vals); i++)
		for (size_t p = 0; p < GL_ARRAY_LEN(pos); p++)
			for (size_t k = 0; k < GL_ARRAY_LEN(len) && n < MAXN; k++, n++) {
				a[n] = vals[i];
				b[n] = pos[p];
				c[n] = len[k];
			}
	uint64_t a32[MAXN];
	for (int i = 0; i < n; i++)
		a32[i] = (uint32_t)a[i];
	check_body("\tbfe.u32 %r4, %r1, %r2, %r3;", 0, a32, b, c, n, bfe_u32);
	check_body("\tbfe.s32 %r4, %r1, %r2, %r3;", 0, a32, b, c, n, bfe_s32);
	check_body("\tcvt.u32.u64 %r5, %rd12;\n\tcvt.u32.u64 %r6, %rd13;\n\tbfe.u64 %rd14, %rd11, %r5, %r6;", 1, a, b, c,
		   n, bfe_u64);
	check_body("\tcvt.u32.u64 %r5, %rd12;\n\tcvt.u32.u64 %r6, %rd13;\n\tbfe.s64 %rd14, %rd11, %r5, %r6;", 1, a, b, c,
		   n, bfe_s64);
	/* bfi with pos/len packed in c: pos = c & 0xff, len = c >> 8 */
	for (int i = 0; i < n; i++) {
		b[i] = 0xa5a5a5a5u;
		c[i] = (pos[i % GL_ARRAY_LEN(pos)] & 0xff) | (uint64_t)len[(i / 3) % GL_ARRAY_LEN(len)] << 8;
	}
	check_body("\tshr.u32 %r5, %r3, 8;\n\tbfi.b32 %r4, %r1, %r2, %r3, %r5;", 0, a32, b, c, n, bfi_ref);
}

/* prmt in every mode, from the PTX ISA table (byte indexes into b:a for d.b0..d.b3 by c[1:0]). */
static const uint8_t prmt_modes[6][4][4] = {
	/* f4e */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
	/* b4e */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
	/* rc8 */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
	/* ecl */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
	/* ecr */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
	/* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};
static int prmt_mode;

static uint64_t prmt_ref(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t v = (b & 0xffffffffu) << 32 | (a & 0xffffffffu);
	uint32_t r = 0;
	for (int i = 0; i < 4; i++) {
		uint32_t byte;
		if (prmt_mode < 0) { /* default: 4-bit selector per byte, bit 3 replicates the sign */
			unsigned s = (unsigned)(c >> (4 * i)) & 0xf;
			byte = (uint32_t)(v >> (8 * (s & 7))) & 0xff;
			if (s & 8)
				byte = (byte & 0x80) ? 0xff : 0;
		} else {
			byte = (uint32_t)(v >> (8 * prmt_modes[prmt_mode][c & 3][i])) & 0xff;
		}
		r |= byte << (8 * i);
	}
	return r;
}

static void test_prmt(void)
{
	static uint64_t a[MAXN], b[MAXN], c[MAXN];
	uint64_t seed = 3;
	int n = 256;
	for (int i = 0; i < n; i++) {
		a[i] = (uint32_t)fx_rand(&seed);
		b[i] = (uint32_t)fx_rand(&seed) | 0x80008000u * (i & 1);
		c[i] = i < 16 ? (uint64_t)i * 0x1111 : (uint32_t)fx_rand(&seed);
	}
	/* anchors: b:a = 0x88776655:0x44332211 */
	prmt_mode = -1;
	CHECK_EQ(prmt_ref(0x44332211, 0x88776655, 0x3210), 0x44332211);
	CHECK_EQ(prmt_ref(0x44332211, 0x88776655, 0x000f), 0x111111ff);
	prmt_mode = 0;
	CHECK_EQ(prmt_ref(0x44332211, 0x88776655, 1), 0x55443322);
	prmt_mode = 1;
	CHECK_EQ(prmt_ref(0x44332211, 0x88776655, 0), 0x66778811);
	prmt_mode = 2;
	CHECK_EQ(prmt_ref(0x44332211, 0x88776655, 2), 0x33333333);
	prmt_mode = 5;
	CHECK_EQ(prmt_ref(0x44332211, 0x88776655, 1), 0x44334433);
	prmt_mode = -1;
	check_body("\tprmt.b32 %r4, %r1, %r2, %r3;", 0, a, b, c, n, prmt_ref);
	static const char *const names[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
	for (int mo = 0; mo < 6; mo++) {
		char body[96];
		snprintf(body, sizeof body, "\tprmt.b32.%s %%r4, %%r1, %%r2, %%r3;", names[mo]);
		prmt_mode = mo;
		check_body(body, 0, a, b, c, n, prmt_ref);
	}
}

static uint64_t shf_l_wrap(uint64_t a, uint64_t b, uint64_t c) { return funnel((uint32_t)a, (uint32_t)b, (uint32_t)c, 1, 0); }
static uint64_t shf_r_wrap(uint64_t a, uint64_t b, uint64_t c) { return funnel((uint32_t)a, (uint32_t)b, (uint32_t)c, 0, 0); }
static uint64_t shf_l_clamp(uint64_t a, uint64_t b, uint64_t c) { return funnel((uint32_t)a, (uint32_t)b, (uint32_t)c, 1, 1); }
static uint64_t shf_r_clamp(uint64_t a, uint64_t b, uint64_t c) { return funnel((uint32_t)a, (uint32_t)b, (uint32_t)c, 0, 1); }

static uint64_t shl32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint32_t)b >= 32 ? 0 : (uint32_t)(a << b); }
static uint64_t shr_u32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint32_t)b >= 32 ? 0 : (uint32_t)a >> b; }
static uint64_t shr_s32(uint64_t a, uint64_t b, uint64_t c)
{
	(void)c;
	return (uint32_t)((int32_t)a >> ((uint32_t)b >= 32 ? 31 : b));
}

static void test_shifts(void)
{
	static uint64_t a[MAXN], b[MAXN], c[MAXN];
	uint64_t seed = 11;
	int n = 0;
	for (unsigned s = 0; s < 70; s++)
		for (int k = 0; k < 4; k++, n++) {
			a[n] = k == 0 ? 0x80000001u : (uint32_t)fx_rand(&seed);
			b[n] = k == 1 ? 0xffffffffu : (uint32_t)fx_rand(&seed);
			c[n] = k == 3 ? 0xffffff00u + s : s;
		}
	check_body("\tshf.l.wrap.b32 %r4, %r1, %r2, %r3;", 0, a, b, c, n, shf_l_wrap);
	check_body("\tshf.r.wrap.b32 %r4, %r1, %r2, %r3;", 0, a, b, c, n, shf_r_wrap);
	check_body("\tshf.l.clamp.b32 %r4, %r1, %r2, %r3;", 0, a, b, c, n, shf_l_clamp);
	check_body("\tshf.r.clamp.b32 %r4, %r1, %r2, %r3;", 0, a, b, c, n, shf_r_clamp);
	for (int i = 0; i < n; i++)
		b[i] = c[i];
	check_body("\tshl.b32 %r4, %r1, %r2;", 0, a, b, c, n, shl32);
	check_body("\tshr.u32 %r4, %r1, %r2;", 0, a, b, c, n, shr_u32);
	check_body("\tshr.s32 %r4, %r1, %r2;", 0, a, b, c, n, shr_s32);
}

/* 64-bit add/sub/mul through 32-bit carry chains (add.cc/addc, sub.cc/subc, mad.lo.cc/madc.hi). */
static uint64_t add64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a + b; }
static uint64_t sub64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a - b; }
static uint64_t mul32x32(uint64_t a, uint64_t b, uint64_t c)
{
	(void)c; /* (lo(a) * lo(b)) + c-free, built from mul.lo + mul.hi */
	return (uint64_t)(uint32_t)a * (uint32_t)b;
}
static uint64_t mad_chain(uint64_t a, uint64_t b, uint64_t c)
{
	/* lo = a*b + c (32-bit, carry out); hi = mul.hi(a,b) + c>>32... see the PTX body */
	uint32_t x = (uint32_t)a, y = (uint32_t)b, z = (uint32_t)c, w = (uint32_t)(c >> 32);
	uint64_t lo = (uint64_t)(uint32_t)(x * y) + z;
	uint32_t hi = (uint32_t)(((uint64_t)x * y) >> 32) + w + (uint32_t)(lo >> 32);
	return (uint64_t)hi << 32 | (uint32_t)lo;
}

static void test_carry(void)
{
	static uint64_t a[MAXN], b[MAXN], c[MAXN];
	uint64_t seed = 5;
	int n = 128;
	for (int i = 0; i < n; i++) {
		a[i] = i < 8 ? 0xffffffffull * (uint64_t)i : fx_rand(&seed);
		b[i] = i < 8 ? 0x1ffffffffull : fx_rand(&seed);
		c[i] = fx_rand(&seed);
	}
	const char *split = "\tmov.b64 {%r5, %r6}, %rd11;\n\tmov.b64 {%r7, %r8}, %rd12;\n";
	char body[512];
	snprintf(body, sizeof body, "%s\tadd.cc.u32 %%r1, %%r5, %%r7;\n\taddc.u32 %%r2, %%r6, %%r8;\n"
		 "\tmov.b64 %%rd14, {%%r1, %%r2};", split);
	check_body(body, 1, a, b, c, n, add64);
	snprintf(body, sizeof body, "%s\tsub.cc.u32 %%r1, %%r5, %%r7;\n\tsubc.u32 %%r2, %%r6, %%r8;\n"
		 "\tmov.b64 %%rd14, {%%r1, %%r2};", split);
	check_body(body, 1, a, b, c, n, sub64);
	snprintf(body, sizeof body, "%s\tmul.lo.u32 %%r1, %%r5, %%r7;\n\tmul.hi.u32 %%r2, %%r5, %%r7;\n"
		 "\tmov.b64 %%rd14, {%%r1, %%r2};", split);
	check_body(body, 1, a, b, c, n, mul32x32);
	snprintf(body, sizeof body, "%s\tmov.b64 {%%r11, %%r12}, %%rd13;\n"
		 "\tmad.lo.cc.u32 %%r1, %%r5, %%r7, %%r11;\n\tmadc.hi.u32 %%r2, %%r5, %%r7, %%r12;\n"
		 "\tmov.b64 %%rd14, {%%r1, %%r2};", split);
	check_body(body, 1, a, b, c, n, mad_chain);
}

/* setp with a combining predicate and two destinations, selp, set, and predicate logic. */
static uint64_t setp_ref(uint64_t a, uint64_t b, uint64_t c)
{
	int32_t x = (int32_t)a, y = (int32_t)b;
	int lt = x < y, cp = (c & 1) != 0;
	int p = lt && cp, q = !lt && cp;        /* setp.lt.and.s32 p|q, a, b, c */
	int r = ((uint32_t)a >= (uint32_t)b) ^ !cp; /* setp.hs.xor.u32 r, a, b, !c */
	int s = lt || !cp;                        /* setp.lt.or.s32 s, a, b, !c */
	uint32_t set = x > y ? 0xffffffffu : 0;   /* set.gt.u32.s32 */
	return (uint64_t)(p | q << 1 | r << 2 | s << 3 | (!(p & q) ? 16 : 0) | ((p ^ r) ? 32 : 0)) + (set & 0xff00);
}

static void test_predicates(void)
{
	static uint64_t a[MAXN], b[MAXN], c[MAXN];
	uint64_t seed = 9;
	int n = 256;
	for (int i = 0; i < n; i++) {
		a[i] = i < 4 ? 0x80000000u : (uint32_t)(fx_rand(&seed) % 7) - 3;
		b[i] = i < 4 ? 0x7fffffffu : (uint32_t)(fx_rand(&seed) % 7) - 3;
		c[i] = (uint64_t)i >> 1;
	}
	const char *body = "\tand.b32 %r5, %r3, 1;\n\tsetp.ne.u32 %p1, %r5, 0;\n"
			   "\tsetp.lt.and.s32 %p2|%p3, %r1, %r2, %p1;\n"
			   "\tsetp.hs.xor.u32 %p4, %r1, %r2, !%p1;\n"
			   "\tsetp.lt.or.s32 %p5, %r1, %r2, !%p1;\n"
			   "\tset.gt.u32.s32 %r9, %r1, %r2;\n"
			   "\tand.pred %p6, %p2, %p3;\n\tnot.pred %p6, %p6;\n\txor.pred %p7, %p2, %p4;\n"
			   "\tselp.u32 %r4, 1, 0, %p2;\n\tselp.u32 %r5, 2, 0, %p3;\n\tor.b32 %r4, %r4, %r5;\n"
			   "\tselp.u32 %r5, 4, 0, %p4;\n\tor.b32 %r4, %r4, %r5;\n"
			   "\tselp.u32 %r5, 8, 0, %p5;\n\tor.b32 %r4, %r4, %r5;\n"
			   "\t@%p6 or.b32 %r4, %r4, 16;\n\t@!%p7 bra $L_skip;\n\tor.b32 %r4, %r4, 32;\n$L_skip:\n"
			   "\tand.b32 %r9, %r9, 0xff00;\n\tadd.u32 %r4, %r4, %r9;";
	check_body(body, 0, a, b, c, n, setp_ref);
}

/* 16- and 8-bit integer arithmetic (as short/char code compiles: cvt and .s16/.u16 ops). */
static uint64_t narrow_ref(uint64_t a, uint64_t b, uint64_t c)
{
	(void)c;
	int16_t x = (int16_t)a, y = (int16_t)b;
	uint16_t add = (uint16_t)(x + y), mul = (uint16_t)(x * y);
	int16_t mn = x < y ? x : y;
	uint16_t mx = (uint16_t)x > (uint16_t)y ? (uint16_t)x : (uint16_t)y;
	int32_t wide = (int32_t)x * y;
	uint32_t hi = (uint32_t)(uint16_t)(((int32_t)x * y) >> 16);
	int8_t s8 = (int8_t)a;
	return (uint32_t)(add ^ mul ^ (uint16_t)mn ^ mx) | (uint32_t)((uint32_t)(wide + (int32_t)hi + s8) << 16);
}

static void test_narrow(void)
{
	static uint64_t a[MAXN], b[MAXN], c[MAXN];
	uint64_t seed = 13;
	int n = 256;
	for (int i = 0; i < n; i++) {
		a[i] = i == 0 ? 0x8000 : i == 1 ? 0xffff : (uint32_t)fx_rand(&seed);
		b[i] = i == 0 ? 0xffff : i == 1 ? 0x7fff : (uint32_t)fx_rand(&seed);
		c[i] = 0;
	}
	const char *body = "\tcvt.u16.u32 %h1, %r1;\n\tcvt.u16.u32 %h2, %r2;\n"
			   "\tadd.s16 %h3, %h1, %h2;\n\tmul.lo.s16 %h4, %h1, %h2;\n\txor.b16 %h3, %h3, %h4;\n"
			   "\tmin.s16 %h4, %h1, %h2;\n\txor.b16 %h3, %h3, %h4;\n"
			   "\tmax.u16 %h4, %h1, %h2;\n\txor.b16 %h3, %h3, %h4;\n"
			   "\tmul.wide.s16 %r5, %h1, %h2;\n\tmul.hi.s16 %h5, %h1, %h2;\n\tcvt.u32.u16 %r6, %h5;\n"
			   "\tcvt.s32.s8 %r7, %r1;\n\tadd.s32 %r5, %r5, %r6;\n\tadd.s32 %r5, %r5, %r7;\n"
			   "\tshl.b32 %r5, %r5, 16;\n\tcvt.u32.u16 %r4, %h3;\n\tor.b32 %r4, %r4, %r5;";
	check_body(body, 0, a, b, c, n, narrow_ref);
}

/* bfind, popc, clz, brev on 32 and 64 bits, including zero. */
static uint64_t bits_ref(uint64_t a, uint64_t b, uint64_t c)
{
	(void)b;
	(void)c;
	uint32_t x = (uint32_t)a;
	int32_t sx = (int32_t)x;
	uint32_t f = x ? 31u - (uint32_t)clz32(x) : 0xffffffffu;
	uint32_t sv = sx < 0 ? ~x : x;
	uint32_t fs = sv ? 31u - (uint32_t)clz32(sv) : 0xffffffffu;
	uint32_t fsh = x ? (uint32_t)clz32(x) : 0xffffffffu;
	return (uint64_t)(f ^ (fs << 8) ^ (fsh << 16)) ^ (uint64_t)(popc64(a) + clz64(a) * 100) << 32 ^ brev64(a);
}

static void test_bit_counts(void)
{
	static uint64_t a[MAXN], b[MAXN], c[MAXN];
	uint64_t seed = 17;
	int n = 128;
	for (int i = 0; i < n; i++) {
		a[i] = i == 0 ? 0 : i == 1 ? ~0ull : i == 2 ? 1 : i == 3 ? 0x80000000ull : fx_rand(&seed) >> (i % 64);
		b[i] = c[i] = 0;
	}
	const char *body = "\tcvt.u32.u64 %r1, %rd11;\n"
			   "\tbfind.u32 %r2, %r1;\n\tbfind.s32 %r3, %r1;\n\tbfind.shiftamt.u32 %r4, %r1;\n"
			   "\tshl.b32 %r3, %r3, 8;\n\tshl.b32 %r4, %r4, 16;\n\txor.b32 %r2, %r2, %r3;\n"
			   "\txor.b32 %r2, %r2, %r4;\n"
			   "\tpopc.b64 %r5, %rd11;\n\tclz.b64 %r6, %rd11;\n\tmad.lo.s32 %r5, %r6, 100, %r5;\n"
			   "\tmov.b64 %rd14, {%r2, %r5};\n\tbrev.b64 %rd5, %rd11;\n\txor.b64 %rd14, %rd14, %rd5;";
	check_body(body, 1, a, b, c, n, bits_ref);
}

/* vabsdiff with .add (the __vsad* forms), mixed-sign dp4a and fns against the PTX definitions. */
static uint64_t vsad4_ref(uint64_t a, uint64_t b, uint64_t c)
{
	uint32_t sum = (uint32_t)c;
	for (int i = 0; i < 4; i++) {
		int d = (int)((a >> (8 * i)) & 0xff) - (int)((b >> (8 * i)) & 0xff);
		sum += (uint32_t)(d < 0 ? -d : d);
	}
	return sum;
}

static uint64_t vsads2_ref(uint64_t a, uint64_t b, uint64_t c)
{
	uint32_t sum = (uint32_t)c;
	for (int i = 0; i < 2; i++) {
		int d = (int16_t)(a >> (16 * i)) - (int16_t)(b >> (16 * i));
		sum += (uint32_t)(d < 0 ? -d : d);
	}
	return sum;
}

static uint64_t dp4a_su_ref(uint64_t a, uint64_t b, uint64_t c)
{
	int64_t acc = (int32_t)c;
	for (int i = 0; i < 4; i++)
		acc += (int64_t)(int8_t)(a >> (8 * i)) * (int64_t)(uint8_t)(b >> (8 * i));
	return (uint32_t)acc;
}

static uint64_t fns_ref(uint64_t a, uint64_t b, uint64_t c)
{
	uint32_t m = (uint32_t)a, base = (uint32_t)b & 31;
	int offset = (int)(int32_t)c;
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

static void test_simd(void)
{
	static uint64_t a[MAXN], b[MAXN], c[MAXN];
	uint64_t seed = 23;
	int n = 512;
	for (int i = 0; i < n; i++) {
		a[i] = (uint32_t)fx_rand(&seed);
		b[i] = (uint32_t)fx_rand(&seed);
		c[i] = (uint32_t)(fx_rand(&seed) % 1000);
	}
	check_body("\tvabsdiff4.u32.u32.u32.add %r4, %r1, %r2, %r3;", 0, a, b, c, n, vsad4_ref);
	check_body("\tvabsdiff2.s32.s32.s32.add %r4, %r1, %r2, %r3;", 0, a, b, c, n, vsads2_ref);
	check_body("\tdp4a.s32.u32 %r4, %r1, %r2, %r3;", 0, a, b, c, n, dp4a_su_ref);
	for (int i = 0; i < n; i++) {
		a[i] = i % 5 == 0 ? 0 : i % 7 == 0 ? 0xffffffffu : a[i];
		b[i] = (uint64_t)(i % 32);
		c[i] = (uint32_t)((int)(i % 41) - 20);
	}
	check_body("\tand.b32 %r5, %r2, 31;\n\tfns.b32 %r4, %r1, %r5, %r3;", 0, a, b, c, n, fns_ref);
}

int main(void)
{
	test_intops();
	test_control();
	test_bitfield();
	test_prmt();
	test_shifts();
	test_carry();
	test_predicates();
	test_narrow();
	test_bit_counts();
	test_simd();
	CHECK_DONE();
}
