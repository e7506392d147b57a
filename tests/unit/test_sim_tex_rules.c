/* test_sim_tex_rules.c — the texture and surface rules as pure functions (sim/sim_tex.h), against values
 * computed by hand from the CUDA C++ Programming Guide ("Texture Memory", "Texture Fetching", "Cubemap
 * Textures") and the PTX ISA ("Texture Instructions", "Surface Instructions"): the 1.8 fixed-point
 * weights, every address mode, point and linear filtering in 1, 2 and 3 dimensions, normalised and
 * unnormalised coordinates, each element format and read mode, layers, cubemap faces, tld4's order,
 * txq/suq, and where surface accesses land under .trap/.clamp/.zero. */
#include <stdint.h>
#include <string.h>

#include "sim/sim_float.h"
#include "sim/sim_tex.h"
#include "tests/unit/check.h"

static float f(uint32_t u)
{
	return sim_f32(u);
}

static uint32_t b(float x)
{
	return (uint32_t)sim_f32_bits(x);
}

/* A texture of `n` texels of `bytes` each in `data`: width w, height h (0 for 1D). */
static struct gl_tex_object tex(void *data, size_t bytes, enum gl_tex_format fmt, unsigned ch, uint64_t w, uint64_t h)
{
	struct gl_tex_object o = {.handle = 1, .kind = GL_TEX_TEXTURE};
	o.res = (struct gl_tex_resource){.kind = GL_TEXRES_ARRAY, .format = fmt, .channels = ch, .width = w,
					 .height = h, .data = data, .bytes = bytes};
	struct gl_err err = {0};
	CHECK_EQ(gl_tex_check(&o, &err), GL_OK);
	return o;
}

static void set_mode(struct gl_tex_object *o, enum gl_tex_address a, enum gl_tex_filter flt, bool norm)
{
	o->sampler.address[0] = o->sampler.address[1] = o->sampler.address[2] = a;
	o->sampler.filter = flt;
	o->sampler.normalized_coords = norm;
}

/* tex.1d.v4.f32.f32 at x: the first result as a float. */
static float fetch1(const struct gl_tex_object *o, float x)
{
	uint32_t c[4] = {b(x)}, out[4];
	sim_tex_sample(o, TXG_1D, c, false, out);
	return f(out[0]);
}

static float fetch2(const struct gl_tex_object *o, float x, float y)
{
	uint32_t c[4] = {b(x), b(y)}, out[4];
	sim_tex_sample(o, TXG_2D, c, false, out);
	return f(out[0]);
}

static void test_weights_and_addresses(void)
{
	CHECK_EQ(sim_tex_weight(0.0f), 0);
	CHECK_EQ(sim_tex_weight(0.25f), 64);
	CHECK_EQ(sim_tex_weight(0.5f), 128);
	CHECK_EQ(sim_tex_weight(1.0f / 3), 85);           /* 85.33 */
	CHECK_EQ(sim_tex_weight(0.998f), 255);            /* 255.49 */
	CHECK_EQ(sim_tex_weight(0.999f), 256);            /* 255.74: rounds to 1.0, which 1.8 holds */
	CHECK_EQ(sim_tex_weight(0.5f / 256), 1);          /* a tie rounds up */
	CHECK_EQ(sim_tex_address(2, 4, GL_TEXADDR_BORDER), 2);
	CHECK_EQ(sim_tex_address(-1, 4, GL_TEXADDR_BORDER), -1);
	CHECK_EQ(sim_tex_address(4, 4, GL_TEXADDR_BORDER), -1);
	CHECK_EQ(sim_tex_address(-3, 4, GL_TEXADDR_CLAMP), 0);
	CHECK_EQ(sim_tex_address(7, 4, GL_TEXADDR_CLAMP), 3);
	CHECK_EQ(sim_tex_address(-1, 4, GL_TEXADDR_WRAP), 3);
	CHECK_EQ(sim_tex_address(-5, 4, GL_TEXADDR_WRAP), 3);
	CHECK_EQ(sim_tex_address(9, 4, GL_TEXADDR_WRAP), 1);
	CHECK_EQ(sim_tex_address(-1, 4, GL_TEXADDR_MIRROR), 0); /* 1 0 | 0 1 2 3 | 3 2 1 0 | 0 */
	CHECK_EQ(sim_tex_address(-2, 4, GL_TEXADDR_MIRROR), 1);
	CHECK_EQ(sim_tex_address(4, 4, GL_TEXADDR_MIRROR), 3);
	CHECK_EQ(sim_tex_address(5, 4, GL_TEXADDR_MIRROR), 2);
	CHECK_EQ(sim_tex_address(8, 4, GL_TEXADDR_MIRROR), 0);
	CHECK_EQ(sim_tex_address(-5, 4, GL_TEXADDR_MIRROR), 3);
}

