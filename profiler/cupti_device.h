/* cupti_device.h — CUPTI calls about a real device: its chip name and counter-availability image.
 * CUDA 13.0's cuptiDeviceGetChipName and cuptiProfilerGetCounterAvailability crash when no driver is
 * present, so every function here first checks the driver through gl_cuda_usable() and refuses
 * with GL_EENV otherwise. */
#ifndef GL_CUPTI_DEVICE_H
#define GL_CUPTI_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "profiler/cuda_api.h"
#include "profiler/cupti_api.h"

/* cuptiProfilerInitialize, once per loaded table and only once the driver is known to work;
 * gl_cupti_api_unload pairs it with cuptiProfilerDeInitialize. */
int gl_cupti_profiler_init(const struct gl_cuda_api *cu, struct gl_cupti_api *api, struct gl_err *err);

/* Chip of device `ordinal` ("GH100"). */
int gl_cupti_device_chip(const struct gl_cuda_api *cu, struct gl_cupti_api *api, int ordinal, char *chip,
			 size_t n, struct gl_err *err);

/* Counter availability of the context's device (caller frees *image).  *result gets CUPTI's code, so
 * the caller can tell a permission failure (ERR_NVGPUCTRPERM) from others. */
int gl_cupti_counter_availability(const struct gl_cuda_api *cu, const struct gl_cupti_api *api, CUcontext ctx,
				  uint8_t **image, size_t *size, CUptiResult *result, struct gl_err *err);

#endif
