/* cupti_errors.h — CUPTI results turned into gpulab statuses and messages that say what to do:
 * permission (ERR_NVGPUCTRPERM), unsupported device, invalid chip or metric names. */
#ifndef GL_CUPTI_ERRORS_H
#define GL_CUPTI_ERRORS_H

#include <stdbool.h>

#include "profiler/cupti_api.h"

/* The fix for a profiling-permission failure, for messages and `gpulab doctor`. */
#define GL_CUPTI_PERMISSION_FIX                                                                        \
	"GPU performance counters are restricted to admin users (ERR_NVGPUCTRPERM): run gpulab as root, " \
	"or allow all users with the driver option NVreg_RestrictProfilingToAdminUsers=0 "                 \
	"(echo 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' | sudo tee "                         \
	"/etc/modprobe.d/nvidia-profiling.conf, then reload the nvidia module or reboot)"

/* The same, short enough for a launch's note. */
#define GL_CUPTI_PERMISSION_SHORT                                                                    \
	"CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (ERR_NVGPUCTRPERM): run as root or set the driver option " \
	"NVreg_RestrictProfilingToAdminUsers=0; see 'gpulab doctor'"

/* CUPTI_ERROR_INSUFFICIENT_PRIVILEGES and its vGPU twin. */
bool gl_cupti_is_permission(CUptiResult r);
/* Failures after which a run should carry on with timings only (permission, unsupported device). */
bool gl_cupti_is_fallback(CUptiResult r);
/* gpulab status for a CUPTI result: GL_EUSAGE for bad names, GL_EENV for the machine. */
int gl_cupti_status(CUptiResult r);
/* One line of advice for a result, or NULL. */
const char *gl_cupti_hint(CUptiResult r);

/* Record "<call> failed: CUPTI_ERROR_X (<hint>)" and return its status; GL_OK for CUPTI_SUCCESS. */
int gl_cupti_fail(const struct gl_cupti_api *api, CUptiResult r, const char *call, struct gl_err *err);

/* CUPTI's name for a result ("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"), or "CUPTI error N". */
const char *gl_cupti_result_name(const struct gl_cupti_api *api, CUptiResult r, char *buf, size_t n);

#endif