static void test_normalized_reads(void)
{
	CHECK(sim_tex_unorm(255, 8) == 1.0f);
	CHECK(sim_tex_unorm(0, 8) == 0.0f);
	CHECK(sim_tex_unorm(128, 8) == 128.0f / 255.0f);
	CHECK(sim_tex_unorm(65535, 16) == 1.0f);
	CHECK(sim_tex_snorm(127, 8) == 1.0f);
	CHECK(sim_tex_snorm(-127, 8) == -1.0f);
	CHECK(sim_tex_snorm(-128, 8) == -1.0f); /* both ends of the range read as -1 */
	CHECK(sim_tex_snorm(64, 8) == 64.0f / 127.0f);
	CHECK(sim_tex_snorm(-32768, 16) == -1.0f);
}

/* T = {10, 20, 30, 40}, unnormalised: point sampling is T[floor(x)], linear filtering the Guide's
 * (1 - a)T[i] + aT[i+1] with x_B = x - 0.5 and a in 1.8 fixed point. */
static void test_1d_filtering(void)
{
	float t[4] = {10, 20, 30, 40};
	struct gl_tex_object o = tex(t, sizeof t, GL_TEXFMT_F32, 1, 4, 0);
	set_mode(&o, GL_TEXADDR_CLAMP, GL_TEXFILTER_POINT, false);
	CHECK(fetch1(&o, 0.0f) == 10);
	CHECK(fetch1(&o, 1.99f) == 20);
	CHECK(fetch1(&o, 3.5f) == 40);
	CHECK(fetch1(&o, -2.0f) == 10);
	CHECK(fetch1(&o, 7.0f) == 40);
	o.sampler.filter = GL_TEXFILTER_LINEAR;
	CHECK(fetch1(&o, 1.0f) == 15);      /* halfway between T[0] and T[1] */
	CHECK(fetch1(&o, 0.5f) == 10);      /* a texel's centre */
	CHECK(fetch1(&o, 2.25f) == 27.5f);  /* 0.25 x 20 + 0.75 x 30 */
	CHECK(fetch1(&o, 0.2f) == 10);      /* T[-1] clamps to T[0] */
	CHECK(fetch1(&o, 4.0f) == 40);      /* T[4] clamps to T[3] */
	/* the 1.8 weight: x = 4/3 gives x_B = 0.8333, a = 213/256 (not 0.8333): 43/256 x 10 + 213/256 x 20 */
	CHECK(fetch1(&o, 4.0f / 3) == 4690.0f / 256);
	CHECK(fetch1(&o, 1.001953125f) == 3850.0f / 256); /* a = 128.5/256 rounds up to 129/256 */
	CHECK(fetch1(&o, 1.499f) == 20);    /* a = 255.74/256 rounds to 1.0: all of T[1] */
	set_mode(&o, GL_TEXADDR_BORDER, GL_TEXFILTER_LINEAR, false);
	o.sampler.border[0] = 100;
	CHECK(fetch1(&o, 0.25f) == 32.5f);  /* a = 0.75 of T[0], 0.25 of the border colour */
	o.sampler.filter = GL_TEXFILTER_POINT;
	CHECK(fetch1(&o, -0.5f) == 100);
	CHECK(fetch1(&o, 4.0f) == 100);
	CHECK(fetch1(&o, 3.9f) == 40);
}

