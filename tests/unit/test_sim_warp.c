/* test_sim_warp.c — warp collectives against host references written from the CUDA and PTX
 * definitions: the warpops fixture (shfl up/down/bfly/idx at widths 32, 16 and 8, vote, match, redux,
 * activemask in divergent code), mma.sync m16n8k16/m16n8k8 (f16 and bf16 inputs, f32 and f16
 * accumulators) against a plain CPU matrix product, and ldmatrix x1/x2/x4 with and without .trans,
 * including its wavefront counts (memory-model.md §2, ldmatrix). */
#include "tests/unit/sim_fixture.h"

/* ---- warpops.cu */

static uint32_t shfl_ref(const uint32_t *v, int lane, int mode, int arg, int width)
{
	int seg = lane / width * width, src;
	switch (mode) {
	case 0: src = lane - arg; return src >= seg ? v[src] : v[lane];          /* up */
	case 1: src = lane + arg; return src < seg + width ? v[src] : v[lane];    /* down */
	case 2: src = lane ^ arg; return src < seg + width ? v[src] : v[lane];    /* xor */
	default: src = seg + (arg % width); return v[src];                      /* idx */
	}
}

static void warpops_ref(const uint32_t *v, int width, uint32_t out[32][16])
{
	uint32_t ballot = 0, anyeq7 = 0, all = 1, uniq = 1, sum = 0, mx = 0, and_ = ~0u, or_ = 0, xr = 0;
	int32_t mn = INT32_MAX;
	for (int l = 0; l < 32; l++) {
		ballot |= (v[l] & 1) << l;
		anyeq7 |= v[l] == 7;
		all &= v[l] < 1000;
		sum += v[l];
		mx = v[l] > mx ? v[l] : mx;
		mn = (int32_t)v[l] - 50 < mn ? (int32_t)v[l] - 50 : mn;
		and_ &= v[l] | 0x100;
		or_ |= v[l];
		xr ^= v[l];
		uniq &= v[l] / 1000 == v[0] / 1000;
	}
	int uni = ballot == 0 || ballot == 0xffffffffu;
	uint32_t act = 0;
	for (int l = 0; l < 32; l++)
		act |= ((v[l] >> 1) & 1) << l;
	for (int l = 0; l < 32; l++) {
		uint32_t *o = out[l];
		o[0] = shfl_ref(v, l, 0, 3, 32);
		o[1] = shfl_ref(v, l, 1, 5, 32);
		o[2] = shfl_ref(v, l, 2, 6, 32);
		o[3] = shfl_ref(v, l, 3, (int)(v[l] & 31), 32);
		o[4] = shfl_ref(v, l, 0, 1, width);
		o[5] = shfl_ref(v, l, 1, 2, width);
		o[6] = shfl_ref(v, l, 2, 1, width);
		o[7] = shfl_ref(v, l, 3, 3, width);
		o[8] = ballot;
		o[9] = all + 2 * anyeq7 + 4 * (uint32_t)uni;
		uint32_t same = 0;
		for (int k = 0; k < 32; k++)
			same |= (uint32_t)(v[k] % 4 == v[l] % 4) << k;
		o[10] = same;
		o[11] = uniq ? 0xffffffffu ^ 0x5au : 0x3u;
		o[12] = sum ^ mx;
		o[13] = (uint32_t)mn + and_ + (or_ << 8) + (xr << 16);
		o[14] = sum;
		o[15] = (v[l] & 2) ? act : 0;
	}
}

static void warp_inputs(uint32_t *in, int t)
{
	uint64_t seed = 1000 + (uint64_t)t;
	for (int i = 0; i < 128; i++) {
		int warp = i / 32;
		uint64_t r = fx_rand(&seed);
		in[i] = warp == 0 ? (uint32_t)(r % 5000) : warp == 1 ? (uint32_t)(r % 1000) : warp == 2 ? 7u : (uint32_t)r;
	}
	in[40] = 7; /* warp 1 has a 7 */
}

