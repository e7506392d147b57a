/* texture.h — texture and surface objects as a launch carries them: what a cudaTextureObject_t or a
 * cudaSurfaceObject_t names, looked up by the 64-bit handle the kernel receives as a parameter.  An
 * object is a resource (linear memory, pitched 2D memory or a CUDA array: 1D, 2D, 3D, layered or
 * cubemap) and, for a texture, a sampler.  The caller (gpulab's driver library, `gpulab sim --arg
 * tex:`, a test) fills an array of them and hands it to the launch (common/launch.h); the simulator
 * checks it at the launch (gl_tex_check_table) and reads it while the kernel runs (sim/sim_tex*.c). */
#ifndef GL_TEXTURE_H
#define GL_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum gl_tex_kind { GL_TEX_TEXTURE, GL_TEX_SURFACE };

/* Where the texels are: CUDA_RESOURCE_DESC's resource types. */
enum gl_tex_res {
	GL_TEXRES_ARRAY,   /* a CUDA array: 1D, 2D, 3D, layered 1D/2D, cubemap (layered) */
	GL_TEXRES_LINEAR,  /* linear memory (tex1Dfetch): integer coordinates, no sampler */
	GL_TEXRES_PITCH2D, /* pitched 2D memory */
};

/* The element format of each channel (CUarray_format's integer, half and float formats). */
enum gl_tex_format {
	GL_TEXFMT_U8, GL_TEXFMT_U16, GL_TEXFMT_U32, GL_TEXFMT_S8, GL_TEXFMT_S16, GL_TEXFMT_S32,
	GL_TEXFMT_F16, GL_TEXFMT_F32,
};

/* The values of cuda.h's CUaddress_mode and CUfilter_mode, so a driver can copy them across. */
enum gl_tex_address { GL_TEXADDR_WRAP = 0, GL_TEXADDR_CLAMP = 1, GL_TEXADDR_MIRROR = 2, GL_TEXADDR_BORDER = 3 };
enum gl_tex_filter { GL_TEXFILTER_POINT = 0, GL_TEXFILTER_LINEAR = 1 };

/* The texels.  Texel (x, y, z) starts at data + z * slice + y * pitch + x * texel bytes, where z is
 * the slice of a 3D array or the layer of a layered one (a cubemap's face f of cube c is layer 6c + f,
 * faces in the order +x, -x, +y, -y, +z, -z).  A 1D resource has height 0; only 3D arrays have a
 * depth; only layered arrays have layers. */
struct gl_tex_resource {
	enum gl_tex_res kind;
	enum gl_tex_format format;
	unsigned channels; /* 1, 2 or 4 (x, y, z, w) */
	uint64_t width;    /* texels per row (LINEAR: texels of the range) */
	uint64_t height;   /* rows: 0 for a 1D array and for LINEAR */
	uint64_t depth;    /* slices of a 3D array, else 0 */
	uint64_t layers;   /* layers of a layered array (a cubemap: 6 per cube), else 0 */
	bool cubemap;      /* ARRAY only: width == height, layers a multiple of 6 */
	uint64_t pitch;    /* bytes from one row to the next; 0: width x texel bytes */
	uint64_t slice;    /* bytes from one slice or layer to the next; 0: rows x pitch */
	void *data;        /* host memory holding texel (0, 0, 0); the kernel's surface stores write it */
	uint64_t bytes;    /* its size: every texel must lie inside */
};

/* How a texture is sampled: CUDA_TEXTURE_DESC's fields that the PTX texture instructions obey.
 * Ignored for surfaces and for LINEAR resources (whose fetches are not filtered or addressed). */
struct gl_tex_sampler {
	enum gl_tex_address address[3]; /* per dimension */
	enum gl_tex_filter filter;
	bool normalized_coords;         /* coordinates in [0, 1) instead of [0, N) */
	bool read_normalized;           /* cudaReadModeNormalizedFloat: 8- and 16-bit integers read as floats
					 * in [0, 1] (unsigned) or [-1, 1] (signed); CU_TRSF_READ_AS_INTEGER off */
	float border[4];                /* the colour of GL_TEXADDR_BORDER fetches outside the texture */
};

struct gl_tex_object {
	uint64_t handle; /* the value the kernel receives (its .u64 parameter); never 0, unique in the table */
	enum gl_tex_kind kind;
	struct gl_tex_resource res;
	struct gl_tex_sampler sampler; /* textures only */
};

/* Bytes of one channel, and of one texel (all its channels). */
unsigned gl_tex_format_bytes(enum gl_tex_format f);
unsigned gl_tex_texel_bytes(const struct gl_tex_resource *r);
/* "u8", "s16", "f32", ... */
const char *gl_tex_format_name(enum gl_tex_format f);
/* The row and slice strides the resource uses (its own, or the dense defaults when 0). */
uint64_t gl_tex_pitch(const struct gl_tex_resource *r);
uint64_t gl_tex_slice(const struct gl_tex_resource *r);
/* Whether a texture's fetches return floats: float formats, or 8/16-bit integers read normalized. */
bool gl_tex_returns_float(const struct gl_tex_object *o);

/* GL_OK, or GL_EUSAGE with a message naming the object (its handle) and what is wrong: a shape its
 * resource kind cannot have, a pitch or slice too small for a row or slice, data that does not hold
 * every texel, linear filtering of integer texels (CUDA allows it only for float results), a handle of
 * 0 or one used twice. */
int gl_tex_check(const struct gl_tex_object *o, struct gl_err *err);
int gl_tex_check_table(const struct gl_tex_object *objs, int n, struct gl_err *err);

#endif
