/* test_sim_mem.c — memory instructions through whole kernels (tests/fixtures/sim): exact Nsight Compute
 * counts for global patterns (strided, misaligned, float4, double, broadcast, .nc, half warps) and shared
 * patterns (32/64/128-bit strides, broadcasts, dynamic shared memory) per memory-model.md §1-2; atomics
 * on global and shared memory (final values and the invariants every order satisfies); cp.async; local
 * and constant memory; the sanitizer's findings (out of bounds, misaligned, races, divergent barriers,
 * endless loops, device assert) and device printf; unsupported instructions named with their line. */
#include "tests/unit/sim_fixture.h"

static struct ptx_module *gmem, *smem;

/* ---- global memory: 4 CTAs of 128 threads = 16 warps */

static void run_strided(int stride, int offset, unsigned want_sectors)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "strided", 4, 1, 128, 1);
	float *in = fx_buffer(&l, "in", GL_F32, 512 * (size_t)stride + 16);
	float *out = fx_buffer(&l, "out", GL_F32, 512);
	gl_launch_arg_scalar(&l, (uint64_t)stride, 4);
	gl_launch_arg_scalar(&l, (uint64_t)offset, 4);
	for (int i = 0; i < 512 * stride + 16; i++)
		in[i] = (float)i;
	struct gl_sim_result res;
	fx_run_clean(gmem, &l, &res);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_REQ), 16);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_SECT), want_sectors);
	CHECK_EQ(fx_metric(&res, GL_M_GST_REQ), 16);
	CHECK_EQ(fx_metric(&res, GL_M_GST_SECT), 64);
	int bad = 0;
	for (int t = 0; t < 512; t++)
		bad += out[t] != (float)(t * stride + offset);
	CHECK_EQ(bad, 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_global_patterns(void)
{
	run_strided(1, 0, 64);   /* 128 contiguous bytes per warp: 4 sectors */
	run_strided(2, 0, 128);  /* 8-byte stride: 8 sectors */
	run_strided(8, 0, 512);  /* 32-byte stride: one sector per lane */
	run_strided(33, 0, 512);
	run_strided(1, 1, 80);   /* 4 bytes past alignment: 5 sectors per warp */
	run_strided(1, 7, 80);
	run_strided(1, 8, 64);   /* a whole sector past: aligned again */

	struct gl_launch l = {0};
	struct gl_sim_result res;
	fx_geometry(&l, "copy4", 2, 1, 128, 1); /* float4: 512 bytes per warp, 16 sectors */
	float *in = fx_buffer(&l, "in", GL_F32, 1024);
	float *out = fx_buffer(&l, "out", GL_F32, 1024);
	for (int i = 0; i < 1024; i++)
		in[i] = (float)i * 0.5f;
	fx_run_clean(gmem, &l, &res);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_REQ), 8);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_SECT), 128);
	CHECK_EQ(fx_metric(&res, GL_M_GST_SECT), 128);
	CHECK(memcmp(in, out, 4096) == 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	memset(&l, 0, sizeof l);
	fx_geometry(&l, "copy_double", 2, 1, 64, 1); /* 8 bytes per lane: 8 sectors per warp */
	double *din = fx_buffer(&l, "in", GL_F64, 128);
	double *dout = fx_buffer(&l, "out", GL_F64, 128);
	for (int i = 0; i < 128; i++)
		din[i] = i + 0.25;
	fx_run_clean(gmem, &l, &res);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_REQ), 4);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_SECT), 32);
	CHECK_EQ(fx_metric(&res, "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum"), 128); /* x*2 is x+x */
	CHECK(dout[77] == 2 * (77 + 0.25));
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	memset(&l, 0, sizeof l);
	fx_geometry(&l, "broadcast", 3, 1, 96, 1); /* every lane reads one word: 1 sector per request */
	in = fx_buffer(&l, "in", GL_F32, 3);
	out = fx_buffer(&l, "out", GL_F32, 288);
	in[0] = 1, in[1] = 2, in[2] = 3;
	fx_run_clean(gmem, &l, &res);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_REQ), 9);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_SECT), 9);
	CHECK(out[200] == 3.0f && out[0] == 1.0f);
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	memset(&l, 0, sizeof l);
	fx_geometry(&l, "readonly", 1, 1, 128, 1); /* ld.global.nc; n = 100: the last warp has 4 lanes on */
	in = fx_buffer(&l, "in", GL_F32, 100);
	out = fx_buffer(&l, "out", GL_F32, 100);
	gl_launch_arg_scalar(&l, 100, 4);
	fx_run_clean(gmem, &l, &res);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_REQ), 4);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_SECT), 13);
	CHECK_EQ(fx_metric(&res, GL_M_GST_SECT), 13);
	CHECK(out[99] == 1.0f);
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	memset(&l, 0, sizeof l);
	fx_geometry(&l, "vec2_half_warp", 1, 1, 64, 1); /* 16 lanes x 8 bytes = 4 sectors per request */
	in = fx_buffer(&l, "in", GL_F32, 128);
	out = fx_buffer(&l, "out", GL_F32, 128);
	fx_run_clean(gmem, &l, &res);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_REQ), 2);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_SECT), 8);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

