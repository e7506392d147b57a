/* test_sim_tex.c — texture fetches of CUDA kernels compiled by nvcc (tests/fixtures/sim/tex.cu:
 * tex2D<float4>, tex1Dfetch, tex1D, tex3D, layered, cubemap, tex2Dgather, normalised reads, tex2DLod /
 * tex2DGrad and a residency-checked fetch, txq/suq) with descriptor tables built here, on both engines;
 * each result against values worked out by hand from the Guide's formulas; the texture counts; and the
 * invalid-texture findings. */
#include <math.h>

#include "tests/unit/tex_fixture.h"

/* ---- tex2D<float4> over 8 x 4 texels (x + 10y, x, y, 1), by a 16 x 8 grid of threads */

static enum gl_tex_filter filter2d;
static bool norm2d;

static void build_2d(struct tx_case *c)
{
	fx_geometry(&c->l, "tex2d_sample", 2, 2, 8, 4);
	struct gl_tex_object *o = tx_object(c, 5, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 4, 8, 4);
	o->sampler.filter = filter2d;
	o->sampler.normalized_coords = norm2d;
	o->sampler.address[0] = norm2d ? GL_TEXADDR_WRAP : GL_TEXADDR_CLAMP;
	o->sampler.address[1] = GL_TEXADDR_CLAMP;
	float *t = tx_texels(c);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 8; x++) {
			float *p = t + 4 * (y * 8 + x);
			p[0] = (float)(x + 10 * y), p[1] = (float)x, p[2] = (float)y, p[3] = 1;
		}
	gl_launch_arg_scalar(&c->l, 5, 8);
	fx_buffer(&c->l, "out", GL_F32, 4 * 16 * 8);
	float x0 = norm2d ? -1.0f : -0.5f, dx = norm2d ? 1.0f / 16 : 0.25f;
	gl_launch_arg_scalar(&c->l, fx_bits(x0), 4);
	gl_launch_arg_scalar(&c->l, fx_bits(dx), 4);
	gl_launch_arg_scalar(&c->l, fx_bits(0.0f), 4);
	gl_launch_arg_scalar(&c->l, fx_bits(0.5f), 4);
}

