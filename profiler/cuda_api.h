/* cuda_api.h — the CUDA driver API as a table of function pointers filled by dlopen("libcuda.so.1").
 * gpulab links no CUDA library; tests fill the table with fakes to drive the error paths. */
#ifndef GL_CUDA_API_H
#define GL_CUDA_API_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda.h>

#include "common/err.h"

/* Every driver function gpulab calls.  cuda.h maps some names to versioned symbols
 * (cuMemAlloc -> cuMemAlloc_v2); the table's fields and the dlsym'd names follow that mapping. */
#define GL_CUDA_FUNCS(X)                                                                           \
	X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString) X(cuDeviceGetCount)   \
	X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem)               \
	X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent)                 \
	X(cuCtxSynchronize) X(cuModuleLoadDataEx) X(cuModuleGetFunction) X(cuModuleUnload)          \
	X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH)            \
	X(cuMemsetD8) X(cuLaunchKernel) X(cuEventCreate) X(cuEventRecord) X(cuEventSynchronize)     \
	X(cuEventElapsedTime) X(cuEventDestroy)

#define GL_CUDA_FIELD(f) typeof(&f) f;

struct gl_cuda_api {
	void *lib; /* dlopen handle, NULL for a table of fakes */
	GL_CUDA_FUNCS(GL_CUDA_FIELD)
	/* Optional: CUPTI and the CUDA runtime reach NVIDIA's driver through it; a libcuda.so.1 without
	 * it can run kernels but cannot be profiled. */
	typeof(&cuGetExportTable) cuGetExportTable;
};

/* dlopen libcuda.so.1 and resolve every function; false with what is missing in `why`.  The library
 * stays loaded for the life of the process once opened (RTLD_NODELETE): after cuInit the driver
 * runs threads of its own, and unloading it under them crashes at exit. */
bool gl_cuda_api_open(struct gl_cuda_api *api, char *why, size_t n);
/* The same as a gpulab error: GL_EENV with the reason and the fix. */
int gl_cuda_api_load(struct gl_cuda_api *api, struct gl_err *err);
void gl_cuda_api_unload(struct gl_cuda_api *api);

/* "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected" (falls back to the number). */
void gl_cuda_result_text(const struct gl_cuda_api *api, CUresult r, char *buf, size_t n);

/* cuInit(0) and at least one device.  On false `why` says what is missing and how to fix it;
 * on true it names the device count.  Never calls into CUPTI. */
bool gl_cuda_usable(const struct gl_cuda_api *api, int *ndevices, char *why, size_t n);

/* Load the library and check it is usable, in one step (the backend's probe); `why` states the
 * finding without advice, for "backend sim: ..." and "--backend cuda needs a GPU: ..." lines.
 * A driver too old for the embedded PTX is not usable (see gl_cuda_ptx_check). */
bool gl_cuda_probe(char *why, size_t n);

/* Can CUPTI's target side (chip name, counters, activity) work with this driver?  NVIDIA's driver
 * exports cuGetExportTable, through which CUPTI talks to it; without it, or when the library is gpulab's
 * own driver (it exports `gpulab_driver`), CUPTI's target calls are not made (they would crash or fail
 * inside CUPTI).  On false `why` says so. */
bool gl_cuda_profilable(const struct gl_cuda_api *api, char *why, size_t n);

/* GL_OK when a driver of CUDA version `driver` can JIT `ptx` (its .version); otherwise GL_EENV
 * naming the PTX ISA, the driver it needs and the fix.  `what` names the module in the message. */
int gl_cuda_ptx_check(int driver, const char *ptx, const char *what, struct gl_err *err);

/* The newest PTX ISA among the embedded topics (major*10+minor) and the CUDA version it needs. */
int gl_cuda_embedded_ptx(int *cuda_version);

#endif
