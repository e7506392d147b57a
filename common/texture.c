/* texture.c — texture and surface objects: their sizes and the checks a table passes before a launch
 * may read it (the simulator then indexes texels without checking again). */
#include "texture.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "util.h"

/* Each dimension and layer count is below this. */
#define TEX_MAX_DIM (1ull << 31)

/* GL_EUSAGE with "texture object H: WHAT" (or surface). */
static int __attribute__((format(printf, 3, 4)))
bad(struct gl_err *err, const struct gl_tex_object *o, const char *fmt, ...)
{
	char what[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return gl_errf(err, GL_EUSAGE, "%s object %" PRIu64 ": %s", o->kind == GL_TEX_SURFACE ? "surface" : "texture",
		       o->handle, what);
}

static const struct {
	const char *name;
	unsigned bytes;
} formats[] = {
	[GL_TEXFMT_U8] = {"u8", 1},   [GL_TEXFMT_U16] = {"u16", 2}, [GL_TEXFMT_U32] = {"u32", 4},
	[GL_TEXFMT_S8] = {"s8", 1},   [GL_TEXFMT_S16] = {"s16", 2}, [GL_TEXFMT_S32] = {"s32", 4},
	[GL_TEXFMT_F16] = {"f16", 2}, [GL_TEXFMT_F32] = {"f32", 4},
};

unsigned gl_tex_format_bytes(enum gl_tex_format f)
{
	return (unsigned)f < GL_ARRAY_LEN(formats) ? formats[f].bytes : 0;
}

const char *gl_tex_format_name(enum gl_tex_format f)
{
	return (unsigned)f < GL_ARRAY_LEN(formats) ? formats[f].name : "?";
}

unsigned gl_tex_texel_bytes(const struct gl_tex_resource *r)
{
	return gl_tex_format_bytes(r->format) * r->channels;
}

uint64_t gl_tex_pitch(const struct gl_tex_resource *r)
{
	return r->pitch ? r->pitch : r->width * gl_tex_texel_bytes(r);
}

uint64_t gl_tex_slice(const struct gl_tex_resource *r)
{
	return r->slice ? r->slice : (r->height ? r->height : 1) * gl_tex_pitch(r);
}

bool gl_tex_returns_float(const struct gl_tex_object *o)
{
	switch (o->res.format) {
	case GL_TEXFMT_F16: case GL_TEXFMT_F32: return true;
	case GL_TEXFMT_U32: case GL_TEXFMT_S32: return false;
	default: return o->sampler.read_normalized;
	}
}

/* The shape each resource kind may have. */
static int check_shape(const struct gl_tex_object *o, struct gl_err *err)
{
	const struct gl_tex_resource *r = &o->res;
	if (r->width == 0 || r->width >= TEX_MAX_DIM || r->height >= TEX_MAX_DIM || r->depth >= TEX_MAX_DIM ||
	    r->layers >= TEX_MAX_DIM)
		return bad(err, o, "width %" PRIu64 ", height %" PRIu64 ", depth %" PRIu64 ", layers %" PRIu64
			   ": the width must be at least 1 and each size below 2^31", r->width, r->height, r->depth,
			   r->layers);
	bool flat = r->depth == 0 && r->layers == 0 && !r->cubemap;
	switch (r->kind) {
	case GL_TEXRES_LINEAR:
		if (!flat || r->height)
			return bad(err, o, "linear memory is one row of texels (height, depth and layers 0)");
		return GL_OK;
	case GL_TEXRES_PITCH2D:
		if (!flat || r->height == 0)
			return bad(err, o, "pitched 2D memory has a height of at least 1 and no depth or layers");
		return GL_OK;
	case GL_TEXRES_ARRAY:
		if (r->depth && (r->layers || r->cubemap || r->height == 0))
			return bad(err, o, "a 3D array has a height and no layers");
		if (r->cubemap && (r->height != r->width || r->layers == 0 || r->layers % 6))
			return bad(err, o, "a cubemap's faces are square (width %" PRIu64 ", height %" PRIu64
				   ") and its layers a multiple of 6 (%" PRIu64 ")", r->width, r->height, r->layers);
		return GL_OK;
	}
	return bad(err, o, "unknown resource kind %d", (int)r->kind);
}

/* Strides at least a row / a slice, and data that holds the last texel. */
static int check_extent(const struct gl_tex_object *o, struct gl_err *err)
{
	const struct gl_tex_resource *r = &o->res;
	uint64_t texel = gl_tex_texel_bytes(r), row = r->width * texel, rows = r->height ? r->height : 1;
	uint64_t pitch = gl_tex_pitch(r), slice = gl_tex_slice(r);
	uint64_t zs = r->depth ? r->depth : r->layers ? r->layers : 1;
	if (pitch < row)
		return bad(err, o, "a pitch of %" PRIu64 " bytes is less than a row of %" PRIu64 " texels of %" PRIu64
			   " bytes", pitch, r->width, texel);
	uint64_t plane, need;
	if (__builtin_mul_overflow(rows - 1, pitch, &plane) || __builtin_add_overflow(plane, row, &plane) ||
	    slice < plane || __builtin_mul_overflow(zs - 1, slice, &need) || __builtin_add_overflow(need, plane, &need))
		return bad(err, o, "a slice of %" PRIu64 " bytes does not hold %" PRIu64 " rows of %" PRIu64 " bytes",
			   slice, rows, pitch);
	if (!r->data || r->bytes < need)
		return bad(err, o, "its texels need %" PRIu64 " bytes but its data %s %" PRIu64, need,
			   r->data ? "has" : "is missing, size", r->bytes);
	return GL_OK;
}

/* A texture's sampler: modes CUDA knows, and linear filtering only of textures that return floats. */
static int check_sampler(const struct gl_tex_object *o, struct gl_err *err)
{
	const struct gl_tex_sampler *s = &o->sampler;
	for (int d = 0; d < 3; d++)
		if ((unsigned)s->address[d] > GL_TEXADDR_BORDER)
			return bad(err, o, "address mode %d of dimension %d is not wrap (0), clamp (1), mirror (2) or "
				   "border (3)", (int)s->address[d], d);
	if ((unsigned)s->filter > GL_TEXFILTER_LINEAR)
		return bad(err, o, "filter mode %d is not point (0) or linear (1)", (int)s->filter);
	if (s->filter == GL_TEXFILTER_LINEAR && !gl_tex_returns_float(o))
		return bad(err, o, "linear filtering of %s texels read as integers; CUDA filters only textures that "
			   "return floats (read them normalized, or use point filtering)",
			   gl_tex_format_name(o->res.format));
	return GL_OK;
}

int gl_tex_check(const struct gl_tex_object *o, struct gl_err *err)
{
	const struct gl_tex_resource *r = &o->res;
	if (o->handle == 0)
		return gl_errf(err, GL_EUSAGE, "a texture/surface object has the handle 0, which CUDA never hands out");
	if (o->kind != GL_TEX_TEXTURE && o->kind != GL_TEX_SURFACE)
		return gl_errf(err, GL_EUSAGE, "object %" PRIu64 ": unknown kind %d", o->handle, (int)o->kind);
	if (gl_tex_format_bytes(r->format) == 0 || (r->channels != 1 && r->channels != 2 && r->channels != 4))
		return bad(err, o, "format %d with %u channels (1, 2 or 4 channels of u8, u16, u32, s8, s16, s32, f16 "
			   "or f32)", (int)r->format, r->channels);
	int rc = check_shape(o, err);
	if (rc == GL_OK)
		rc = check_extent(o, err);
	if (rc || o->kind == GL_TEX_SURFACE || r->kind == GL_TEXRES_LINEAR)
		return rc;
	return check_sampler(o, err);
}

int gl_tex_check_table(const struct gl_tex_object *objs, int n, struct gl_err *err)
{
	if (n < 0 || (n > 0 && !objs))
		return gl_errf(err, GL_EUSAGE, "a launch's texture table has %d objects and %s", n,
			       objs ? "a list" : "no list");
	for (int i = 0; i < n; i++) {
		int rc = gl_tex_check(&objs[i], err);
		if (rc)
			return rc;
		for (int k = 0; k < i; k++)
			if (objs[k].handle == objs[i].handle)
				return gl_errf(err, GL_EUSAGE, "texture/surface handle %" PRIu64 " is used by two "
					       "objects of the launch's table", objs[i].handle);
	}
	return GL_OK;
}
