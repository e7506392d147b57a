/* driver_vendor.c — NVIDIA's own GPU libraries (cuBLAS, cuBLASLt, cuSOLVER, cuFFT, cuRAND, cuSPARSE,
 * NPP, cuDNN) ship their kernels as SASS for real GPUs, with no PTX the simulator could run.  When one of
 * them loads a module (the code that called the driver tells which: dladdr of the return address), the
 * module's "why" names the library and what to do, instead of the fatbinary's architectures; the library
 * then fails with its own error (CuPy raises CUBLASError for `a @ b`), and the program goes on. */
#define _GNU_SOURCE
#include "driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *prefix; /* of the shared object's file name */
	const char *name;
	const char *uses;   /* what a Python user reaches it through */
} vendors[] = {
	{"libcublasLt", "cuBLASLt", "behind CuPy's @, dot and matmul"},
	{"libcublas", "cuBLAS", "behind CuPy's @, dot, matmul and linalg"},
	{"libcusolver", "cuSOLVER", "behind CuPy's linalg (solve, inv, svd, eigh)"},
	{"libcufft", "cuFFT", "behind CuPy's fft"},
	{"libcurand", "cuRAND", "behind CuPy's random generators"},
	{"libcusparse", "cuSPARSE", "behind cupyx.scipy.sparse"},
	{"libnpp", "NPP", "NVIDIA's image processing library"},
	{"libcudnn", "cuDNN", "behind deep-learning layers"},
};

void drv_vendor_why(struct CUmod_st *mod, const void *caller)
{
	Dl_info info;
	if (!mod || mod->m || !caller || !dladdr(caller, &info) || !info.dli_fname)
		return;
	const char *file = strrchr(info.dli_fname, '/');
	file = file ? file + 1 : info.dli_fname;
	for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; i++) {
		if (strncmp(file, vendors[i].prefix, strlen(vendors[i].prefix)) != 0)
			continue;
		char *why = NULL;
		if (asprintf(&why, "%s (%s, %s) is not supported on gpulab's simulator: its kernels are SASS for "
			     "real GPUs, with no PTX for the simulated one; write the operation as a kernel of your own "
			     "(CuPy RawKernel or ElementwiseKernel, Numba @cuda.jit), or profile on a GPU", vendors[i].name,
			     file, vendors[i].uses) < 0)
			return;
		drv_lock();
		free(mod->why);
		mod->why = why;
		drv_unlock();
		return;
	}
}
