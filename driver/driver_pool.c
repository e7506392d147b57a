/* driver_pool.c — stream-ordered allocation's memory pools, as far as programs use them with one device:
 * each device's default pool (cuDeviceGetDefaultMemPool and friends), its attributes (the reuse flags and
 * release threshold are kept; the reserved and used byte counts follow the allocations made from it),
 * trimming (nothing is held back to trim) and allocation from it.  Allocations come from the memory map
 * like cuMemAlloc's and complete at issue; created pools, access control and IPC are not implemented. */
#include "driver.h"

#include <string.h>

struct CUmemPoolHandle_st {
	int reuse[3];                /* REUSE_FOLLOW_EVENT_DEPENDENCIES, _ALLOW_OPPORTUNISTIC, _ALLOW_INTERNAL_DEPENDENCIES */
	cuuint64_t threshold;        /* RELEASE_THRESHOLD */
	cuuint64_t used, used_high;  /* bytes allocated from the pool now, and the most at once */
};

static struct CUmemPoolHandle_st pools[DRV_MAX_DEVICES];

static bool pool_valid(CUmemoryPool p)
{
	return p >= &pools[0] && p < &pools[DRV_MAX_DEVICES];
}

CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev)
{
	if (!pool)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS)
		*pool = &pools[dev];
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
	return cuDeviceGetDefaultMemPool(pool, dev); /* the current pool is always the default one */
}

CUresult CUDAAPI cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS && pool != &pools[dev])
		r = drv_unsupported("cuDeviceSetMemPool with a pool other than the device's default");
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	if (!value || !pool_valid(pool))
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = CUDA_SUCCESS;
	if (attr >= CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES &&
	    attr <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES)
		pool->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES] = *(int *)value;
	else if (attr == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
		pool->threshold = *(cuuint64_t *)value;
	else if ((attr == CU_MEMPOOL_ATTR_USED_MEM_HIGH || attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH) &&
		 *(cuuint64_t *)value == 0)
		pool->used_high = pool->used; /* the high-water marks can only be reset */
	else
		r = CUDA_ERROR_INVALID_VALUE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	if (!value || !pool_valid(pool))
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = CUDA_SUCCESS;
	if (attr >= CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES &&
	    attr <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES)
		*(int *)value = pool->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES];
	else if (attr == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
		*(cuuint64_t *)value = pool->threshold;
	else if (attr == CU_MEMPOOL_ATTR_USED_MEM_CURRENT || attr == CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)
		*(cuuint64_t *)value = pool->used; /* freed memory goes back at once: nothing stays reserved */
	else if (attr == CU_MEMPOOL_ATTR_USED_MEM_HIGH || attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH)
		*(cuuint64_t *)value = pool->used_high;
	else
		r = CUDA_ERROR_INVALID_VALUE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool pool, size_t keep)
{
	(void)keep;
	return pool_valid(pool) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

void drv_pool_account(CUdevice dev, size_t bytes, bool freed)
{
	struct CUmemPoolHandle_st *p = &pools[dev >= 0 && dev < DRV_MAX_DEVICES ? dev : 0];
	p->used = freed ? (p->used >= bytes ? p->used - bytes : 0) : p->used + bytes;
	if (p->used > p->used_high)
		p->used_high = p->used;
}

CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytes, CUmemoryPool pool, CUstream stream)
{
	if (!pool_valid(pool))
		return CUDA_ERROR_INVALID_VALUE;
	return cuMemAllocAsync(dptr, bytes, stream);
}

CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytes, CUmemoryPool pool, CUstream stream)
{
	return cuMemAllocFromPoolAsync(dptr, bytes, pool, stream);
}