/* Normalised coordinates: x in [0, 1) maps to [0, 4); wrap takes frac(x), mirror frac(x) or 1 - frac(x)
 * when floor(x) is odd; both fall back to clamp for unnormalised coordinates. */
static void test_1d_normalized(void)
{
	float t[4] = {10, 20, 30, 40};
	struct gl_tex_object o = tex(t, sizeof t, GL_TEXFMT_F32, 1, 4, 0);
	set_mode(&o, GL_TEXADDR_WRAP, GL_TEXFILTER_POINT, true);
	CHECK(fetch1(&o, 0.3f) == 20);
	CHECK(fetch1(&o, 1.25f) == 20);
	CHECK(fetch1(&o, -0.25f) == 40);
	o.sampler.filter = GL_TEXFILTER_LINEAR;
	CHECK(fetch1(&o, 0.0f) == 25);      /* T[-1] wraps to T[3]: (40 + 10) / 2 */
	CHECK(fetch1(&o, 0.125f) == 10);
	set_mode(&o, GL_TEXADDR_MIRROR, GL_TEXFILTER_POINT, true);
	CHECK(fetch1(&o, 1.25f) == 40);     /* floor 1 is odd: 1 - 0.25 */
	CHECK(fetch1(&o, 2.25f) == 20);
	CHECK(fetch1(&o, -0.25f) == 20);    /* floor -1 is odd: 1 - 0.75 */
	o.sampler.filter = GL_TEXFILTER_LINEAR;
	CHECK(fetch1(&o, 0.0f) == 10);      /* T[-1] mirrors to T[0] */
	set_mode(&o, GL_TEXADDR_CLAMP, GL_TEXFILTER_POINT, true);
	CHECK(fetch1(&o, 1.5f) == 40);
	CHECK(fetch1(&o, 0.5f) == 30);
	set_mode(&o, GL_TEXADDR_WRAP, GL_TEXFILTER_POINT, false); /* wrap needs normalised coordinates */
	CHECK(fetch1(&o, 5.0f) == 40);
	set_mode(&o, GL_TEXADDR_MIRROR, GL_TEXFILTER_POINT, false);
	CHECK(fetch1(&o, -3.0f) == 10);
}

/* 3 x 2 texels: row 0 = 1 2 3, row 1 = 4 5 6. */
static void test_2d_and_gather(void)
{
	float t[6] = {1, 2, 3, 4, 5, 6};
	struct gl_tex_object o = tex(t, sizeof t, GL_TEXFMT_F32, 1, 3, 2);
	set_mode(&o, GL_TEXADDR_CLAMP, GL_TEXFILTER_POINT, false);
	CHECK(fetch2(&o, 1.5f, 1.5f) == 5);
	CHECK(fetch2(&o, 2.9f, 0.1f) == 3);
	o.sampler.filter = GL_TEXFILTER_LINEAR;
	CHECK(fetch2(&o, 1.0f, 1.0f) == 3); /* the four texels' mean */
	/* a = 0.75, b = 0.25: .25*.75*1 + .75*.75*2 + .25*.25*4 + .75*.25*5 */
	CHECK(fetch2(&o, 1.25f, 0.75f) == 2.5f);
	uint32_t c[4] = {b(1.25f), b(0.75f)}, out[4];
	sim_tex_gather(&o, TXG_2D, c, 0, out); /* (i0, j1), (i1, j1), (i1, j0), (i0, j0) */
	CHECK(f(out[0]) == 4 && f(out[1]) == 5 && f(out[2]) == 2 && f(out[3]) == 1);
	c[0] = b(0.25f), c[1] = b(0.25f); /* i0 = j0 = -1: clamped */
	sim_tex_gather(&o, TXG_2D, c, 0, out);
	CHECK(f(out[0]) == 1 && f(out[1]) == 1 && f(out[2]) == 1 && f(out[3]) == 1);
	o.sampler.address[0] = o.sampler.address[1] = GL_TEXADDR_BORDER;
	o.sampler.border[0] = -7;
	sim_tex_gather(&o, TXG_2D, c, 0, out); /* only (i1, j1) = (0, 0) is inside */
	CHECK(f(out[0]) == -7 && f(out[1]) == 1 && f(out[2]) == -7 && f(out[3]) == -7);
}

