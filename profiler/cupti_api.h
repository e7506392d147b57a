/* cupti_api.h — CUPTI as a table of function pointers filled by dlopen("libcupti.so.13"): the host API
 * (chips, metrics, config images; works without a GPU), the Range Profiler and Activity API (need one).
 * Tests fill the table with fakes to drive the permission and driver error paths. */
#ifndef GL_CUPTI_API_H
#define GL_CUPTI_API_H

#include <stdbool.h>
#include <stddef.h>

#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <cupti_version.h>

#include "common/err.h"

#define GL_CUPTI_HOST_FUNCS(X)                                                                          \
	X(cuptiGetResultString) X(cuptiGetVersion) X(cuptiProfilerHostGetSupportedChips)                 \
	X(cuptiProfilerHostInitialize) X(cuptiProfilerHostDeinitialize) X(cuptiProfilerHostGetBaseMetrics) \
	X(cuptiProfilerHostGetSubMetrics) X(cuptiProfilerHostGetMetricProperties)                         \
	X(cuptiProfilerHostConfigAddMetrics) X(cuptiProfilerHostGetConfigImageSize)                       \
	X(cuptiProfilerHostGetConfigImage) X(cuptiProfilerHostGetNumOfPasses)                             \
	X(cuptiProfilerHostEvaluateToGpuValues) X(cuptiProfilerHostGetRangeName)

/* Target side: only ever called after gl_cuda_usable() said yes.  Three of them
 * (cuptiDeviceGetChipName, cuptiRangeProfilerEnable, cuptiProfilerGetCounterAvailability) crash in
 * CUDA 13.0 when no driver is present. */
#define GL_CUPTI_TARGET_FUNCS(X)                                                                      \
	X(cuptiProfilerInitialize) X(cuptiProfilerDeInitialize) X(cuptiDeviceGetChipName)              \
	X(cuptiProfilerGetCounterAvailability) X(cuptiRangeProfilerEnable) X(cuptiRangeProfilerDisable) \
	X(cuptiRangeProfilerGetCounterDataSize) X(cuptiRangeProfilerCounterDataImageInitialize)        \
	X(cuptiRangeProfilerSetConfig) X(cuptiRangeProfilerStart) X(cuptiRangeProfilerStop)             \
	X(cuptiRangeProfilerPushRange) X(cuptiRangeProfilerPopRange) X(cuptiRangeProfilerDecodeData)   \
	X(cuptiRangeProfilerGetCounterDataInfo) X(cuptiRangeProfilerCounterDataGetRangeInfo)           \
	X(cuptiActivityRegisterCallbacks) X(cuptiActivityEnable) X(cuptiActivityDisable)               \
	X(cuptiActivityFlushAll) X(cuptiActivityGetNextRecord)

/* The callback API, which the injection library subscribes to a program's kernel launches with (the
 * target side too: only ever called inside a process NVIDIA's driver runs). */
#define GL_CUPTI_CALLBACK_FUNCS(X) \
	X(cuptiSubscribe) X(cuptiUnsubscribe) X(cuptiEnableCallback) X(cuptiGetDeviceId)

#define GL_CUPTI_FIELD(f) typeof(&f) f;

/* Declare a CUPTI parameter struct, zeroed, with its structSize set. */
#define GL_CUPTI_PARAMS(type, var) type var = {.structSize = type##_STRUCT_SIZE}

struct gl_cupti_api {
	void *lib;       /* dlopen handle, NULL for a table of fakes */
	char path[512];  /* where it was found */
	bool profiler_initialized; /* cuptiProfilerInitialize done (see gl_cupti_profiler_init) */
	GL_CUPTI_HOST_FUNCS(GL_CUPTI_FIELD)
	GL_CUPTI_TARGET_FUNCS(GL_CUPTI_FIELD)
	GL_CUPTI_CALLBACK_FUNCS(GL_CUPTI_FIELD)
};

/* Candidate library paths in search order: $GPULAB_CUPTI_LIB, $CUDA_HOME/extras/CUPTI/lib64,
 * $CUDA_HOME/lib64 (CUDA_HOME from the environment, else the build's toolkit), then the plain soname. */
size_t gl_cupti_lib_candidates(char paths[][512], size_t max);

/* dlopen the first loadable candidate and resolve every function; GL_EENV naming the paths tried. */
int gl_cupti_api_load(struct gl_cupti_api *api, struct gl_err *err);
void gl_cupti_api_unload(struct gl_cupti_api *api);

/* "13.0 (API 130001)" from cuptiGetVersion. */
void gl_cupti_version_text(const struct gl_cupti_api *api, char *buf, size_t n);

#endif
