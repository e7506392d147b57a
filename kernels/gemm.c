/* gemm.c — harness of the gemm topic (kernels/gemm.cu): C = alpha*A*B + beta*C with alpha = 1 and
 * beta = 0.5, A (m x k), B (k x n) and C (m x n) row-major floats, all three random and non-uniform.
 * naive .. blocktile2d guard their edges and take any size; vectorized and warptile move float4s and,
 * like CUTLASS kernels whose can_implement() checks alignment, refuse n or k that are not multiples of 4.
 * The output is checked against gl_gemm_ref (OpenBLAS) element by element, within the rounding error
 * bound of a k-term dot product (see verify). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "gemm_ref.h"
#include "registry.h"

extern const char gl_ptx_gemm[], gl_res_sm80_gemm[], gl_res_sm90_gemm[];

#define GEMM_ALPHA 1.0f
#define GEMM_BETA 0.5f
#define VERIFY_ROWS 64  /* rows of C verified at a time */
#define VERIFY_COLS 256 /* columns of |B| taken at a time for the error bound */

enum { P_M, P_N, P_K };
enum { V_NAIVE, V_COALESCED, V_SMEM, V_BLOCKTILE1D, V_BLOCKTILE2D, V_VECTORIZED, V_WARPTILE, V_COUNT };

static const struct gl_param params[] = {
	[P_M] = {"m", "rows of A and C", 256, 1, 16384, true},
	[P_N] = {"n", "columns of B and C", 256, 1, 16384, true},
	[P_K] = {"k", "columns of A, rows of B (the reduction)", 256, 1, 16384, true},
};

static const struct gl_variant variants[] = {
	[V_NAIVE] = {"naive", "gemm_naive",
		     "thread per C element, warp lanes down a column: 32 sectors per A load (any size)"},
	[V_COALESCED] = {"coalesced", "gemm_coalesced",
			 "warp lanes along a row: A broadcast, B and C coalesced (any size)"},
	[V_SMEM] = {"smem", "gemm_smem", "32x32 tiles of A and B staged in shared memory (any size)"},
	[V_BLOCKTILE1D] = {"blocktile1d", "gemm_blocktile1d",
			   "64x64 block tile, 8 outputs per thread down a column (any size)"},
	[V_BLOCKTILE2D] = {"blocktile2d", "gemm_blocktile2d",
			   "128x128 block tile, 8x8 outputs per thread: an outer product in registers (any size)"},
	[V_VECTORIZED] = {"vectorized", "gemm_vectorized",
			  "blocktile2d with float4 loads/stores and a transposed A tile (n, k multiples of 4)"},
	[V_WARPTILE] = {"warptile", "gemm_warptile",
			"CUTLASS-style block, warp and thread tiles: 128x128x16, 64x64, 8x4 (n, k multiples of 4)"},
};

/* Geometry: threads per block (x, y), the C tile one block covers, and whether blockIdx.x walks rows
 * (naive maps lanes to rows) instead of columns. */
static const struct geometry {
	unsigned bx, by;
	long tile_m, tile_n;
	bool x_walks_rows, float4s;
} geometry[V_COUNT] = {
	[V_NAIVE] = {32, 32, 32, 32, true, false},
	[V_COALESCED] = {32, 32, 32, 32, false, false},
	[V_SMEM] = {32, 32, 32, 32, false, false},
	[V_BLOCKTILE1D] = {512, 1, 64, 64, false, false},
	[V_BLOCKTILE2D] = {256, 1, 128, 128, false, false},
	[V_VECTORIZED] = {256, 1, 128, 128, false, true},
	[V_WARPTILE] = {128, 1, 128, 128, false, true},
};

static int check(const struct gl_problem *p, struct gl_err *err)
{
	double m = (double)p->v[P_M], n = (double)p->v[P_N], k = (double)p->v[P_K];
	char what[96];
	snprintf(what, sizeof what, "gemm m=%ld n=%ld k=%ld", p->v[P_M], p->v[P_N], p->v[P_K]);
	/* the launch's A, B, C, and for verify a block of rows of the reference and of the error bound, of |A|
	 * and a block of columns of |B| */
	return gl_check_host_memory(what, 4.0 * (m * k + k * n + m * n + 2.0 * VERIFY_ROWS * n + VERIFY_ROWS * k +
						 k * VERIFY_COLS), err);
}

static bool accepts(const struct gl_variant *v, const struct gl_problem *p, char *rule, size_t size)
{
	long n = p->v[P_N], k = p->v[P_K];
	if (!geometry[v - variants].float4s || (n % 4 == 0 && k % 4 == 0))
		return true;
	snprintf(rule, size, "moves float4s, so rows must start on 16 bytes: --n and --k must be multiples of 4 "
		 "(got n=%ld, k=%ld)", n, k);
	return false;
}

