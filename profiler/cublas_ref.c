/* cublas_ref.c — cublasGemmEx (fp16 in, fp32 compute and out) timed on GPU 0 through the driver API:
 * the reference the hgemm variants' TFLOP/s are compared with (tests/gpu/check.sh). */
#define _GNU_SOURCE
#include "profiler/profiler.h"

#include <cublas_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "kernels/registry.h"
#include "profiler/cuda_api.h"

struct cublas_api {
	void *lib;
	typeof(&cublasCreate_v2) create;
	typeof(&cublasDestroy_v2) destroy;
	typeof(&cublasGemmEx) gemm_ex;
};

static int cublas_load(struct cublas_api *api, char *path, size_t n, struct gl_err *err)
{
	static const char *const names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
	const char *home = getenv("CUDA_HOME");
	char tried[1024] = "";
	memset(api, 0, sizeof *api);
	for (size_t i = 0; i < 2 * GL_ARRAY_LEN(names) && !api->lib; i++) {
		const char *name = names[i % GL_ARRAY_LEN(names)];
		if (i < GL_ARRAY_LEN(names)) /* the toolkit's copy first, then the loader's search path */
			snprintf(path, n, "%s/lib64/%s", home && *home ? home : GPULAB_CUDA_HOME, name);
		else
			snprintf(path, n, "%s", name);
		api->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
		if (!api->lib && strlen(tried) + strlen(path) + 3 < sizeof tried)
			snprintf(tried + strlen(tried), sizeof tried - strlen(tried), "%s%s", tried[0] ? ", " : "", path);
	}
	if (!api->lib)
		return gl_errf(err, GL_EENV, "cuBLAS not found (tried %s); install the CUDA toolkit's libcublas or set "
			       "CUDA_HOME", tried);
	api->create = (typeof(api->create))dlsym(api->lib, "cublasCreate_v2");
	api->destroy = (typeof(api->destroy))dlsym(api->lib, "cublasDestroy_v2");
	api->gemm_ex = (typeof(api->gemm_ex))dlsym(api->lib, "cublasGemmEx");
	if (!api->create || !api->destroy || !api->gemm_ex)
		return gl_errf(err, GL_EENV, "%s lacks cublasCreate_v2, cublasDestroy_v2 or cublasGemmEx", path);
	return GL_OK;
}

/* A failed driver call as a gpulab error naming the call. */
static int cu_check(const struct gl_cuda_api *cu, CUresult r, const char *what, struct gl_err *err)
{
	if (r == CUDA_SUCCESS)
		return GL_OK;
	char text[160];
	gl_cuda_result_text(cu, r, text, sizeof text);
	return gl_errf(err, GL_EENV, "cuBLAS baseline: %s failed: %s", what, text);
}

struct buffers {
	CUdeviceptr a, b, c;
};

/* Random fp16 inputs (as the hgemm harness makes them) copied to the device; C zeroed. */
static int upload(const struct gl_cuda_api *cu, long m, long n, long k, struct buffers *d, struct gl_err *err)
{
	size_t na = (size_t)m * (size_t)k, nb = (size_t)k * (size_t)n, nc = (size_t)m * (size_t)n;
	if (cu_check(cu, cu->cuMemAlloc(&d->a, 2 * na), "cuMemAlloc(A)", err) ||
	    cu_check(cu, cu->cuMemAlloc(&d->b, 2 * nb), "cuMemAlloc(B)", err) ||
	    cu_check(cu, cu->cuMemAlloc(&d->c, 4 * nc), "cuMemAlloc(C)", err))
		return err->status;
	size_t most = na > nb ? na : nb;
	float *f = gl_xcalloc(most, sizeof *f);
	_Float16 *h = gl_xcalloc(most, sizeof *h);
	int rc = GL_OK;
	for (int i = 0; i < 2 && rc == GL_OK; i++) {
		size_t count = i ? nb : na;
		gl_fill_random_f32(f, count, 20240611u + (uint64_t)i);
		for (size_t j = 0; j < count; j++)
			h[j] = (_Float16)f[j];
		rc = cu_check(cu, cu->cuMemcpyHtoD(i ? d->b : d->a, h, 2 * count), "cuMemcpyHtoD", err);
	}
	free(f);
	free(h);
	return rc ? rc : cu_check(cu, cu->cuMemsetD8(d->c, 0, 4 * nc), "cuMemsetD8(C)", err);
}

