/* cuda_ctx.h — the cuda backend's context: the opened GPU, CUPTI (range profiler + activity) when it
 * works, the metric list, and the record of the last launch until collect() takes it. */
#ifndef GL_CUDA_CTX_H
#define GL_CUDA_CTX_H

#include <stdbool.h>

#include "profiler/profiler.h"
#include "profiler/cuda_device.h"
#include "profiler/cupti_activity.h"
#include "profiler/cupti_range.h"
#include "profiler/metric_sets.h"

struct gl_cuda_ctx {
	struct gl_backend_opts opts;
	struct gl_cuda_dev dev;
	struct gl_device_info info;
	struct gl_cupti_api cupti;
	bool have_cupti;
	struct gl_metric_list metrics;
	char (*units)[16];             /* per metric, CUPTI's dimension unit shortened for the store */
	struct gl_cupti_range range;
	bool profiling;                /* false: timings only (no CUPTI, no permission, ...) */
	struct gl_cupti_activity activity;
	bool have_activity;
	char note[256];                /* why metrics are missing, shown with every launch */
	char dropped[160];             /* set metrics this chip lacks */
	struct gl_launch_record last;  /* the last launch, until collect() takes it */
	bool have_last;
	void *first[GL_MAX_BUFFERS];   /* its first run's outputs where the last run's differ (first_outputs) */
};

/* Run one launch: correctness run, profiled run (L2 flushed before each replay pass), timed repeats
 * with L2 flushes, copy back. */
int gl_cuda_measure(struct gl_cuda_ctx *c, struct gl_launch *l, struct gl_err *err);
void gl_cuda_first_free(struct gl_cuda_ctx *c);

/* Open CUPTI's range profiler and activity for the context, falling back to timings only with a
 * note when profiling is not possible (missing library, permission, unsupported GPU). */
int gl_cuda_profiling_open(struct gl_cuda_ctx *c, struct gl_err *err);
void gl_cuda_profiling_close(struct gl_cuda_ctx *c);

#endif
