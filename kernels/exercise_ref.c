/* exercise_ref.c — the exercises' CPU references, one small function each; sgemm reuses the gemm topic's
 * reference (gemm_ref.c).  Sums accumulate in double, so the reference is the more exact side. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/half.h"
#include "common/util.h"
#include "kernels/exercise_ref.h"
#include "kernels/gemm_ref.h"

#define F(i) ((float *)io->ptr[i])
#define U(i) ((uint32_t *)io->ptr[i])
#define H(i) ((uint16_t *)io->ptr[i])
#define L(i) ((long)io->num[i])

/* square(x, y, n): y = x * x */
static void square(struct gl_exref_io *io)
{
	for (long i = 0; i < L(2); i++)
		F(1)[i] = F(0)[i] * F(0)[i];
}

/* saxpy(x, y, out, a, n): out = a * x + y */
static void saxpy(struct gl_exref_io *io)
{
	float a = (float)io->num[3];
	for (long i = 0; i < L(4); i++)
		F(2)[i] = fmaf(a, F(0)[i], F(1)[i]);
}

/* copy_view(in, out, rows, cols, ld): out (rows x cols, dense) = the view of in with leading dimension ld */
static void copy_view(struct gl_exref_io *io)
{
	long rows = L(2), cols = L(3), ld = L(4);
	for (long r = 0; r < rows; r++)
		memcpy(F(1) + r * cols, F(0) + r * ld, (size_t)cols * sizeof(float));
}

/* transpose(in, out, rows, cols): out (cols x rows) = in (rows x cols) transposed */
static void transpose(struct gl_exref_io *io)
{
	long rows = L(2), cols = L(3);
	for (long r = 0; r < rows; r++)
		for (long c = 0; c < cols; c++)
			F(1)[c * rows + r] = F(0)[r * cols + c];
}

/* block_sum(x, out, n): out[b] = the sum of block b's blockDim.x elements (the last block's, those < n) */
static void block_sum(struct gl_exref_io *io)
{
	long n = L(2), seg = io->block[0];
	for (size_t b = 0; b < io->count[1]; b++) {
		double s = 0;
		for (long i = (long)b * seg; i < n && i < ((long)b + 1) * seg; i++)
			s += F(0)[i];
		F(1)[b] = (float)s;
	}
}

/* sum(x, out, n): out[0] = the sum of x */
static void sum(struct gl_exref_io *io)
{
	double s = 0;
	for (long i = 0; i < L(2); i++)
		s += F(0)[i];
	F(1)[0] = (float)s;
}

/* scan_block(x, y, n): y = the inclusive prefix sum of x within each block's blockDim.x elements */
static void scan_block(struct gl_exref_io *io)
{
	long n = L(2), seg = io->block[0];
	double s = 0;
	for (long i = 0; i < n; i++) {
		s = i % seg == 0 ? F(0)[i] : s + F(0)[i];
		F(1)[i] = (float)s;
	}
}

/* histogram(x, hist, n, bins): hist[v] = how many x are v (values outside [0, bins) are not counted) */
static void histogram(struct gl_exref_io *io)
{
	long n = L(2), bins = L(3);
	for (long i = 0; i < n; i++)
		if (U(0)[i] < (uint32_t)bins)
			U(1)[U(0)[i]]++;
}

/* sgemm(A, B, C, M, N, K): C (M x N) = A (M x K) * B (K x N), row-major */
static void sgemm(struct gl_exref_io *io)
{
	gl_gemm_ref((int)L(3), (int)L(4), (int)L(5), 1.0f, F(0), F(1), 0.0f, F(2));
}

/* hgemm_nt(A, Bt, C, M, N, K): C (M x N, f32) = A (M x K, f16 row-major) * Bt^T (Bt: N x K, f16 row-major,
 * i.e. B column-major), accumulated in f32 like the tensor cores */
static void hgemm_nt(struct gl_exref_io *io)
{
	long M = L(3), N = L(4), K = L(5);
	for (long i = 0; i < M; i++)
		for (long j = 0; j < N; j++) {
			double s = 0;
			for (long k = 0; k < K; k++)
				s += (double)gl_f16_to_f32(H(0)[i * K + k]) * gl_f16_to_f32(H(1)[j * K + k]);
			F(2)[i * N + j] = (float)s;
		}
}

/* softmax_rows(x, y, rows, cols): each row of y = softmax of that row of x */
static void softmax_rows(struct gl_exref_io *io)
{
	long rows = L(2), cols = L(3);
	for (long r = 0; r < rows; r++) {
		const float *x = F(0) + r * cols;
		double m = -INFINITY, s = 0;
		for (long c = 0; c < cols; c++)
			m = fmax(m, x[c]);
		for (long c = 0; c < cols; c++)
			s += exp(x[c] - m);
		for (long c = 0; c < cols; c++)
			F(1)[r * cols + c] = (float)(exp(x[c] - m) / s);
	}
}

/* attention_causal(q, k, v, o, T): rows of 32; o[i] = sum_{j<=i} softmax_j(q[i].k[j] / sqrt(32)) v[j] */
static void attention_causal(struct gl_exref_io *io)
{
	enum { D = 32 };
	long T = L(4);
	for (long i = 0; i < T; i++) {
		double m = -INFINITY, s = 0, acc[D] = {0};
		for (long j = 0; j <= i; j++) {
			double dot = 0;
			for (int d = 0; d < D; d++)
				dot += (double)F(0)[i * D + d] * F(1)[j * D + d];
			dot /= sqrt((double)D);
			double m2 = fmax(m, dot), scale = exp(m - m2), w = exp(dot - m2);
			s = s * scale + w;
			for (int d = 0; d < D; d++)
				acc[d] = acc[d] * scale + w * F(2)[j * D + d];
			m = m2;
		}
		for (int d = 0; d < D; d++)
			F(3)[i * D + d] = (float)(acc[d] / s);
	}
}

static const struct gl_exref refs[] = {
	{"square", "pps", "y = x * x", square},
	{"saxpy", "pppss", "out = a * x + y", saxpy},
	{"copy_view", "ppsss", "out (rows x cols) = in viewed with leading dimension ld", copy_view},
	{"transpose", "ppss", "out (cols x rows) = in (rows x cols) transposed", transpose},
	{"block_sum", "pps", "out[b] = sum of block b's blockDim.x elements", block_sum},
	{"sum", "pps", "out[0] = sum of x", sum},
	{"scan_block", "pps", "inclusive prefix sum within each block's blockDim.x elements", scan_block},
	{"histogram", "ppss", "hist[v] = count of v in x", histogram},
	{"sgemm", "pppsss", "C = A * B (row-major f32)", sgemm},
	{"hgemm_nt", "pppsss", "C (f32) = A (f16, M x K) * Bt^T (f16, N x K)", hgemm_nt},
	{"softmax_rows", "ppss", "each row of y = softmax of the row of x", softmax_rows},
	{"attention_causal", "pppps", "causal attention of T rows of 32: o = softmax(q k^T / sqrt(32)) v",
	 attention_causal},
};

const struct gl_exref *gl_exref_find(const char *name)
{
	for (size_t i = 0; i < GL_ARRAY_LEN(refs); i++)
		if (strcmp(refs[i].name, name) == 0)
			return &refs[i];
	return NULL;
}

const struct gl_exref *gl_exref_at(size_t i)
{
	return i < GL_ARRAY_LEN(refs) ? &refs[i] : NULL;
}