/* 2 x 2 x 2 texels of x + 2y + 4z. */
static void test_3d(void)
{
	float t[8];
	for (int i = 0; i < 8; i++)
		t[i] = (float)i;
	struct gl_tex_object o = tex(t, sizeof t, GL_TEXFMT_F32, 1, 2, 2);
	o.res.depth = 2;
	set_mode(&o, GL_TEXADDR_CLAMP, GL_TEXFILTER_POINT, false);
	uint32_t c[4] = {b(1.5f), b(0.2f), b(1.9f)}, out[4];
	sim_tex_sample(&o, TXG_3D, c, false, out);
	CHECK(f(out[0]) == 5);
	o.sampler.filter = GL_TEXFILTER_LINEAR;
	c[0] = c[1] = c[2] = b(1.0f);
	sim_tex_sample(&o, TXG_3D, c, false, out);
	CHECK(f(out[0]) == 3.5f); /* the mean of 0..7 */
	c[0] = b(1.25f); /* a = 0.75: the x = 1 texels weigh 3 times the x = 0 ones */
	sim_tex_sample(&o, TXG_3D, c, false, out);
	CHECK(f(out[0]) == 3.75f);
}

/* Each format in each read mode, with the missing channels (0, 0, 1). */
static void test_formats(void)
{
	uint8_t u8[8] = {0, 128, 255, 7, 1, 2, 3, 4};
	struct gl_tex_object o = tex(u8, sizeof u8, GL_TEXFMT_U8, 4, 2, 0);
	uint32_t c[4] = {0}, out[4];
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK(out[0] == 0 && out[1] == 128 && out[2] == 255 && out[3] == 7);
	o.sampler.read_normalized = true;
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK(f(out[0]) == 0 && f(out[1]) == 128.0f / 255 && f(out[2]) == 1 && f(out[3]) == 7.0f / 255);
	int8_t s8[4] = {-128, -1, 127, 64};
	o = tex(s8, sizeof s8, GL_TEXFMT_S8, 4, 1, 0);
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK((int32_t)out[0] == -128 && (int32_t)out[1] == -1 && out[2] == 127 && out[3] == 64);
	o.sampler.read_normalized = true;
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK(f(out[0]) == -1 && f(out[1]) == -1.0f / 127 && f(out[2]) == 1 && f(out[3]) == 64.0f / 127);
	uint16_t u16[2] = {65535, 32768};
	o = tex(u16, sizeof u16, GL_TEXFMT_U16, 2, 1, 0);
	o.sampler.read_normalized = true;
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK(f(out[0]) == 1 && f(out[1]) == 32768.0f / 65535 && f(out[2]) == 0 && f(out[3]) == 1);
	int16_t s16[1] = {-32768};
	o = tex(s16, sizeof s16, GL_TEXFMT_S16, 1, 1, 0);
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK((int32_t)out[0] == -32768 && out[1] == 0 && out[2] == 0 && out[3] == 1); /* integer 1 */
	uint16_t f16[2] = {0x3c00, 0xc000}; /* 1.0, -2.0 */
	o = tex(f16, sizeof f16, GL_TEXFMT_F16, 2, 1, 0);
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK(f(out[0]) == 1 && f(out[1]) == -2 && f(out[2]) == 0 && f(out[3]) == 1);
	uint32_t u32[1] = {0xdeadbeef};
	o = tex(u32, sizeof u32, GL_TEXFMT_U32, 1, 1, 0);
	o.sampler.read_normalized = true; /* no effect on 32-bit integers */
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK(out[0] == 0xdeadbeef && out[3] == 1);
	uint8_t ramp[2] = {0, 255}; /* linear filtering of normalised reads */
	o = tex(ramp, sizeof ramp, GL_TEXFMT_U8, 1, 2, 0);
	set_mode(&o, GL_TEXADDR_CLAMP, GL_TEXFILTER_LINEAR, false);
	o.sampler.read_normalized = true;
	CHECK(fetch1(&o, 1.0f) == 0.5f);
	CHECK(fetch1(&o, 1.25f) == 0.75f);
}

