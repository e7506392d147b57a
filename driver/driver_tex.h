/* driver_tex.h — texture and surface objects as the driver keeps them (driver_tex.c): handle,
 * resource/texture/view descriptions, and the memory the object reads (an array's elements in host
 * memory, or device memory for linear and pitched resources).  A launch carries them to the simulator as
 * common/texture.h's descriptors (drv_tex_table). */
#ifndef GL_DRIVER_TEX_H
#define GL_DRIVER_TEX_H

#include "driver.h"

#include "common/texture.h"

struct drv_tex_object {
	bool live;
	bool surface;                 /* a surface object (suld/sust), else a texture object */
	unsigned long long handle;    /* what the kernel receives: CUtexObject / CUsurfObject */
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;        /* textures only */
	CUDA_RESOURCE_VIEW_DESC view;
	bool has_view;
	const uint8_t *data;          /* the elements */
	size_t pitch;                 /* bytes per row */
	size_t width, height, depth;  /* elements, rows, slices */
	CUarray_format format;
	unsigned channels;
};

/* The live object with this handle, or NULL. */
const struct drv_tex_object *drv_tex_find(unsigned long long handle);
/* Every object slot (check .live), for a launch's descriptor table; returns how many. */
int drv_tex_objects(const struct drv_tex_object **out);
/* Every live object as the simulator's descriptor (*out: calloc'd, caller frees; NULL when none); how
 * many, or -1 when out of memory. */
int drv_tex_table(struct gl_tex_object **out);

#endif
