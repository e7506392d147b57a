/* driver_memapi.c — the memory entry points over the memory map (driver_mem.c): device, pitched, pinned,
 * mapped, managed and registered memory, stream-ordered allocation (which completes at issue), memory
 * information under gpulab's host-memory rule, address ranges and pointer attributes. */
#include "driver.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static CUresult alloc(enum drv_mem_kind kind, size_t bytes, unsigned flags, uint64_t *base, const char *name)
{
	CUcontext c;
	CUresult r = drv_ready(&c);
	if (r == CUDA_SUCCESS)
		r = drv_fail(name, CUDA_ERROR_OUT_OF_MEMORY);
	struct drv_alloc *a = NULL;
	if (r == CUDA_SUCCESS)
		r = drv_mem_alloc(kind, bytes, flags, &a);
	if (r == CUDA_SUCCESS)
		*base = a->base;
	drv_trace("%s(%zu bytes) = %s 0x%llx", name, bytes, r == CUDA_SUCCESS ? "ok" : "error",
		  (unsigned long long)(a ? a->base : 0));
	return r;
}

CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes)
{
	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	uint64_t base = 0;
	CUresult r = alloc(DRV_MEM_DEVICE, bytes, 0, &base, "cuMemAlloc");
	if (r == CUDA_SUCCESS)
		*dptr = base;
	drv_unlock();
	return r;
}

/* Rows aligned to 512 bytes, the pitch NVIDIA's driver gives on current GPUs (the texture alignment). */
CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height, unsigned int elem)
{
	if (!dptr || !pitch || !width || !height || (elem != 4 && elem != 8 && elem != 16))
		return CUDA_ERROR_INVALID_VALUE;
	size_t p = (width + 511) / 512 * 512;
	if (height > SIZE_MAX / p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	drv_lock();
	uint64_t base = 0;
	CUresult r = alloc(DRV_MEM_DEVICE, p * height, 0, &base, "cuMemAllocPitch");
	if (r == CUDA_SUCCESS) {
		*dptr = base;
		*pitch = p;
	}
	drv_unlock();
	return r;
}

static CUresult free_kind(uint64_t base, bool host, const char *name)
{
	CUcontext c;
	CUresult r = drv_ready_unpoisoned(&c); /* memory can be freed after a fault */
	struct drv_alloc *a = r == CUDA_SUCCESS ? drv_mem_at(base) : NULL;
	if (r == CUDA_SUCCESS && (!a || (a->kind == DRV_MEM_HOST) != host || a->kind == DRV_MEM_REGISTERED ||
				  a->kind == DRV_MEM_MODULE))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS && a->from_pool)
		drv_pool_account(c->dev, a->size, true);
	if (r == CUDA_SUCCESS && a->graph_owned)
		drv_mem_unmap(a); /* its address stays the graph's */
	else if (r == CUDA_SUCCESS)
		drv_mem_release(a);
	drv_trace("%s(0x%llx) = %d", name, (unsigned long long)base, (int)r);
	return r;
}

CUresult CUDAAPI cuMemFree_v2(CUdeviceptr dptr)
{
	if (!dptr)
		return CUDA_SUCCESS; /* as cudaFree(NULL) */
	drv_lock();
	CUresult r = free_kind(dptr, false, "cuMemFree");
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *dptr, size_t bytes, CUstream stream)
{
	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready(&c);
	if (r == CUDA_SUCCESS && !drv_stream(c, stream))
		r = CUDA_ERROR_INVALID_HANDLE;
	uint64_t base = 0;
	if (r == CUDA_SUCCESS)
		r = alloc(DRV_MEM_DEVICE, bytes, 0, &base, "cuMemAllocAsync");
	if (r == CUDA_SUCCESS) {
		struct drv_alloc *a = drv_mem_at(base);
		a->from_pool = true;
		drv_pool_account(c->dev, bytes, false);
		*dptr = base;
		struct CUstream_st *s = drv_stream(c, stream);
		if (s->capture) { /* a graph's allocation: mapped again by each of its launches */
			struct drv_op op = {.kind = DRV_OP_MAP, .dst = base};
			a->graph_owned = true;
			r = drv_capture_add(s, &op);
		}
	}
	drv_unlock();
	return r;
}

