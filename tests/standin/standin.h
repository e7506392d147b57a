/* standin.h — gpulab's stand-in libcuda.so.1: the CUDA driver calls gpulab makes, implemented on the
 * PTX simulator so that `make test` runs the cuda backend's whole call sequence (dlopen, marshalled
 * arguments, copies, events, errors) without a GPU.  It is a test device, not a GPU model: kernels run
 * synchronously on the simulator, events read the host clock.
 *
 * Environment:
 *   GPULAB_STANDIN_FAIL=NAME[@N][,...]  make the Nth call (default: every call) of driver function NAME
 *                                       fail with that function's typical error, counting from the
 *                                       primary context's creation; pseudo-names "ulp@N"
 *                                       and "nan@N" alter the first 4-byte word of the first pointer
 *                                       argument after the Nth launch (one unit in the last place, or NaN)
 *   GPULAB_STANDIN_DRIVER=13000         the CUDA version cuDriverGetVersion reports
 *   GPULAB_STANDIN_DEVICES=1            how many devices cuDeviceGetCount reports (0: CUDA_ERROR_NO_DEVICE)
 *   GPULAB_STANDIN_THREADS=0            the simulator's worker threads (0: one per core)
 */
#ifndef GL_STANDIN_H
#define GL_STANDIN_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#define STANDIN_L2_BYTES       (4u << 20)    /* a small L2: the flush buffer is twice this */
#define STANDIN_MEMORY         (8ull << 30)  /* cuMemAlloc beyond this: CUDA_ERROR_OUT_OF_MEMORY */
#define STANDIN_SHARED_DEFAULT (48u * 1024u) /* dynamic shared memory without opting in */
#define STANDIN_SHARED_OPTIN   166912u       /* 163 KiB, the most a block can opt in to on sm_80 */
#define STANDIN_MAX_ALLOCS     256

struct standin_alloc {
	CUdeviceptr base;
	size_t size;
	uint8_t *host;
};

struct standin_event {
	bool recorded;
	double ms; /* host clock when recorded */
};

struct standin {
	bool initialized;
	CUcontext current;
	int ctx_refs;
	CUresult sticky; /* a faulting kernel poisons the context, as on a GPU */
	struct standin_alloc allocs[STANDIN_MAX_ALLOCS];
	int nallocs;
	CUdeviceptr next_addr;
	size_t allocated;
	long launches; /* cuLaunchKernel calls that ran */
};

extern struct standin standin;

/* The failure GPULAB_STANDIN_FAIL asks for on this call of `name`, else CUDA_SUCCESS; counts the call. */
CUresult standin_fail(const char *name, CUresult typical);
/* 1 when GPULAB_STANDIN_FAIL names pseudo-fault `what` ("ulp", "nan") for launch number `launch`. */
bool standin_fault(const char *what, long launch);

/* CUDA_SUCCESS, or the sticky error, or CUDA_ERROR_NOT_INITIALIZED / INVALID_CONTEXT. */
CUresult standin_ready(void);
/* The allocation holding [ptr, ptr+bytes), or NULL. */
struct standin_alloc *standin_find(CUdeviceptr ptr, size_t bytes);
/* The allocation starting exactly at ptr, or NULL. */
struct standin_alloc *standin_find_base(CUdeviceptr ptr);
double standin_now_ms(void);

#endif
