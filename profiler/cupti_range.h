/* cupti_range.h — one kernel's metrics through CUPTI's Range Profiler (CUDA 13): counter
 * availability, config image, counter-data image, auto range with user replay (the caller restores
 * the inputs and flushes L2 before every pass) or kernel replay (CUPTI saves and restores device memory
 * and replays the kernel inside its launch: a program's own launches, in the injection library),
 * decode and evaluate.  Needs a GPU: opening checks the driver first, so the calls that crash without
 * one are never reached. */
#ifndef GL_CUPTI_RANGE_H
#define GL_CUPTI_RANGE_H

#include <stddef.h>
#include <stdint.h>

#include "profiler/cuda_api.h"
#include "profiler/cupti_host.h"

struct gl_cupti_range {
	const struct gl_cupti_api *api;
	struct gl_cupti_host host;       /* initialised with the device's counter availability */
	CUcontext ctx;
	CUpti_RangeProfiler_Object *obj; /* enabled during a collect only */
	uint8_t *avail, *config, *data;
	size_t avail_size, config_size, data_size;
	const char *const *names;
	size_t n;
	size_t passes;
	size_t ranges;                   /* ranges in the last decoded counter data */
	CUpti_ProfilerReplayMode replay; /* CUPTI_UserReplay after open; CUPTI_KernelReplay for a program's launches */
	CUptiResult result;              /* last CUPTI result: tells permission failures apart */
};

/* Launch the kernel once and wait for it, or prepare a pass (restore inputs, flush L2). */
typedef int (*gl_cupti_kernel_fn)(void *arg, struct gl_err *err);

int gl_cupti_range_open(struct gl_cupti_range *r, const struct gl_cuda_api *cu, struct gl_cupti_api *api,
			CUcontext ctx, const char *chip, const char *const *names, size_t n, struct gl_err *err);
/* Profile one launch (enable, set config, then per pass: prepare, start, launch, stop; decode,
 * evaluate, disable): values[i] for names[i].  `prepare` may be NULL. */
int gl_cupti_range_collect(struct gl_cupti_range *r, gl_cupti_kernel_fn prepare, gl_cupti_kernel_fn launch,
			   void *arg, double *values, struct gl_err *err);
/* The same for a launch someone else makes (kernel replay, set r->replay first): begin before it (enable,
 * set config, start), end after it (stop, decode, evaluate into values[i], disable).  end also closes
 * a session begin left open when it failed part way. */
int gl_cupti_range_begin(struct gl_cupti_range *r, struct gl_err *err);
int gl_cupti_range_end(struct gl_cupti_range *r, double *values, struct gl_err *err);
void gl_cupti_range_close(struct gl_cupti_range *r);

#endif
