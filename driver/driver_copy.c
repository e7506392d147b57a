/* driver_copy.c — copies and memset: 1D between host and device memory (and device to device, and peer
 * within the one device), 2D and 3D with pitches and arrays, and memset of 8-, 16- and 32-bit values in
 * 1D and 2D.  A device-side range must lie inside one allocation (CUDA_ERROR_INVALID_VALUE otherwise);
 * the host side is the program's memory.  The asynchronous forms are stream operations (driver_stream.c):
 * run at issue, or recorded while their stream captures a graph. */
#include "driver.h"

#include <string.h>

CUresult drv_copy(uint64_t dst, uint64_t src, size_t n, unsigned device_sides)
{
	if (n == 0)
		return CUDA_SUCCESS;
	uint8_t *d = drv_mem_bytes(dst, n, !(device_sides & DRV_DST_DEVICE));
	uint8_t *s = drv_mem_bytes(src, n, !(device_sides & DRV_SRC_DEVICE));
	if (!d || !s)
		return CUDA_ERROR_INVALID_VALUE;
	memmove(d, s, n);
	return CUDA_SUCCESS;
}

/* The shape of a 2D/3D copy. */
struct shape {
	size_t w, h, d; /* bytes per row, rows, slices */
};

/* One side of a 2D/3D copy: its first byte, given its pitch and rows per slice (an array's own), when
 * every byte the copy touches is there; NULL otherwise. */
static uint8_t *side(CUmemorytype type, const void *host, CUdeviceptr dev, CUarray array, size_t x, size_t y, size_t z,
		     size_t *pitch, size_t *rows, const struct shape *sh)
{
	if (type == CU_MEMORYTYPE_ARRAY) {
		size_t depth = 1;
		uint8_t *base = drv_array_data(array, pitch, rows, &depth);
		if (!base || x > *pitch || sh->w > *pitch - x || y > *rows || sh->h > *rows - y || z > depth ||
		    sh->d > depth - z)
			return NULL;
		return base + (z * *rows + y) * *pitch + x;
	}
	if (type != CU_MEMORYTYPE_HOST && type != CU_MEMORYTYPE_DEVICE && type != CU_MEMORYTYPE_UNIFIED)
		return NULL;
	size_t p = *pitch, r = *rows;
	if ((sh->h > 1 || sh->d > 1) && p < sh->w)
		return NULL; /* rows would overlap */
	/* the bytes from the first to the last one touched, computed without overflow */
	double span = ((double)(z + sh->d - 1) * (double)r + (double)(y + sh->h - 1)) * (double)p + (double)x + (double)sh->w;
	if (span > (double)(SIZE_MAX / 2))
		return NULL;
	size_t off = (z * r + y) * p + x, extent = ((sh->d - 1) * r + sh->h - 1) * p + sh->w;
	uint64_t first = (type == CU_MEMORYTYPE_HOST ? (uint64_t)(uintptr_t)host : dev) + off;
	return drv_mem_bytes(first, extent, type != CU_MEMORYTYPE_DEVICE);
}

CUresult drv_copy3d(const CUDA_MEMCPY3D *p)
{
	struct shape sh = {p->WidthInBytes, p->Height ? p->Height : 1, p->Depth ? p->Depth : 1};
	if (!sh.w)
		return CUDA_SUCCESS;
	size_t sp = p->srcPitch ? p->srcPitch : sh.w, dp = p->dstPitch ? p->dstPitch : sh.w;
	size_t sr = p->srcHeight ? p->srcHeight : sh.h, dr = p->dstHeight ? p->dstHeight : sh.h;
	const uint8_t *s = side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY,
				p->srcZ, &sp, &sr, &sh);
	uint8_t *t = side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
			  &dp, &dr, &sh);
	if (!s || !t)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t z = 0; z < sh.d; z++)
		for (size_t y = 0; y < sh.h; y++)
			memmove(t + (z * dr + y) * dp, s + (z * sr + y) * sp, sh.w);
	return CUDA_SUCCESS;
}

static CUDA_MEMCPY3D from_2d(const CUDA_MEMCPY2D *p)
{
	return (CUDA_MEMCPY3D){
		.srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcMemoryType = p->srcMemoryType, .srcHost = p->srcHost,
		.srcDevice = p->srcDevice, .srcArray = p->srcArray, .srcPitch = p->srcPitch, .dstXInBytes = p->dstXInBytes,
		.dstY = p->dstY, .dstMemoryType = p->dstMemoryType, .dstHost = p->dstHost, .dstDevice = p->dstDevice,
		.dstArray = p->dstArray, .dstPitch = p->dstPitch, .WidthInBytes = p->WidthInBytes, .Height = p->Height,
		.Depth = 1};
}