/* A stream-ordered allocation made while a stream captures a graph belongs to the graph: the graph maps
 * it again at every launch at the same address, and a free captured with it unmaps it when it runs. */
CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream stream)
{
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready_unpoisoned(&c);
	struct CUstream_st *s = r == CUDA_SUCCESS ? drv_stream(c, stream) : NULL;
	if (r == CUDA_SUCCESS && !s)
		r = CUDA_ERROR_INVALID_HANDLE;
	struct drv_op op = {.kind = DRV_OP_UNMAP, .dst = dptr};
	if (r == CUDA_SUCCESS && s->capture)
		r = drv_mem_at(dptr) ? drv_capture_add(s, &op) : CUDA_ERROR_INVALID_VALUE;
	else if (r == CUDA_SUCCESS)
		r = free_kind(dptr, false, "cuMemFreeAsync");
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytes, CUstream stream)
{
	return cuMemAllocAsync(dptr, bytes, stream);
}

CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream stream)
{
	return cuMemFreeAsync(dptr, stream);
}

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytes, unsigned int flags)
{
	if (!dptr || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	uint64_t base = 0;
	CUresult r = alloc(DRV_MEM_MANAGED, bytes, flags, &base, "cuMemAllocManaged");
	if (r == CUDA_SUCCESS)
		*dptr = base;
	drv_unlock();
	return r;
}

/* ---- pinned and mapped host memory: the device address is the host address */

CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytes, unsigned int flags)
{
	if (!pp || (flags & ~(unsigned)(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED)))
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	uint64_t base = 0;
	CUresult r = alloc(DRV_MEM_HOST, bytes, flags, &base, "cuMemHostAlloc");
	if (r == CUDA_SUCCESS)
		*pp = (void *)(uintptr_t)base;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemAllocHost_v2(void **pp, size_t bytes)
{
	return cuMemHostAlloc(pp, bytes, 0);
}

CUresult CUDAAPI cuMemFreeHost(void *p)
{
	drv_lock();
	CUresult r = free_kind((uint64_t)(uintptr_t)p, true, "cuMemFreeHost");
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemHostGetDevicePointer_v2(CUdeviceptr *dptr, void *p, unsigned int flags)
{
	if (!dptr || flags)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_ready(NULL);
	struct drv_alloc *a = r == CUDA_SUCCESS ? drv_mem_find((uint64_t)(uintptr_t)p, 0) : NULL;
	if (r == CUDA_SUCCESS && (!a || (a->kind != DRV_MEM_HOST && a->kind != DRV_MEM_REGISTERED)))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemHostGetFlags(unsigned int *flags, void *p)
{
	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_ready(NULL);
	struct drv_alloc *a = r == CUDA_SUCCESS ? drv_mem_find((uint64_t)(uintptr_t)p, 0) : NULL;
	if (r == CUDA_SUCCESS && (!a || (a->kind != DRV_MEM_HOST && a->kind != DRV_MEM_REGISTERED)))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		*flags = a->flags | CU_MEMHOSTALLOC_DEVICEMAP; /* every such allocation is mapped (unified addressing) */
	drv_unlock();
	return r;
}

/* Does [base, base + bytes) meet one of the simulator's address windows (ptx.h)? */
static bool in_window(uint64_t base, size_t bytes)
{
	static const uint64_t windows[] = {PTX_PARAM_WINDOW, PTX_MODULE_BASE, PTX_LOCAL_WINDOW, PTX_SHARED_WINDOW,
					   PTX_FUNC_WINDOW};
	for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++)
		if (base < windows[i] + 2 * PTX_WINDOW_SIZE && base + bytes > windows[i]) /* the grid workspace too */
			return true;
	return false;
}

/* The program's own memory becomes reachable from kernels at its own address, unless it lies in one of
 * the simulator's address windows (shared, local, parameters, module data, functions). */
CUresult CUDAAPI cuMemHostRegister_v2(void *p, size_t bytes, unsigned int flags)
{
	uint64_t base = (uint64_t)(uintptr_t)p;
	if (!p || !bytes || base + bytes < base)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS && in_window(base, bytes)) {
		drv_say("cuMemHostRegister: %p (+%zu bytes) lies where the simulator keeps an address window (ptx.h); "
			"allocate it with cudaHostAlloc instead", p, bytes);
		r = CUDA_ERROR_NOT_SUPPORTED;
	}
	struct drv_alloc *a = NULL;
	if (r == CUDA_SUCCESS)
		r = drv_mem_enter(DRV_MEM_REGISTERED, base, p, bytes, flags, &a);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytes, unsigned int flags)
{
	return cuMemHostRegister_v2(p, bytes, flags);
}

CUresult CUDAAPI cuMemHostUnregister(void *p)
{
	drv_lock();
	CUresult r = drv_ready_unpoisoned(NULL);
	struct drv_alloc *a = r == CUDA_SUCCESS ? drv_mem_at((uint64_t)(uintptr_t)p) : NULL;
	if (r == CUDA_SUCCESS && (!a || a->kind != DRV_MEM_REGISTERED))
		r = CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
	if (r == CUDA_SUCCESS)
		drv_mem_release(a); /* outside the arena: it is only forgotten */
	drv_unlock();
	return r;
}

/* ---- information */

CUresult CUDAAPI cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
	drv_lock();
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS) {
		size_t t = drv_mem_total(), used = drv_mem_used();
		if (free_bytes)
			*free_bytes = used < t ? t - used : 0;
		if (total)
			*total = t;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr dptr)
{
	drv_lock();
	CUresult r = drv_ready(NULL);
	struct drv_alloc *a = r == CUDA_SUCCESS ? drv_mem_find(dptr, 0) : NULL;
	if (r == CUDA_SUCCESS && !a)
		r = CUDA_ERROR_NOT_FOUND;
	if (r == CUDA_SUCCESS) {
		if (base)
			*base = a->base;
		if (size)
			*size = a->size;
	}
	drv_unlock();
	return r;
}

