/* hgemm.c — harness of the hgemm topic (kernels/hgemm.cu): C = A*B with A (m x k) and B (k x n)
 * row-major fp16 and C (m x n) row-major fp32.  The inputs are random floats rounded to fp16 (round to
 * nearest even); the reference is an fp32 GEMM (gl_gemm_ref: OpenBLAS sgemm when built with it) of those
 * same fp16 values widened to fp32, so it and the kernel multiply identical numbers.  simt guards its
 * edges and takes any size; the tensor-core variants tile the CTA by 64x64x32 with no edge guards and
 * refuse --m, --n not multiples of 64 or --k not a multiple of 32. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/half.h"
#include "common/util.h"
#include "gemm_ref.h"
#include "registry.h"

extern const char gl_ptx_hgemm[], gl_res_sm80_hgemm[], gl_res_sm90_hgemm[];

enum { P_M, P_N, P_K };
enum { V_SIMT, V_WMMA, V_WMMA_SMEM, V_MMA, V_MMA_LDMATRIX, V_MMA_SWIZZLE, V_MMA_PIPELINE, V_COUNT };

#define HG_TILE_MN 64 /* the tensor-core variants' CTA tile (hgemm.cu) */
#define HG_TILE_K 32

static const struct gl_param params[] = {
	[P_M] = {"m", "rows of A and C", 256, 1, 8192, true},
	[P_N] = {"n", "columns of B and C", 256, 1, 8192, true},
	[P_K] = {"k", "columns of A, rows of B (the reduction)", 256, 1, 8192, true},
};

static const struct gl_variant variants[] = {
	[V_SIMT] = {"simt", "hgemm_simt", "32x32 shared tiles, fp32 FFMA on widened halves: the baseline (any size)"},
	[V_WMMA] = {"wmma", "hgemm_wmma",
		    "nvcuda::wmma 16x16x16 fragments straight from global memory, 2 HMMA each (m, n % 64, k % 32)"},
	[V_WMMA_SMEM] = {"wmma_smem", "hgemm_wmma_smem",
			 "wmma fragments from 64x32 and 32x64 tiles staged in shared memory (m, n % 64, k % 32)"},
	[V_MMA] = {"mma", "hgemm_mma",
		   "inline mma.sync.m16n8k16, fragments by 32-bit shared loads, B transposed (m, n % 64, k % 32)"},
	[V_MMA_LDMATRIX] = {"mma_ldmatrix", "hgemm_mma_ldmatrix",
			    "fragments by ldmatrix.x4 (.trans for B) from row-major tiles: bank conflicts (m, n % 64, "
			    "k % 32)"},
	[V_MMA_SWIZZLE] = {"mma_swizzle", "hgemm_mma_swizzle",
			   "the tiles' 16-byte chunks XOR-swizzled by row: conflict-free ldmatrix (m, n % 64, k % 32)"},
	[V_MMA_PIPELINE] = {"mma_pipeline", "hgemm_mma_pipeline",
			    "cp.async into a 3-stage ring of swizzled tiles: loads overlap the mma (m, n % 64, k % 32)"},
};

static int check(const struct gl_problem *p, struct gl_err *err)
{
	double m = (double)p->v[P_M], n = (double)p->v[P_N], k = (double)p->v[P_K];
	char what[96];
	snprintf(what, sizeof what, "hgemm m=%ld n=%ld k=%ld", p->v[P_M], p->v[P_N], p->v[P_K]);
	/* the launch's A, B (fp16) and C, and for verify: A and B widened, the reference and its bound */
	return gl_check_host_memory(what, 2.0 * (m * k + k * n) + 4.0 * (2.0 * (m * k + k * n) + 3.0 * m * n), err);
}

/* The tensor-core variants tile the CTA by 64x64x32 without edge guards; simt takes any size. */
static bool accepts(const struct gl_variant *v, const struct gl_problem *p, char *rule, size_t size)
{
	long m = p->v[P_M], n = p->v[P_N], k = p->v[P_K];
	if (v - variants == V_SIMT || (m % HG_TILE_MN == 0 && n % HG_TILE_MN == 0 && k % HG_TILE_K == 0))
		return true;
	snprintf(rule, size, "tiles the CTA by %dx%dx%d without edge guards: --m and --n must be multiples of %d "
		 "and --k a multiple of %d (got m=%ld, n=%ld, k=%ld)", HG_TILE_MN, HG_TILE_MN, HG_TILE_K, HG_TILE_MN,
		 HG_TILE_K, m, n, k);
	return false;
}

static int refuse_untiled(const struct gl_variant *v, const struct gl_problem *p, struct gl_err *err)
{
	char rule[256];
	if (accepts(v, p, rule, sizeof rule))
		return GL_OK;
	return gl_errf(err, GL_EUSAGE, "hgemm %s %s; simt takes any size (--variant simt)", v->name, rule);
}

static int geometry(const struct gl_variant *v, const struct gl_problem *p, struct gl_geometry *g, struct gl_err *err)
{
	int id = (int)(v - variants);
	if (refuse_untiled(v, p, err))
		return err->status;
	long m = p->v[P_M], n = p->v[P_N];
	long tile = id == V_SIMT ? 32 : HG_TILE_MN;
	gl_geometry_add(g, v->entry, (unsigned)((n + tile - 1) / tile), (unsigned)((m + tile - 1) / tile), 1,
			id == V_SIMT ? 32 : 128, id == V_SIMT ? 32 : 1, 0);
	return GL_OK;
}

