/* cuda_kernel.h — one gl_launch on a GPU: module from the PTX text, device buffers, the argument
 * array in .param order, upload of the pristine inputs, launch, copy back, timed launches. */
#ifndef GL_CUDA_KERNEL_H
#define GL_CUDA_KERNEL_H

#include "common/launch.h"
#include "profiler/cuda_device.h"

struct gl_cuda_kernel {
	struct gl_cuda_dev *d;
	const struct gl_launch *l;
	CUmodule mod;
	CUfunction fn;
	CUdeviceptr dptr[GL_MAX_BUFFERS];
	void *pristine[GL_MAX_BUFFERS];  /* the buffers' contents before any launch */
	uint64_t values[GL_MAX_ARGS];    /* argument storage: device pointers and scalar bits */
	void *params[GL_MAX_ARGS];
};

/* Compile the PTX for the device, allocate and fill buffers (device_addr is set in l->buffers). */
int gl_cuda_kernel_load(struct gl_cuda_kernel *k, struct gl_cuda_dev *d, struct gl_launch *l, struct gl_err *err);
/* Copy every buffer's pristine contents to the device (before each launch: kernels may work in place). */
int gl_cuda_kernel_upload(struct gl_cuda_kernel *k, struct gl_err *err);
/* Launch once and wait. */
int gl_cuda_kernel_run(struct gl_cuda_kernel *k, struct gl_err *err);
/* Copy the output buffers back into l->buffers[i].host. */
int gl_cuda_kernel_download(struct gl_cuda_kernel *k, struct gl_launch *l, struct gl_err *err);
/* Upload, flush L2, launch between two events; *ms is the event time. */
int gl_cuda_kernel_timed(struct gl_cuda_kernel *k, float *ms, struct gl_err *err);
void gl_cuda_kernel_free(struct gl_cuda_kernel *k);

#endif
