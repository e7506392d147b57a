/* cuda_describe.c — struct gl_device_info from driver attributes (and CUPTI for the chip name). */
#include <stdio.h>
#include <string.h>

#include "profiler/cuda_device.h"
#include "profiler/cupti_device.h"

static int attr(const struct gl_cuda_api *api, CUdevice dev, CUdevice_attribute a)
{
	int v = 0;
	return api->cuDeviceGetAttribute(&v, a, dev) == CUDA_SUCCESS ? v : 0;
}

/* "580.65.06 (CUDA 13.0)": the kernel module's version when /proc tells it. */
static void driver_text(int cuda_version, char *buf, size_t n)
{
	char line[256], module[32] = "";
	FILE *f = fopen("/proc/driver/nvidia/version", "r");
	if (f) {
		if (fgets(line, sizeof line, f)) {
			const char *p = strstr(line, "Kernel Module");
			if (p && sscanf(p + strlen("Kernel Module"), "%31s", module) != 1)
				module[0] = '\0';
		}
		fclose(f);
	}
	if (module[0])
		snprintf(buf, n, "%s (CUDA %d.%d)", module, cuda_version / 1000, cuda_version % 1000 / 10);
	else
		snprintf(buf, n, "CUDA %d.%d", cuda_version / 1000, cuda_version % 1000 / 10);
}

static void add_cupti(const struct gl_cuda_api *api, struct gl_cupti_api *cupti, int ordinal,
		      struct gl_device_info *info)
{
	struct gl_err ignore = {0};
	gl_cupti_version_text(cupti, info->cupti_version, sizeof info->cupti_version);
	if (gl_cupti_device_chip(api, cupti, ordinal, info->chip, sizeof info->chip, &ignore) != GL_OK)
		info->chip[0] = '\0';
}

int gl_cuda_describe(const struct gl_cuda_api *api, struct gl_cupti_api *cupti, int ordinal,
		     struct gl_device_info *info, struct gl_err *err)
{
	CUdevice dev;
	size_t mem = 0;
	int version = 0;
	memset(info, 0, sizeof *info);
	int rc = gl_cuda_fail(api, api->cuDeviceGet(&dev, ordinal), "cuDeviceGet", err);
	if (rc != GL_OK)
		return rc;
	api->cuDeviceGetName(info->name, sizeof info->name, dev);
	api->cuDeviceTotalMem(&mem, dev);
	api->cuDriverGetVersion(&version);
	info->memory_bytes = mem;
	info->sm_count = attr(api, dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	info->cc_major = attr(api, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	info->cc_minor = attr(api, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	info->clock_mhz = attr(api, dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000;
	info->memory_clock_mhz = attr(api, dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1000;
	driver_text(version, info->driver, sizeof info->driver);
	/* gpulab's PTX targets sm_80; ptxas resource usage exists for sm_80 and sm_90 */
	snprintf(info->arch, sizeof info->arch, "%s", info->cc_major >= 9 ? "sm_90" : "sm_80");
	if (cupti && cupti->cuptiGetVersion)
		add_cupti(api, cupti, ordinal, info);
	return GL_OK;
}
