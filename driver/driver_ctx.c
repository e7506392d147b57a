/* driver_ctx.c — contexts: each device's primary context (retained and released, as cudart uses it),
 * contexts created with cuCtxCreate, each thread's stack of current contexts, the per-context limits
 * and configuration, and the sticky error a faulting kernel leaves.  A context holds its default stream
 * and the streams created in it; device memory belongs to the context that allocated it. */
#include "driver.h"

#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

static __thread CUcontext stack[DRV_CTX_STACK];
static __thread int depth;
static struct CUctx_st *created; /* cuCtxCreate's contexts, for validation */

static void ctx_init(struct CUctx_st *c, CUdevice dev, bool primary, unsigned flags)
{
	memset(c, 0, sizeof *c);
	c->magic = DRV_CTX;
	c->dev = dev;
	c->primary = primary;
	c->flags = flags;
	c->limits[CU_LIMIT_STACK_SIZE] = GL_SIM_STACK_SIZE;
	c->limits[CU_LIMIT_PRINTF_FIFO_SIZE] = GL_SIM_PRINTF_BUFFER;
	c->limits[CU_LIMIT_MALLOC_HEAP_SIZE] = 8u << 20; /* the device heap's default size (unused: no device malloc) */
	c->limits[CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT] = 2048;
	c->limits[CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH] = 2;
	c->limits[CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 64;
	c->limits[CU_LIMIT_SHMEM_SIZE] = (size_t)drv.gpu->smem_per_block_optin;
	c->null_stream = (struct CUstream_st){.magic = DRV_STREAM, .ctx = c};
	c->next_stream_id = 1;
}

struct CUctx_st *drv_primary(CUdevice dev)
{
	if (!drv.primary[dev]) {
		drv.primary[dev] = malloc(sizeof *drv.primary[dev]);
		if (drv.primary[dev])
			ctx_init(drv.primary[dev], dev, true, 0);
	}
	return drv.primary[dev];
}

bool drv_ctx_valid(CUcontext c)
{
	if (!c)
		return false;
	for (int d = 0; d < DRV_MAX_DEVICES; d++)
		if (c == drv.primary[d])
			return c->refs > 0;
	for (struct CUctx_st *k = created; k; k = k->next)
		if (k == c)
			return true;
	return false;
}

CUcontext drv_ctx_current(void)
{
	return depth ? stack[depth - 1] : NULL;
}

CUresult drv_ready_unpoisoned(CUcontext *ctx)
{
	if (!drv.initialized)
		return CUDA_ERROR_NOT_INITIALIZED;
	CUcontext c = drv_ctx_current();
	if (!c || !drv_ctx_valid(c))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (ctx)
		*ctx = c;
	return CUDA_SUCCESS;
}

CUresult drv_ready(CUcontext *ctx)
{
	CUcontext c = NULL;
	CUresult r = drv_ready_unpoisoned(&c);
	if (r == CUDA_SUCCESS && ctx)
		*ctx = c;
	return r == CUDA_SUCCESS ? c->sticky : r;
}

/* A context goes: its streams, its memory and its sticky error with it. */
static void ctx_teardown(struct CUctx_st *c)
{
	while (c->streams) {
		struct CUstream_st *s = c->streams;
		c->streams = s->next;
		s->magic = 0;
		free(s);
	}
	for (int i = 0; i < 16; i++)
		if (c->storage[i].key && c->storage[i].dtor)
			c->storage[i].dtor(c, c->storage[i].key, c->storage[i].value);
	drv_mem_release_ctx(c);
	for (int i = 0; i < depth; i++) /* no thread but this one can be checked; it stops being current here */
		if (stack[i] == c)
			stack[i] = NULL;
}

/* ---- primary contexts */

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS)
		r = drv_fail("cuDevicePrimaryCtxRetain", CUDA_ERROR_OUT_OF_MEMORY);
	struct CUctx_st *c = r == CUDA_SUCCESS ? drv_primary(dev) : NULL;
	if (r == CUDA_SUCCESS && !c)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r == CUDA_SUCCESS) {
		if (c->refs++ == 0) /* a fresh context: "NAME@N" failure injection counts from here */
			drv_fail_reset();
		*pctx = c;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	drv_lock();
	CUresult r = drv_valid_device(dev);
	struct CUctx_st *c = r == CUDA_SUCCESS ? drv.primary[dev] : NULL;
	if (r == CUDA_SUCCESS && (!c || c->refs <= 0))
		r = CUDA_ERROR_INVALID_CONTEXT;
	if (r == CUDA_SUCCESS && --c->refs == 0) {
		ctx_teardown(c);
		ctx_init(c, dev, true, c->flags);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev)
{
	return cuDevicePrimaryCtxRelease_v2(dev);
}

CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	drv_lock();
	CUresult r = drv_valid_device(dev);
	struct CUctx_st *c = r == CUDA_SUCCESS ? drv.primary[dev] : NULL;
	if (c && c->refs > 0) { /* its memory and state go; the retains stay */
		int refs = c->refs;
		ctx_teardown(c);
		ctx_init(c, dev, true, c->flags);
		c->refs = refs;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev)
{
	return cuDevicePrimaryCtxReset_v2(dev);
}

CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
	if (!flags || !active)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS) {
		struct CUctx_st *c = drv.primary[dev];
		*flags = c ? c->flags : 0;
		*active = c && c->refs > 0;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
	drv_lock();
	CUresult r = drv_valid_device(dev);
	struct CUctx_st *c = r == CUDA_SUCCESS ? drv_primary(dev) : NULL;
	if (c)
		c->flags = flags;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
	return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

/* ---- created contexts and the current-context stack */

static CUresult ctx_create(CUcontext *pctx, unsigned flags, CUdevice dev, const char *api)
{
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock_at(api);
	CUresult r = drv_valid_device(dev);
	struct CUctx_st *c = r == CUDA_SUCCESS ? malloc(sizeof *c) : NULL;
	if (r == CUDA_SUCCESS && !c)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r == CUDA_SUCCESS) {
		ctx_init(c, dev, false, flags);
		c->refs = 1;
		c->next = created;
		created = c;
		if (depth == DRV_CTX_STACK)
			depth--;
		stack[depth++] = c; /* a new context is pushed and current */
		*pctx = c;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	return ctx_create(pctx, flags, dev, __func__);
}

CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	return ctx_create(pctx, flags, dev, __func__);
}

