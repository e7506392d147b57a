/* sim_surf.c — where a surface access lands (PTX ISA, "Surface Instructions": suld, sust, sured): the
 * lowest coordinate counts bytes (.b) or texels (.p); an access outside the surface traps (.trap),
 * reads zero or is dropped (.zero), or moves to the nearest location inside (.clamp). */
#include <string.h>

#include "common/half.h"
#include "sim_tex.h"

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

struct sim_surf_at sim_surf_locate(const struct gl_tex_object *o, enum ptx_tex_geom g, const uint32_t c[4],
				   unsigned size, bool formatted, enum ptx_surf_clamp mode)
{
	const struct gl_tex_resource *r = &o->res;
	int64_t texel = gl_tex_texel_bytes(r), row = (int64_t)r->width * texel;
	bool layered = g == TXG_A1D || g == TXG_A2D;
	const uint32_t *xyz = layered ? c + 1 : c;
	int dims = g == TXG_3D ? 3 : g == TXG_2D || g == TXG_A2D ? 2 : 1;
	int64_t x = (int32_t)xyz[0], y = dims > 1 ? (int32_t)xyz[1] : 0;
	int64_t z = layered ? (int64_t)c[0] : dims > 2 ? (int32_t)xyz[2] : 0; /* a layer index is unsigned */
	int64_t rows = r->height ? (int64_t)r->height : 1;
	int64_t zs = layered ? (int64_t)r->layers : r->depth ? (int64_t)r->depth : 1;
	struct sim_surf_at at = {.hit = SURF_IN, .x = formatted ? x * texel : x, .y = y, .z = z};
	int64_t bx = at.x;
	if (!formatted && (bx & (int64_t)(size - 1))) {
		at.hit = SURF_MISALIGNED;
		return at;
	}
	bool inside = bx >= 0 && (int64_t)size <= row && bx <= row - (int64_t)size && y >= 0 && y < rows && z >= 0 &&
		      z < zs;
	if (!inside) {
		if (mode != SU_CLAMP || (int64_t)size > row) {
			at.hit = SURF_OUT;
			return at;
		}
		bx = clamp64(bx, 0, row - (int64_t)size);
		bx -= bx % (int64_t)size; /* the nearest location of the access's size */
		y = clamp64(y, 0, rows - 1);
		z = clamp64(z, 0, zs - 1);
	}
	at.host = (uint8_t *)r->data + (uint64_t)z * gl_tex_slice(r) + (uint64_t)y * gl_tex_pitch(r) + (uint64_t)bx;
	return at;
}

/* A u32/s32 value held to an integer format's range. */
static uint32_t saturate(uint32_t v, enum gl_tex_format f)
{
	int32_t s = (int32_t)v;
	switch (f) {
	case GL_TEXFMT_U8: return v > 0xff ? 0xff : v;
	case GL_TEXFMT_U16: return v > 0xffff ? 0xffff : v;
	case GL_TEXFMT_S8: return (uint32_t)(s > 127 ? 127 : s < -128 ? -128 : s);
	case GL_TEXFMT_S16: return (uint32_t)(s > 32767 ? 32767 : s < -32768 ? -32768 : s);
	default: return v;
	}
}

void sim_surf_store_formatted(const struct gl_tex_object *o, uint8_t *p, const uint32_t *v, unsigned n)
{
	const struct gl_tex_resource *r = &o->res;
	unsigned fb = gl_tex_format_bytes(r->format);
	for (unsigned k = 0; k < r->channels; k++) {
		uint32_t x = k < n ? v[k] : 0;
		if (r->format == GL_TEXFMT_F16) {
			float f;
			memcpy(&f, &x, sizeof f);
			uint16_t h = gl_f32_to_f16(f);
			memcpy(p + k * fb, &h, 2);
			continue;
		}
		if (r->format != GL_TEXFMT_F32)
			x = saturate(x, r->format);
		memcpy(p + k * fb, &x, fb); /* little endian: the low bytes */
	}
}
