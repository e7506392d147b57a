/* cuda_api.c — dlopen of the CUDA driver and the "is there a usable GPU" check. */
#define _GNU_SOURCE
#include "profiler/cuda_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ptx_version.h"

#define GL_STR2(x) #x
#define GL_STR(x) GL_STR2(x) /* stringify after expansion: cuMemAlloc -> "cuMemAlloc_v2" */

bool gl_cuda_api_open(struct gl_cuda_api *api, char *why, size_t n)
{
	memset(api, 0, sizeof *api);
	/* when libcuda.so.1 is gpulab's own driver library, gpulab's run stores these launches itself: the
	 * library must not record them as a program's (driver/driver_profile.c); NVIDIA's ignores it */
	setenv("GPULAB_PROFILE", "0", 1);
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!lib) {
		const char *e = dlerror();
		snprintf(why, n, "no CUDA driver: libcuda.so.1 cannot be loaded (%s)", e ? e : "not found");
		return false;
	}
	api->lib = lib;
	const char *missing = NULL;
#define GL_CUDA_RESOLVE(f)                                                  \
	api->f = (typeof(&f))dlsym(lib, GL_STR(f));                         \
	if (!api->f && !missing)                                            \
		missing = GL_STR(f);
	GL_CUDA_FUNCS(GL_CUDA_RESOLVE)
#undef GL_CUDA_RESOLVE
	api->cuGetExportTable = (typeof(&cuGetExportTable))dlsym(lib, "cuGetExportTable");
	if (missing) {
		gl_cuda_api_unload(api);
		snprintf(why, n, "the CUDA driver is too old: libcuda.so.1 lacks %s (gpulab needs a CUDA 13 driver, "
			 "580 or newer)", missing);
		return false;
	}
	return true;
}

int gl_cuda_api_load(struct gl_cuda_api *api, struct gl_err *err)
{
	char why[512];
	if (gl_cuda_api_open(api, why, sizeof why))
		return GL_OK;
	return gl_errf(err, GL_EENV, "%s; install or update the NVIDIA driver on a machine with a GPU, or use "
		       "--backend sim", why);
}

void gl_cuda_api_unload(struct gl_cuda_api *api)
{
	if (api->lib)
		dlclose(api->lib); /* drops the reference only: RTLD_NODELETE keeps the driver mapped */
	memset(api, 0, sizeof *api);
}

void gl_cuda_result_text(const struct gl_cuda_api *api, CUresult r, char *buf, size_t n)
{
	const char *name = NULL, *text = NULL;
	if (api->cuGetErrorName)
		api->cuGetErrorName(r, &name);
	if (api->cuGetErrorString)
		api->cuGetErrorString(r, &text);
	if (name && text)
		snprintf(buf, n, "%s: %s", name, text);
	else if (name)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "CUDA error %d", (int)r);
}

/* cuInit failures a user can act on, with the fix. */
static const char *init_hint(CUresult r)
{
	switch (r) {
	case CUDA_ERROR_NO_DEVICE:
		return "no NVIDIA GPU is visible (check nvidia-smi and CUDA_VISIBLE_DEVICES), or use --backend sim";
	case CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER:
		return "the NVIDIA driver is older than CUDA 13 needs; update it (580 or newer)";
	case CUDA_ERROR_STUB_LIBRARY:
		return "the loaded libcuda.so.1 is the toolkit's stub; remove lib64/stubs from LD_LIBRARY_PATH";
	case CUDA_ERROR_DEVICE_UNAVAILABLE:
		return "the GPU is busy in exclusive-process mode or lost; check nvidia-smi";
	case CUDA_ERROR_NOT_PERMITTED:
	case CUDA_ERROR_NOT_SUPPORTED:
	case CUDA_ERROR_DEVICE_NOT_LICENSED:
		return "the driver refuses this process; check the container's GPU access (--gpus)";
	case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
		return "the kernel module and libcuda versions differ; reboot or reinstall the driver";
	default:
		return "check nvidia-smi; use --backend sim meanwhile";
	}
}

bool gl_cuda_usable(const struct gl_cuda_api *api, int *ndevices, char *why, size_t n)
{
	char text[256];
	int count = 0;
	*ndevices = 0;
	CUresult r = api->cuInit(0);
	if (r != CUDA_SUCCESS) {
		gl_cuda_result_text(api, r, text, sizeof text);
		snprintf(why, n, "cuInit failed (%s); %s", text, init_hint(r));
		return false;
	}
	r = api->cuDeviceGetCount(&count);
	if (r != CUDA_SUCCESS || count <= 0) {
		snprintf(why, n, "the CUDA driver sees no device; %s", init_hint(CUDA_ERROR_NO_DEVICE));
		return false;
	}
	*ndevices = count;
	int version = 0;
	api->cuDriverGetVersion(&version);
	snprintf(why, n, "CUDA driver %d.%d with %d device%s", version / 1000, version % 1000 / 10, count,
		 count == 1 ? "" : "s");
	return true;
}

bool gl_cuda_probe(char *why, size_t n)
{
	struct gl_cuda_api api;
	if (!gl_cuda_api_open(&api, why, n))
		return false;
	int count, driver = 0;
	bool ok = gl_cuda_usable(&api, &count, why, n);
	struct gl_err err = {0};
	if (ok && api.cuDriverGetVersion(&driver) == CUDA_SUCCESS && gl_cuda_ptx_check(driver, NULL, NULL, &err) != GL_OK) {
		snprintf(why, n, "%s", err.msg);
		ok = false;
	}
	gl_cuda_api_unload(&api);
	return ok;
}

bool gl_cuda_profilable(const struct gl_cuda_api *api, char *why, size_t n)
{
	if (api->lib && dlsym(api->lib, "gpulab_driver")) {
		snprintf(why, n, "this libcuda.so.1 is gpulab's own driver library (kernels run on the simulator, "
			 "docs/driver.md), not NVIDIA's, so CUPTI cannot profile with it");
		return false;
	}
	if (api->cuGetExportTable)
		return true;
	snprintf(why, n, "this libcuda.so.1 is not NVIDIA's driver (it lacks cuGetExportTable, through which CUPTI "
		 "reaches the GPU), so CUPTI cannot profile with it");
	return false;
}
