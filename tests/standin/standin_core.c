/* standin_core.c — the stand-in driver's state, failure injection, initialisation, device queries,
 * the primary context, events and error strings. */
#define _GNU_SOURCE
#include "standin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct standin standin = {.next_addr = 0x00007f0000000000ull};

struct CUctx_st {
	int unused;
};
struct CUevent_st {
	struct standin_event e;
};

static struct CUctx_st primary;

/* ---- failure injection: GPULAB_STANDIN_FAIL=NAME[@N],... */

#define MAX_COUNTED 64
static struct {
	const char *name;
	long calls;
} counted[MAX_COUNTED];
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static long count_call(const char *name)
{
	pthread_mutex_lock(&count_lock);
	long n = 0;
	for (int i = 0; i < MAX_COUNTED; i++) {
		if (!counted[i].name)
			counted[i].name = name;
		if (strcmp(counted[i].name, name) == 0) {
			n = ++counted[i].calls;
			break;
		}
	}
	pthread_mutex_unlock(&count_lock);
	return n;
}

/* Does the list name `name` for call number `nth`?  "NAME" matches every call, "NAME@N" the Nth. */
static bool listed(const char *name, long nth)
{
	const char *spec = getenv("GPULAB_STANDIN_FAIL");
	size_t len = strlen(name);
	for (const char *p = spec; p && *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n >= len && strncmp(p, name, len) == 0) {
			if (n == len)
				return true;
			if (p[len] == '@' && strtol(p + len + 1, NULL, 10) == nth)
				return true;
		}
		p = end ? end + 1 : NULL;
	}
	return false;
}

CUresult standin_fail(const char *name, CUresult typical)
{
	return listed(name, count_call(name)) ? typical : CUDA_SUCCESS;
}

bool standin_fault(const char *what, long launch)
{
	return listed(what, launch);
}

double standin_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static long env_long(const char *name, long fallback)
{
	const char *v = getenv(name);
	return v && *v ? strtol(v, NULL, 10) : fallback;
}

CUresult standin_ready(void)
{
	if (!standin.initialized)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!standin.current)
		return CUDA_ERROR_INVALID_CONTEXT;
	return standin.sticky;
}

/* ---- initialisation and devices */

CUresult CUDAAPI cuInit(unsigned int flags)
{
	CUresult r = standin_fail("cuInit", CUDA_ERROR_NO_DEVICE);
	if (r != CUDA_SUCCESS)
		return r;
	if (flags != 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (env_long("GPULAB_STANDIN_DEVICES", 1) <= 0)
		return CUDA_ERROR_NO_DEVICE;
	standin.initialized = true;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDriverGetVersion(int *version)
{
	if (!version)
		return CUDA_ERROR_INVALID_VALUE;
	*version = (int)env_long("GPULAB_STANDIN_DRIVER", 13000);
	return standin_fail("cuDriverGetVersion", CUDA_ERROR_INVALID_VALUE);
}

CUresult CUDAAPI cuDeviceGetCount(int *count)
{
	if (!standin.initialized)
		return CUDA_ERROR_NOT_INITIALIZED;
	*count = (int)env_long("GPULAB_STANDIN_DEVICES", 1);
	return standin_fail("cuDeviceGetCount", CUDA_ERROR_UNKNOWN);
}

static CUresult valid_device(CUdevice dev)
{
	if (!standin.initialized)
		return CUDA_ERROR_NOT_INITIALIZED;
	return dev >= 0 && dev < env_long("GPULAB_STANDIN_DEVICES", 1) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal)
{
	CUresult r = valid_device(ordinal);
	if (r == CUDA_SUCCESS)
		*device = ordinal;
	return r != CUDA_SUCCESS ? r : standin_fail("cuDeviceGet", CUDA_ERROR_INVALID_DEVICE);
}

CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev)
{
	CUresult r = valid_device(dev);
	if (r == CUDA_SUCCESS && len > 0)
		snprintf(name, (size_t)len, "gpulab stand-in driver (PTX simulator)");
	return r;
}

CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
	CUresult r = valid_device(dev);
	if (r == CUDA_SUCCESS)
		*bytes = STANDIN_MEMORY;
	return r;
}

/* What the stand-in device says it is: compute capability 8.0 (the embedded PTX's target). */
static int attribute(CUdevice_attribute a)
{
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: return 8;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: return 0;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return 4;
	case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: return (int)STANDIN_L2_BYTES;
	case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: return 1000000;        /* kHz */
	case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: return 1000000; /* kHz */
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return 1024;
	case CU_DEVICE_ATTRIBUTE_WARP_SIZE: return 32;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: return (int)STANDIN_SHARED_DEFAULT;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: return (int)STANDIN_SHARED_OPTIN;
	default: return -1;
	}
}

CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	CUresult r = valid_device(dev);
	if (r != CUDA_SUCCESS)
		return r;
	int v = attribute(attrib);
	if (v < 0)
		return CUDA_ERROR_INVALID_VALUE;
	*pi = v;
	return standin_fail("cuDeviceGetAttribute", CUDA_ERROR_INVALID_VALUE);
}

/* ---- the primary context */

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	CUresult r = valid_device(dev);
	if (r == CUDA_SUCCESS)
		r = standin_fail("cuDevicePrimaryCtxRetain", CUDA_ERROR_OUT_OF_MEMORY);
	if (r != CUDA_SUCCESS)
		return r;
	if (standin.ctx_refs++ == 0) { /* a fresh context: "NAME@N" counts from here */
		pthread_mutex_lock(&count_lock);
		memset(counted, 0, sizeof counted);
		pthread_mutex_unlock(&count_lock);
		standin.launches = 0;
	}
	*pctx = &primary;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev)
{
	CUresult r = valid_device(dev);
	if (r != CUDA_SUCCESS)
		return r;
	if (standin.ctx_refs <= 0)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (--standin.ctx_refs == 0) { /* the context goes: its memory and its sticky error with it */
		for (int i = 0; i < standin.nallocs; i++)
			free(standin.allocs[i].host);
		standin.nallocs = 0;
		standin.allocated = 0;
		standin.sticky = CUDA_SUCCESS;
		standin.current = NULL;
	}
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx)
{
	if (!standin.initialized)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (ctx && (ctx != &primary || standin.ctx_refs <= 0))
		return CUDA_ERROR_INVALID_CONTEXT;
	standin.current = ctx;
	return standin_fail("cuCtxSetCurrent", CUDA_ERROR_INVALID_CONTEXT);
}

/* Kernels run synchronously, so a synchronize only reports what a launch left behind. */
CUresult CUDAAPI cuCtxSynchronize(void)
{
	CUresult r = standin_ready();
	return r != CUDA_SUCCESS ? r : standin_fail("cuCtxSynchronize", CUDA_ERROR_ILLEGAL_ADDRESS);
}

/* ---- events: the host clock, since every launch has finished when cuLaunchKernel returns */

CUresult CUDAAPI cuEventCreate(CUevent *ev, unsigned int flags)
{
	(void)flags;
	CUresult r = standin_ready();
	if (r == CUDA_SUCCESS)
		r = standin_fail("cuEventCreate", CUDA_ERROR_OUT_OF_MEMORY);
	if (r != CUDA_SUCCESS)
		return r;
	*ev = calloc(1, sizeof **ev);
	return *ev ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult CUDAAPI cuEventRecord(CUevent ev, CUstream stream)
{
	CUresult r = standin_ready();
	if (r != CUDA_SUCCESS)
		return r;
	if (!ev || stream)
		return CUDA_ERROR_INVALID_HANDLE; /* only the default stream exists here */
	ev->e.recorded = true;
	ev->e.ms = standin_now_ms();
	return standin_fail("cuEventRecord", CUDA_ERROR_INVALID_HANDLE);
}

CUresult CUDAAPI cuEventSynchronize(CUevent ev)
{
	CUresult r = standin_ready();
	if (r != CUDA_SUCCESS)
		return r;
	return ev ? standin_fail("cuEventSynchronize", CUDA_ERROR_LAUNCH_FAILED) : CUDA_ERROR_INVALID_HANDLE;
}

CUresult CUDAAPI cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
	CUresult r = standin_ready();
	if (r != CUDA_SUCCESS)
		return r;
	if (!start || !end)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!start->e.recorded || !end->e.recorded)
		return CUDA_ERROR_NOT_READY;
	*ms = (float)(end->e.ms - start->e.ms);
	return standin_fail("cuEventElapsedTime", CUDA_ERROR_NOT_READY);
}

CUresult CUDAAPI cuEventDestroy(CUevent ev)
{
	if (!ev)
		return CUDA_ERROR_INVALID_HANDLE;
	free(ev);
	return CUDA_SUCCESS;
}

/* ---- error strings (the driver's own spellings) */

static const struct {
	CUresult r;
	const char *name, *text;
} errors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
     "the provided PTX was compiled with an unsupported toolchain."},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {CUDA_ERROR_MISALIGNED_ADDRESS, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {CUDA_ERROR_LAUNCH_TIMEOUT, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **str)
{
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
		if (errors[i].r == error) {
			*str = errors[i].name;
			return CUDA_SUCCESS;
		}
	*str = NULL;
	return CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **str)
{
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
		if (errors[i].r == error) {
			*str = errors[i].text;
			return CUDA_SUCCESS;
		}
	*str = NULL;
	return CUDA_ERROR_INVALID_VALUE;
}
