/* cuda_device.c — opening a GPU, describing it, flushing its L2. */
#include "profiler/cuda_device.h"

#include <stdio.h>
#include <string.h>

#include "profiler/cupti_device.h"

static const char *launch_hint(CUresult r)
{
	switch (r) {
	case CUDA_ERROR_ILLEGAL_ADDRESS:
		return "an out-of-bounds or misaligned access; run the same kernel with --backend sim, whose "
		       "sanitizer names the PTX line, block and thread";
	case CUDA_ERROR_MISALIGNED_ADDRESS:
		return "a misaligned access; run it with --backend sim to see where";
	case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
		return "too many registers or threads per block for this GPU; use a smaller block";
	case CUDA_ERROR_INVALID_VALUE:
		return "grid, block or shared-memory size out of this GPU's limits";
	case CUDA_ERROR_INVALID_PTX:
	case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
		return "the driver cannot compile this PTX; update the driver to one for CUDA 13";
	case CUDA_ERROR_OUT_OF_MEMORY:
		return "not enough GPU memory; use a smaller --size";
	case CUDA_ERROR_LAUNCH_TIMEOUT:
		return "the kernel ran into the display watchdog; use a smaller --size";
	default:
		return NULL;
	}
}

int gl_cuda_fail(const struct gl_cuda_api *api, CUresult r, const char *what, struct gl_err *err)
{
	if (r == CUDA_SUCCESS)
		return GL_OK;
	char text[256];
	gl_cuda_result_text(api, r, text, sizeof text);
	const char *hint = launch_hint(r);
	int status = r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_OUT_OF_MEMORY ? GL_EUSAGE : GL_EENV;
	if (hint)
		return gl_errf(err, status, "%s failed: %s (%s)", what, text, hint);
	return gl_errf(err, status, "%s failed: %s", what, text);
}

static int pick_device(struct gl_cuda_dev *d, int ordinal, struct gl_err *err)
{
	char why[512];
	int count = 0;
	if (!gl_cuda_usable(&d->api, &count, why, sizeof why))
		return gl_errf(err, GL_EENV, "no usable GPU: %s", why);
	if (ordinal < 0 || ordinal >= count)
		return gl_errf(err, GL_EUSAGE, "--device %d does not exist: this machine has %d GPU%s (0..%d); "
			       "see 'gpulab devices'", ordinal, count, count == 1 ? "" : "s", count - 1);
	d->ordinal = ordinal;
	return gl_cuda_fail(&d->api, d->api.cuDeviceGet(&d->dev, ordinal), "cuDeviceGet", err);
}

static int make_flush_buffer(struct gl_cuda_dev *d, struct gl_err *err)
{
	int l2 = 0;
	d->api.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, d->dev);
	d->flush_bytes = (size_t)(l2 > 0 ? l2 : 64 << 20) * 2;
	return gl_cuda_fail(&d->api, d->api.cuMemAlloc(&d->flush, d->flush_bytes), "cuMemAlloc (L2 flush buffer)",
			    err);
}

int gl_cuda_dev_open(struct gl_cuda_dev *d, int ordinal, struct gl_err *err)
{
	memset(d, 0, sizeof *d);
	int rc = gl_cuda_api_load(&d->api, err);
	if (rc == GL_OK)
		rc = pick_device(d, ordinal, err);
	if (rc == GL_OK)
		rc = gl_cuda_fail(&d->api, d->api.cuDevicePrimaryCtxRetain(&d->ctx, d->dev), "cuDevicePrimaryCtxRetain",
				  err);
	if (rc == GL_OK)
		rc = gl_cuda_fail(&d->api, d->api.cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent", err);
	if (rc == GL_OK)
		rc = gl_cuda_fail(&d->api, d->api.cuEventCreate(&d->start, CU_EVENT_DEFAULT), "cuEventCreate", err);
	if (rc == GL_OK)
		rc = gl_cuda_fail(&d->api, d->api.cuEventCreate(&d->stop, CU_EVENT_DEFAULT), "cuEventCreate", err);
	if (rc == GL_OK)
		rc = make_flush_buffer(d, err);
	if (rc != GL_OK)
		gl_cuda_dev_close(d);
	return rc;
}

void gl_cuda_dev_close(struct gl_cuda_dev *d)
{
	if (!d->api.lib)
		return;
	if (d->flush)
		d->api.cuMemFree(d->flush);
	if (d->start)
		d->api.cuEventDestroy(d->start);
	if (d->stop)
		d->api.cuEventDestroy(d->stop);
	if (d->ctx)
		d->api.cuDevicePrimaryCtxRelease(d->dev);
	gl_cuda_api_unload(&d->api);
}

int gl_cuda_l2_flush(struct gl_cuda_dev *d, struct gl_err *err)
{
	return gl_cuda_fail(&d->api, d->api.cuMemsetD8(d->flush, 0x5a, d->flush_bytes), "cuMemsetD8 (L2 flush)", err);
}
