/* cuda_ptxcheck.c — is the driver new enough for the PTX gpulab embeds?  A driver JIT-compiles PTX of
 * its own CUDA version or older; newer PTX fails in cuModuleLoadDataEx with
 * CUDA_ERROR_UNSUPPORTED_PTX_VERSION, so gpulab checks cuDriverGetVersion first and says which driver
 * is needed. */
#include <stdio.h>

#include "common/ptx_version.h"
#include "kernels/registry.h"
#include "profiler/cuda_api.h"

int gl_cuda_embedded_ptx(int *cuda_version)
{
	int newest = 0;
	for (const struct gl_topic *const *t = gl_topics; *t; t++) {
		int major, minor;
		if (gl_ptx_text_version((*t)->ptx, &major, &minor) && major * 10 + minor > newest)
			newest = major * 10 + minor;
	}
	*cuda_version = gl_ptx_isa_cuda_version(newest / 10, newest % 10);
	return newest;
}

/* "a CUDA 13.0 driver (Linux 580.65.06 or newer)" */
static void driver_needed(int cuda, char *buf, size_t n)
{
	char v[16];
	const char *linux_min = gl_cuda_min_linux_driver(cuda);
	gl_cuda_version_text(cuda, v, sizeof v);
	if (linux_min)
		snprintf(buf, n, "a CUDA %s driver (Linux %s or newer)", v, linux_min);
	else
		snprintf(buf, n, "a CUDA %s driver or newer", v);
}

int gl_cuda_ptx_check(int driver, const char *ptx, const char *what, struct gl_err *err)
{
	int major, minor, cuda = 0;
	if (ptx) {
		if (!gl_ptx_text_version(ptx, &major, &minor))
			return GL_OK; /* the driver's JIT will say what is wrong */
		cuda = gl_ptx_isa_cuda_version(major, minor);
	} else {
		int isa = gl_cuda_embedded_ptx(&cuda);
		major = isa / 10;
		minor = isa % 10;
	}
	if (cuda == 0 || cuda <= driver) /* an ISA newer than the table: the driver's JIT judges */
		return GL_OK;
	char need[96], have[16];
	gl_cuda_version_text(driver, have, sizeof have);
	driver_needed(cuda, need, sizeof need);
	return gl_errf(err, GL_EENV,
	               "%s's PTX (ISA %d.%d) needs %s; this driver is CUDA %s: update the NVIDIA "
	               "driver, or use --backend sim",
	               what ? what : "gpulab", major, minor, need, have);
}
