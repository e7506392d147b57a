/* sim_tex_sample.c — one lane's texture fetch, by the rules of the CUDA C++ Programming Guide
 * ("Texture Memory" for read modes, normalised coordinates and address modes; "Texture Fetching" for
 * nearest-point sampling and linear filtering, "Cubemap Textures" for the face table) and the PTX ISA
 * ("Texture Instructions": tex, tld4, txq).  Pure functions of the object and the coordinates. */
#include <math.h>
#include <string.h>

#include "common/half.h"
#include "sim_float.h"
#include "sim_tex.h"

float sim_tex_unorm(uint32_t v, unsigned bits)
{
	return (float)v / (float)((1u << bits) - 1);
}

float sim_tex_snorm(int32_t v, unsigned bits)
{
	float f = (float)v / (float)((1u << (bits - 1)) - 1);
	return f < -1.0f ? -1.0f : f;
}

unsigned sim_tex_weight(float frac)
{
	return (unsigned)floorf(frac * 256.0f + 0.5f); /* frac x 256 is exact: round half up */
}

int64_t sim_tex_address(int64_t i, uint64_t n, enum gl_tex_address mode)
{
	int64_t size = (int64_t)n;
	if (i >= 0 && i < size)
		return i;
	switch (mode) {
	case GL_TEXADDR_BORDER: return -1;
	case GL_TEXADDR_WRAP: {
		int64_t m = i % size;
		return m < 0 ? m + size : m;
	}
	case GL_TEXADDR_MIRROR: { /* ... 1 0 | 0 1 .. n-1 | n-1 .. 0 | 0 1 ...: period 2n */
		int64_t m = i % (2 * size);
		m = m < 0 ? m + 2 * size : m;
		return m < size ? m : 2 * size - 1 - m;
	}
	default: return i < 0 ? 0 : size - 1;
	}
}

/* Bit casts through the simulator's own helpers (sim_float.h). */
static uint32_t f32_bits(float f)
{
	return (uint32_t)sim_f32_bits(f);
}

/* One channel of a texel as a result word. */
static uint32_t channel(const struct gl_tex_object *o, const uint8_t *p)
{
	bool norm = o->kind == GL_TEX_TEXTURE && o->sampler.read_normalized;
	uint16_t h;
	switch (o->res.format) {
	case GL_TEXFMT_U8: return norm ? f32_bits(sim_tex_unorm(p[0], 8)) : p[0];
	case GL_TEXFMT_S8: return norm ? f32_bits(sim_tex_snorm((int8_t)p[0], 8)) : (uint32_t)(int32_t)(int8_t)p[0];
	case GL_TEXFMT_U16:
		memcpy(&h, p, 2);
		return norm ? f32_bits(sim_tex_unorm(h, 16)) : h;
	case GL_TEXFMT_S16:
		memcpy(&h, p, 2);
		return norm ? f32_bits(sim_tex_snorm((int16_t)h, 16)) : (uint32_t)(int32_t)(int16_t)h;
	case GL_TEXFMT_F16:
		memcpy(&h, p, 2);
		return f32_bits(gl_f16_to_f32(h));
	default: { /* U32, S32, F32: the bits as they are */
		uint32_t u;
		memcpy(&u, p, 4);
		return u;
	}
	}
}

/* A border colour channel of a texture that returns integers: the float's value, truncated and held to
 * the 32-bit range (NaN: 0). */
static uint32_t border_int(float f)
{
	if (isnan(f))
		return 0;
	return f >= 2147483647.0f ? 0x7fffffffu : f <= -2147483648.0f ? 0x80000000u : (uint32_t)(int32_t)f;
}

/* Texel (x, y, z) of a resource, or its border colour (any index -1); channels it lacks read as 0,
 * 0, 0 and 1 (the graphics APIs' convention for x, y, z, w). */