/* Managed memory is where the device can reach it, and the host too: hints and prefetches change
 * nothing in one address space. */
CUresult CUDAAPI cuMemPrefetchAsync_v2(CUdeviceptr p, size_t n, CUmemLocation loc, unsigned int flags, CUstream s)
{
	(void)loc;
	(void)flags;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready(&c);
	if (r == CUDA_SUCCESS && (!drv_stream(c, s) || !drv_mem_find(p, n)))
		r = CUDA_ERROR_INVALID_VALUE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr p, size_t n, CUdevice dev, CUstream s)
{
	CUmemLocation loc = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev};
	return cuMemPrefetchAsync_v2(p, n, loc, 0, s);
}

CUresult CUDAAPI cuMemPrefetchAsync_v2_ptsz(CUdeviceptr p, size_t n, CUmemLocation loc, unsigned int flags, CUstream s)
{
	return cuMemPrefetchAsync_v2(p, n, loc, flags, s);
}

CUresult CUDAAPI cuMemPrefetchAsync_ptsz(CUdeviceptr p, size_t n, CUdevice dev, CUstream s)
{
	return cuMemPrefetchAsync(p, n, dev, s);
}

CUresult CUDAAPI cuMemAdvise_v2(CUdeviceptr p, size_t n, CUmem_advise advice, CUmemLocation loc)
{
	(void)advice;
	(void)loc;
	drv_lock();
	CUresult r = drv_ready(NULL);
	struct drv_alloc *a = r == CUDA_SUCCESS ? drv_mem_find(p, n) : NULL;
	if (r == CUDA_SUCCESS && (!a || a->kind != DRV_MEM_MANAGED))
		r = CUDA_ERROR_INVALID_VALUE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemAdvise(CUdeviceptr p, size_t n, CUmem_advise advice, CUdevice dev)
{
	CUmemLocation loc = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev};
	return cuMemAdvise_v2(p, n, advice, loc);
}

