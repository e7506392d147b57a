/* cuda_device.h — one GPU opened through the driver API: its primary context, what it is
 * (struct gl_device_info), and a scratch buffer for flushing L2 between timed launches. */
#ifndef GL_CUDA_DEVICE_H
#define GL_CUDA_DEVICE_H

#include "profiler/profiler.h"
#include "profiler/cuda_api.h"
#include "profiler/cupti_api.h"

struct gl_cuda_dev {
	struct gl_cuda_api api;
	int ordinal;
	CUdevice dev;
	CUcontext ctx;          /* primary context, current on the calling thread */
	CUdeviceptr flush;      /* 2 x L2 bytes, rewritten to evict L2 */
	size_t flush_bytes;
	CUevent start, stop;
};

/* Load the driver, check device `ordinal` exists (GL_EUSAGE naming the valid range otherwise),
 * retain its primary context. */
int gl_cuda_dev_open(struct gl_cuda_dev *d, int ordinal, struct gl_err *err);
void gl_cuda_dev_close(struct gl_cuda_dev *d);

/* Record "<what> failed: CUDA_ERROR_X: text" with a hint for the common launch failures. */
int gl_cuda_fail(const struct gl_cuda_api *api, CUresult r, const char *what, struct gl_err *err);

/* Name, SMs, memory, clocks, compute capability, driver version; chip and CUPTI version when
 * `cupti` is given (NULL leaves them empty). */
int gl_cuda_describe(const struct gl_cuda_api *api, struct gl_cupti_api *cupti, int ordinal,
		     struct gl_device_info *info, struct gl_err *err);

/* Evict L2 by rewriting the flush buffer (as llm.c does between benchmark repeats). */
int gl_cuda_l2_flush(struct gl_cuda_dev *d, struct gl_err *err);

#endif