/* Linear memory: integer indices, zeros outside; integer coordinates on an array clamp or border. */
static void test_linear_memory_and_integers(void)
{
	int32_t t[3] = {5, 6, 7};
	struct gl_tex_object o = tex(t, sizeof t, GL_TEXFMT_S32, 1, 3, 0);
	o.res.kind = GL_TEXRES_LINEAR;
	uint32_t c[4] = {1}, out[4];
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK(out[0] == 6 && out[3] == 1);
	c[0] = (uint32_t)-1;
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0 && out[3] == 0);
	c[0] = 3;
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK(out[0] == 0 && out[3] == 0);
	c[0] = b(2.7f); /* a float coordinate on linear memory: floored */
	sim_tex_sample(&o, TXG_1D, c, false, out);
	CHECK(out[0] == 7);
	o.res.kind = GL_TEXRES_ARRAY;
	c[0] = (uint32_t)-1;
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK(out[0] == 5);
	o.sampler.address[0] = GL_TEXADDR_BORDER;
	o.sampler.border[0] = 9.7f; /* an integer texture's border: truncated */
	sim_tex_sample(&o, TXG_1D, c, true, out);
	CHECK(out[0] == 9);
}

/* Layers: layer L, texel x of a 1D layered array holds 10L + x; a 2D one 100L + 10y + x. */
static void test_layers(void)
{
	float t1[6] = {0, 1, 10, 11, 20, 21};
	struct gl_tex_object o = tex(t1, sizeof t1, GL_TEXFMT_F32, 1, 2, 0);
	o.res.layers = 3;
	uint32_t c[4] = {2, b(1.5f)}, out[4];
	sim_tex_sample(&o, TXG_A1D, c, false, out);
	CHECK(f(out[0]) == 21);
	c[0] = 7; /* past the end: the last layer */
	sim_tex_sample(&o, TXG_A1D, c, false, out);
	CHECK(f(out[0]) == 21);
	c[0] = 0xffffffffu; /* unsigned: -1 is past the end too */
	sim_tex_sample(&o, TXG_A1D, c, false, out);
	CHECK(f(out[0]) == 21);
	o.sampler.filter = GL_TEXFILTER_LINEAR; /* filtering stays in the layer */
	c[0] = 1, c[1] = b(1.0f);
	sim_tex_sample(&o, TXG_A1D, c, false, out);
	CHECK(f(out[0]) == 10.5f);
	float t2[8] = {0, 1, 10, 11, 100, 101, 110, 111};
	o = tex(t2, sizeof t2, GL_TEXFMT_F32, 1, 2, 2);
	o.res.layers = 2;
	uint32_t c2[4] = {1, b(0.5f), b(1.5f)};
	sim_tex_sample(&o, TXG_A2D, c2, false, out);
	CHECK(f(out[0]) == 110);
	c2[1] = 1, c2[2] = 0; /* integer coordinates (tex.a2d.v4.f32.s32) */
	sim_tex_sample(&o, TXG_A2D, c2, true, out);
	CHECK(f(out[0]) == 101);
}