CUresult drv_memset(const CUDA_MEMSET_NODE_PARAMS *p)
{
	unsigned e = p->elementSize;
	size_t h = p->height ? p->height : 1, pitch = h > 1 ? p->pitch : p->width * e;
	if ((e != 1 && e != 2 && e != 4) || (p->dst % e) || (h > 1 && (pitch < p->width * e || pitch % e)))
		return CUDA_ERROR_INVALID_VALUE;
	if (!p->width)
		return CUDA_SUCCESS;
	if (p->width > SIZE_MAX / e / h || (h > 1 && pitch > SIZE_MAX / h))
		return CUDA_ERROR_INVALID_VALUE;
	uint8_t *d = drv_mem_bytes(p->dst, (h - 1) * pitch + p->width * e, false);
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t y = 0; y < h; y++) {
		uint8_t *row = d + y * pitch;
		if (e == 1) {
			memset(row, (int)(p->value & 0xff), p->width);
			continue;
		}
		for (size_t i = 0; i < p->width; i++) {
			if (e == 2) {
				uint16_t v = (uint16_t)p->value;
				memcpy(row + 2 * i, &v, 2);
			} else {
				memcpy(row + 4 * i, &p->value, 4);
			}
		}
	}
	return CUDA_SUCCESS;
}

/* ---- synchronous forms: the current context, its sticky error, then the work */

static CUresult sync_copy(uint64_t dst, uint64_t src, size_t n, unsigned device_sides, const char *name)
{
	drv_lock_at(name);
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS)
		r = drv_fail(name, CUDA_ERROR_INVALID_VALUE);
	if (r == CUDA_SUCCESS)
		r = drv_copy(dst, src, n, device_sides);
	drv_trace("%s(0x%llx <- 0x%llx, %zu) = %d", name, (unsigned long long)dst, (unsigned long long)src, n, (int)r);
	drv_unlock();
	return r;
}

static uint64_t host_addr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return sync_copy(dst, src, n, 0, __func__);
}

CUresult CUDAAPI cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	return sync_copy(dst, host_addr(src), n, DRV_DST_DEVICE, __func__);
}

CUresult CUDAAPI cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	return sync_copy(host_addr(dst), src, n, DRV_SRC_DEVICE, __func__);
}

CUresult CUDAAPI cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return sync_copy(dst, src, n, DRV_DST_DEVICE | DRV_SRC_DEVICE, __func__);
}

CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n)
{
	(void)dctx;
	(void)sctx; /* one device: a peer copy is a device-to-device copy */
	return cuMemcpyDtoD_v2(dst, src, n);
}

static CUresult sync_3d(const CUDA_MEMCPY3D *p, const char *api)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock_at(api);
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS)
		r = drv_copy3d(p);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemcpy3D_v2(const CUDA_MEMCPY3D *p)
{
	return sync_3d(p, __func__);
}

CUresult CUDAAPI cuMemcpy2D_v2(const CUDA_MEMCPY2D *p)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	CUDA_MEMCPY3D c = from_2d(p);
	return sync_3d(&c, __func__);
}

CUresult CUDAAPI cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *p)
{
	return cuMemcpy2D_v2(p);
}

static CUDA_MEMCPY3D from_peer(const CUDA_MEMCPY3D_PEER *p)
{
	return (CUDA_MEMCPY3D){
		.srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcZ = p->srcZ, .srcMemoryType = p->srcMemoryType,
		.srcHost = p->srcHost, .srcDevice = p->srcDevice, .srcArray = p->srcArray, .srcPitch = p->srcPitch,
		.srcHeight = p->srcHeight, .dstXInBytes = p->dstXInBytes, .dstY = p->dstY, .dstZ = p->dstZ,
		.dstMemoryType = p->dstMemoryType, .dstHost = p->dstHost, .dstDevice = p->dstDevice,
		.dstArray = p->dstArray, .dstPitch = p->dstPitch, .dstHeight = p->dstHeight,
		.WidthInBytes = p->WidthInBytes, .Height = p->Height, .Depth = p->Depth};
}

CUresult CUDAAPI cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *p)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	CUDA_MEMCPY3D c = from_peer(p);
	return sync_3d(&c, __func__);
}

