/* standin_mem.c — device memory of the stand-in driver: host allocations behind cudaMalloc-like
 * addresses (256-byte aligned, a guard gap between them), copies and memset with bounds checks. */
#include "standin.h"

#include <stdlib.h>
#include <string.h>

#define ALIGN 256u
#define GAP   (1u << 20)

struct standin_alloc *standin_find(CUdeviceptr ptr, size_t bytes)
{
	for (int i = 0; i < standin.nallocs; i++) {
		struct standin_alloc *a = &standin.allocs[i];
		if (ptr >= a->base && ptr - a->base <= a->size && bytes <= a->size - (ptr - a->base))
			return a;
	}
	return NULL;
}

struct standin_alloc *standin_find_base(CUdeviceptr ptr)
{
	for (int i = 0; i < standin.nallocs; i++)
		if (standin.allocs[i].base == ptr)
			return &standin.allocs[i];
	return NULL;
}

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytes)
{
	CUresult r = standin_ready();
	if (r == CUDA_SUCCESS)
		r = standin_fail("cuMemAlloc", CUDA_ERROR_OUT_OF_MEMORY);
	if (r != CUDA_SUCCESS)
		return r;
	if (!dptr || bytes == 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (bytes > STANDIN_MEMORY - standin.allocated || standin.nallocs == STANDIN_MAX_ALLOCS)
		return CUDA_ERROR_OUT_OF_MEMORY;
	uint8_t *host = calloc(1, bytes);
	if (!host)
		return CUDA_ERROR_OUT_OF_MEMORY;
	struct standin_alloc *a = &standin.allocs[standin.nallocs++];
	a->base = standin.next_addr;
	a->size = bytes;
	a->host = host;
	standin.next_addr += (bytes + ALIGN - 1) / ALIGN * ALIGN + GAP;
	standin.allocated += bytes;
	*dptr = a->base;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemFree(CUdeviceptr dptr)
{
	CUresult r = standin_ready();
	if (r != CUDA_SUCCESS)
		return r;
	struct standin_alloc *a = standin_find_base(dptr);
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	free(a->host);
	standin.allocated -= a->size;
	*a = standin.allocs[--standin.nallocs];
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes)
{
	CUresult r = standin_ready();
	if (r == CUDA_SUCCESS)
		r = standin_fail("cuMemcpyHtoD", CUDA_ERROR_INVALID_VALUE);
	if (r != CUDA_SUCCESS)
		return r;
	struct standin_alloc *a = standin_find(dst, bytes);
	if (!a || (!src && bytes))
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(a->host + (dst - a->base), src, bytes);
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes)
{
	CUresult r = standin_ready();
	if (r == CUDA_SUCCESS)
		r = standin_fail("cuMemcpyDtoH", CUDA_ERROR_INVALID_VALUE);
	if (r != CUDA_SUCCESS)
		return r;
	struct standin_alloc *a = standin_find(src, bytes);
	if (!a || (!dst && bytes))
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(dst, a->host + (src - a->base), bytes);
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t n)
{
	CUresult r = standin_ready();
	if (r == CUDA_SUCCESS)
		r = standin_fail("cuMemsetD8", CUDA_ERROR_INVALID_VALUE);
	if (r != CUDA_SUCCESS)
		return r;
	struct standin_alloc *a = standin_find(dst, n);
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	memset(a->host + (dst - a->base), value, n);
	return CUDA_SUCCESS;
}
