/* driver_tex.c — CUDA arrays, texture objects and surface objects, as the driver holds them: an array is
 * its elements in host memory, rows of width x element bytes; a texture or surface object is a handle
 * to copies of its resource, texture and view descriptions.  At each launch drv_tex_table turns every
 * live object into the descriptor the simulator's tex/tld4/suld/sust instructions read
 * (common/texture.h), under the handle the kernel received. */
#include "driver.h"

#include <stdlib.h>
#include <string.h>

#include "driver_tex.h"

struct CUarray_st {
	uint32_t magic;
	CUDA_ARRAY3D_DESCRIPTOR desc;
	unsigned elem;                  /* bytes per element: format size x channels */
	size_t pitch, height, depth;    /* bytes per row, rows per slice, slices */
	uint8_t *data;
	struct CUarray_st *next;
};

static struct CUarray_st *arrays;
static struct drv_tex_object *objects; /* [i] is handle i + 1 */
static int nobjects;

static unsigned format_bytes(CUarray_format f)
{
	switch (f) {
	case CU_AD_FORMAT_UNSIGNED_INT8:
	case CU_AD_FORMAT_SIGNED_INT8: return 1;
	case CU_AD_FORMAT_UNSIGNED_INT16:
	case CU_AD_FORMAT_SIGNED_INT16:
	case CU_AD_FORMAT_HALF: return 2;
	case CU_AD_FORMAT_UNSIGNED_INT32:
	case CU_AD_FORMAT_SIGNED_INT32:
	case CU_AD_FORMAT_FLOAT: return 4;
	default: return 0; /* block-compressed, YUV and packed normalised formats: not modelled */
	}
}

static bool array_valid(const struct CUarray_st *a)
{
	for (const struct CUarray_st *k = arrays; k && a; k = k->next)
		if (k == a)
			return true;
	return false;
}

uint8_t *drv_array_data(CUarray a, size_t *pitch, size_t *height, size_t *depth)
{
	if (!array_valid(a))
		return NULL;
	*pitch = a->pitch;
	*height = a->height;
	*depth = a->depth;
	return a->data;
}