static CUresult sync_memset(CUdeviceptr dst, size_t pitch, unsigned value, unsigned e, size_t w, size_t h,
			    const char *name)
{
	CUDA_MEMSET_NODE_PARAMS p = {.dst = dst, .pitch = pitch, .value = value, .elementSize = e, .width = w,
				     .height = h};
	drv_lock_at(name);
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS)
		r = drv_fail(name, CUDA_ERROR_INVALID_VALUE);
	if (r == CUDA_SUCCESS)
		r = drv_memset(&p);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n)
{
	return sync_memset(dst, 0, v, 1, n, 1, __func__);
}

CUresult CUDAAPI cuMemsetD16_v2(CUdeviceptr dst, unsigned short v, size_t n)
{
	return sync_memset(dst, 0, v, 2, n, 1, __func__);
}

CUresult CUDAAPI cuMemsetD32_v2(CUdeviceptr dst, unsigned int v, size_t n)
{
	return sync_memset(dst, 0, v, 4, n, 1, __func__);
}

CUresult CUDAAPI cuMemsetD2D8_v2(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h)
{
	return sync_memset(dst, pitch, v, 1, w, h, __func__);
}

CUresult CUDAAPI cuMemsetD2D16_v2(CUdeviceptr dst, size_t pitch, unsigned short v, size_t w, size_t h)
{
	return sync_memset(dst, pitch, v, 2, w, h, __func__);
}

CUresult CUDAAPI cuMemsetD2D32_v2(CUdeviceptr dst, size_t pitch, unsigned int v, size_t w, size_t h)
{
	return sync_memset(dst, pitch, v, 4, w, h, __func__);
}

/* ---- asynchronous forms: stream operations */

static CUresult async_copy(uint64_t dst, uint64_t src, size_t n, unsigned device_sides, CUstream s, const char *api)
{
	struct drv_op op = {.kind = DRV_OP_COPY, .dst = dst, .src = src, .bytes = n, .sides = device_sides};
	drv_lock_at(api);
	CUresult r = drv_issue(s, &op);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
	return async_copy(dst, src, n, 0, s, __func__);
}

CUresult CUDAAPI cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
	return async_copy(dst, host_addr(src), n, DRV_DST_DEVICE, s, __func__);
}

CUresult CUDAAPI cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
	return async_copy(host_addr(dst), src, n, DRV_SRC_DEVICE, s, __func__);
}

CUresult CUDAAPI cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
	return async_copy(dst, src, n, DRV_DST_DEVICE | DRV_SRC_DEVICE, s, __func__);
}

CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n,
				   CUstream s)
{
	(void)dctx;
	(void)sctx;
	return cuMemcpyDtoDAsync_v2(dst, src, n, s);
}

CUresult CUDAAPI cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *p, CUstream s)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	struct drv_op op = {.kind = DRV_OP_COPY3D, .copy3d = *p};
	drv_lock();
	CUresult r = drv_issue(s, &op);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *p, CUstream s)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	struct drv_op op = {.kind = DRV_OP_COPY3D, .copy3d = from_2d(p)};
	drv_lock();
	CUresult r = drv_issue(s, &op);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *p, CUstream s)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	struct drv_op op = {.kind = DRV_OP_COPY3D, .copy3d = from_peer(p)};
	drv_lock();
	CUresult r = drv_issue(s, &op);
	drv_unlock();
	return r;
}

static CUresult async_memset(CUdeviceptr dst, size_t pitch, unsigned v, unsigned e, size_t w, size_t h, CUstream s,
			     const char *api)
{
	struct drv_op op = {.kind = DRV_OP_MEMSET,
			    .memset = {.dst = dst, .pitch = pitch, .value = v, .elementSize = e, .width = w, .height = h}};
	drv_lock_at(api);
	CUresult r = drv_issue(s, &op);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n, CUstream s)
{
	return async_memset(dst, 0, v, 1, n, 1, s, __func__);
}

CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dst, unsigned short v, size_t n, CUstream s)
{
	return async_memset(dst, 0, v, 2, n, 1, s, __func__);
}

CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dst, unsigned int v, size_t n, CUstream s)
{
	return async_memset(dst, 0, v, 4, n, 1, s, __func__);
}

CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h, CUstream s)
{
	return async_memset(dst, pitch, v, 1, w, h, s, __func__);
}

CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch, unsigned short v, size_t w, size_t h, CUstream s)
{
	return async_memset(dst, pitch, v, 2, w, h, s, __func__);
}

CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch, unsigned int v, size_t w, size_t h, CUstream s)
{
	return async_memset(dst, pitch, v, 4, w, h, s, __func__);
}
