/* cublas_ref.h — the vendor baseline for the hgemm topic: cuBLAS's cublasGemmEx with fp16 A and B,
 * fp32 C and CUBLAS_COMPUTE_32F, on the same row-major problem, timed with CUDA events.  libcublas is
 * dlopen'd at run time like libcuda and libcupti: gpulab links no CUDA library. */
#ifndef GL_CUBLAS_REF_H
#define GL_CUBLAS_REF_H

#include "common/err.h"

struct gl_cublas_timing {
	double ms;       /* mean time of one call over `repeat` calls, after one warm-up call */
	double tflops;   /* 2 m n k / time */
	char device[128];
	char library[512]; /* the libcublas path that was opened */
};

/* Time C (m x n, fp32) = A (m x k, fp16) * B (k x n, fp16), row-major, on GPU 0.  GL_EENV when there
 * is no usable GPU or no libcublas (naming what was tried), or when a CUDA or cuBLAS call fails. */
int gl_cublas_hgemm_time(long m, long n, long k, int repeat, struct gl_cublas_timing *out, struct gl_err *err);

#endif
