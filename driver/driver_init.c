/* driver_init.c — the library's state, its configuration from the environment, cuInit, the driver's
 * version and the devices: each one the GPU model GPULAB_GPU names (default H100), its attributes taken
 * from gpulab's GPU table (insights/gpu_models.c) and the compute capability's limits. */
#define _GNU_SOURCE
#include "driver.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct drv_state drv;

/* What gpulab's own CUDA backend looks for to know it was given this library, not NVIDIA's driver
 * (profiler/cuda_api.c: CUPTI cannot profile it). */
__attribute__((visibility("default"))) const char gpulab_driver[] = "gpulab " GPULAB_VERSION " driver library";

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void make_lock(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&drv.lock, &a);
	pthread_mutexattr_destroy(&a);
}

static __thread int held; /* this thread's nesting of the lock */
static __thread double entered; /* when this thread took the lock outermost */

double drv_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The outermost acquisition starts an entry point's time and the matching release ends it, so drv.in_calls
 * is the time the program spent inside the library (GPULAB_DRIVER_STATS). */
void drv_lock_at(const char *caller)
{
	pthread_once(&once, make_lock);
	pthread_mutex_lock(&drv.lock);
	if (held++ == 0) {
		entered = drv_now();
		if (drv.trace)
			drv_trace("call %s", caller);
	}
}

void drv_unlock(void)
{
	if (--held == 0)
		drv.in_calls += drv_now() - entered;
	pthread_mutex_unlock(&drv.lock);
}

/* GPULAB_DRIVER_STATS: the library's own cost per launch, the time inside its entry points less the
 * simulation's, on stderr at exit. */
__attribute__((destructor)) static void stats_at_exit(void)
{
	if (!drv.stats)
		return;
	double own = drv.in_calls - drv.simulating;
	fprintf(stderr, "gpulab driver stats: %ld kernel launch%s; %.3f s inside the library's entry points, %.3f s of "
		"it simulating; %.3f ms per launch outside the simulation\n", drv.launches, drv.launches == 1 ? "" : "es",
		drv.in_calls, drv.simulating, drv.launches > 0 ? own * 1e3 / (double)drv.launches : 0.0);
}

static long env_long(const char *name, long fallback)
{
	const char *v = getenv(name);
	return v && *v ? strtol(v, NULL, 10) : fallback;
}

static bool env_on(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0") != 0;
}

void drv_configure(void)
{
	if (drv.gpu)
		return;
	const char *name = getenv("GPULAB_GPU");
	struct gl_err err = {0};
	drv.gpu = gl_gpu_model_default();
	if (name && *name && gl_gpu_model_lookup(name, &drv.gpu, &err) != GL_OK) {
		drv_say("GPULAB_GPU: %s; simulating %s", err.msg, gl_gpu_model_default()->name);
		drv.gpu = gl_gpu_model_default();
	}
	drv.ndevices = (int)env_long("GPULAB_STANDIN_DEVICES", 1); /* test hook: 0 is "no device" */
	if (drv.ndevices > DRV_MAX_DEVICES)
		drv.ndevices = DRV_MAX_DEVICES;
	drv.version = (int)env_long("GPULAB_STANDIN_DRIVER", DRV_VERSION); /* test hook: an older driver */
	drv.threads = (int)env_long("GPULAB_DRIVER_THREADS", 0);
	drv.trace = env_on("GPULAB_DRIVER_TRACE");
	drv.log = env_on("GPULAB_DRIVER_LOG");
	drv.stats = env_on("GPULAB_DRIVER_STATS");
	drv_profile_configure();
}

void drv_say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("gpulab driver: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void drv_trace(const char *fmt, ...)
{
	if (!drv.trace)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("gpulab driver trace: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* ---- initialisation */

CUresult CUDAAPI cuInit(unsigned int flags)
{
	drv_lock();
	drv_configure();
	CUresult r = drv_fail("cuInit", CUDA_ERROR_NO_DEVICE);
	if (r == CUDA_SUCCESS && flags != 0)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS && drv.ndevices <= 0)
		r = CUDA_ERROR_NO_DEVICE;
	if (r == CUDA_SUCCESS)
		drv.initialized = true;
	drv_unlock();
	if (r == CUDA_SUCCESS)
		drv_injection_load(); /* outside the lock: the injection may call the driver */
	return r;
}

CUresult CUDAAPI cuDriverGetVersion(int *version)
{
	if (!version)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	drv_configure();
	*version = drv.version;
	CUresult r = drv_fail("cuDriverGetVersion", CUDA_ERROR_INVALID_VALUE);
	drv_unlock();
	return r;
}

CUresult drv_valid_device(CUdevice dev)
{
	if (!drv.initialized)
		return CUDA_ERROR_NOT_INITIALIZED;
	return dev >= 0 && dev < drv.ndevices ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

/* ---- devices */

CUresult CUDAAPI cuDeviceGetCount(int *count)
{
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
	if (r == CUDA_SUCCESS) {
		*count = drv.ndevices;
		r = drv_fail("cuDeviceGetCount", CUDA_ERROR_UNKNOWN);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal)
{
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(ordinal);
	if (r == CUDA_SUCCESS)
		*device = ordinal;
	if (r == CUDA_SUCCESS)
		r = drv_fail("cuDeviceGet", CUDA_ERROR_INVALID_DEVICE);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev)
{
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS)
		snprintf(name, (size_t)len, "NVIDIA %s (gpulab simulator)", drv.gpu->full_name);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS)
		*bytes = drv_mem_total();
	drv_unlock();
	return r;
}

/* The device's UUID: "gpulab" and the model's index in the table and the ordinal, so it is stable. */
CUresult CUDAAPI cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	if (!uuid)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS) {
		memset(uuid, 0, sizeof *uuid);
		memcpy(uuid->bytes, "gpulab", 6);
		uuid->bytes[14] = (char)(drv.gpu - gl_gpu_models);
		uuid->bytes[15] = (char)dev;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	return cuDeviceGetUuid_v2(uuid, dev);
}

CUresult CUDAAPI cuDeviceGetLuid(char *luid, unsigned int *mask, CUdevice dev)
{
	(void)luid;
	(void)mask;
	(void)dev;
	return CUDA_ERROR_NOT_SUPPORTED; /* Windows only, as on Linux */
}

CUresult CUDAAPI cuDeviceGetPCIBusId(char *id, int len, CUdevice dev)
{
	if (!id || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS)
		snprintf(id, (size_t)len, "0000:%02x:00.0", dev + 1);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice *dev, const char *id)
{
	unsigned domain, bus, device;
	if (!dev || !id || sscanf(id, "%x:%x:%x", &domain, &bus, &device) != 3)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device((CUdevice)bus - 1);
	if (r == CUDA_SUCCESS)
		*dev = (CUdevice)bus - 1;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice src, CUdevice dst)
{
	(void)attrib;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(src);
	if (r == CUDA_SUCCESS)
		r = drv_valid_device(dst);
	if (r == CUDA_SUCCESS)
		*value = 0; /* one device in the model: no peer access between devices */
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
	return cuDeviceGetP2PAttribute(can, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, dev, peer);
}

CUresult CUDAAPI cuDeviceGetTexture1DLinearMaxWidth(size_t *width, CUarray_format format, unsigned channels,
						    CUdevice dev)
{
	(void)format;
	(void)channels;
	if (!width)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS)
		*width = 1u << 27; /* cc 5.0 and newer (CUDA Programming Guide, Compute Capabilities) */
	drv_unlock();
	return r;
}