/* Cubemap faces of 2 x 2 texels holding 100 face + 10 y + x: the Guide's "Cubemap Fetch" table. */
static void test_cube(void)
{
	float t[12 * 4];
	for (int layer = 0; layer < 12; layer++)
		for (int i = 0; i < 4; i++)
			t[layer * 4 + i] = (float)(100 * layer + 10 * (i / 2) + i % 2);
	struct gl_tex_object o = tex(t, sizeof t, GL_TEXFMT_F32, 1, 2, 2);
	o.res.layers = 6, o.res.cubemap = true;
	set_mode(&o, GL_TEXADDR_CLAMP, GL_TEXFILTER_POINT, false); /* face coordinates are normalised anyway */
	struct { float x, y, z, want; } cases[] = {
		{1, 0, 0, 11},          /* +x, m = x, s = -z, t = -y: the centre (1, 1) */
		{1, -0.9f, -0.9f, 11},  /* s = t = 0.95: texel (1, 1) */
		{-1, 0.9f, 0.9f, 101},  /* -x, s = z -> 0.95, t = -y -> 0.05: (1, 0) */
		{0.1f, 0.2f, -1, 500},  /* -z, s = -x -> 0.45, t = -y -> 0.4: (0, 0) */
		{0.5f, 1, 0.2f, 211},   /* +y, s = x -> 0.75, t = z -> 0.6: (1, 1) */
		{0.5f, -1, 0.2f, 301},  /* -y, s = x -> 0.75, t = -z -> 0.4: (1, 0) */
		{1, 1, 1, 401},         /* a tie goes to z: +z, s = x -> 1 (clamped to texel 1), t = -y -> 0 */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		uint32_t c[4] = {b(cases[i].x), b(cases[i].y), b(cases[i].z)}, out[4];
		sim_tex_sample(&o, TXG_CUBE, c, false, out);
		if (f(out[0]) != cases[i].want)
			fprintf(stderr, "cube case %zu: %g, want %g\n", i, f(out[0]), cases[i].want);
		CHECK(f(out[0]) == cases[i].want);
	}
	o.res.layers = 12; /* two cubemaps: cube 1's -z face is layer 11 */
	uint32_t c[4] = {1, b(0.1f), b(0.2f), b(-1)}, out[4];
	sim_tex_sample(&o, TXG_ACUBE, c, false, out);
	CHECK(f(out[0]) == 1100);
}

static void test_queries(void)
{
	uint8_t d[64];
	struct gl_tex_object o = tex(d, sizeof d, GL_TEXFMT_U8, 4, 3, 2);
	set_mode(&o, GL_TEXADDR_BORDER, GL_TEXFILTER_LINEAR, true);
	o.sampler.read_normalized = true;
	o.sampler.address[1] = GL_TEXADDR_MIRROR, o.sampler.address[2] = GL_TEXADDR_CLAMP;
	CHECK_EQ(sim_tex_query(&o, TXQ_WIDTH), 3);
	CHECK_EQ(sim_tex_query(&o, TXQ_HEIGHT), 2);
	CHECK_EQ(sim_tex_query(&o, TXQ_DEPTH), 1);
	CHECK_EQ(sim_tex_query(&o, TXQ_CHANNEL_DATA_TYPE), 0x10D2); /* CL_UNORM_INT8 */
	CHECK_EQ(sim_tex_query(&o, TXQ_CHANNEL_ORDER), 0x10B5);     /* CL_RGBA */
	CHECK_EQ(sim_tex_query(&o, TXQ_NORMALIZED_COORDS), 1);
	CHECK_EQ(sim_tex_query(&o, TXQ_FILTER_MODE), 1);
	CHECK_EQ(sim_tex_query(&o, TXQ_ADDR_MODE_0), 4); /* clamp_to_border */
	CHECK_EQ(sim_tex_query(&o, TXQ_ADDR_MODE_1), 1); /* mirror */
	CHECK_EQ(sim_tex_query(&o, TXQ_ADDR_MODE_2), 3); /* clamp_to_edge */
	CHECK_EQ(sim_tex_query(&o, TXQ_ARRAY_SIZE), 0);
	CHECK_EQ(sim_tex_query(&o, TXQ_NUM_MIPMAP_LEVELS), 0);
	CHECK_EQ(sim_tex_query(&o, TXQ_MEMORY_LAYOUT), 0);
	o.sampler.read_normalized = false;
	CHECK_EQ(sim_tex_query(&o, TXQ_CHANNEL_DATA_TYPE), 0x10DA); /* CL_UNSIGNED_INT8 */
	o.kind = GL_TEX_SURFACE, o.sampler.read_normalized = true; /* surfaces are never normalised */
	CHECK_EQ(sim_tex_query(&o, TXQ_CHANNEL_DATA_TYPE), 0x10DA);
	o = tex(d, sizeof d, GL_TEXFMT_S16, 2, 4, 0);
	CHECK_EQ(sim_tex_query(&o, TXQ_CHANNEL_DATA_TYPE), 0x10D8); /* CL_SIGNED_INT16 */
	CHECK_EQ(sim_tex_query(&o, TXQ_CHANNEL_ORDER), 0x10B2);     /* CL_RG */
	o.res.layers = 3;
	CHECK_EQ(sim_tex_query(&o, TXQ_ARRAY_SIZE), 3);
	o.res.kind = GL_TEXRES_LINEAR, o.res.layers = 0;
	CHECK_EQ(sim_tex_query(&o, TXQ_MEMORY_LAYOUT), 1);
	o = tex(d, sizeof d, GL_TEXFMT_F16, 1, 2, 2);
	o.res.cubemap = true, o.res.layers = 6;
	CHECK_EQ(sim_tex_query(&o, TXQ_ARRAY_SIZE), 0); /* one cubemap is not an array */
	CHECK_EQ(sim_tex_query(&o, TXQ_CHANNEL_DATA_TYPE), 0x10DD);
	o.res.layers = 12;
	CHECK_EQ(sim_tex_query(&o, TXQ_ARRAY_SIZE), 2);
}

