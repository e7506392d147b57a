/* test_sim_mma_shapes.c — mma.sync tf32 (m16n8k8, m16n8k4), f64 (m8n8k4) and s8/u8 (m16n8k16, m16n8k32,
 * m8n8k16, .satfinite) on hand-built fragments.  Each lane loads its registers from in[reg][lane]
 * and stores D to out[reg][lane]; the test places matrix elements with the PTX ISA's fragment tables
 * (written out here per shape, independently of sim_mma_frag.c) and checks D = A * B + C. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "sim/sim_float.h"
#include "sim/sim_mma.h"
#include "sim_fixture.h"

static double fx_f64(uint64_t bits)
{
	double d;
	memcpy(&d, &bits, sizeof d);
	return d;
}

struct shape {
	const char *opcode;
	unsigned m, n, k, na, nb, nc; /* registers per lane */
	int kind;                     /* 0 tf32 (f32 C/D), 1 f64, 2 s8/u8 (s32 C/D) */
	unsigned per_reg;             /* elements per A/B register */
};

/* The ISA tables (groupID g = lane >> 2, threadID_in_group t = lane % 4). */
static void a_pos(const struct shape *s, unsigned lane, unsigned i, unsigned *r, unsigned *c)
{
	unsigned g = lane >> 2, t = lane & 3;
	if (s->kind == 1 || (s->kind == 2 && s->m == 8)) { /* m8n8k4 f64: (g, t); m8n8k16: (g, 4t + i) */
		*r = g, *c = s->kind == 1 ? t : 4 * t + i;
	} else if (s->kind == 0) { /* tf32: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4) */
		*r = g + 8 * (i % 2), *c = t + 4 * (i / 2);
	} else { /* s8 k16: a0..3 (g, 4t+i), a4..7 (g+8, ...); k32 adds a8..15 at columns +16 */
		*r = g + 8 * ((i / 4) % 2), *c = 4 * t + (i % 4) + 16 * (i / 8);
	}
}

static void b_pos(const struct shape *s, unsigned lane, unsigned i, unsigned *r, unsigned *c)
{
	unsigned g = lane >> 2, t = lane & 3;
	*c = g;
	if (s->kind == 1)
		*r = t;
	else if (s->kind == 0)
		*r = t + 4 * i;
	else
		*r = 4 * t + (i % 4) + 16 * (i / 4);
}

static void c_pos(const struct shape *s, unsigned lane, unsigned i, unsigned *r, unsigned *c)
{
	unsigned g = lane >> 2, t = lane & 3;
	*r = g + 8 * (i / 2) * (s->m == 16);
	*c = 2 * t + i % 2;
}

static char *kernel_text(const struct shape *s)
{
	static char buf[4096];
	const char *rt = s->kind == 1 ? "f64" : "b32", *p = s->kind == 1 ? "%fd" : "%r";
	unsigned sz = s->kind == 1 ? 8 : 4, nin = s->na + s->nb + s->nc;
	int n = snprintf(buf, sizeof buf,
			 ".version 8.0\n.target sm_80\n.address_size 64\n"
			 ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
			 ".reg .b64 %%rd<8>;\n.reg .b32 %%t<2>;\n.reg .%s %s<40>;\n"
			 "ld.param.u64 %%rd1, [pin];\nld.param.u64 %%rd2, [pout];\n"
			 "mov.u32 %%t0, %%tid.x;\nmul.wide.u32 %%rd3, %%t0, %u;\n"
			 "add.s64 %%rd4, %%rd1, %%rd3;\nadd.s64 %%rd5, %%rd2, %%rd3;\n",
			 rt, p, sz);
	for (unsigned i = 0; i < nin; i++)
		n += snprintf(buf + n, sizeof buf - (size_t)n, "ld.global.%s %s%u, [%%rd4+%u];\n", rt, p, i, i * 32 * sz);
	unsigned first[4] = {nin, 0, s->na, s->na + s->nb}, count[4] = {s->nc, s->na, s->nb, s->nc};
	n += snprintf(buf + n, sizeof buf - (size_t)n, "%s ", s->opcode);
	for (int o = 0; o < 4; o++) {
		n += snprintf(buf + n, sizeof buf - (size_t)n, "{");
		for (unsigned i = 0; i < count[o]; i++)
			n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s%u", i ? "," : "", p, first[o] + i);
		n += snprintf(buf + n, sizeof buf - (size_t)n, "}%s", o < 3 ? ", " : ";\n");
	}
	for (unsigned i = 0; i < s->nc; i++)
		n += snprintf(buf + n, sizeof buf - (size_t)n, "st.global.%s [%%rd5+%u], %s%u;\n", rt, i * 32 * sz, p, nin + i);
	snprintf(buf + n, sizeof buf - (size_t)n, "ret;\n}\n");
	return buf;
}

