/* cuda_doctor.c — the checks, each a small function filling one line. */
#define _GNU_SOURCE
#include "profiler/cuda_perm.h"
#include "profiler/profiler.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/ptx_version.h"
#include "profiler/cuda_api.h"
#include "profiler/cupti_host.h"

static void set(struct gl_doctor_check *c, const char *name, enum gl_check s, const char *detail)
{
	c->name = name;
	c->status = s;
	snprintf(c->detail, sizeof c->detail, "%s", detail);
}

/* Is the driver new enough for gpulab's PTX?  Otherwise every launch would fail in cuModuleLoadDataEx. */
static void check_ptx(struct gl_doctor_check *out, const struct gl_cuda_api *cu)
{
	int driver = 0, cuda = 0;
	struct gl_err err = {0};
	char need[16], have[16];
	out->name = "ptx";
	if (cu->cuDriverGetVersion(&driver) != CUDA_SUCCESS) {
		out->status = GL_CHECK_WARN;
		snprintf(out->detail, sizeof out->detail, "cuDriverGetVersion failed: the driver's PTX support is unknown");
		return;
	}
	int isa = gl_cuda_embedded_ptx(&cuda);
	gl_cuda_version_text(cuda, need, sizeof need);
	gl_cuda_version_text(driver, have, sizeof have);
	if (gl_cuda_ptx_check(driver, NULL, NULL, &err) != GL_OK) {
		out->status = GL_CHECK_FAIL;
		snprintf(out->detail, sizeof out->detail, "%s", err.msg);
		return;
	}
	out->status = GL_CHECK_OK;
	snprintf(out->detail, sizeof out->detail, "gpulab's PTX is ISA %d.%d, which needs CUDA %s; the driver is CUDA %s",
		 isa / 10, isa % 10, need, have);
}

static int check_driver(struct gl_doctor_check *out, struct gl_cuda_api *cu)
{
	struct gl_err err = {0};
	char why[512];
	int count = 0;
	if (gl_cuda_api_load(cu, &err) != GL_OK) {
		set(&out[0], "libcuda", GL_CHECK_FAIL, err.msg);
		set(&out[1], "device", GL_CHECK_FAIL, "skipped: no CUDA driver (gpulab run --backend sim works without one)");
		return 2;
	}
	Dl_info where;
	if (dladdr((void *)cu->cuInit, &where) && where.dli_fname)
		snprintf(out[0].detail, sizeof out[0].detail, "libcuda.so.1 loaded from %.900s", where.dli_fname);
	else
		snprintf(out[0].detail, sizeof out[0].detail, "libcuda.so.1 loaded");
	out[0].name = "libcuda";
	out[0].status = GL_CHECK_OK;
	if (!gl_cuda_usable(cu, &count, why, sizeof why)) {
		set(&out[1], "device", GL_CHECK_FAIL, why);
		return 2;
	}
	char name[128] = "";
	CUdevice dev;
	if (cu->cuDeviceGet(&dev, 0) == CUDA_SUCCESS)
		cu->cuDeviceGetName(name, sizeof name, dev);
	snprintf(out[1].detail, sizeof out[1].detail, "%s; GPU 0 is %s", why, name);
	out[1].name = "device";
	out[1].status = GL_CHECK_OK;
	check_ptx(&out[2], cu);
	if (gl_cuda_profilable(cu, why, sizeof why))
		return 3;
	set(&out[3], "profiling", GL_CHECK_WARN, why); /* runs work, timings only */
	return 4;
}

static int check_cupti(struct gl_doctor_check *out, struct gl_cupti_api *api)
{
	struct gl_err err = {0};
	char version[64];
	const char *const *chips = NULL;
	size_t n = 0;
	if (gl_cupti_api_load(api, &err) != GL_OK) {
		set(&out[0], "cupti", GL_CHECK_FAIL, err.msg);
		return 1;
	}
	gl_cupti_version_text(api, version, sizeof version);
	snprintf(out[0].detail, sizeof out[0].detail, "%s, version %s", api->path, version);
	out[0].name = "cupti";
	out[0].status = GL_CHECK_OK;
	if (gl_cupti_chips(api, &chips, &n, &err) != GL_OK || n == 0) {
		set(&out[1], "cupti host", GL_CHECK_FAIL,
		    "CUPTI's host API (libnvperf_host.so next to libcupti) does not work: 'gpulab metrics' and "
		    "metric collection need it; reinstall the CUDA toolkit's CUPTI");
	} else {
		snprintf(out[1].detail, sizeof out[1].detail, "host API knows %zu chips (%s ... %s)", n, chips[0],
			 chips[n - 1]);
		out[1].name = "cupti host";
		out[1].status = GL_CHECK_OK;
	}
	gl_cupti_api_unload(api);
	return 2;
}

static int check_permission(struct gl_doctor_check *out)
{
	out->name = "permission";
	out->status = gl_cuda_profiling_permission(GL_NVIDIA_PARAMS, (unsigned)geteuid(), out->detail,
						   sizeof out->detail);
	return 1;
}

static int check_nvcc(struct gl_doctor_check *out)
{
	char cmd[600], line[256], release[64] = "";
	snprintf(cmd, sizeof cmd, "'%s' --version 2>/dev/null", GPULAB_NVCC);
	FILE *p = access(GPULAB_NVCC, X_OK) == 0 ? popen(cmd, "r") : NULL;
	while (p && fgets(line, sizeof line, p)) {
		const char *r = strstr(line, "release ");
		if (r && sscanf(r, "release %63[^,\n]", release) == 1)
			break;
	}
	if (p)
		pclose(p);
	out->name = "nvcc";
	if (!release[0]) {
		out->status = GL_CHECK_WARN;
		snprintf(out->detail, sizeof out->detail, "%s not runnable: only rebuilding gpulab's kernels needs it "
			 "(install the CUDA toolkit, or configure with -DCUDA_HOME=...)", GPULAB_NVCC);
		return 1;
	}
	out->status = GL_CHECK_OK;
	snprintf(out->detail, sizeof out->detail, "%s (release %s)", GPULAB_NVCC, release);
	return 1;
}

size_t gl_cuda_doctor(struct gl_doctor_check *out, size_t max)
{
	struct gl_cuda_api cu;
	struct gl_cupti_api cupti;
	size_t n = 0;
	if (max < 8)
		return 0;
	n += (size_t)check_driver(out + n, &cu);
	n += (size_t)check_cupti(out + n, &cupti);
	n += (size_t)check_permission(out + n);
	n += (size_t)check_nvcc(out + n);
	if (cu.lib)
		gl_cuda_api_unload(&cu);
	return n;
}