static void test_geometry_fits(void)
{
	uint8_t d[64];
	const char *why;
	struct gl_tex_object o = tex(d, sizeof d, GL_TEXFMT_F32, 1, 4, 0);
	CHECK(sim_tex_geom_fits(&o, TXG_1D, false, &why));
	CHECK(!sim_tex_geom_fits(&o, TXG_2D, false, &why));
	CHECK_STR(why, "a 1D array");
	o.res.height = 2;
	CHECK(sim_tex_geom_fits(&o, TXG_2D, false, &why));
	CHECK(!sim_tex_geom_fits(&o, TXG_A2D, false, &why));
	o.res.layers = 2;
	CHECK(sim_tex_geom_fits(&o, TXG_A2D, false, &why));
	CHECK(!sim_tex_geom_fits(&o, TXG_2D, false, &why));
	CHECK_STR(why, "a layered 2D array");
	o.res.width = 2, o.res.layers = 6, o.res.cubemap = true;
	CHECK(sim_tex_geom_fits(&o, TXG_CUBE, false, &why));
	CHECK(!sim_tex_geom_fits(&o, TXG_A2D, false, &why)); /* a texture reads a cubemap as a cube */
	CHECK(sim_tex_geom_fits(&o, TXG_A2D, true, &why));   /* a surface addresses its faces as layers */
	o.res.kind = GL_TEXRES_LINEAR, o.res.height = 0, o.res.layers = 0, o.res.cubemap = false;
	CHECK(!sim_tex_geom_fits(&o, TXG_2D, false, &why));
	CHECK_STR(why, "linear memory (1D)");
}