/* ---- shared memory: one warp per CTA; the value of each access is checked too */

static void run_shared(const char *entry, enum gl_dtype t, int elems_per_lane, int stride, unsigned want_wf,
		       unsigned ideal)
{
	struct gl_launch l = {0};
	fx_geometry(&l, entry, 1, 1, 32, 1);
	size_t n = 32 * (size_t)elems_per_lane;
	void *in = fx_buffer(&l, "in", t, n), *out = fx_buffer(&l, "out", t, n);
	gl_launch_arg_scalar(&l, (uint64_t)stride, 4);
	size_t bytes = n * gl_dtype_size(t);
	for (size_t i = 0; i < bytes; i++)
		((uint8_t *)in)[i] = (uint8_t)(i * 13 + 1);
	struct gl_sim_result res;
	fx_run_clean(smem, &l, &res);
	CHECK_EQ(fx_metric(&res, GL_M_SST_INST), 1);
	CHECK_EQ(fx_metric(&res, GL_M_SLD_INST), 1);
	CHECK_EQ(fx_metric(&res, GL_M_SST_WF), want_wf);
	CHECK_EQ(fx_metric(&res, GL_M_SLD_WF), want_wf);
	CHECK_EQ(fx_metric(&res, GL_M_SST_CONF), want_wf - ideal);
	CHECK_EQ(fx_metric(&res, GL_M_SLD_CONF), want_wf - ideal);
	if (stride) /* distinct slots: every lane reads back what it wrote */
		CHECK(memcmp(in, out, bytes) == 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_shared_patterns(void)
{
	run_shared("stride32", GL_F32, 1, 1, 1, 1);
	run_shared("stride32", GL_F32, 1, 2, 2, 1);   /* 2-way */
	run_shared("stride32", GL_F32, 1, 32, 32, 1); /* a column of a [32][32] tile: 32-way */
	run_shared("stride32", GL_F32, 1, 33, 1, 1);  /* padded: conflict-free */
	run_shared("stride32", GL_F32, 1, 0, 1, 1);   /* everyone on one word: broadcast */
	run_shared("stride64", GL_F64, 1, 1, 2, 2);   /* two half-warp phases, conflict-free */
	run_shared("stride64", GL_F64, 1, 2, 4, 2);
	run_shared("stride64", GL_F64, 1, 16, 32, 2); /* 128-byte stride: 16 distinct words per bank per phase */
	run_shared("vec128", GL_F32, 4, 1, 4, 4);     /* LDS.128: 4 quarter-warp phases */
	run_shared("vec128", GL_F32, 4, 2, 8, 4);
	run_shared("vec128", GL_F32, 4, 8, 32, 4);    /* 28 conflicts, as F359822's bad layout */

	struct gl_launch l = {0};
	struct gl_sim_result res;
	fx_geometry(&l, "bcast", 2, 1, 64, 1);
	float *in = fx_buffer(&l, "in", GL_F32, 32);
	float *out = fx_buffer(&l, "out", GL_F32, 128);
	for (int i = 0; i < 32; i++)
		in[i] = (float)i;
	fx_run_clean(smem, &l, &res);
	CHECK_EQ(fx_metric(&res, GL_M_SLD_INST), 8); /* 2 CTAs x 2 warps x 2 loads */
	CHECK_EQ(fx_metric(&res, GL_M_SLD_WF), 8);
	CHECK_EQ(fx_metric(&res, GL_M_SLD_CONF), 0);
	CHECK(out[0] == 5.0f && out[63] == 6.0f && out[127] == 6.0f);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_dynamic_shared(void)
{
	for (int small = 0; small < 2; small++) {
		struct gl_launch l = {0};
		fx_geometry(&l, "reverse_dyn", 1, 1, 64, 1);
		l.dyn_smem = small ? 128 : 256; /* 64 floats need 256 bytes */
		float *d = fx_buffer(&l, "d", GL_F32, 64);
		gl_launch_arg_scalar(&l, 64, 4);
		for (int i = 0; i < 64; i++)
			d[i] = (float)i;
		struct gl_sim_result res;
		CHECK_EQ(fx_run(smem, &l, &res), GL_OK);
		if (!small) {
			CHECK_EQ(res.findings_total, 0);
			int bad = 0;
			for (int i = 0; i < 64; i++)
				bad += d[i] != (float)(63 - i);
			CHECK_EQ(bad, 0);
			CHECK_EQ(fx_metric(&res, GL_M_SST_WF), 2);
			CHECK_EQ(fx_metric(&res, GL_M_SLD_WF), 2);
		} else {
			const struct gl_finding *f = fx_finding(&res, "out-of-bounds");
			CHECK(f != NULL);
			if (f) {
				CHECK_STR(f->space, "shared");
				CHECK(strstr(f->message, "128 bytes of shared memory") != NULL);
				CHECK_EQ(f->thread[0], 32); /* the first thread past 128 bytes */
			}
			CHECK(res.nerrors >= 32);
		}
		gl_sim_result_free(&res);
		gl_launch_free(&l);
	}
}

/* ---- atomics.cu: 4 CTAs of 64 threads */

static void test_atomics(void)
{
	struct ptx_module *m = fx_fixture("atomics");
	if (!m)
		return;
	enum { B = 64, G = 4, T = B * G };
	struct gl_launch l = {0};
	fx_geometry(&l, "atomics", G, 1, B, 1);
	uint32_t *g = fx_buffer(&l, "g", GL_U32, 16);
	uint64_t *g64 = fx_buffer(&l, "g64", GL_U64, 4);
	float *gf = fx_buffer(&l, "gf", GL_F32, 4);
	double *gd = fx_buffer(&l, "gd", GL_F64, 2);
	uint32_t *old = fx_buffer(&l, "old", GL_U32, 4 * T);
	uint32_t *sh = fx_buffer(&l, "sh", GL_U32, 16 * G);
	g[3] = 1000;
	g[4] = 0xabcdef;
	g[6] = 0xffffffffu;
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	uint32_t sum = 0, xr = 0;
	for (uint32_t t = 0; t < T; t++)
		sum += t, xr ^= t;
	CHECK_EQ(g[0], T);
	CHECK_EQ(g[1], sum);
	CHECK_EQ((int32_t)g[2], T - 1 - 20);
	CHECK_EQ(g[3], 0);
	CHECK_EQ(g[5], 0xffffffffu);
	CHECK_EQ(g[6], 0xffff0000u);
	CHECK_EQ(g[7], xr);
	CHECK_EQ(g[8], T % 10);                 /* inc wraps at 9 */
	CHECK_EQ(g[9], (6 - T % 6) % 6);        /* dec wraps to 5 below 0 */
	CHECK_EQ(g64[0], (uint64_t)sum << 33);
	CHECK_EQ(g64[1], (uint64_t)(T - 1) * 0x100000001ull);
	CHECK(gf[0] == 0.5f * T && gf[1] == (float)sum && gd[0] == 0.25 * T);
	/* the old values of add, exch, inc and cas: invariants of any order */
	uint64_t olds = 0;
	int cas_wins = 0, seen_init = 0;
	int inc_count[10] = {0};
	for (uint32_t t = 0; t < T; t++) {
		olds += old[4 * t];
		seen_init += old[4 * t + 1] == 0xabcdef;
		if (old[4 * t + 2] < 10)
			inc_count[old[4 * t + 2]]++;
		cas_wins += old[4 * t + 3] == t;
	}
	CHECK_EQ(seen_init, 1); /* exactly one thread saw the initial value */
	CHECK_EQ(cas_wins, (int)g[10]);
	for (int v = 0; v < 10; v++)
		CHECK_EQ(inc_count[v], T / 10 + (v < T % 10));
	CHECK(olds > 0);
	for (int b = 0; b < G; b++) {
		const uint32_t *s = sh + 16 * b;
		uint32_t first = (uint32_t)(b * B), bsum = 0;
		for (uint32_t t = first; t < first + B; t++)
			bsum += t;
		CHECK_EQ(s[0], B);
		CHECK_EQ(s[1], bsum);
		CHECK_EQ(s[2], 1000 - (first + B - 1));
		CHECK_EQ(s[3], 0);
		CHECK_EQ(s[4], 0xffffffffu);
		CHECK_EQ(s[5], 42);
		CHECK_EQ(s[6], B % 4);
		CHECK(s[7] >= first + 1 && s[7] <= first + B);
	}
	/* per warp: 16 global atom instructions, every lane on one address (1 sector each); 8 on shared */
	unsigned warps = T / 32;
	CHECK_EQ(fx_metric(&res, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"), 16 * warps);
	CHECK_EQ(fx_metric(&res, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"), 16 * warps);
	CHECK_EQ(fx_metric(&res, "smsp__inst_executed_op_shared_atom.sum"), 8 * warps);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* red (no result) and atom on 64-bit and f32 shared locations, in hand-written PTX */
static void test_red(void)
{
	static const char *const text =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u64 pg)\n{\n"
		"\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .f32 %f<4>;\n"
		"\t.shared .align 8 .b8 s[16];\n"
		"\tld.param.u64 %rd1, [pg];\n\tmov.u32 %r1, %tid.x;\n"
		"\tred.global.add.u32 [%rd1], %r1;\n"
		"\tred.global.max.s32 [%rd1+4], %r1;\n"
		"\tred.global.or.b32 [%rd1+8], %r1;\n"
		"\tcvt.rn.f32.u32 %f1, %r1;\n\tred.global.add.f32 [%rd1+12], %f1;\n"
		"\tmul.wide.u32 %rd2, %r1, 3;\n\tred.global.add.u64 [%rd1+16], %rd2;\n"
		"\tmov.u32 %r2, s;\n\tred.shared.add.u32 [%r2], 2;\n"
		"\tatom.shared.add.u64 %rd3, [%r2+8], %rd2;\n"
		"\tbar.sync 0;\n\tsetp.eq.u32 %p1, %r1, 0;\n"
		"\tld.shared.u32 %r3, [%r2];\n\t@%p1 st.global.u32 [%rd1+24], %r3;\n"
		"\tld.shared.u64 %rd4, [%r2+8];\n\t@%p1 st.global.u64 [%rd1+32], %rd4;\n"
		"\tret;\n}\n";
	struct ptx_module *m = fx_parse(text, "red.ptx");
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "k", 1, 1, 64, 1);
	uint8_t *g = fx_buffer(&l, "g", GL_U8, 40);
	struct gl_sim_result res;
	/* s is never stored before the adds: they start from the poison pattern shared memory gets at CTA
	 * start (reported as uninitialized reads, warnings) */
	CHECK_EQ(fx_run(m, &l, &res), GL_OK);
	CHECK_EQ(res.nerrors, 0);
	uint32_t u[4];
	uint64_t s64, sh64;
	memcpy(u, g, 16);
	memcpy(&s64, g + 16, 8);
	memcpy(&sh64, g + 32, 8);
	uint32_t shared32;
	memcpy(&shared32, g + 24, 4);
	CHECK_EQ(u[0], 63 * 64 / 2);
	CHECK_EQ(u[1], 63);
	CHECK_EQ(u[2], 63);
	CHECK(fx_f32(u[3]) == 2016.0f);
	CHECK_EQ(s64, 3ull * 63 * 64 / 2);
	CHECK_EQ(shared32, 0xa5a5a5a5u + 128);
	CHECK_EQ(sh64, 0xa5a5a5a5a5a5a5a5ull + 3ull * 63 * 64 / 2);
	CHECK_EQ(fx_metric(&res, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"), 10);
	CHECK_EQ(fx_metric(&res, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"), 10);
	CHECK_EQ(fx_metric(&res, "smsp__inst_executed_op_shared_atom.sum"), 4);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* atom through a generic address that lands in shared memory: an ATOMS, not a global request */
static void test_generic_atomics(void)
{
	static const char *const text =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u64 pg)\n{\n"
		"\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
		"\t.shared .align 4 .b8 s[4];\n"
		"\tld.param.u64 %rd1, [pg];\n\tmov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p1, %r1, 0;\n"
		"\tmov.u64 %rd2, s;\n\tcvta.shared.u64 %rd3, %rd2;\n"
		"\t@%p1 st.u32 [%rd3], 0;\n\tbar.sync 0;\n"
		"\tatom.add.u32 %r2, [%rd3], 1;\n\tatom.add.u32 %r3, [%rd1], 1;\n"
		"\tbar.sync 0;\n\tld.u32 %r4, [%rd3];\n\t@%p1 st.u32 [%rd1+4], %r4;\n\tret;\n}\n";
	struct ptx_module *m = fx_parse(text, "gatom.ptx");
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "k", 1, 1, 64, 1);
	uint32_t *g = fx_buffer(&l, "g", GL_U32, 2);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	CHECK_EQ(g[0], 64);
	CHECK_EQ(g[1], 64);
	CHECK_EQ(fx_metric(&res, "smsp__inst_executed_op_shared_atom.sum"), 2);
	CHECK_EQ(fx_metric(&res, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"), 2);
	CHECK_EQ(fx_metric(&res, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"), 2);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* ---- cp.async */

static void test_cp_async(void)
{
	struct ptx_module *m = fx_fixture("cp_async");
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "cp_async", 1, 1, 32, 1);
	float *in = fx_buffer(&l, "in", GL_F32, 384);
	float *out = fx_buffer(&l, "out", GL_F32, 224);
	for (int i = 0; i < 384; i++)
		in[i] = (float)i + 0.5f;
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	CHECK(memcmp(in, out, 224 * sizeof(float)) == 0);
	/* 4-, 8- and 16-byte copies by one warp: 4 + 8 + 16 global sectors, 1 + 2 + 4 shared wavefronts;
	 * LDGSTS is not an LDG: nothing in op_ld */
	CHECK_EQ(fx_metric(&res, "smsp__inst_executed_op_ldgsts.sum"), 3);
	CHECK_EQ(fx_metric(&res, "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum"), 3);
	CHECK_EQ(fx_metric(&res, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"), 28);
	CHECK_EQ(fx_metric(&res, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"), 7);
	CHECK_EQ(fx_metric(&res, GL_M_GLD_REQ), 0);
	CHECK_EQ(fx_metric(&res, GL_M_SST_INST), 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	memset(&l, 0, sizeof l); /* the pipeline primitives, with zero-fill past `valid` */
	fx_geometry(&l, "pipeline", 1, 1, 64, 1);
	in = fx_buffer(&l, "in", GL_F32, 256);
	out = fx_buffer(&l, "out", GL_F32, 256);
	gl_launch_arg_scalar(&l, 40, 4);
	for (int i = 0; i < 256; i++)
		in[i] = (float)i + 1;
	for (int i = 0; i < 256; i++)
		out[i] = -1;
	fx_run_clean(m, &l, &res);
	int bad = 0;
	for (int i = 0; i < 256; i++)
		bad += out[i] != (i < 160 ? (float)i + 1 : 0.0f);
	CHECK_EQ(bad, 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* ---- local and constant memory */

static void test_local_const(void)
{
	struct ptx_module *m = fx_fixture("localconst");
	if (!m)
		return;
	static const int table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
	struct gl_launch l = {0};
	fx_geometry(&l, "localconst", 2, 1, 64, 1);
	int32_t *in = fx_buffer(&l, "in", GL_I32, 128);
	float *out = fx_buffer(&l, "out", GL_F32, 128);
	uint64_t seed = 8;
	for (int i = 0; i < 128; i++)
		in[i] = (int32_t)(fx_rand(&seed) % 1000);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	int bad = 0;
	for (int t = 0; t < 128; t++) {
		int idx[24];
		for (int i = 0; i < 24; i++)
			idx[i] = in[t] * i + table[i & 15];
		int k = in[t] & 15;
		float want = (float)(idx[k] + idx[(k * 7) % 24] + table[k]) * 0.5f + (float)table[(t / 64) & 15];
		bad += out[t] != want;
	}
	CHECK_EQ(bad, 0);
	/* the local array: 6 st.local.v4 and 2 ld.local per warp */
	CHECK_EQ(fx_metric(&res, "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"), 24);
	CHECK_EQ(fx_metric(&res, "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum"), 8);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* ---- the sanitizer */

static struct ptx_module *san;

static void test_out_of_bounds(void)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "oob_read", 1, 1, 64, 1);
	fx_buffer(&l, "in", GL_F32, 60);
	fx_buffer(&l, "out", GL_F32, 64);
	gl_launch_arg_scalar(&l, 60, 4);
	struct gl_sim_result res;
	CHECK_EQ(fx_run(san, &l, &res), GL_OK);
	CHECK_EQ(res.nerrors, 4);
	CHECK_EQ(res.nfindings, 1); /* one line: one distinct finding seen 4 times */
	if (res.nfindings == 1) {
		const struct gl_finding *f = &res.findings[0];
		CHECK_STR(f->kind, "out-of-bounds");
		CHECK_STR(f->space, "global");
		CHECK_EQ(f->size, 4);
		CHECK_EQ(f->count, 4);
		CHECK_EQ(f->thread[0], 60);
		CHECK_EQ(f->address, gl_sim_buffer_address(&l, 0) + 240);
		CHECK_EQ(f->line, 53);     /* ld.global.f32 in sanitizer.ptx */
		CHECK_EQ(f->src_line, 10); /* out[t] = in[t]; in sanitizer.cu */
		CHECK(strstr(f->message, "after the end of buffer 'in'") != NULL);
		CHECK_EQ(f->nsamples, 4);
		for (int i = 0; i < f->nsamples; i++)
			CHECK_EQ(f->samples[i].thread[0], 60 + i);
	}
	CHECK(!res.aborted);
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	memset(&l, 0, sizeof l);
	fx_geometry(&l, "misaligned", 1, 1, 32, 1);
	fx_buffer(&l, "in", GL_U8, 256);
	fx_buffer(&l, "out", GL_F32, 32);
	CHECK_EQ(fx_run(san, &l, &res), GL_OK);
	CHECK_EQ(res.nerrors, 32);
	const struct gl_finding *f = fx_finding(&res, "misaligned");
	CHECK(f && f->address == gl_sim_buffer_address(&l, 0) + 2 && f->size == 4);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_races_and_barriers(void)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "race", 1, 1, 128, 1);
	fx_buffer(&l, "in", GL_F32, 128);
	fx_buffer(&l, "out", GL_F32, 128);
	struct gl_sim_result res;
	CHECK_EQ(fx_run(san, &l, &res), GL_OK);
	const struct gl_finding *f = fx_finding(&res, "race");
	CHECK(f != NULL && res.nerrors >= 1);
	if (f)
		CHECK_STR(f->space, "shared");
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	memset(&l, 0, sizeof l);
	fx_geometry(&l, "no_race", 1, 1, 128, 1);
	float *in = fx_buffer(&l, "in", GL_F32, 128);
	float *out = fx_buffer(&l, "out", GL_F32, 128);
	for (int i = 0; i < 128; i++)
		in[i] = (float)i;
	fx_run_clean(san, &l, &res);
	CHECK(out[127] == 0.0f && out[5] == 6.0f);
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	memset(&l, 0, sizeof l);
	fx_geometry(&l, "divergent_barrier", 1, 1, 64, 1);
	fx_buffer(&l, "out", GL_F32, 64);
	CHECK_EQ(fx_run(san, &l, &res), GL_OK);
	f = fx_finding(&res, "barrier-divergence");
	CHECK(f != NULL && res.aborted);
	if (f) {
		CHECK_EQ(f->src_line, 46);
		CHECK(strstr(f->message, "16 of the 32") != NULL);
	}
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

/* A load the sanitizer refuses writes zero to its destination in that lane, not the value the register
 * held: here the second load of %r1 runs past the 8-byte buffer, and the store after it writes 0, not
 * the 7 the first load gave %r1 (registers loaded from memory share slots, ptx_regalloc.c). */
static void test_refused_load_writes_zero(void)
{
	struct ptx_module *m = fx_parse(".version 9.0\n.target sm_80\n.address_size 64\n"
					".entry k(.param .u64 p)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
					"ld.param.u64 %rd1, [p];\n"
					"ld.global.u32 %r1, [%rd1];\n"
					"st.global.u32 [%rd1+4], %r1;\n"
					"ld.global.u32 %r1, [%rd1+64];\n"
					"st.global.u32 [%rd1], %r1;\n"
					"ret;\n}\n", "refused.ptx");
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "k", 1, 1, 1, 1);
	unsigned *p = fx_buffer(&l, "p", GL_U32, 2);
	p[0] = 7;
	struct gl_sim_result res;
	CHECK_EQ(fx_run(m, &l, &res), GL_OK);
	CHECK(fx_finding(&res, "out-of-bounds") != NULL);
	CHECK_EQ(p[1], 7);
	CHECK_EQ(p[0], 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* The finding of `kind` at PTX line `line`, or NULL. */
static const struct gl_finding *finding_at(const struct gl_sim_result *res, const char *kind, int line)
{
	for (int i = 0; i < res->nfindings; i++)
		if (strcmp(res->findings[i].kind, kind) == 0 && res->findings[i].line == line)
			return &res->findings[i];
	return NULL;
}

/* Reads made while their interval had no write yet skip the shadow and the race table (quiet reads,
 * held-back reads); a later store of the same words by another warp must still race with them
 * (tests/fixtures/sim/quiet.cu: warp 1 stores what warp 0 read; warp 3 reads what warp 0 stored). */
static void test_races_after_quiet_reads(struct ptx_module *m)
{
	static const struct {
		const char *kernel, *what;
		int store_line, load_line;
	} cases[] = {
		{"shared_after_quiet_reads", "shared-memory race (write after read)", 56, 53},
		{"global_after_held_reads", "global-memory race", 98, 91},
	};
	for (size_t i = 0; i < GL_ARRAY_LEN(cases); i++) {
		struct gl_launch l = {0};
		fx_geometry(&l, cases[i].kernel, 1, 1, 128, 1);
		float *in = fx_buffer(&l, i == 0 ? "in" : "buf", GL_F32, 128);
		fx_buffer(&l, "out", GL_F32, 128);
		for (int k = 0; k < 128; k++)
			in[k] = (float)k;
		struct gl_sim_result res;
		CHECK_EQ(fx_run(m, &l, &res), GL_OK);
		const struct gl_finding *war = finding_at(&res, "race", cases[i].store_line);
		const struct gl_finding *raw = finding_at(&res, "race", cases[i].load_line);
		CHECK(war != NULL && raw != NULL);
		if (war) {
			CHECK(strstr(war->message, cases[i].what) != NULL);
			CHECK(strstr(war->message, "warps 0 and 1") != NULL); /* warp 1's store, warp 0's read */
			CHECK_EQ(war->count, 96);                               /* warps 1-3, every lane */
		}
		if (raw) {
			CHECK(strstr(raw->message, "warps 0 and 3") != NULL); /* warp 3 reads what warp 0 stored */
			CHECK_EQ(raw->count, 32);
		}
		gl_sim_result_free(&res);
		gl_launch_free(&l);
	}
}

static void test_budget_and_assert(void)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "endless", 2, 1, 32, 1);
	fx_buffer(&l, "flag", GL_I32, 1);
	fx_buffer(&l, "out", GL_I32, 32);
	struct gl_sim_opts o = {.threads = 1, .max_instructions = 50000};
	struct gl_sim_result res;
	double t0 = gl_now();
	CHECK_EQ(fx_run_opts(san, &l, &res, &o), GL_OK);
	CHECK(gl_now() - t0 < 5.0);
	const struct gl_finding *f = fx_finding(&res, "budget");
	CHECK(f != NULL && res.aborted && res.nerrors >= 1);
	if (f)
		CHECK(strstr(f->message, "50000") && strstr(f->message, "--max-instructions"));
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	memset(&l, 0, sizeof l);
	fx_geometry(&l, "assert_fail", 1, 1, 32, 1);
	int32_t *in = fx_buffer(&l, "in", GL_I32, 32);
	in[5] = -1;
	in[9] = -3;
	o = (struct gl_sim_opts){.threads = 1};
	CHECK_EQ(fx_run_opts(san, &l, &res, &o), GL_OK);
	f = fx_finding(&res, "assert");
	CHECK(f != NULL && res.aborted);
	if (f) {
		CHECK_EQ(f->thread[0], 5);
		CHECK(strstr(f->message, "in[threadIdx.x] >= 0") != NULL);
	}
	CHECK(strstr(res.printf_out, "sanitizer.cu:62: void assert_fail(const int *): block: [0,0,0], thread: [5,0,0] "
				     "Assertion `in[threadIdx.x] >= 0` failed.\n") != NULL);
	CHECK(strstr(res.printf_out, "thread: [9,0,0]") != NULL);
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	memset(&l, 0, sizeof l); /* nothing fails: no findings */
	fx_geometry(&l, "assert_fail", 1, 1, 32, 1);
	fx_buffer(&l, "in", GL_I32, 32);
	fx_run_clean(san, &l, &res);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_printf(void)
{
	struct ptx_module *m = fx_fixture("printf");
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "hello", 2, 1, 32, 1);
	gl_launch_arg_scalar(&l, 3, 4);
	gl_launch_arg_scalar(&l, fx_bits(1.5f), 4);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	const char *want =
		"thread 0 of 32: x=0.00 half=  0.0 s=even c=a ll=0 u=0 hex=0xff\n"
		"thread 1 of 32: x=1.50 half=  0.5 s=odd c=b ll=1099511627776 u=4294967295 hex=0x100\n"
		"thread 2 of 32: x=3.00 half=  1.0 s=even c=c ll=2199023255552 u=4294967294 hex=0x101\n"
		"100% done\n";
	char both[1024];
	snprintf(both, sizeof both, "%s%s", want, want); /* two CTAs, in grid order */
	CHECK_STR(res.printf_out, both);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* ---- instructions the simulator does not model are named, with their line */

static void test_unsupported(void)
{
	static const char *const head = ".version 8.0\n.target sm_80\n.address_size 64\n"
					".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n";
	char text[1024];
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	snprintf(text, sizeof text, "%s\ttex.2dms.v4.s32.s32 {%%r1, %%r2, %%r3, %%r1}, [%%rd1, {%%r1, %%r2, %%r3, %%r1}];"
		 "\n\tret;\n}\n", head);
	CHECK_EQ(ptx_parse(text, "tex.ptx", &m, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "tex.ptx:8:") && strstr(err.msg, "unsupported instruction 'tex.2dms.v4.s32.s32' "
							       "(multi-sample textures are not simulated)"));
	gl_err_clear(&err);
	snprintf(text, sizeof text, "%s\tcvt.rn.satfinite.f16.f32 %%r1, %%r2;\n\tret;\n}\n", head);
	CHECK_EQ(ptx_parse(text, "satf.ptx", &m, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "satf.ptx:8:") && strstr(err.msg, "unsupported modifier '.satfinite'"));
	/* decoded but not executable: a finding naming it and its line, and the launch stops */
	snprintf(text, sizeof text, "%s\tmov.u32 %%r1, 1;\n\tmma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 "
		 "{%%r1,%%r1,%%r1,%%r1,%%r1,%%r1,%%r1,%%r1}, {%%r1,%%r1}, {%%r1,%%r1}, {%%r1,%%r1,%%r1,%%r1,%%r1,%%r1,%%r1,%%r1};\n"
		 "\tret;\n}\n", head);
	m = fx_parse(text, "mma884.ptx");
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "k", 1, 1, 32, 1);
	fx_buffer(&l, "p", GL_U32, 1);
	struct gl_sim_result res;
	CHECK_EQ(fx_run(m, &l, &res), GL_OK);
	const struct gl_finding *f = fx_finding(&res, "unsupported");
	CHECK(f != NULL && res.aborted);
	if (f) {
		CHECK_EQ(f->line, 9);
		CHECK(strstr(f->message, "mma") && strstr(f->message, "line 9"));
	}
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

int main(void)
{
	gmem = fx_fixture("gmem");
	smem = fx_fixture("smem");
	san = fx_fixture("sanitizer");
	if (gmem)
		test_global_patterns();
	if (smem) {
		test_shared_patterns();
		test_dynamic_shared();
	}
	test_atomics();
	test_red();
	test_generic_atomics();
	test_cp_async();
	test_local_const();
	if (san) {
		test_out_of_bounds();
		test_races_and_barriers();
		test_budget_and_assert();
	}
	test_refused_load_writes_zero();
	struct ptx_module *quiet = fx_fixture("quiet");
	if (quiet)
		test_races_after_quiet_reads(quiet);
	ptx_module_free(quiet);
	test_printf();
	test_unsupported();
	ptx_module_free(gmem);
	ptx_module_free(smem);
	ptx_module_free(san);
	CHECK_DONE();
}