static void texel(const struct gl_tex_object *o, int64_t x, int64_t y, int64_t z, uint32_t out[4])
{
	bool fl = o->kind == GL_TEX_TEXTURE && gl_tex_returns_float(o);
	if (x < 0 || y < 0 || z < 0) {
		for (int k = 0; k < 4; k++)
			out[k] = fl ? f32_bits(o->sampler.border[k]) : border_int(o->sampler.border[k]);
		return;
	}
	const struct gl_tex_resource *r = &o->res;
	const uint8_t *p = (const uint8_t *)r->data + (uint64_t)z * gl_tex_slice(r) + (uint64_t)y * gl_tex_pitch(r) +
			   (uint64_t)x * gl_tex_texel_bytes(r);
	unsigned fb = gl_tex_format_bytes(r->format);
	for (unsigned k = 0; k < 4; k++)
		out[k] = k < r->channels ? channel(o, p + k * fb) : k < 3 ? 0 : fl ? f32_bits(1.0f) : 1;
}

/* NaN reads as 0 and an infinity as +-2^30, so that every coordinate has an integer part. */
static float finite_coord(float u)
{
	if (isnan(u))
		return 0.0f;
	return u > 1073741824.0f ? 1073741824.0f : u < -1073741824.0f ? -1073741824.0f : u;
}

/* Where a fetch samples: up to three filtered dimensions and a fixed layer or face. */
struct where {
	int ndim;
	float u[3];                    /* coordinates in texel space */
	uint64_t n[3];
	enum gl_tex_address mode[3];   /* in effect: wrap and mirror only with normalised coordinates */
	int64_t z;                     /* the layer or face of a layered or cubemap fetch, else -1 */
};

/* The Guide's coordinate rule: a normalised coordinate x is first mapped by wrap (frac(x)) or mirror
 * (frac(x), or 1 - frac(x) when floor(x) is odd), then scaled by the size. */
static void add_dim(struct where *w, const struct gl_tex_object *o, float u, uint64_t n, bool normalized, int d)
{
	enum gl_tex_address mode = o->sampler.address[d];
	u = finite_coord(u);
	if (normalized && mode == GL_TEXADDR_WRAP)
		u -= floorf(u);
	else if (normalized && mode == GL_TEXADDR_MIRROR) {
		float f = floorf(u), fr = u - f;
		u = fmodf(f, 2.0f) != 0.0f ? 1.0f - fr : fr;
	}
	if (!normalized && (mode == GL_TEXADDR_WRAP || mode == GL_TEXADDR_MIRROR))
		mode = GL_TEXADDR_CLAMP; /* CUDA: switched to clamp for unnormalised coordinates */
	int k = w->ndim++;
	w->u[k] = normalized ? u * (float)n : u;
	w->n[k] = n;
	w->mode[k] = mode;
}

/* The cubemap face a direction points at and its face coordinates in [0, 1] (the Guide's "Cubemap
 * Fetch" table; ties between axes go to z, then y). */
static int cube_face(float x, float y, float z, float *s, float *t)
{
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, sc, tc;
	int face;
	if (az >= ax && az >= ay)
		face = z >= 0 ? 4 : 5, m = az, sc = z >= 0 ? x : -x, tc = -y;
	else if (ay >= ax)
		face = y >= 0 ? 2 : 3, m = ay, sc = x, tc = y >= 0 ? z : -z;
	else
		face = x >= 0 ? 0 : 1, m = ax, sc = x >= 0 ? -z : z, tc = -y;
	*s = m > 0 ? (sc / m + 1.0f) / 2.0f : 0.5f;
	*t = m > 0 ? (tc / m + 1.0f) / 2.0f : 0.5f;
	return face;
}

/* A layer index (u32) of `count` layers: past the end, the last. */
static int64_t layer(uint32_t idx, uint64_t count)
{
	return idx < count ? (int64_t)idx : (int64_t)count - 1;
}