static float clampf(float v, float lo, float hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void check_2d(struct tx_case *c)
{
	const float *out = c->l.buffers[0].host;
	int bad = 0;
	for (int y = 0; y < 8; y++)
		for (int x = 0; x < 16; x++) {
			float u = norm2d ? fmaf((float)x, 1.0f / 16, -1.0f) : fmaf((float)x, 0.25f, -0.5f);
			float v = y * 0.5f;
			float ex, ey; /* the texel-space x and y the fetch reads */
			if (norm2d) { /* point; x wraps: texel floor(frac(u) x 8); y clamps: floor(v x 4) */
				ex = floorf((u - floorf(u)) * 8), ey = clampf(floorf(v * 4), 0, 3);
			} else if (filter2d == GL_TEXFILTER_LINEAR) { /* a ramp filtered by exact weights k/4 */
				ex = clampf(u - 0.5f, 0, 7), ey = clampf(v - 0.5f, 0, 3);
			} else {
				ex = clampf(floorf(u), 0, 7), ey = clampf(floorf(v), 0, 3);
			}
			const float *p = out + 4 * (y * 16 + x);
			bad += p[0] != ex + 10 * ey || p[1] != ex || p[2] != ey || p[3] != 1;
		}
	CHECK_EQ(bad, 0);
	CHECK_EQ(c->res.findings_total, 0);
	/* 4 warps, one TEX each (float coordinates): one instruction and one request per warp */
	CHECK_EQ(fx_metric(&c->res, "smsp__inst_executed_op_texture.sum"), 4);
	CHECK_EQ(fx_metric(&c->res, "l1tex__t_requests_pipe_tex_mem_texture.sum"), 4);
	CHECK_EQ(fx_metric(&c->res, "l1tex__t_requests_pipe_tex_mem_texture_op_tex.sum"), 4);
	CHECK_EQ(fx_metric(&c->res, "l1tex__t_requests_pipe_tex_mem_texture_op_ld.sum"), -1); /* no TLD */
	CHECK_EQ(fx_metric(&c->res, GL_M_GST_REQ), 4); /* one st.global.v4.f32 per warp */
}

static void test_2d(void)
{
	filter2d = GL_TEXFILTER_LINEAR, norm2d = false;
	tx_both(build_2d, check_2d);
	filter2d = GL_TEXFILTER_POINT;
	tx_both(build_2d, check_2d);
	norm2d = true;
	tx_both(build_2d, check_2d);
}

/* ---- tex1Dfetch of 40 s32 in linear memory at i - 8 (zeros outside), 64 threads */

static void build_fetch(struct tx_case *c)
{
	fx_geometry(&c->l, "tex1d_fetch", 1, 1, 64, 1);
	tx_object(c, 77, GL_TEX_TEXTURE, GL_TEXRES_LINEAR, GL_TEXFMT_S32, 1, 40, 0);
	int32_t *t = tx_texels(c);
	for (int i = 0; i < 40; i++)
		t[i] = 3 * i + 1;
	gl_launch_arg_scalar(&c->l, 77, 8);
	fx_buffer(&c->l, "out", GL_I32, 64);
	gl_launch_arg_scalar(&c->l, (uint32_t)-8, 4);
}

static void check_fetch(struct tx_case *c)
{
	const int32_t *out = c->l.buffers[0].host;
	int bad = 0;
	for (int i = 0; i < 64; i++) {
		int k = i - 8;
		bad += out[i] != (k >= 0 && k < 40 ? 3 * k + 1 : 0);
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(fx_metric(&c->res, "l1tex__t_requests_pipe_tex_mem_texture_op_ld.sum"), 2); /* TLD: integer */
	CHECK_EQ(fx_metric(&c->res, "l1tex__t_requests_pipe_tex_mem_texture_op_tex.sum"), -1);
	CHECK_EQ(fx_metric(&c->res, "smsp__inst_executed_op_texture.sum"), 2);
}

/* ---- tex1D with linear filtering at i/3: the 1.8 weights, T = {10, 20, 30, 40} */

static void build_1d(struct tx_case *c)
{
	fx_geometry(&c->l, "tex1d_float", 1, 1, 32, 1);
	struct gl_tex_object *o = tx_object(c, 3, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 1, 4, 0);
	o->sampler.filter = GL_TEXFILTER_LINEAR;
	o->sampler.address[0] = GL_TEXADDR_BORDER;
	o->sampler.border[0] = 100;
	float *t = tx_texels(c);
	for (int i = 0; i < 4; i++)
		t[i] = (float)(10 * (i + 1));
	gl_launch_arg_scalar(&c->l, 3, 8);
	fx_buffer(&c->l, "out", GL_F32, 32);
	gl_launch_arg_scalar(&c->l, fx_bits(0.0f), 4);
	gl_launch_arg_scalar(&c->l, fx_bits(1.0f / 3), 4);
}

static void check_1d(struct tx_case *c)
{
	const float *out = c->l.buffers[0].host;
	/* by hand: x = 0 -> half border (100), half T[0] (10); x = 1/3 -> x_B = -1/6, a = round(0.8333 x 256)
	 * = 213: 43/256 x 100 + 213/256 x 10; x = 1 -> 15; x = 4/3 -> 43/256 x 10 + 213/256 x 20 */
	CHECK(out[0] == 55);
	CHECK(out[1] == (43.0f * 100 + 213.0f * 10) / 256);
	CHECK(out[3] == 15);
	CHECK(out[4] == 4690.0f / 256);
	int bad = 0; /* the rest by the same rule */
	for (int i = 0; i < 32; i++) {
		float x = fmaf((float)i, 1.0f / 3, 0.0f), xb = x - 0.5f, f = floorf(xb);
		int i0 = (int)f;
		unsigned a = (unsigned)floorf((xb - f) * 256 + 0.5f);
		float t0 = i0 >= 0 && i0 < 4 ? 10.0f * (i0 + 1) : 100;
		float t1 = i0 + 1 >= 0 && i0 + 1 < 4 ? 10.0f * (i0 + 2) : 100;
		bad += out[i] != (float)(((256 - a) * (double)t0 + a * (double)t1) / 256);
	}
	CHECK_EQ(bad, 0);
}

/* ---- tex3D over 2 x 2 x 2 texels of x + 2y + 4z at (1, 1, i/4), trilinear */

static void build_3d(struct tx_case *c)
{
	fx_geometry(&c->l, "tex3d_sample", 1, 1, 8, 1);
	struct gl_tex_object *o = tx_object(c, 9, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 1, 2, 2);
	o->res.depth = 2;
	o->sampler.filter = GL_TEXFILTER_LINEAR;
	o->sampler.address[0] = o->sampler.address[1] = o->sampler.address[2] = GL_TEXADDR_CLAMP;
	float *t = tx_texels(c);
	for (int i = 0; i < 8; i++)
		t[i] = (float)i;
	gl_launch_arg_scalar(&c->l, 9, 8);
	fx_buffer(&c->l, "out", GL_F32, 8);
	gl_launch_arg_scalar(&c->l, fx_bits(1.0f), 4);
	gl_launch_arg_scalar(&c->l, fx_bits(1.0f), 4);
	gl_launch_arg_scalar(&c->l, fx_bits(0.25f), 4);
}

static void check_3d(struct tx_case *c)
{
	const float *out = c->l.buffers[0].host;
	int bad = 0;
	for (int i = 0; i < 8; i++) /* x and y halfway: 0.5 + 2 x 0.5; z = i/4 - 0.5 held to [0, 1] */
		bad += out[i] != 1.5f + 4 * clampf(i * 0.25f - 0.5f, 0, 1);
	CHECK_EQ(bad, 0);
}

/* ---- layers: 1D layered (10 L + x, 4 x 3) and 2D layered (100 L + 10 y + x, 2 x 2 x 3) */

static void build_layered(struct tx_case *c)
{
	fx_geometry(&c->l, "tex_layered", 1, 1, 4, 1);
	struct gl_tex_object *o = tx_object(c, 1, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 1, 4, 0);
	o->res.layers = 3;
	float *t = tx_texels(c);
	for (int i = 0; i < 12; i++)
		t[i] = (float)(10 * (i / 4) + i % 4);
	o = tx_object(c, 2, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 1, 2, 2);
	o->res.layers = 3;
	o->sampler.address[0] = o->sampler.address[1] = GL_TEXADDR_CLAMP;
	t = tx_texels(c);
	for (int i = 0; i < 12; i++)
		t[i] = (float)(100 * (i / 4) + 10 * (i / 2 % 2) + i % 2);
	gl_launch_arg_scalar(&c->l, 1, 8);
	gl_launch_arg_scalar(&c->l, 2, 8);
	fx_buffer(&c->l, "out", GL_F32, 8);
	gl_launch_arg_scalar(&c->l, fx_bits(2.5f), 4);
	gl_launch_arg_scalar(&c->l, fx_bits(1.5f), 4);
}

static void check_layered(struct tx_case *c)
{
	const float *out = c->l.buffers[0].host;
	for (int i = 0; i < 4; i++) {
		int layer = i < 3 ? i : 2; /* layer 3 is past the end: the last */
		CHECK(out[2 * i] == 10 * layer + 2);
		CHECK(out[2 * i + 1] == 100 * layer + 11); /* x 2.5 clamps to texel 1 */
	}
}

/* ---- a cubemap of 2 x 2 faces holding 100 face + 10 y + x */

static void build_cube(struct tx_case *c)
{
	fx_geometry(&c->l, "tex_cube", 1, 1, 7, 1);
	struct gl_tex_object *o = tx_object(c, 4, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 1, 2, 2);
	o->res.layers = 6, o->res.cubemap = true;
	o->sampler.address[0] = o->sampler.address[1] = GL_TEXADDR_CLAMP;
	float *t = tx_texels(c);
	for (int i = 0; i < 24; i++)
		t[i] = (float)(100 * (i / 4) + 10 * (i / 2 % 2) + i % 2);
	gl_launch_arg_scalar(&c->l, 4, 8);
	float *d = fx_buffer(&c->l, "dirs", GL_F32, 21);
	static const float dirs[21] = {1, 0, 0, 1, -0.9f, -0.9f, -1, 0.9f, 0.9f, 0.1f, 0.2f, -1, 0.5f, 1, 0.2f,
				       0.5f, -1, 0.2f, 1, 1, 1};
	memcpy(d, dirs, sizeof dirs);
	fx_buffer(&c->l, "out", GL_F32, 7);
}

static void check_cube(struct tx_case *c)
{
	const float *out = c->l.buffers[1].host;
	static const float want[7] = {11, 11, 101, 500, 211, 301, 401}; /* as test_sim_tex_rules works them out */
	for (int i = 0; i < 7; i++)
		CHECK(out[i] == want[i]);
}

/* ---- tex2Dgather: channel k of texel (x, y) holds 100 k + 10 y + x, 3 x 2 texels */

static void build_gather(struct tx_case *c)
{
	fx_geometry(&c->l, "tex_gather", 1, 1, 1, 1);
	tx_object(c, 8, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 4, 3, 2);
	float *t = tx_texels(c);
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < 3; x++)
			for (int k = 0; k < 4; k++)
				t[4 * (3 * y + x) + k] = (float)(100 * k + 10 * y + x);
	gl_launch_arg_scalar(&c->l, 8, 8);
	fx_buffer(&c->l, "out", GL_F32, 16);
	gl_launch_arg_scalar(&c->l, fx_bits(1.25f), 4);
	gl_launch_arg_scalar(&c->l, fx_bits(0.75f), 4);
}

static void check_gather(struct tx_case *c)
{
	const float *out = c->l.buffers[0].host;
	for (int k = 0; k < 4; k++) { /* (0, 1), (1, 1), (1, 0), (0, 0): counter-clockwise from the lower left */
		CHECK(out[4 * k] == 100 * k + 10);
		CHECK(out[4 * k + 1] == 100 * k + 11);
		CHECK(out[4 * k + 2] == 100 * k + 1);
		CHECK(out[4 * k + 3] == 100 * k);
	}
	CHECK_EQ(fx_metric(&c->res, "smsp__inst_executed_op_texture.sum"), 4); /* TLD4: texture instructions */
	CHECK_EQ(fx_metric(&c->res, "l1tex__t_requests_pipe_tex_mem_texture.sum"), 4);
}

/* ---- one u8x4 array read as elements and as normalised floats */

static void build_uchar4(struct tx_case *c)
{
	fx_geometry(&c->l, "tex_uchar4", 1, 1, 4, 1);
	tx_object(c, 11, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_U8, 4, 4, 0);
	uint8_t *t = tx_texels(c);
	for (int i = 0; i < 4; i++)
		t[4 * i] = (uint8_t)i, t[4 * i + 1] = (uint8_t)(2 * i + 1), t[4 * i + 2] = (uint8_t)(255 - i),
		t[4 * i + 3] = (uint8_t)(100 + i);
	struct gl_tex_object *o = tx_object(c, 12, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_U8, 4, 4, 0);
	o->sampler.read_normalized = true;
	o->res.data = t, o->res.bytes = 16; /* the same texels */
	c->nobj++;
	gl_launch_arg_scalar(&c->l, 11, 8);
	gl_launch_arg_scalar(&c->l, 12, 8);
	fx_buffer(&c->l, "ints", GL_U32, 16);
	fx_buffer(&c->l, "floats", GL_F32, 16);
}

static void check_uchar4(struct tx_case *c)
{
	const uint32_t *ints = c->l.buffers[0].host;
	const float *floats = c->l.buffers[1].host;
	for (int i = 0; i < 4; i++) {
		unsigned want[4] = {(unsigned)i, 2u * i + 1, 255u - i, 100u + i};
		for (int k = 0; k < 4; k++) {
			CHECK_EQ(ints[4 * i + k], want[k]);
			CHECK(floats[4 * i + k] == (float)want[k] / 255);
		}
	}
}

/* ---- tex2DLod, tex2DGrad and a residency-checked tex2D of a one-level texture of x + 10 y */

static void build_lod(struct tx_case *c)
{
	fx_geometry(&c->l, "tex_lod", 1, 1, 1, 1);
	tx_object(c, 13, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 1, 4, 4);
	float *t = tx_texels(c);
	for (int i = 0; i < 16; i++)
		t[i] = (float)(i % 4 + 10 * (i / 4));
	gl_launch_arg_scalar(&c->l, 13, 8);
	fx_buffer(&c->l, "out", GL_F32, 4);
	gl_launch_arg_scalar(&c->l, fx_bits(2.5f), 4);
	gl_launch_arg_scalar(&c->l, fx_bits(1.5f), 4);
}

static void check_lod(struct tx_case *c)
{
	const float *out = c->l.buffers[0].host;
	CHECK(out[0] == 12 && out[1] == 12 && out[2] == 12);
	CHECK(out[3] == 1); /* resident */
}

/* ---- txq and suq */

static void build_query(struct tx_case *c)
{
	fx_geometry(&c->l, "tex_query", 1, 1, 1, 1);
	struct gl_tex_object *o = tx_object(c, 21, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_U16, 2, 8, 4);
	o->sampler.read_normalized = true, o->sampler.filter = GL_TEXFILTER_LINEAR;
	o->sampler.normalized_coords = true, o->sampler.address[0] = GL_TEXADDR_MIRROR;
	tx_texels(c);
	o = tx_object(c, 22, GL_TEX_SURFACE, GL_TEXRES_PITCH2D, GL_TEXFMT_F32, 4, 5, 2);
	o->res.pitch = 128;
	tx_texels(c);
	gl_launch_arg_scalar(&c->l, 21, 8);
	gl_launch_arg_scalar(&c->l, 22, 8);
	fx_buffer(&c->l, "out", GL_I32, 9);
}

static void check_query(struct tx_case *c)
{
	const int32_t *out = c->l.buffers[0].host;
	static const int32_t want[9] = {8, 4, 0x10D3, 1, 1, 1, 5, 0x10B5, 1};
	for (int i = 0; i < 9; i++)
		CHECK_EQ(out[i], want[i]);
}

/* ---- invalid handles: none in the table, the other kind, a shape the geometry cannot read */

static uint64_t bad_handle;
static bool bad_memcheck = true;

static void build_bad(struct tx_case *c)
{
	fx_geometry(&c->l, "tex2d_sample", 1, 1, 4, 1);
	tx_object(c, 5, GL_TEX_TEXTURE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 4, 8, 0); /* 1D */
	tx_texels(c);
	tx_object(c, 6, GL_TEX_SURFACE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 4, 8, 8);
	tx_texels(c);
	gl_launch_arg_scalar(&c->l, bad_handle, 8);
	float *out = fx_buffer(&c->l, "out", GL_F32, 16);
	for (int i = 0; i < 16; i++)
		out[i] = -1; /* every lane's result is written: zeros */
	for (int k = 0; k < 4; k++)
		gl_launch_arg_scalar(&c->l, fx_bits(0.5f), 4);
}

static void check_bad(struct tx_case *c)
{
	const float *out = c->l.buffers[0].host;
	for (int i = 0; i < 16; i++)
		CHECK(out[i] == 0);
	const struct gl_finding *f = fx_finding(&c->res, "invalid-texture");
	if (!bad_memcheck) {
		CHECK(f == NULL);
		return;
	}
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ(f->count, 4);
	CHECK_EQ(c->res.nerrors, 4);
	const char *want = bad_handle == 99 ? "tex: no texture object of this launch has the handle 99"
			 : bad_handle == 6 ? "tex: handle 6 is a surface object, not a texture object"
					   : "tex.2d on texture 5, which is a 1D array";
	if (!strstr(f->message, want))
		fprintf(stderr, "message: %s\n", f->message);
	CHECK(strstr(f->message, want) != NULL);
}

static void test_invalid(void)
{
	bad_handle = 99;
	tx_both(build_bad, check_bad);
	bad_handle = 6;
	tx_both(build_bad, check_bad);
	bad_handle = 5;
	tx_both(build_bad, check_bad);
	struct tx_case c = {0}; /* without memcheck the lane still reads zero, and nothing is reported */
	build_bad(&c);
	c.l.textures = c.obj, c.l.ntextures = c.nobj;
	struct gl_sim_opts o = {.threads = 1, .tools = GL_TOOL_RACECHECK};
	c.rc = fx_run_opts(tx_module, &c.l, &c.res, &o);
	bad_memcheck = false;
	CHECK_EQ(c.rc, GL_OK);
	if (c.rc == GL_OK)
		check_bad(&c);
	bad_memcheck = true;
	tx_free(&c);
	/* a table the launch cannot take is a usage error before anything runs */
	build_bad(&c);
	c.obj[1].handle = 5;
	c.l.textures = c.obj, c.l.ntextures = c.nobj;
	struct gl_err err = {0};
	struct gl_sim_opts o2 = {.threads = 1};
	CHECK_EQ(gl_sim_run(tx_module, &c.l, &o2, &c.res, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "handle 5 is used by two objects") != NULL);
	c.rc = GL_EUSAGE;
	tx_free(&c);
}

int main(void)
{
	char cache[512];
	tx_setup(cache, sizeof cache);
	if (!tx_module)
		CHECK_DONE();
	test_2d();
	tx_both(build_fetch, check_fetch);
	tx_both(build_1d, check_1d);
	tx_both(build_3d, check_3d);
	tx_both(build_layered, check_layered);
	tx_both(build_cube, check_cube);
	tx_both(build_gather, check_gather);
	tx_both(build_uchar4, check_uchar4);
	tx_both(build_lod, check_lod);
	tx_both(build_query, check_query);
	test_invalid();
	tx_teardown(cache);
	CHECK_DONE();
}