/* Row-major C = A B is column-major C^T = B^T A^T: cuBLAS multiplies B (n x k, ld n) by A (k x m, ld k). */
static int gemm(const struct cublas_api *cb, cublasHandle_t h, long m, long n, long k, const struct buffers *d,
		struct gl_err *err)
{
	const float alpha = 1.0f, beta = 0.0f;
	cublasStatus_t s = cb->gemm_ex(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &alpha, (const void *)d->b,
				       CUDA_R_16F, (int)n, (const void *)d->a, CUDA_R_16F, (int)k, &beta, (void *)d->c,
				       CUDA_R_32F, (int)n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
	if (s != CUBLAS_STATUS_SUCCESS)
		return gl_errf(err, GL_EENV, "cuBLAS baseline: cublasGemmEx failed with status %d", (int)s);
	return GL_OK;
}

static int timed(const struct gl_cuda_api *cu, const struct cublas_api *cb, cublasHandle_t h, long m, long n, long k,
		 int repeat, const struct buffers *d, double *ms, struct gl_err *err)
{
	CUevent start = NULL, stop = NULL;
	float elapsed = 0;
	int rc = gemm(cb, h, m, n, k, d, err); /* warm-up: cuBLAS picks and loads its kernel */
	if (rc == GL_OK)
		rc = cu_check(cu, cu->cuCtxSynchronize(), "cuCtxSynchronize", err);
	if (rc == GL_OK && !(rc = cu_check(cu, cu->cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate", err)) &&
	    !(rc = cu_check(cu, cu->cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate", err)) &&
	    !(rc = cu_check(cu, cu->cuEventRecord(start, NULL), "cuEventRecord", err))) {
		for (int i = 0; i < repeat && rc == GL_OK; i++)
			rc = gemm(cb, h, m, n, k, d, err);
		if (rc == GL_OK && !(rc = cu_check(cu, cu->cuEventRecord(stop, NULL), "cuEventRecord", err)) &&
		    !(rc = cu_check(cu, cu->cuEventSynchronize(stop), "cuEventSynchronize", err)))
			rc = cu_check(cu, cu->cuEventElapsedTime(&elapsed, start, stop), "cuEventElapsedTime", err);
	}
	if (start)
		cu->cuEventDestroy(start);
	if (stop)
		cu->cuEventDestroy(stop);
	*ms = (double)elapsed / repeat;
	return rc;
}

int gl_cublas_hgemm_time(long m, long n, long k, int repeat, struct gl_cublas_timing *out, struct gl_err *err)
{
	struct gl_cuda_api cu;
	struct cublas_api cb;
	char why[256];
	int ndev = 0;
	memset(out, 0, sizeof *out);
	if (gl_cuda_api_load(&cu, err))
		return err->status;
	if (!gl_cuda_usable(&cu, &ndev, why, sizeof why)) {
		gl_cuda_api_unload(&cu);
		return gl_errf(err, GL_EENV, "the cuBLAS baseline needs a GPU: %s", why);
	}
	CUdevice dev = 0;
	CUcontext ctx = NULL;
	int rc = cu_check(&cu, cu.cuDeviceGet(&dev, 0), "cuDeviceGet", err);
	if (rc == GL_OK)
		rc = cu_check(&cu, cu.cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain", err);
	if (rc == GL_OK)
		rc = cu_check(&cu, cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent", err);
	if (rc == GL_OK) {
		cu.cuDeviceGetName(out->device, sizeof out->device, dev);
		rc = cublas_load(&cb, out->library, sizeof out->library, err);
	}
	struct buffers d = {0};
	cublasHandle_t h = NULL;
	if (rc == GL_OK)
		rc = upload(&cu, m, n, k, &d, err);
	if (rc == GL_OK && cb.create(&h) != CUBLAS_STATUS_SUCCESS)
		rc = gl_errf(err, GL_EENV, "cuBLAS baseline: cublasCreate failed");
	if (rc == GL_OK)
		rc = timed(&cu, &cb, h, m, n, k, repeat > 0 ? repeat : 1, &d, &out->ms, err);
	if (rc == GL_OK)
		out->tflops = out->ms > 0 ? 2.0 * (double)m * (double)n * (double)k / (out->ms * 1e9) : 0.0;
	if (h)
		cb.destroy(h);
	if (d.a)
		cu.cuMemFree(d.a);
	if (d.b)
		cu.cuMemFree(d.b);
	if (d.c)
		cu.cuMemFree(d.c);
	if (ctx)
		cu.cuDevicePrimaryCtxRelease(dev);
	gl_cuda_api_unload(&cu);
	return rc;
}