/* The float coordinates of a geometry.  Cubemaps are addressed by normalised face coordinates. */
static struct where float_where(const struct gl_tex_object *o, enum ptx_tex_geom g, const uint32_t c[4])
{
	const struct gl_tex_resource *r = &o->res;
	bool norm = o->sampler.normalized_coords;
	struct where w = {.z = -1};
	float s, t;
	switch (g) {
	case TXG_1D: add_dim(&w, o, sim_f32(c[0]), r->width, norm, 0); break;
	case TXG_2D:
	case TXG_3D:
		add_dim(&w, o, sim_f32(c[0]), r->width, norm, 0);
		add_dim(&w, o, sim_f32(c[1]), r->height, norm, 1);
		if (g == TXG_3D)
			add_dim(&w, o, sim_f32(c[2]), r->depth, norm, 2);
		break;
	case TXG_A1D:
		w.z = layer(c[0], r->layers);
		add_dim(&w, o, sim_f32(c[1]), r->width, norm, 0);
		break;
	case TXG_A2D:
		w.z = layer(c[0], r->layers);
		add_dim(&w, o, sim_f32(c[1]), r->width, norm, 0);
		add_dim(&w, o, sim_f32(c[2]), r->height, norm, 1);
		break;
	case TXG_CUBE:
	case TXG_ACUBE: {
		const uint32_t *d = g == TXG_ACUBE ? c + 1 : c;
		int face = cube_face(finite_coord(sim_f32(d[0])), finite_coord(sim_f32(d[1])),
				     finite_coord(sim_f32(d[2])), &s, &t);
		w.z = (g == TXG_ACUBE ? layer(c[0], r->layers / 6) * 6 : 0) + face;
		add_dim(&w, o, s, r->width, true, 0);
		add_dim(&w, o, t, r->height, true, 1);
		break;
	}
	}
	return w;
}

/* Texel of indices idx[0..ndim) (-1: the border) at the fetch's layer. */
static void texel_at(const struct gl_tex_object *o, const struct where *w, const int64_t idx[3], uint32_t out[4])
{
	int64_t y = w->ndim > 1 ? idx[1] : 0, z = w->ndim > 2 ? idx[2] : w->z >= 0 ? w->z : 0;
	texel(o, idx[0], y, z, out);
}

static void sample_point(const struct gl_tex_object *o, const struct where *w, uint32_t out[4])
{
	int64_t idx[3];
	for (int d = 0; d < w->ndim; d++)
		idx[d] = sim_tex_address((int64_t)floorf(w->u[d]), w->n[d], w->mode[d]);
	texel_at(o, w, idx, out);
}

/* The Guide's linear filter: x_B = x - 0.5, i = floor(x_B), alpha = frac(x_B) in 1.8 fixed point; the
 * 2, 4 or 8 texels weighted and summed (exactly, rounded once to f32).  Texels outside follow the address
 * mode one by one, so a border texel brings the border colour into the sum. */
static void sample_linear(const struct gl_tex_object *o, const struct where *w, uint32_t out[4])
{
	int64_t i0[3];
	unsigned a[3];
	for (int d = 0; d < w->ndim; d++) {
		float ub = w->u[d] - 0.5f, f = floorf(ub);
		i0[d] = (int64_t)f;
		a[d] = sim_tex_weight(ub - f);
	}
	double acc[4] = {0};
	for (unsigned corner = 0; corner < 1u << w->ndim; corner++) {
		uint64_t weight = 1;
		int64_t idx[3];
		for (int d = 0; d < w->ndim; d++) {
			unsigned up = corner >> d & 1;
			weight *= up ? a[d] : 256 - a[d];
			idx[d] = sim_tex_address(i0[d] + up, w->n[d], w->mode[d]);
		}
		if (!weight)
			continue;
		uint32_t v[4];
		texel_at(o, w, idx, v);
		for (int k = 0; k < 4; k++)
			acc[k] += (double)weight * sim_f32(v[k]);
	}
	double scale = (double)(1u << (8 * w->ndim));
	for (int k = 0; k < 4; k++)
		out[k] = f32_bits((float)(acc[k] / scale));
}