/* A surface of 4 x 3 texels of 4 bytes (16-byte rows). */
static void test_surface_locate(void)
{
	uint8_t d[48];
	struct gl_tex_object o = tex(d, sizeof d, GL_TEXFMT_F32, 1, 4, 3);
	o.kind = GL_TEX_SURFACE;
	uint32_t c[4] = {8, 2};
	struct sim_surf_at at = sim_surf_locate(&o, TXG_2D, c, 4, false, SU_TRAP);
	CHECK(at.hit == SURF_IN && at.host == d + 40);
	c[0] = 6;
	CHECK(sim_surf_locate(&o, TXG_2D, c, 4, false, SU_CLAMP).hit == SURF_MISALIGNED);
	c[0] = 16; /* one past the row */
	CHECK(sim_surf_locate(&o, TXG_2D, c, 4, false, SU_TRAP).hit == SURF_OUT);
	CHECK(sim_surf_locate(&o, TXG_2D, c, 4, false, SU_ZERO).hit == SURF_OUT);
	at = sim_surf_locate(&o, TXG_2D, c, 4, false, SU_CLAMP);
	CHECK(at.hit == SURF_IN && at.host == d + 2 * 16 + 12 && at.x == 16);
	c[0] = (uint32_t)-4, c[1] = 5;
	at = sim_surf_locate(&o, TXG_2D, c, 4, false, SU_CLAMP);
	CHECK(at.hit == SURF_IN && at.host == d + 2 * 16);
	c[0] = 0, c[1] = 1; /* a whole row as one 16-byte access */
	at = sim_surf_locate(&o, TXG_2D, c, 16, false, SU_TRAP);
	CHECK(at.hit == SURF_IN && at.host == d + 16);
	CHECK(sim_surf_locate(&o, TXG_2D, c, 32, false, SU_CLAMP).hit == SURF_OUT); /* wider than a row */
	c[0] = 3; /* formatted: x counts texels */
	at = sim_surf_locate(&o, TXG_2D, c, 4, true, SU_TRAP);
	CHECK(at.hit == SURF_IN && at.host == d + 16 + 12);
	c[0] = 4;
	CHECK(sim_surf_locate(&o, TXG_2D, c, 4, true, SU_TRAP).hit == SURF_OUT);
	o.res.height = 1, o.res.layers = 3; /* a layered 2D surface of 3 layers of one row */
	uint32_t l[4] = {5, 4, 0};
	CHECK(sim_surf_locate(&o, TXG_A2D, l, 4, false, SU_ZERO).hit == SURF_OUT);
	at = sim_surf_locate(&o, TXG_A2D, l, 4, false, SU_CLAMP);
	CHECK(at.hit == SURF_IN && at.host == d + 2 * 16 + 4);
}

static void test_formatted_store(void)
{
	uint8_t u8[4];
	struct gl_tex_object o = tex(u8, sizeof u8, GL_TEXFMT_U8, 4, 1, 0);
	uint32_t v[4] = {300, 5, 0xffffffffu, 7};
	sim_surf_store_formatted(&o, u8, v, 4); /* u32 values held to the format's range */
	CHECK(u8[0] == 255 && u8[1] == 5 && u8[2] == 255 && u8[3] == 7);
	sim_surf_store_formatted(&o, u8, v, 2); /* channels without a value: 0 */
	CHECK(u8[0] == 255 && u8[1] == 5 && u8[2] == 0 && u8[3] == 0);
	int8_t s8[2];
	o = tex(s8, sizeof s8, GL_TEXFMT_S8, 2, 1, 0);
	uint32_t sv[2] = {(uint32_t)-200, 100};
	sim_surf_store_formatted(&o, (uint8_t *)s8, sv, 2);
	CHECK(s8[0] == -128 && s8[1] == 100);
	uint16_t h[2];
	o = tex(h, sizeof h, GL_TEXFMT_F16, 2, 1, 0);
	uint32_t fv[2] = {b(1.0f), b(-2.0f)};
	sim_surf_store_formatted(&o, (uint8_t *)h, fv, 2);
	CHECK(h[0] == 0x3c00 && h[1] == 0xc000);
}

int main(void)
{
	test_weights_and_addresses();
	test_normalized_reads();
	test_1d_filtering();
	test_1d_normalized();
	test_2d_and_gather();
	test_3d();
	test_formats();
	test_linear_memory_and_integers();
	test_layers();
	test_cube();
	test_queries();
	test_geometry_fits();
	test_surface_locate();
	test_formatted_store();
	CHECK_DONE();
}
