/* cupti_device.c — chip name and counter availability, gated on a working driver. */
#include "profiler/cupti_device.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/util.h"
#include "profiler/cupti_errors.h"

static int need_driver(const struct gl_cuda_api *cu, const char *what, struct gl_err *err)
{
	char why[512];
	int count = 0;
	if (!cu || !cu->cuInit)
		return gl_errf(err, GL_EENV, "%s needs the CUDA driver, and libcuda.so.1 is not loaded", what);
	if (!gl_cuda_usable(cu, &count, why, sizeof why))
		return gl_errf(err, GL_EENV, "%s needs a GPU: %s", what, why);
	if (!gl_cuda_profilable(cu, why, sizeof why))
		return gl_errf(err, GL_EENV, "%s: %s", what, why);
	return GL_OK;
}

int gl_cupti_profiler_init(const struct gl_cuda_api *cu, struct gl_cupti_api *api, struct gl_err *err)
{
	int rc = need_driver(cu, "CUPTI profiling", err);
	if (rc != GL_OK)
		return rc;
	if (api->profiler_initialized)
		return GL_OK;
	GL_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params, p);
	rc = gl_cupti_fail(api, api->cuptiProfilerInitialize(&p), "cuptiProfilerInitialize", err);
	api->profiler_initialized = rc == GL_OK;
	return rc;
}

int gl_cupti_device_chip(const struct gl_cuda_api *cu, struct gl_cupti_api *api, int ordinal, char *chip,
			 size_t n, struct gl_err *err)
{
	int rc = gl_cupti_profiler_init(cu, api, err);
	if (rc != GL_OK)
		return rc;
	GL_CUPTI_PARAMS(CUpti_Device_GetChipName_Params, p);
	p.deviceIndex = (size_t)ordinal;
	rc = gl_cupti_fail(api, api->cuptiDeviceGetChipName(&p), "cuptiDeviceGetChipName", err);
	if (rc == GL_OK)
		snprintf(chip, n, "%s", p.pChipName ? p.pChipName : "");
	return rc;
}

int gl_cupti_counter_availability(const struct gl_cuda_api *cu, const struct gl_cupti_api *api, CUcontext ctx,
				  uint8_t **image, size_t *size, CUptiResult *result, struct gl_err *err)
{
	*image = NULL;
	*size = 0;
	*result = CUPTI_ERROR_NOT_INITIALIZED;
	int rc = need_driver(cu, "the counter-availability query", err);
	if (rc != GL_OK)
		return rc;
	if (!ctx)
		return gl_errf(err, GL_EINTERNAL, "counter availability asked without a CUDA context");
	GL_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params, p);
	p.ctx = ctx;
	*result = api->cuptiProfilerGetCounterAvailability(&p);
	rc = gl_cupti_fail(api, *result, "cuptiProfilerGetCounterAvailability", err);
	if (rc != GL_OK)
		return rc;
	uint8_t *img = gl_xcalloc(1, p.counterAvailabilityImageSize);
	p.pCounterAvailabilityImage = img;
	*result = api->cuptiProfilerGetCounterAvailability(&p);
	rc = gl_cupti_fail(api, *result, "cuptiProfilerGetCounterAvailability", err);
	if (rc != GL_OK) {
		free(img);
		return rc;
	}
	*image = img;
	*size = p.counterAvailabilityImageSize;
	return GL_OK;
}