/* Linear memory: one texel by integer index (a float coordinate is floored); outside the range, zeros. */
static void sample_linear_memory(const struct gl_tex_object *o, const uint32_t c[4], bool int_coords,
				 uint32_t out[4])
{
	int64_t i = int_coords ? (int32_t)c[0] : (int64_t)floorf(finite_coord(sim_f32(c[0])));
	if (i < 0 || (uint64_t)i >= o->res.width) {
		memset(out, 0, 4 * sizeof *out);
		return;
	}
	texel(o, i, 0, 0, out);
}

/* Integer coordinates name texels: no normalisation, no filtering; outside, the border colour in border
 * mode and the nearest texel in every other. */
static void sample_integer(const struct gl_tex_object *o, enum ptx_tex_geom g, const uint32_t c[4], uint32_t out[4])
{
	const struct gl_tex_resource *r = &o->res;
	bool layered = g == TXG_A1D || g == TXG_A2D;
	const uint32_t *xyz = layered ? c + 1 : c;
	int dims = g == TXG_3D ? 3 : g == TXG_2D || g == TXG_A2D ? 2 : 1;
	uint64_t n[3] = {r->width, r->height, r->depth};
	int64_t idx[3] = {0, 0, layered ? layer(c[0], r->layers) : 0};
	for (int d = 0; d < dims; d++) {
		bool border = o->sampler.address[d] == GL_TEXADDR_BORDER;
		idx[d] = sim_tex_address((int32_t)xyz[d], n[d], border ? GL_TEXADDR_BORDER : GL_TEXADDR_CLAMP);
	}
	texel(o, idx[0], idx[1], idx[2], out);
}

void sim_tex_sample(const struct gl_tex_object *o, enum ptx_tex_geom g, const uint32_t c[4], bool int_coords,
		    uint32_t out[4])
{
	if (o->res.kind == GL_TEXRES_LINEAR)
		return sample_linear_memory(o, c, int_coords, out);
	if (int_coords)
		return sample_integer(o, g, c, out);
	struct where w = float_where(o, g, c);
	if (o->sampler.filter == GL_TEXFILTER_LINEAR)
		sample_linear(o, &w, out);
	else
		sample_point(o, &w, out);
}

void sim_tex_gather(const struct gl_tex_object *o, enum ptx_tex_geom g, const uint32_t c[4], unsigned comp,
		    uint32_t out[4])
{
	struct where w = float_where(o, g, c);
	int64_t i0 = (int64_t)floorf(w.u[0] - 0.5f), j0 = (int64_t)floorf(w.u[1] - 0.5f);
	static const int corner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
	for (int k = 0; k < 4; k++) {
		int64_t idx[3] = {sim_tex_address(i0 + corner[k][0], w.n[0], w.mode[0]),
				  sim_tex_address(j0 + corner[k][1], w.n[1], w.mode[1]), 0};
		uint32_t v[4];
		texel_at(o, &w, idx, v);
		out[k] = v[comp & 3];
	}
}

static uint32_t channel_data_type(const struct gl_tex_object *o)
{
	bool norm = o->kind == GL_TEX_TEXTURE && o->sampler.read_normalized;
	switch (o->res.format) {
	case GL_TEXFMT_U8: return norm ? SIM_CL_UNORM_INT8 : SIM_CL_UNSIGNED_INT8;
	case GL_TEXFMT_U16: return norm ? SIM_CL_UNORM_INT16 : SIM_CL_UNSIGNED_INT16;
	case GL_TEXFMT_S8: return norm ? SIM_CL_SNORM_INT8 : SIM_CL_SIGNED_INT8;
	case GL_TEXFMT_S16: return norm ? SIM_CL_SNORM_INT16 : SIM_CL_SIGNED_INT16;
	case GL_TEXFMT_U32: return SIM_CL_UNSIGNED_INT32;
	case GL_TEXFMT_S32: return SIM_CL_SIGNED_INT32;
	case GL_TEXFMT_F16: return SIM_CL_HALF_FLOAT;
	default: return SIM_CL_FLOAT;
	}
}