CUresult CUDAAPI cuStreamAttachMemAsync(CUstream stream, CUdeviceptr p, size_t n, unsigned int flags)
{
	(void)flags;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready(&c);
	if (r == CUDA_SUCCESS && (!drv_stream(c, stream) || !drv_mem_find(p, n ? n : 1)))
		r = CUDA_ERROR_INVALID_VALUE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamAttachMemAsync_ptsz(CUstream stream, CUdeviceptr p, size_t n, unsigned int flags)
{
	return cuStreamAttachMemAsync(stream, p, n, flags);
}

/* ---- pointer attributes */

static CUmemorytype memory_type(const struct drv_alloc *a)
{
	return a->kind == DRV_MEM_HOST || a->kind == DRV_MEM_REGISTERED ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
}

/* One attribute of the allocation `a` holding ptr (NULL: memory the driver does not know). */
static CUresult attribute(void *data, CUpointer_attribute attr, const struct drv_alloc *a, CUdeviceptr ptr)
{
	switch (attr) {
	case CU_POINTER_ATTRIBUTE_CONTEXT: *(CUcontext *)data = a ? a->ctx : NULL; break;
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *(unsigned *)data = a ? memory_type(a) : 0; break;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *(CUdeviceptr *)data = a ? ptr : 0; break;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		*(void **)data = a && a->kind != DRV_MEM_DEVICE ? a->host + (ptr - a->base) : NULL;
		break;
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
	case CU_POINTER_ATTRIBUTE_MAPPED: *(int *)data = a != NULL; break;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
	case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: *(unsigned long long *)data = a ? a->id : 0; break;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED: *(int *)data = a && a->kind == DRV_MEM_MANAGED; break;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = a && a->ctx ? a->ctx->dev : (a ? 0 : -2); break;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
	case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR: *(CUdeviceptr *)data = a ? a->base : 0; break;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
	case CU_POINTER_ATTRIBUTE_MAPPING_SIZE: *(size_t *)data = a ? a->size : 0; break;
	case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
		*(unsigned *)data = a ? CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE : CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE;
		break;
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: *(void **)data = NULL; break;
	case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
	case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
	case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE: *(int *)data = 0; break;
	case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: *(unsigned long long *)data = 0; break;
	default: return CUDA_ERROR_INVALID_VALUE; /* P2P tokens: no peer-to-peer interface */
	}
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuPointerGetAttribute(void *data, CUpointer_attribute attr, CUdeviceptr ptr)
{
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
	const struct drv_alloc *a = r == CUDA_SUCCESS ? drv_mem_find(ptr, 0) : NULL;
	if (r == CUDA_SUCCESS && !a)
		r = CUDA_ERROR_INVALID_VALUE; /* memory the driver does not know */
	if (r == CUDA_SUCCESS && attr == CU_POINTER_ATTRIBUTE_HOST_POINTER && a->kind == DRV_MEM_DEVICE)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		r = attribute(data, attr, a, ptr);
	drv_unlock();
	return r;
}

/* Unlike cuPointerGetAttribute, unknown memory is not an error here: its attributes read as unregistered. */
CUresult CUDAAPI cuPointerGetAttributes(unsigned int n, CUpointer_attribute *attrs, void **data, CUdeviceptr ptr)
{
	if (!attrs || !data)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
	const struct drv_alloc *a = r == CUDA_SUCCESS ? drv_mem_find(ptr, 0) : NULL;
	for (unsigned i = 0; r == CUDA_SUCCESS && i < n; i++)
		if (data[i])
			r = attribute(data[i], attrs[i], a, ptr);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuPointerSetAttribute(const void *value, CUpointer_attribute attr, CUdeviceptr ptr)
{
	(void)value;
	drv_lock();
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS && !drv_mem_find(ptr, 0))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS && attr != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
		r = CUDA_ERROR_INVALID_VALUE; /* the only settable attribute; every copy is synchronous anyway */
	drv_unlock();
	return r;
}