static int refuse_unaligned(const struct gl_variant *v, const struct gl_problem *p, struct gl_err *err)
{
	char rule[160];
	if (accepts(v, p, rule, sizeof rule))
		return GL_OK;
	return gl_errf(err, GL_EUSAGE, "gemm %s %s; naive, coalesced, smem, blocktile1d and blocktile2d take any size "
		       "(--variant naive,coalesced,smem,blocktile1d,blocktile2d)", v->name, rule);
}

static uint32_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static int launch_geometry(const struct gl_variant *v, const struct gl_problem *p, struct gl_geometry *out,
			   struct gl_err *err)
{
	const struct geometry *g = &geometry[v - variants];
	if (refuse_unaligned(v, p, err))
		return err->status;
	long m = p->v[P_M], n = p->v[P_N];
	unsigned tiles_m = (unsigned)((m + g->tile_m - 1) / g->tile_m);
	unsigned tiles_n = (unsigned)((n + g->tile_n - 1) / g->tile_n);
	gl_geometry_add(out, v->entry, g->x_walks_rows ? tiles_m : tiles_n, g->x_walks_rows ? tiles_n : tiles_m, 1, g->bx,
			g->by, 0);
	return GL_OK;
}

static int setup(const struct gl_variant *v, const struct gl_problem *p, const struct gl_geometry *geo,
		 struct gl_launch *l, struct gl_err *err)
{
	(void)v; /* its geometry says what differs between the variants */
	long m = p->v[P_M], n = p->v[P_N], k = p->v[P_K];
	int c = gl_launch_add_buffer(l, "C", GL_F32, (size_t)m * (size_t)n, 1);
	int a = gl_launch_add_buffer(l, "A", GL_F32, (size_t)m * (size_t)k, 0);
	int b = gl_launch_add_buffer(l, "B", GL_F32, (size_t)k * (size_t)n, 0);
	if (gl_launch_check(l, err))
		return err->status;
	gl_fill_random_f32(l->buffers[a].host, l->buffers[a].count, p->seed);
	gl_fill_random_f32(l->buffers[b].host, l->buffers[b].count, p->seed + 1);
	gl_fill_random_f32(l->buffers[c].host, l->buffers[c].count, p->seed + 2);
	gl_launch_arg_buffer(l, c);
	gl_launch_arg_buffer(l, a);
	gl_launch_arg_buffer(l, b);
	gl_launch_arg_scalar(l, (uint32_t)m, 4);
	gl_launch_arg_scalar(l, (uint32_t)n, 4);
	gl_launch_arg_scalar(l, (uint32_t)k, 4);
	gl_launch_arg_scalar(l, f32_bits(GEMM_ALPHA), 4);
	gl_launch_arg_scalar(l, f32_bits(GEMM_BETA), 4);
	gl_geometry_apply(geo, 0, l);
	return GL_OK;
}

/* |x| of a rows x cols block of a row-major matrix whose rows are ld floats apart, packed. */
static void absolute_block(const float *x, size_t ld, size_t rows, size_t cols, float *out)
{
	for (size_t i = 0; i < rows; i++)
		for (size_t j = 0; j < cols; j++)
			out[i * cols + j] = fabsf(x[i * ld + j]);
}

/* Check rows i0.. of C (got) against their reference and error bound (rows x n, packed). */
static void compare_rows(const float *got, const float *ref, const float *bound, size_t i0, size_t rows, size_t n,
			 int k, const struct gl_topic *t, struct gl_verify *out)
{
	for (size_t r = 0; r < rows * n; r++) {
		size_t i = i0 * n + r;
		double e = fabs((double)got[i] - ref[r]);
		double rel = ref[r] != 0.0f ? e / fabs(ref[r]) : (e ? INFINITY : 0.0);
		if (isnan(got[i]))
			e = rel = INFINITY;
		out->max_abs_err = e > out->max_abs_err ? e : out->max_abs_err;
		if (isfinite(rel) && rel > out->max_rel_err)
			out->max_rel_err = rel;
		if (e <= t->atol + t->rtol * (k + 2) * (double)bound[r])
			continue;
		if (out->mismatches++ == 0)
			snprintf(out->first_mismatch, sizeof out->first_mismatch,
				 "C[%zu][%zu]: got %.9g, expected %.9g (%s)", i / n, i % n, got[i], ref[r],
				 gl_gemm_ref_name());
		out->ok = false;
	}
}