/* txq's address-mode enum: { wrap, mirror, clamp_ogl, clamp_to_edge, clamp_to_border }. */
static uint32_t addr_mode(enum gl_tex_address m)
{
	switch (m) {
	case GL_TEXADDR_WRAP: return 0;
	case GL_TEXADDR_MIRROR: return 1;
	case GL_TEXADDR_BORDER: return 4;
	default: return 3; /* CUDA's clamp is clamp to edge */
	}
}

uint32_t sim_tex_query(const struct gl_tex_object *o, enum ptx_tex_query q)
{
	const struct gl_tex_resource *r = &o->res;
	switch (q) {
	case TXQ_WIDTH: return (uint32_t)r->width;
	case TXQ_HEIGHT: return (uint32_t)(r->height ? r->height : 1); /* a dimension it lacks: 1 texel */
	case TXQ_DEPTH: return (uint32_t)(r->depth ? r->depth : 1);
	case TXQ_CHANNEL_DATA_TYPE: return channel_data_type(o);
	case TXQ_CHANNEL_ORDER: return r->channels == 1 ? SIM_CL_R : r->channels == 2 ? SIM_CL_RG : SIM_CL_RGBA;
	case TXQ_NORMALIZED_COORDS: return o->sampler.normalized_coords;
	case TXQ_FILTER_MODE: return o->sampler.filter == GL_TEXFILTER_LINEAR;
	case TXQ_ADDR_MODE_0: case TXQ_ADDR_MODE_1: case TXQ_ADDR_MODE_2:
		return addr_mode(o->sampler.address[q - TXQ_ADDR_MODE_0]);
	case TXQ_ARRAY_SIZE: /* a texture array's textures (a cubemap array's cubemaps), else 0 */
		return (uint32_t)(r->cubemap ? (r->layers > 6 ? r->layers / 6 : 0) : r->layers);
	case TXQ_MEMORY_LAYOUT: return r->kind != GL_TEXRES_ARRAY; /* 1 for linear memory layouts */
	default: return 0; /* mipmap levels, samples: none here */
	}
}

bool sim_tex_geom_fits(const struct gl_tex_object *o, enum ptx_tex_geom g, bool surface, const char **why)
{
	const struct gl_tex_resource *r = &o->res;
	bool array = r->kind == GL_TEXRES_ARRAY, flat = !r->depth && !r->layers;
	bool fits = false;
	switch (g) {
	case TXG_1D: fits = r->kind == GL_TEXRES_LINEAR || (array && flat && !r->height); break;
	case TXG_2D: fits = r->kind == GL_TEXRES_PITCH2D || (array && flat && r->height); break;
	case TXG_3D: fits = array && r->depth; break;
	case TXG_A1D: fits = array && r->layers && !r->height && !r->cubemap; break;
	case TXG_A2D: fits = array && r->layers && r->height && (surface || !r->cubemap); break;
	case TXG_CUBE: fits = array && r->cubemap && r->layers == 6; break;
	case TXG_ACUBE: fits = array && r->cubemap; break;
	}
	*why = r->kind == GL_TEXRES_LINEAR ? "linear memory (1D)"
	     : r->kind == GL_TEXRES_PITCH2D ? "pitched 2D memory"
	     : r->cubemap ? (r->layers > 6 ? "a layered cubemap array" : "a cubemap array")
	     : r->depth ? "a 3D array"
	     : r->layers ? (r->height ? "a layered 2D array" : "a layered 1D array")
	     : r->height ? "a 2D array" : "a 1D array";
	return fits;
}