/* Small exact values: a[i][k] and b[k][n] from a seed, C from another; D checked exactly. */
static void run_shape(const struct shape *s, int satfinite_case, const char *metric)
{
	struct ptx_module *m = fx_parse(kernel_text(s), s->opcode);
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "k", 1, 1, 32, 1);
	unsigned nin = s->na + s->nb + s->nc;
	bool f64 = s->kind == 1, i8 = s->kind == 2, u8 = strstr(s->opcode, ".u8") != NULL;
	uint64_t *in64 = f64 ? fx_buffer(&l, "in", GL_F64, 32 * (size_t)nin) : NULL;
	uint32_t *in32 = f64 ? NULL : fx_buffer(&l, "in", GL_U32, 32 * (size_t)nin);
	void *out = fx_buffer(&l, "out", f64 ? GL_F64 : GL_U32, 32 * (size_t)s->nc);
	double a[16][32], b[32][8], c[16][8];
	uint64_t seed = s->m * 131u + s->k;
	for (unsigned r = 0; r < s->m; r++)
		for (unsigned k = 0; k < s->k; k++)
			a[r][k] = satfinite_case ? 127 : i8 ? (double)((int)(fx_rand(&seed) % 256) - (u8 ? 0 : 128))
						: ((int)(fx_rand(&seed) % 17) - 8) / 4.0;
	for (unsigned k = 0; k < s->k; k++)
		for (unsigned n = 0; n < s->n; n++)
			b[k][n] = satfinite_case ? 127 : i8 ? (double)((int)(fx_rand(&seed) % 256) - (u8 ? 0 : 128))
						: ((int)(fx_rand(&seed) % 17) - 8) / 4.0;
	for (unsigned r = 0; r < s->m; r++)
		for (unsigned n = 0; n < s->n; n++)
			c[r][n] = satfinite_case ? 2147483647.0 - 1000 : (int)(fx_rand(&seed) % 41) - 20;
	for (unsigned lane = 0; lane < 32; lane++) {
		for (unsigned i = 0; i < s->na * s->per_reg; i++) {
			unsigned r, col, reg = i / s->per_reg;
			a_pos(s, lane, i, &r, &col);
			if (f64)
				in64[reg * 32 + lane] = fx_bits64(a[r][col]);
			else if (i8)
				in32[reg * 32 + lane] |= ((uint32_t)(int)a[r][col] & 0xffu) << (8 * (i % 4));
			else
				in32[reg * 32 + lane] = fx_bits((float)a[r][col]);
		}
		for (unsigned i = 0; i < s->nb * s->per_reg; i++) {
			unsigned r, col, reg = s->na + i / s->per_reg;
			b_pos(s, lane, i, &r, &col);
			if (f64)
				in64[reg * 32 + lane] = fx_bits64(b[r][col]);
			else if (i8)
				in32[reg * 32 + lane] |= ((uint32_t)(int)b[r][col] & 0xffu) << (8 * (i % 4));
			else
				in32[reg * 32 + lane] = fx_bits((float)b[r][col]);
		}
		for (unsigned i = 0; i < s->nc; i++) {
			unsigned r, col, reg = s->na + s->nb + i;
			c_pos(s, lane, i, &r, &col);
			if (f64)
				in64[reg * 32 + lane] = fx_bits64(c[r][col]);
			else
				in32[reg * 32 + lane] = i8 ? (uint32_t)(int32_t)c[r][col] : fx_bits((float)c[r][col]);
		}
	}
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	CHECK_EQ(fx_metric(&res, metric), 1);
	/* tensor FLOPs: a multiply and an add per multiply-add, under the path of the input type */
	const char *ops = f64 ? "sm__ops_path_tensor_src_fp64.sum" : i8 ? "sm__ops_path_tensor_src_int8.sum"
									 : "sm__ops_path_tensor_src_tf32_dst_fp32.sum";
	CHECK_EQ(fx_metric(&res, ops), 2.0 * s->m * s->n * s->k);
	int bad = 0;
	for (unsigned lane = 0; lane < 32; lane++)
		for (unsigned i = 0; i < s->nc; i++) {
			unsigned r, col;
			c_pos(s, lane, i, &r, &col);
			double want = c[r][col];
			for (unsigned k = 0; k < s->k; k++)
				want += a[r][k] * b[k][col];
			if (i8) /* s32 results wrap, or saturate with .satfinite */
				want = strstr(s->opcode, "satfinite") ? (want > 2147483647.0 ? 2147483647.0 : want)
								      : (double)(int32_t)(uint32_t)(int64_t)want;
			double got = f64 ? fx_f64(((uint64_t *)out)[i * 32 + lane])
				   : i8 ? (double)(int32_t)((uint32_t *)out)[i * 32 + lane]
					: fx_f32(((uint32_t *)out)[i * 32 + lane]);
			if (got != want && bad++ < 4)
				fprintf(stderr, "%s D[%u][%u]: sim %.17g, A*B+C = %.17g\n", s->opcode, r, col, got, want);
		}
	CHECK_EQ(bad, 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* Forms the ISA does not define or the simulator cannot run are findings naming them, not results. */
static void refused(const char *body, unsigned threads, const char *want)
{
	char text[1024];
	snprintf(text, sizeof text, ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
		 ".reg .b32 %%r<12>;\n.reg .f32 %%f<12>;\n.reg .b64 %%rd<4>;\nld.param.u64 %%rd1, [p];\n%s\nret;\n}\n", body);
	struct ptx_module *m = fx_parse(text, want);
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "k", 1, 1, threads, 1);
	fx_buffer(&l, "p", GL_F32, 1024);
	struct gl_sim_result res;
	CHECK_EQ(fx_run(m, &l, &res), GL_OK);
	const struct gl_finding *f = fx_finding(&res, "unsupported");
	CHECK(f != NULL && res.aborted);
	if (f && !strstr(f->message, want))
		fprintf(stderr, "refusal: '%s' lacks '%s'\n", f->message, want);
	CHECK(f && strstr(f->message, want));
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* sim_mma_compute converts a normal f16 element to double by its bits (a fast path of sim_mma_frag.c):
 * for every f16 bit pattern h, D = h * 1.0 + 0 must be what the general conversion gives, for all 8
 * outputs of a row (the vectorised accumulation) and in the row's second k step; a NaN h gives the
 * canonical NaN 0x7fffffff. */
static void f16_elements(void)
{
	static sim_mat a, b, c, d;
	long bad = 0;
	for (unsigned n = 0; n < 8; n++)
		b[1][n] = 0x3c00; /* 1.0 */
	for (uint32_t h = 0; h < 0x10000; h++) {
		a[0][1] = h;
		sim_mma_compute(1, 8, 2, PT_F16, PT_F16, PT_F32, PT_F32, false, a, b, c, d);
		double want = 0.0;
		want += 0.0 * 0.0;
		want += (double)sim_f16_to_f32((uint16_t)h) * 1.0;
		uint64_t bits = want != want ? 0x7fffffffu : sim_f32_bits((float)want); /* NaN: CUDA's canonical one */
		for (unsigned n = 0; n < 8; n++)
			bad += d[0][n] != bits;
	}
	CHECK_EQ(bad, 0);
}

/* A NaN anywhere in a product gives CUDA's canonical NaN of D's type, whatever the payload of the input
 * NaN: 0x7fffffff for f32, 0xfff8000000000000 for f64, 0x7fff for f16 (math_constants.h). */
static void nan_results(void)
{
	static sim_mat a, b, c, d;
	for (unsigned n = 0; n < 8; n++)
		b[0][n] = 0x3ff0000000000000ull; /* 1.0 */
	a[0][0] = 0x7ff0000000000123ull;         /* a signalling NaN with a payload */
	sim_mma_compute(1, 8, 1, PT_F64, PT_F64, PT_F64, PT_F64, false, a, b, c, d);
	CHECK_EQ(d[0][3], 0xfff8000000000000ull);
	for (unsigned n = 0; n < 8; n++)
		b[0][n] = 0x3f800000u;           /* 1.0f */
	a[0][0] = 0xffa01234u;                   /* a negative signalling f32 NaN as tf32 */
	c[0][5] = 0x7fc00abcu;                   /* and a quiet one in C */
	sim_mma_compute(1, 8, 1, PT_TF32, PT_TF32, PT_F32, PT_F32, false, a, b, c, d);
	CHECK_EQ(d[0][0], 0x7fffffffu);
	CHECK_EQ(d[0][5], 0x7fffffffu);
	a[0][0] = 0x7e01;                        /* an f16 NaN */
	for (unsigned n = 0; n < 8; n++)
		b[0][n] = 0x3c00;
	c[0][5] = 0;
	sim_mma_compute(1, 8, 1, PT_F16, PT_F16, PT_F16, PT_F16, false, a, b, c, d);
	CHECK_EQ(d[0][2], 0x7fffu);
}

int main(void)
{
	nan_results();
	f16_elements();
	refused("mma.sync.aligned.m16n8k8.row.col.satfinite.f32.tf32.tf32.f32 {%f0,%f1,%f2,%f3}, {%r0,%r1,%r2,%r3}, "
		"{%r4,%r5}, {%f4,%f5,%f6,%f7};", 32, ".satfinite other than with integer inputs");
	refused("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, [%rd1], 16;", 16,
		"wmma with inactive lanes");
	refused("wmma.load.a.sync.aligned.row.m16n16k8.global.f16 {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, [%rd1];", 32,
		"this wmma shape and type");
	refused("wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f0,%f1,%f2,%f3}, [%rd1];", 32,
		"wrong number of registers");
	static const struct shape shapes[] = {
		{"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, 4, 2, 4, 0, 1},
		{"mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", 16, 8, 4, 2, 1, 4, 0, 1},
		{"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 8, 8, 4, 1, 1, 2, 1, 1},
		{"mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", 16, 8, 16, 2, 1, 4, 2, 4},
		{"mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32", 16, 8, 32, 4, 2, 4, 2, 4},
		{"mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32", 8, 8, 16, 1, 1, 2, 2, 4},
	};
	static const char *metric[] = {"hmma", "hmma", "dmma", "imma", "imma", "imma"};
	for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
		char name[96];
		snprintf(name, sizeof name, "smsp__inst_executed_pipe_tensor_op_%s.sum", metric[i]);
		run_shape(&shapes[i], 0, name);
	}
	/* 127 * 127 * 32 + (2^31 - 1001) overflows s32: .satfinite clamps to INT32_MAX, without it wraps */
	struct shape sat = {"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", 16, 8, 32, 4, 2, 4, 2, 4};
	run_shape(&sat, 1, "smsp__inst_executed_pipe_tensor_op_imma.sum");
	struct shape wrap = {"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 16, 8, 32, 4, 2, 4, 2, 4};
	run_shape(&wrap, 1, "smsp__inst_executed_pipe_tensor_op_imma.sum");
	CHECK_DONE();
}