static void test_warpops(void)
{
	struct ptx_module *m = fx_fixture("warpops");
	if (!m)
		return;
	static const int widths[] = {32, 16, 8, 4};
	for (size_t wi = 0; wi < GL_ARRAY_LEN(widths); wi++) {
		struct gl_launch l = {0};
		fx_geometry(&l, "warpops", 1, 1, 128, 1);
		uint32_t *in = fx_buffer(&l, "in", GL_U32, 128);
		uint32_t *out = fx_buffer(&l, "out", GL_U32, 128 * 16);
		gl_launch_arg_scalar(&l, (uint64_t)widths[wi], 4);
		warp_inputs(in, (int)wi);
		struct gl_sim_result res;
		fx_run_clean(m, &l, &res);
		int bad = 0;
		for (int w = 0; w < 4; w++) {
			uint32_t want[32][16];
			warpops_ref(in + 32 * w, widths[wi], want);
			for (int lane = 0; lane < 32; lane++)
				for (int k = 0; k < 16; k++)
					if (out[(32 * w + lane) * 16 + k] != want[lane][k] && bad++ < 8)
						fprintf(stderr, "warpops width %d warp %d lane %d o[%d]: sim 0x%08x host 0x%08x\n",
							widths[wi], w, lane, k, out[(32 * w + lane) * 16 + k], want[lane][k]);
		}
		CHECK_EQ(bad, 0);
		gl_sim_result_free(&res);
		gl_launch_free(&l);
	}
	ptx_module_free(m);
}

/* ---- mma.cu: A 16xK row-major, Bt 8xK (B^T row-major), C/D 16x8 row-major */

static double h2d(uint16_t h)
{
	int sign = h >> 15, exp = (h >> 10) & 31, mant = h & 1023;
	double v = exp == 0 ? ldexp(mant, -24) : ldexp(1024 + mant, exp - 25);
	return sign ? -v : v;
}

/* Small dyadic values (k/4, |k| <= 12) are exact in f16 and bf16, and so are all the products and sums
 * below: the simulator's result must equal the exact product. */
static uint16_t small_f16(int k)
{
	if (k == 0)
		return 0;
	double v = fabs(k / 4.0);
	int e = 0;
	while (v >= 2.0)
		v /= 2, e++;
	while (v < 1.0)
		v *= 2, e--;
	return (uint16_t)((k < 0 ? 0x8000 : 0) | (e + 15) << 10 | (int)((v - 1.0) * 1024));
}

static uint16_t f16_to_bf16(uint16_t h)
{
	return (uint16_t)(fx_bits((float)h2d(h)) >> 16);
}