static int setup(const struct gl_variant *v, const struct gl_problem *p, const struct gl_geometry *g,
		 struct gl_launch *l, struct gl_err *err)
{
	(void)v; /* its geometry says what differs between the variants */
	long m = p->v[P_M], n = p->v[P_N], k = p->v[P_K];
	int c = gl_launch_add_buffer(l, "C", GL_F32, (size_t)m * (size_t)n, 1);
	int a = gl_launch_add_buffer(l, "A", GL_F16, (size_t)m * (size_t)k, 0);
	int b = gl_launch_add_buffer(l, "B", GL_F16, (size_t)k * (size_t)n, 0);
	if (gl_launch_check(l, err) || gl_fill_random_f16(l->buffers[a].host, l->buffers[a].count, p->seed, err) ||
	    gl_fill_random_f16(l->buffers[b].host, l->buffers[b].count, p->seed + 1, err))
		return err->status;
	gl_launch_arg_buffer(l, c);
	gl_launch_arg_buffer(l, a);
	gl_launch_arg_buffer(l, b);
	gl_launch_arg_scalar(l, (uint32_t)m, 4);
	gl_launch_arg_scalar(l, (uint32_t)n, 4);
	gl_launch_arg_scalar(l, (uint32_t)k, 4);
	gl_geometry_apply(g, 0, l);
	return GL_OK;
}

static float *widen(const uint16_t *h, size_t n, bool absolute)
{
	float *f = malloc((n ? n : 1) * sizeof *f);
	for (size_t i = 0; f && i < n; i++)
		f[i] = absolute ? fabsf(gl_f16_to_f32(h[i])) : gl_f16_to_f32(h[i]);
	return f;
}

static void free_all(float **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
}

/* A product of two fp16 values is exact in fp32 (11 + 11 significant bits), so the kernel and the
 * reference differ only in how their fp32 sums round: a k-term sum is off by at most about
 * k * 2^-24 * sum |a||b| (Higham, gamma_k), each side in its own direction, so the tolerance is
 * atol + rtol * (k + 1) * (|A||B|)[i][j] with rtol = 2^-23. */
static int verify(const struct gl_variant *v, const struct gl_problem *p, const struct gl_launch *l,
		  const struct gl_topic *t, struct gl_verify *out, struct gl_err *err)
{
	(void)v;
	int m = (int)p->v[P_M], n = (int)p->v[P_N], k = (int)p->v[P_K];
	size_t mn = (size_t)m * (size_t)n, mk = (size_t)m * (size_t)k, kn = (size_t)k * (size_t)n;
	const float *got = l->buffers[0].host;
	const uint16_t *a16 = l->buffers[1].host, *b16 = l->buffers[2].host;
	float *a = widen(a16, mk, false), *b = widen(b16, kn, false);
	float *abs_a = widen(a16, mk, true), *abs_b = widen(b16, kn, true);
	float *ref = calloc(mn ? mn : 1, sizeof *ref), *bound = calloc(mn ? mn : 1, sizeof *bound);
	float *all[] = {a, b, abs_a, abs_b, ref, bound};
	if (!a || !b || !abs_a || !abs_b || !ref || !bound) {
		free_all(all, GL_ARRAY_LEN(all));
		return gl_oom_error(err, "the CPU reference", 4.0 * (2.0 * (double)(mk + kn) + 2.0 * (double)mn));
	}
	gl_gemm_ref(m, n, k, 1.0f, a, b, 0.0f, ref);
	gl_gemm_ref(m, n, k, 1.0f, abs_a, abs_b, 0.0f, bound);
	memset(out, 0, sizeof *out);
	out->ok = true;
	for (size_t i = 0; i < mn; i++) {
		double e = fabs((double)got[i] - ref[i]);
		double rel = ref[i] != 0.0f ? e / fabs(ref[i]) : (e ? INFINITY : 0.0);
		if (isnan(got[i]))
			e = rel = INFINITY;
		out->max_abs_err = e > out->max_abs_err ? e : out->max_abs_err;
		if (isfinite(rel) && rel > out->max_rel_err)
			out->max_rel_err = rel;
		if (e <= t->atol + t->rtol * (k + 1) * (double)bound[i])
			continue;
		if (out->mismatches++ == 0)
			snprintf(out->first_mismatch, sizeof out->first_mismatch,
				 "C[%zu][%zu]: got %.9g, expected %.9g (%s on the fp16 inputs)", i / (size_t)n,
				 i % (size_t)n, got[i], ref[i], gl_gemm_ref_name());
		out->ok = false;
	}
	free_all(all, GL_ARRAY_LEN(all));
	return GL_OK;
}

static double flops(const struct gl_variant *v, const struct gl_problem *p)
{
	(void)v;
	return 2.0 * (double)p->v[P_M] * (double)p->v[P_N] * (double)p->v[P_K];
}

static const struct gl_buffer_shape shapes[] = {{"A", "m", "k"}, {"B", "k", "n"}, {"C", "m", "n"}, {0}};

const struct gl_topic gl_topic_hgemm = {
	.name = "hgemm",
	.summary = "fp16 GEMM with fp32 accumulate on tensor cores: FFMA baseline, wmma, mma.sync, ldmatrix, the "
		   "swizzle, a cp.async pipeline (tensor-core variants: m, n multiples of 64, k of 32)",
	.ptx = gl_ptx_hgemm,
	.res_sm80 = gl_res_sm80_hgemm,
	.res_sm90 = gl_res_sm90_hgemm,
	.params = params,
	.nparams = 3,
	.variants = variants,
	.nvariants = V_COUNT,
	.atol = 1e-6,
	.rtol = FLT_EPSILON, /* 2^-23, times (k + 1) times the element's |A||B|: see verify */
	.check = check,
	.accepts = accepts,
	.geometry = geometry,
	.setup = setup,
	.verify = verify,
	.flops = flops,
	.shapes = shapes,
	.view_size = 64,
	.view = GL_VIEW_MMA,
};
