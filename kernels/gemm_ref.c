/* gemm_ref.c — the gemm topic's CPU reference: OpenBLAS (cblas_sgemm) when CMake found it
 * (GPULAB_HAVE_CBLAS), else a plain loop in double precision, rounded once per element. */
#include "gemm_ref.h"

#ifdef GPULAB_HAVE_CBLAS
#include <cblas.h>

void gl_gemm_ref_ld(int m, int n, int k, float alpha, const float *a, int lda, const float *b, int ldb, float beta,
		    float *c, int ldc)
{
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gl_gemm_ref(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
	gl_gemm_ref_ld(m, n, k, alpha, a, k, b, n, beta, c, n);
}

const char *gl_gemm_ref_name(void)
{
	return "OpenBLAS cblas_sgemm";
}
#else
#include <stddef.h>
#include <stdlib.h>

#include "common/util.h"

void gl_gemm_ref_ld(int m, int n, int k, float alpha, const float *a, int lda, const float *b, int ldb, float beta,
		    float *c, int ldc)
{
	double *row = gl_xcalloc((size_t)n, sizeof *row);
	for (int i = 0; i < m; i++) {
		for (int j = 0; j < n; j++)
			row[j] = 0.0;
		for (int p = 0; p < k; p++) { /* i-p-j order: B is read along its rows */
			double av = a[(size_t)i * lda + p];
			const float *brow = &b[(size_t)p * ldb];
			for (int j = 0; j < n; j++)
				row[j] += av * brow[j];
		}
		for (int j = 0; j < n; j++)
			c[(size_t)i * ldc + j] = (float)(alpha * row[j] + beta * c[(size_t)i * ldc + j]);
	}
	free(row);
}

void gl_gemm_ref(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
	gl_gemm_ref_ld(m, n, k, alpha, a, k, b, n, beta, c, n);
}

const char *gl_gemm_ref_name(void)
{
	return "C loop (gpulab was built without OpenBLAS)";
}
#endif