static void run_mma(struct ptx_module *m, const char *entry, int k, int bf16, int f16acc)
{
	struct gl_launch l = {0};
	fx_geometry(&l, entry, 1, 1, 32, 1);
	uint16_t *A = fx_buffer(&l, "A", GL_U16, 16 * (size_t)k);
	uint16_t *Bt = fx_buffer(&l, "Bt", GL_U16, 8 * (size_t)k);
	void *C = fx_buffer(&l, "C", f16acc ? GL_U16 : GL_F32, 128);
	void *D = fx_buffer(&l, "D", f16acc ? GL_U16 : GL_F32, 128);
	uint64_t seed = (uint64_t)k * 31 + (uint64_t)bf16 * 7 + (uint64_t)f16acc;
	double a[16][16], b[16][8], c[16][8];
	for (int r = 0; r < 16; r++)
		for (int q = 0; q < k; q++) {
			uint16_t h = small_f16((int)(fx_rand(&seed) % 25) - 12);
			A[r * k + q] = bf16 ? f16_to_bf16(h) : h;
			a[r][q] = h2d(h);
		}
	for (int n = 0; n < 8; n++)
		for (int q = 0; q < k; q++) {
			uint16_t h = small_f16((int)(fx_rand(&seed) % 25) - 12);
			Bt[n * k + q] = bf16 ? f16_to_bf16(h) : h;
			b[q][n] = h2d(h);
		}
	for (int r = 0; r < 16; r++)
		for (int n = 0; n < 8; n++) {
			int v = (int)(fx_rand(&seed) % 21) - 10;
			c[r][n] = v;
			if (f16acc)
				((uint16_t *)C)[r * 8 + n] = small_f16(4 * v);
			else
				((float *)C)[r * 8 + n] = (float)v;
		}
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	CHECK_EQ(fx_metric(&res, "smsp__inst_executed_pipe_tensor_op_hmma.sum"), 1);
	/* one m16n8kK is 16*8*K multiply-adds, two tensor-path ops each, on the path of its types */
	const char *ops = bf16 ? "sm__ops_path_tensor_src_bf16_dst_fp32.sum"
		      : f16acc ? "gpulab__ptx_ops_path_tensor_src_fp16_dst_fp16.sum"
			       : "gpulab__ptx_ops_path_tensor_src_fp16_dst_fp32.sum";
	CHECK_EQ(fx_metric(&res, ops), 2.0 * 16 * 8 * k);
	int bad = 0;
	for (int r = 0; r < 16; r++)
		for (int n = 0; n < 8; n++) {
			double want = c[r][n];
			for (int q = 0; q < k; q++)
				want += a[r][q] * b[q][n];
			double got = f16acc ? h2d(((uint16_t *)D)[r * 8 + n]) : ((float *)D)[r * 8 + n];
			if (got != want && bad++ < 6)
				fprintf(stderr, "%s D[%d][%d]: sim %g, A*B+C = %g\n", entry, r, n, got, want);
		}
	CHECK_EQ(bad, 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_mma(void)
{
	struct ptx_module *m = fx_fixture("mma");
	if (!m)
		return;
	run_mma(m, "mma_f16_f32", 16, 0, 0);
	run_mma(m, "mma_bf16_f32", 16, 1, 0);
	run_mma(m, "mma_f16_f16", 16, 0, 1);
	run_mma(m, "mma_k8", 8, 0, 0);
	ptx_module_free(m);
}

/* ---- ldmatrix_all: out[lane*16 + j] for x1 (j 0), x2 (1-2), x4 (3-6), x4.trans (7-10), x2.trans (11-12),
 * x1.trans (13), from a tile whose row for lane l starts at tile[l * stride]. */

static uint32_t ldm(const uint16_t *tile, int stride, int mat, int lane, int trans)
{
	int r = lane / 4, c = 2 * (lane % 4);
	if (!trans)
		return tile[(8 * mat + r) * stride + c] | (uint32_t)tile[(8 * mat + r) * stride + c + 1] << 16;
	return tile[(8 * mat + c) * stride + r] | (uint32_t)tile[(8 * mat + c + 1) * stride + r] << 16;
}

static void run_ldmatrix(struct ptx_module *m, int stride, unsigned want_wf)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "ldmatrix_all", 1, 1, 32, 1);
	uint16_t *in = fx_buffer(&l, "in", GL_U16, 32 * 64);
	uint32_t *out = fx_buffer(&l, "out", GL_U32, 32 * 16);
	gl_launch_arg_scalar(&l, (uint64_t)stride, 4);
	for (int i = 0; i < 32 * 64; i++)
		in[i] = (uint16_t)(i * 7 + 3);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	int bad = 0;
	for (int lane = 0; lane < 32; lane++) {
		const uint32_t *o = out + 16 * lane;
		uint32_t want[14] = {ldm(in, stride, 0, lane, 0), ldm(in, stride, 0, lane, 0), ldm(in, stride, 1, lane, 0)};
		for (int k = 0; k < 4; k++) {
			want[3 + k] = ldm(in, stride, k, lane, 0);
			want[7 + k] = ldm(in, stride, k, lane, 1);
		}
		want[11] = ldm(in, stride, 0, lane, 1);
		want[12] = ldm(in, stride, 1, lane, 1);
		want[13] = ldm(in, stride, 0, lane, 1);
		for (int j = 0; j < 14; j++)
			if (o[j] != want[j] && bad++ < 6)
				fprintf(stderr, "ldmatrix stride %d lane %d out[%d]: sim 0x%08x host 0x%08x\n", stride, lane, j, o[j],
					want[j]);
	}
	CHECK_EQ(bad, 0);
	/* 6 ldmatrix: 1+2+4+4+2+1 = 14 matrices; each costs 1 wavefront when its 8 rows fall in distinct
	 * 16-byte bank groups, 8 when they all share one (a 128-byte row stride) */
	CHECK_EQ(fx_metric(&res, "smsp__inst_executed_op_ldsm.sum"), 6);
	CHECK_EQ(fx_metric(&res, GL_M_SLD_WF), want_wf);
	CHECK_EQ(fx_metric(&res, GL_M_SLD_CONF), want_wf - 14);
	CHECK_EQ(fx_metric(&res, GL_M_SLD_INST), 0); /* LDSM has its own instruction count */
	/* one PTX ldmatrix is one LDSM: the per-PTX counts are the same */
	CHECK_EQ(fx_metric(&res, GL_M_PTX_SLD_WF), want_wf);
	CHECK_EQ(fx_metric(&res, GL_M_PTX_SLD_CONF), want_wf - 14);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_ldmatrix(void)
{
	struct ptx_module *m = fx_fixture("mma");
	if (!m)
		return;
	run_ldmatrix(m, 8, 14);
	run_ldmatrix(m, 64, 112);
	run_ldmatrix(m, 16, 28); /* 32-byte rows: pairs of rows share a bank group, 2 per matrix */
	ptx_module_free(m);
}

/* ---- hand-written PTX: collectives inside divergent code and with partial warps */

static const char *const diverge_text =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 pout)\n{\n"
	"\t.reg .pred %p<8>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [pout];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 16;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n\tand.b32 %r2, %r1, 3;\n\tsetp.eq.u32 %p1, %r2, 0;\n"
	"\tmov.u32 %r5, 0;\n\tmov.u32 %r6, 0;\n\tmov.u32 %r7, 0;\n\tmov.u32 %r8, 0;\n"
	"\t@!%p1 bra $L_other;\n"
	"\tactivemask.b32 %r5;\n"
	"\tsetp.gt.u32 %p2, %r1, 7;\n\tvote.sync.ballot.b32 %r6, %p2, %r5;\n"
	"\tredux.sync.add.u32 %r7, %r1, %r5;\n"
	"\tshfl.sync.down.b32 %r8|%p3, %r1, 1, 0x1f, %r5;\n"
	"\tbra $L_join;\n"
	"$L_other:\n"
	"\tactivemask.b32 %r5;\n\tredux.sync.max.u32 %r7, %r1, %r5;\n"
	"$L_join:\n"
	"\tst.global.v4.u32 [%rd3], {%r5, %r6, %r7, %r8};\n\tret;\n}\n";

static void test_divergent_collectives(void)
{
	struct ptx_module *m = fx_parse(diverge_text, "diverge.ptx");
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "k", 1, 1, 48, 1); /* warp 1 has 16 live lanes */
	uint32_t *out = fx_buffer(&l, "out", GL_U32, 48 * 4);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	for (int w = 0; w < 2; w++) {
		int live = w == 0 ? 32 : 16;
		uint32_t quarter = 0, rest = 0, sum = 0, mx = 0;
		for (int l2 = 0; l2 < live; l2++) {
			int t = 32 * w + l2;
			if (t % 4 == 0) {
				quarter |= 1u << l2;
				sum += (uint32_t)t;
			} else {
				rest |= 1u << l2;
				mx = (uint32_t)t;
			}
		}
		for (int l2 = 0; l2 < live; l2++) {
			int t = 32 * w + l2;
			const uint32_t *o = out + 4 * t;
			if (t % 4 == 0) {
				uint32_t ballot = 0;
				for (int k = 0; k < live; k++)
					if ((quarter >> k & 1) && 32 * w + k > 7)
						ballot |= 1u << k;
				CHECK_EQ(o[0], quarter);
				CHECK_EQ(o[1], ballot);
				CHECK_EQ(o[2], sum);
				/* down by 1 within the active quarter: the source lane l+1 is not in the mask, and
				 * the PTX result for an inactive source is undefined; only the in-range check holds */
			} else {
				CHECK_EQ(o[0], rest);
				CHECK_EQ(o[2], mx);
			}
		}
	}
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

int main(void)
{
	test_warpops();
	test_mma();
	test_ldmatrix();
	test_divergent_collectives();
	CHECK_DONE();
}
