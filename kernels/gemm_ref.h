/* gemm_ref.h — the CPU reference of the gemm topic: C = alpha*A*B + beta*C on row-major floats,
 * through OpenBLAS's cblas_sgemm when gpulab was built with it, else a plain C loop. */
#ifndef GL_GEMM_REF_H
#define GL_GEMM_REF_H

/* C (m x n) = alpha * A (m x k) * B (k x n) + beta * C, row-major, leading dimensions k, n, n. */
void gl_gemm_ref(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c);
/* The same on blocks of larger row-major matrices: rows of A, B and C start lda, ldb and ldc floats apart. */
void gl_gemm_ref_ld(int m, int n, int k, float alpha, const float *a, int lda, const float *b, int ldb, float beta,
		    float *c, int ldc);
/* "OpenBLAS cblas_sgemm" or "C loop (built without OpenBLAS)", for notes and docs. */
const char *gl_gemm_ref_name(void);

#endif