static CUresult array_create(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d, const char *api)
{
	unsigned fb = format_bytes(d->Format);
	if (!out || !d->Width || (d->NumChannels != 1 && d->NumChannels != 2 && d->NumChannels != 4))
		return CUDA_ERROR_INVALID_VALUE;
	if (!fb)
		return drv_unsupported("cuArrayCreate of a block-compressed, YUV or packed normalised format");
	if (d->Flags & (CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER | CUDA_ARRAY3D_SPARSE))
		return drv_unsupported("cuArray3DCreate of a cubemap, gather or sparse array");
	drv_lock_at(api);
	CUresult r = drv_ready(NULL);
	struct CUarray_st *a = r == CUDA_SUCCESS ? calloc(1, sizeof *a) : NULL;
	size_t h = d->Height ? d->Height : 1, depth = d->Depth ? d->Depth : 1, pitch = d->Width * fb * d->NumChannels;
	if (a && pitch / d->Width == fb * d->NumChannels && h <= SIZE_MAX / pitch / depth)
		a->data = calloc(pitch * h * depth, 1);
	if (r == CUDA_SUCCESS && (!a || !a->data)) {
		free(a);
		r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (r == CUDA_SUCCESS) {
		*a = (struct CUarray_st){.magic = DRV_ARRAY, .desc = *d, .elem = fb * d->NumChannels, .pitch = pitch,
					 .height = h, .depth = depth, .data = a->data, .next = arrays};
		arrays = a;
		*out = a;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuArray3DCreate_v2(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	return d ? array_create(out, d, __func__) : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuArrayCreate_v2(CUarray *out, const CUDA_ARRAY_DESCRIPTOR *d)
{
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	CUDA_ARRAY3D_DESCRIPTOR d3 = {.Width = d->Width, .Height = d->Height, .Format = d->Format,
				      .NumChannels = d->NumChannels};
	return array_create(out, &d3, __func__);
}

CUresult CUDAAPI cuArrayDestroy(CUarray a)
{
	drv_lock();
	struct CUarray_st **p = &arrays;
	while (*p && *p != a)
		p = &(*p)->next;
	CUresult r = *p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS) {
		*p = a->next;
		free(a->data);
		a->magic = 0;
		free(a);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *d, CUarray a)
{
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = array_valid(a) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		*d = a->desc;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *d, CUarray a)
{
	CUDA_ARRAY3D_DESCRIPTOR d3;
	CUresult r = d ? cuArray3DGetDescriptor_v2(&d3, a) : CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		*d = (CUDA_ARRAY_DESCRIPTOR){.Width = d3.Width, .Height = d3.Height, .Format = d3.Format,
					     .NumChannels = d3.NumChannels};
	return r;
}

/* 1D copies to and from arrays: byte offsets into the array's elements, as 2D copies of one row. */
static CUresult array_copy(CUarray dst, size_t doff, CUarray src, size_t soff, uint64_t dev, const void *host,
			   void *host_out, size_t n, bool to_array, const char *api)
{
	CUDA_MEMCPY3D c = {.WidthInBytes = n, .Height = 1, .Depth = 1};
	if (to_array) {
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = dst;
		c.dstXInBytes = doff;
	}
	if (src) {
		c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		c.srcArray = src;
		c.srcXInBytes = soff;
	} else if (host) {
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = host;
	} else {
		c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
		c.srcDevice = dev;
	}
	if (!to_array) {
		c.dstMemoryType = host_out ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
		c.dstHost = host_out;
		c.dstDevice = dev;
	}
	drv_lock_at(api);
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS)
		r = drv_copy3d(&c);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuMemcpyHtoA_v2(CUarray dst, size_t off, const void *src, size_t n)
{
	return array_copy(dst, off, NULL, 0, 0, src, NULL, n, true, __func__);
}

CUresult CUDAAPI cuMemcpyAtoH_v2(void *dst, CUarray src, size_t off, size_t n)
{
	return array_copy(NULL, 0, src, off, 0, NULL, dst, n, false, __func__);
}

CUresult CUDAAPI cuMemcpyDtoA_v2(CUarray dst, size_t off, CUdeviceptr src, size_t n)
{
	return array_copy(dst, off, NULL, 0, src, NULL, NULL, n, true, __func__);
}

CUresult CUDAAPI cuMemcpyAtoD_v2(CUdeviceptr dst, CUarray src, size_t off, size_t n)
{
	return array_copy(NULL, 0, src, off, dst, NULL, NULL, n, false, __func__);
}

CUresult CUDAAPI cuMemcpyAtoA_v2(CUarray dst, size_t doff, CUarray src, size_t soff, size_t n)
{
	return array_copy(dst, doff, src, soff, 0, NULL, NULL, n, true, __func__);
}

CUresult CUDAAPI cuMemcpyHtoAAsync_v2(CUarray dst, size_t off, const void *src, size_t n, CUstream s)
{
	(void)s; /* a copy from pageable or pinned memory completes at issue either way */
	return cuMemcpyHtoA_v2(dst, off, src, n);
}

CUresult CUDAAPI cuMemcpyAtoHAsync_v2(void *dst, CUarray src, size_t off, size_t n, CUstream s)
{
	(void)s;
	return cuMemcpyAtoH_v2(dst, src, off, n);
}

/* ---- texture and surface objects */

/* The memory a resource reads: an array's elements, or linear / pitched device memory. */
static CUresult resource_memory(const CUDA_RESOURCE_DESC *res, struct drv_tex_object *o)
{
	switch (res->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		if (!array_valid(res->res.array.hArray))
			return CUDA_ERROR_INVALID_HANDLE;
		o->data = res->res.array.hArray->data;
		o->pitch = res->res.array.hArray->pitch;
		o->width = res->res.array.hArray->desc.Width;
		o->height = res->res.array.hArray->height;
		o->depth = res->res.array.hArray->depth;
		o->format = res->res.array.hArray->desc.Format;
		o->channels = res->res.array.hArray->desc.NumChannels;
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_LINEAR:
		o->data = drv_mem_bytes(res->res.linear.devPtr, res->res.linear.sizeInBytes, false);
		o->format = res->res.linear.format;
		o->channels = res->res.linear.numChannels;
		o->pitch = res->res.linear.sizeInBytes;
		o->height = o->depth = 1;
		o->width = format_bytes(o->format) && o->channels ? o->pitch / (format_bytes(o->format) * o->channels) : 0;
		return o->data && o->width ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	case CU_RESOURCE_TYPE_PITCH2D:
		o->pitch = res->res.pitch2D.pitchInBytes;
		o->width = res->res.pitch2D.width;
		o->height = res->res.pitch2D.height;
		o->depth = 1;
		o->format = res->res.pitch2D.format;
		o->channels = res->res.pitch2D.numChannels;
		o->data = o->height ? drv_mem_bytes(res->res.pitch2D.devPtr, o->pitch * o->height, false) : NULL;
		return o->data && format_bytes(o->format) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	default:
		return drv_unsupported("a texture or surface object over a mipmapped array");
	}
}

static CUresult object_create(unsigned long long *out, bool surface, const CUDA_RESOURCE_DESC *res,
			      const CUDA_TEXTURE_DESC *tex, const CUDA_RESOURCE_VIEW_DESC *view, const char *api)
{
	if (!out || !res || (!surface && !tex))
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock_at(api);
	struct drv_tex_object o = {.live = true, .surface = surface, .res = *res};
	if (tex)
		o.tex = *tex;
	if (view) {
		o.view = *view;
		o.has_view = true;
	}
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS)
		r = resource_memory(res, &o);
	if (r == CUDA_SUCCESS && surface && res->resType != CU_RESOURCE_TYPE_ARRAY)
		r = CUDA_ERROR_INVALID_VALUE; /* a surface is an array made with CUDA_ARRAY3D_SURFACE_LDST */
	int slot = 0;
	while (r == CUDA_SUCCESS && slot < nobjects && objects[slot].live)
		slot++;
	if (r == CUDA_SUCCESS && slot == nobjects) {
		struct drv_tex_object *more = realloc(objects, (size_t)(nobjects + 1) * sizeof *objects);
		if (more) {
			objects = more;
			nobjects++;
		} else {
			r = CUDA_ERROR_OUT_OF_MEMORY;
		}
	}
	if (r == CUDA_SUCCESS) {
		o.handle = (unsigned long long)slot + 1;
		objects[slot] = o;
		*out = o.handle;
	}
	drv_unlock();
	return r;
}

const struct drv_tex_object *drv_tex_find(unsigned long long handle)
{
	if (!handle || handle > (unsigned long long)nobjects || !objects[handle - 1].live)
		return NULL;
	return &objects[handle - 1];
}

int drv_tex_objects(const struct drv_tex_object **out)
{
	*out = objects;
	return nobjects;
}

static CUresult object_destroy(unsigned long long handle, bool surface, const char *api)
{
	drv_lock_at(api);
	const struct drv_tex_object *o = drv_tex_find(handle);
	CUresult r = o && o->surface == surface ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		objects[handle - 1].live = false;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuTexObjectCreate(CUtexObject *out, const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
				   const CUDA_RESOURCE_VIEW_DESC *view)
{
	return object_create(out, false, res, tex, view, __func__);
}

CUresult CUDAAPI cuSurfObjectCreate(CUsurfObject *out, const CUDA_RESOURCE_DESC *res)
{
	return object_create(out, true, res, NULL, NULL, __func__);
}

CUresult CUDAAPI cuTexObjectDestroy(CUtexObject h)
{
	return object_destroy(h, false, __func__);
}

CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject h)
{
	return object_destroy(h, true, __func__);
}

CUresult CUDAAPI cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *res, CUtexObject h)
{
	drv_lock();
	const struct drv_tex_object *o = drv_tex_find(h);
	CUresult r = o && res ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		*res = o->res;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *res, CUsurfObject h)
{
	return cuTexObjectGetResourceDesc(res, h);
}

CUresult CUDAAPI cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *tex, CUtexObject h)
{
	drv_lock();
	const struct drv_tex_object *o = drv_tex_find(h);
	CUresult r = o && tex && !o->surface ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		*tex = o->tex;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *view, CUtexObject h)
{
	drv_lock();
	const struct drv_tex_object *o = drv_tex_find(h);
	CUresult r = o && view && o->has_view ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		*view = o->view;
	drv_unlock();
	return r;
}

/* ---- the launch's descriptor table (common/texture.h) */

static enum gl_tex_format gl_format(CUarray_format f)
{
	switch (f) {
	case CU_AD_FORMAT_UNSIGNED_INT8: return GL_TEXFMT_U8;
	case CU_AD_FORMAT_UNSIGNED_INT16: return GL_TEXFMT_U16;
	case CU_AD_FORMAT_UNSIGNED_INT32: return GL_TEXFMT_U32;
	case CU_AD_FORMAT_SIGNED_INT8: return GL_TEXFMT_S8;
	case CU_AD_FORMAT_SIGNED_INT16: return GL_TEXFMT_S16;
	case CU_AD_FORMAT_SIGNED_INT32: return GL_TEXFMT_S32;
	case CU_AD_FORMAT_HALF: return GL_TEXFMT_F16;
	default: return GL_TEXFMT_F32; /* object_create accepted only these formats */
	}
}

/* The resource as the simulator reads it: an array's shape from its descriptor (a 1D array has no rows,
 * a layered one layers instead of depth), linear memory as a range of texels. */
static void gl_resource(const struct drv_tex_object *o, struct gl_tex_resource *r)
{
	*r = (struct gl_tex_resource){.format = gl_format(o->format), .channels = o->channels, .width = o->width,
				      .pitch = o->pitch, .data = (void *)(uintptr_t)o->data};
	switch (o->res.resType) {
	case CU_RESOURCE_TYPE_ARRAY: {
		const CUDA_ARRAY3D_DESCRIPTOR *d = &o->res.res.array.hArray->desc;
		r->kind = GL_TEXRES_ARRAY;
		r->height = d->Height;
		if (d->Flags & CUDA_ARRAY3D_LAYERED)
			r->layers = d->Depth;
		else
			r->depth = d->Depth;
		r->slice = o->pitch * o->height;
		r->bytes = r->slice * o->depth;
		break;
	}
	case CU_RESOURCE_TYPE_LINEAR:
		r->kind = GL_TEXRES_LINEAR;
		r->bytes = o->pitch;
		r->pitch = 0;
		break;
	default:
		r->kind = GL_TEXRES_PITCH2D;
		r->height = o->height;
		r->bytes = o->pitch * o->height;
		break;
	}
}

static void gl_sampler(const CUDA_TEXTURE_DESC *t, enum gl_tex_format f, struct gl_tex_sampler *s)
{
	for (int i = 0; i < 3; i++)
		s->address[i] = (enum gl_tex_address)t->addressMode[i];
	s->filter = t->filterMode == CU_TR_FILTER_MODE_LINEAR ? GL_TEXFILTER_LINEAR : GL_TEXFILTER_POINT;
	s->normalized_coords = t->flags & CU_TRSF_NORMALIZED_COORDINATES;
	bool narrow = f != GL_TEXFMT_U32 && f != GL_TEXFMT_S32 && f != GL_TEXFMT_F16 && f != GL_TEXFMT_F32;
	s->read_normalized = narrow && !(t->flags & CU_TRSF_READ_AS_INTEGER);
	memcpy(s->border, t->borderColor, sizeof s->border);
}

int drv_tex_table(struct gl_tex_object **out)
{
	int live = 0, k = 0;
	for (int i = 0; i < nobjects; i++)
		live += objects[i].live;
	*out = NULL;
	if (!live)
		return 0;
	struct gl_tex_object *t = calloc((size_t)live, sizeof *t);
	if (!t)
		return -1;
	for (int i = 0; i < nobjects; i++) {
		const struct drv_tex_object *o = &objects[i];
		if (!o->live)
			continue;
		t[k] = (struct gl_tex_object){.handle = o->handle, .kind = o->surface ? GL_TEX_SURFACE : GL_TEX_TEXTURE};
		gl_resource(o, &t[k].res);
		if (!o->surface)
			gl_sampler(&o->tex, t[k].res.format, &t[k].sampler);
		k++;
	}
	*out = t;
	return k;
}