CUresult CUDAAPI cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *params, int n, unsigned int flags, CUdevice dev)
{
	(void)params;
	(void)n; /* execution affinity (SM counts) does not change what the simulator runs */
	return ctx_create(pctx, flags, dev, __func__);
}

CUresult CUDAAPI cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev)
{
	(void)params;
	return ctx_create(pctx, flags, dev, __func__);
}

CUresult CUDAAPI cuCtxDestroy_v2(CUcontext ctx)
{
	drv_lock();
	CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
	struct CUctx_st **p = &created;
	while (*p && *p != ctx)
		p = &(*p)->next;
	if (r == CUDA_SUCCESS && !*p)
		r = ctx && ctx->magic == DRV_CTX && ctx->primary ? CUDA_ERROR_INVALID_CONTEXT : CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS) {
		*p = ctx->next;
		ctx_teardown(ctx);
		ctx->magic = 0;
		free(ctx);
		while (depth && !stack[depth - 1]) /* it was current: pop it */
			depth--;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxDestroy(CUcontext ctx)
{
	return cuCtxDestroy_v2(ctx);
}

CUresult CUDAAPI cuCtxPushCurrent_v2(CUcontext ctx)
{
	drv_lock();
	CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
	if (r == CUDA_SUCCESS && !drv_ctx_valid(ctx))
		r = CUDA_ERROR_INVALID_CONTEXT;
	if (r == CUDA_SUCCESS && depth == DRV_CTX_STACK)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		stack[depth++] = ctx;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx)
{
	return cuCtxPushCurrent_v2(ctx);
}

CUresult CUDAAPI cuCtxPopCurrent_v2(CUcontext *pctx)
{
	drv_lock();
	CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
	if (r == CUDA_SUCCESS && depth == 0)
		r = CUDA_ERROR_INVALID_CONTEXT;
	if (r == CUDA_SUCCESS) {
		CUcontext c = stack[--depth];
		if (pctx)
			*pctx = c;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx)
{
	return cuCtxPopCurrent_v2(pctx);
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx)
{
	drv_lock();
	CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
	if (r == CUDA_SUCCESS && ctx && !drv_ctx_valid(ctx))
		r = CUDA_ERROR_INVALID_CONTEXT;
	if (r == CUDA_SUCCESS) {
		if (!ctx) { /* NULL pops the top, if any */
			if (depth)
				depth--;
		} else if (depth) {
			stack[depth - 1] = ctx;
		} else {
			stack[depth++] = ctx;
		}
		r = drv_fail("cuCtxSetCurrent", CUDA_ERROR_INVALID_CONTEXT);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx)
{
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
	if (r == CUDA_SUCCESS)
		*pctx = drv_ctx_current();
	drv_unlock();
	return r;
}

/* The context a call names: `ctx`, or the current one when NULL. */
static CUresult named_ctx(CUcontext ctx, CUcontext *out)
{
	if (!ctx)
		return drv_ready_unpoisoned(out);
	if (!drv.initialized)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!drv_ctx_valid(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	*out = ctx;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = named_ctx(ctx, &c);
	if (r == CUDA_SUCCESS)
		*device = c->dev;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device)
{
	return cuCtxGetDevice_v2(device, NULL);
}

CUresult CUDAAPI cuCtxGetFlags(unsigned int *flags)
{
	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready_unpoisoned(&c);
	if (r == CUDA_SUCCESS)
		*flags = c->flags;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxSetFlags(unsigned int flags)
{
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready_unpoisoned(&c);
	if (r == CUDA_SUCCESS)
		c->flags = flags;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxGetId(CUcontext ctx, unsigned long long *id)
{
	if (!id)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = named_ctx(ctx, &c);
	if (r == CUDA_SUCCESS)
		*id = (unsigned long long)(uintptr_t)c;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
	if (!version)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = named_ctx(ctx, &c);
	if (r == CUDA_SUCCESS)
		*version = 3020; /* the context API of CUDA 3.2 onwards, as NVIDIA's driver reports */
	drv_unlock();
	return r;
}

/* Everything ran when it was issued, so a synchronize reports what the work left: the sticky error. */
CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext ctx)
{
	drv_lock();
	CUcontext c = NULL;
	CUresult r = named_ctx(ctx, &c);
	if (r == CUDA_SUCCESS)
		r = c->sticky;
	if (r == CUDA_SUCCESS)
		r = drv_fail("cuCtxSynchronize", CUDA_ERROR_ILLEGAL_ADDRESS);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxSynchronize(void)
{
	return cuCtxSynchronize_v2(NULL);
}

CUresult CUDAAPI cuCtxGetLimit(size_t *value, CUlimit limit)
{
	if (!value || limit < 0 || limit >= CU_LIMIT_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready_unpoisoned(&c);
	if (r == CUDA_SUCCESS)
		*value = c->limits[limit];
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value)
{
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready(&c);
	if (r == CUDA_SUCCESS) {
		switch (limit) {
		case CU_LIMIT_STACK_SIZE:
			if (value > GL_SIM_STACK_SIZE_MAX)
				r = CUDA_ERROR_INVALID_VALUE;
			break;
		case CU_LIMIT_PRINTF_FIFO_SIZE:
			if (value == 0 || value > GL_SIM_PRINTF_BUFFER_MAX)
				r = CUDA_ERROR_INVALID_VALUE;
			break;
		case CU_LIMIT_MALLOC_HEAP_SIZE:
		case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH:
		case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT:
		case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
		case CU_LIMIT_PERSISTING_L2_CACHE_SIZE:
			break; /* kept and reported; nothing in the simulator depends on them */
		default:
			r = CUDA_ERROR_UNSUPPORTED_LIMIT;
		}
	}
	if (r == CUDA_SUCCESS)
		c->limits[limit] = value;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache *config)
{
	if (!config)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready_unpoisoned(&c);
	if (r == CUDA_SUCCESS)
		*config = c->cache_config;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache config)
{
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready_unpoisoned(&c);
	if (r == CUDA_SUCCESS)
		c->cache_config = config; /* a preference; the model's shared memory limits do not change */
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig *config)
{
	if (!config)
		return CUDA_ERROR_INVALID_VALUE;
	*config = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE; /* the only bank size of cc >= 5.0 */
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig config)
{
	(void)config; /* ignored on cc >= 5.0, as NVIDIA's driver does */
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
	if (least)
		*least = 0;
	if (greatest)
		*greatest = -5; /* the range cc >= 7.0 devices report */
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxResetPersistingL2Cache(void)
{
	return CUDA_SUCCESS; /* the model has no persisting lines */
}

CUresult CUDAAPI cuCtxDetach(CUcontext ctx)
{
	return cuCtxDestroy_v2(ctx);
}

CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags)
{
	(void)peer;
	(void)flags;
	return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED; /* one device: there is no peer */
}

CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext peer)
{
	(void)peer;
	return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}
