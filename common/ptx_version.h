/* ptx_version.h — which CUDA driver can JIT a PTX module: the module's `.version` (PTX ISA) and the
 * CUDA release that introduced each PTX ISA version (PTX ISA manual, "Release Notes").  A driver
 * compiles PTX of its own CUDA version or older; newer PTX fails with
 * CUDA_ERROR_UNSUPPORTED_PTX_VERSION in cuModuleLoadDataEx. */
#ifndef GL_PTX_VERSION_H
#define GL_PTX_VERSION_H

#include <stddef.h>

/* The `.version MAJOR.MINOR` directive of PTX text; 0 when there is none. */
int gl_ptx_text_version(const char *ptx, int *major, int *minor);

/* The CUDA version, as cuDriverGetVersion reports it (13000 = 13.0), that introduced PTX ISA
 * MAJOR.MINOR; 0 when the ISA version is not in the table (newer than gpulab knows). */
int gl_ptx_isa_cuda_version(int major, int minor);

/* The newest PTX ISA a driver of `cuda_version` compiles, as major*10+minor (90 = 9.0); 0 if older
 * than the table. */
int gl_ptx_isa_for_driver(int cuda_version);

/* The oldest Linux driver of a CUDA release (CUDA Toolkit release notes, "CUDA Toolkit and
 * Corresponding Driver Versions"), "580.65.06" for 13000; NULL when not in the table. */
const char *gl_cuda_min_linux_driver(int cuda_version);

/* "13.0" from 13000. */
void gl_cuda_version_text(int cuda_version, char *buf, size_t n);

#endif