/* Error bound per element: a k-term dot product in float, rounded at each step, is off by at most
 * about k * 2^-24 * (|alpha| |A||B| + |beta| |C0|) (Higham, gamma_k); the GPU and OpenBLAS may each be
 * that far off in different directions, and the epilogue adds two roundings, so the tolerance is
 * atol + rtol * (k + 2) * bound with rtol = 2^-23.
 * C is checked VERIFY_ROWS rows at a time (C0's rows regenerated from its seed, |A| and |B| taken by
 * block), so verifying holds a few hundred KiB besides the launch's buffers, not four more matrices. */
static int verify(const struct gl_variant *v, const struct gl_problem *p, const struct gl_launch *l,
		  const struct gl_topic *t, struct gl_verify *out, struct gl_err *err)
{
	(void)v;
	int m = (int)p->v[P_M], n = (int)p->v[P_N], k = (int)p->v[P_K];
	const float *got = l->buffers[0].host, *a = l->buffers[1].host, *b = l->buffers[2].host;
	size_t rb = m < VERIFY_ROWS ? (size_t)m : VERIFY_ROWS, nb = n < VERIFY_COLS ? (size_t)n : VERIFY_COLS;
	float *ref = malloc((rb * (size_t)n + 1) * sizeof *ref), *bound = malloc((rb * (size_t)n + 1) * sizeof *bound);
	float *abs_a = malloc((rb * (size_t)k + 1) * sizeof *abs_a), *abs_b = malloc(((size_t)k * nb + 1) * sizeof *abs_b);
	if (!ref || !bound || !abs_a || !abs_b) {
		free(ref);
		free(bound);
		free(abs_a);
		free(abs_b);
		return gl_oom_error(err, "the CPU reference", 4.0 * (2.0 * (double)rb * n + (double)rb * k + (double)k * nb));
	}
	memset(out, 0, sizeof *out);
	out->ok = true;
	uint64_t c0 = gl_random_state(p->seed + 2); /* C as it was before the kernel, row block by row block */
	for (size_t i0 = 0; i0 < (size_t)m; i0 += rb) {
		size_t rows = (size_t)m - i0 < rb ? (size_t)m - i0 : rb;
		gl_random_f32_next(&c0, ref, rows * (size_t)n);
		absolute_block(ref, (size_t)n, rows, (size_t)n, bound);
		absolute_block(a + i0 * (size_t)k, (size_t)k, rows, (size_t)k, abs_a);
		gl_gemm_ref_ld((int)rows, n, k, GEMM_ALPHA, a + i0 * (size_t)k, k, b, n, GEMM_BETA, ref, n);
		for (size_t j0 = 0; j0 < (size_t)n; j0 += nb) {
			size_t cols = (size_t)n - j0 < nb ? (size_t)n - j0 : nb;
			absolute_block(b + j0, (size_t)n, (size_t)k, cols, abs_b);
			gl_gemm_ref_ld((int)rows, (int)cols, k, fabsf(GEMM_ALPHA), abs_a, k, abs_b, (int)cols,
				       fabsf(GEMM_BETA), bound + j0, n);
		}
		compare_rows(got, ref, bound, i0, rows, (size_t)n, k, t, out);
	}
	free(ref);
	free(bound);
	free(abs_a);
	free(abs_b);
	return GL_OK;
}

/* 2mnk in the K loop, and the epilogue's two multiplies and one add per element of C. */
static double flops(const struct gl_variant *v, const struct gl_problem *p)
{
	(void)v;
	double m = (double)p->v[P_M], n = (double)p->v[P_N], k = (double)p->v[P_K];
	return 2.0 * m * n * k + 3.0 * m * n;
}

static const struct gl_buffer_shape shapes[] = {{"A", "m", "k"}, {"B", "k", "n"}, {"C", "m", "n"}, {0}};

const struct gl_topic gl_topic_gemm = {
	.name = "gemm",
	.summary = "SGEMM C = 1.0*A*B + 0.5*C, naive to warp tiles: coalescing, shared-memory tiling, register "
		   "blocking, float4, CUTLASS's hierarchy",
	.ptx = gl_ptx_gemm,
	.res_sm80 = gl_res_sm80_gemm,
	.res_sm90 = gl_res_sm90_gemm,
	.params = params,
	.nparams = 3,
	.variants = variants,
	.nvariants = V_COUNT,
	.atol = 1e-6,
	.rtol = FLT_EPSILON, /* 2^-23, times (k + 2) times the element's bound: see verify */
	.check = check,
	.accepts = accepts,
	.geometry = launch_geometry,
	.setup = setup,
	.verify = verify,
	.flops = flops,
	.shapes = shapes,
	.view_size = 256, /* several CTAs of every variant's tile (warptile's 128x128: 2x2) */
	.view = GL_VIEW_GEMM,
};
