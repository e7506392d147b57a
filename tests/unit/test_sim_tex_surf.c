/* test_sim_tex_surf.c — surface loads, stores and reductions of CUDA kernels compiled by nvcc
 * (tests/fixtures/sim/tex.cu: surf2Dread/surf2Dwrite of float4, every boundary mode, byte vectors,
 * layered stores, sured through inline PTX) on both engines, with the findings of .trap and their
 * counts; and the texture and surface forms the front end refuses, each with its reason. */
#include "tests/unit/tex_fixture.h"

/* ---- surf2Dread<float4> / surf2Dwrite over 5 x 3 texels by an 8 x 4 block */

static void build_copy(struct tx_case *c)
{
	fx_geometry(&c->l, "surf_copy", 1, 1, 8, 4);
	tx_object(c, 1, GL_TEX_SURFACE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 4, 5, 3);
	float *src = tx_texels(c);
	for (int i = 0; i < 5 * 3 * 4; i++)
		src[i] = (float)i * 0.5f;
	struct gl_tex_object *o = tx_object(c, 2, GL_TEX_SURFACE, GL_TEXRES_PITCH2D, GL_TEXFMT_F32, 4, 5, 3);
	o->res.pitch = 96; /* 80 bytes of texels and 16 of padding per row */
	tx_texels(c);
	gl_launch_arg_scalar(&c->l, 1, 8);
	gl_launch_arg_scalar(&c->l, 2, 8);
	gl_launch_arg_scalar(&c->l, 5, 4);
	gl_launch_arg_scalar(&c->l, 3, 4);
}

static void check_copy(struct tx_case *c)
{
	const float *src = c->obj[0].res.data;
	const uint8_t *dst = c->obj[1].res.data;
	for (int y = 0; y < 3; y++) {
		CHECK(memcmp(dst + 96 * y, src + 20 * y, 80) == 0);
		for (int k = 80; k < 96; k++)
			CHECK_EQ(dst[96 * y + k], 0); /* the padding is not written */
	}
	CHECK_EQ(c->res.findings_total, 0);
	/* one warp: one SULD and one SUST, one request each */
	CHECK_EQ(fx_metric(&c->res, "smsp__inst_executed_op_surface_ld.sum"), 1);
	CHECK_EQ(fx_metric(&c->res, "l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum"), 1);
	CHECK_EQ(fx_metric(&c->res, "smsp__inst_executed_op_surface_st.sum"), 1);
	CHECK_EQ(fx_metric(&c->res, "l1tex__t_requests_pipe_tex_mem_surface_op_st.sum"), 1);
	CHECK_EQ(fx_metric(&c->res, "smsp__inst_executed_op_texture.sum"), -1);
}

/* ---- an int surface of 4 x 3 holding 10 y + x + 1, read at (i - 2, 1) under clamp and zero, written
 * at (i - 2, 2) under zero by 8 threads */

static void build_modes(struct tx_case *c)
{
	fx_geometry(&c->l, "surf_modes", 1, 1, 8, 1);
	tx_object(c, 3, GL_TEX_SURFACE, GL_TEXRES_ARRAY, GL_TEXFMT_S32, 1, 4, 3);
	int32_t *t = tx_texels(c);
	for (int i = 0; i < 12; i++)
		t[i] = 10 * (i / 4) + i % 4 + 1;
	gl_launch_arg_scalar(&c->l, 3, 8);
	fx_buffer(&c->l, "out", GL_I32, 16);
	gl_launch_arg_scalar(&c->l, (uint32_t)-2, 4);
	gl_launch_arg_scalar(&c->l, 1, 4);
}

static void check_modes(struct tx_case *c)
{
	const int32_t *out = c->l.buffers[0].host, *t = c->obj[0].res.data;
	for (int i = 0; i < 8; i++) {
		int x = i - 2, cx = x < 0 ? 0 : x > 3 ? 3 : x;
		CHECK_EQ(out[2 * i], 10 + cx + 1);                          /* .clamp: the nearest texel */
		CHECK_EQ(out[2 * i + 1], x >= 0 && x < 4 ? 10 + x + 1 : 0); /* .zero: zero outside */
	}
	for (int x = 0; x < 4; x++)
		CHECK_EQ(t[8 + x], 1000 + x + 2); /* .zero drops the stores outside; row 2 holds the others */
	CHECK_EQ(t[4], 11);
	CHECK_EQ(c->res.findings_total, 0);
}

/* ---- .trap: lanes 2 and 3 read past a 1D surface of 4 ints */

static void build_trap(struct tx_case *c)
{
	fx_geometry(&c->l, "surf_trap", 1, 1, 4, 1);
	tx_object(c, 4, GL_TEX_SURFACE, GL_TEXRES_LINEAR, GL_TEXFMT_S32, 1, 4, 0);
	int32_t *t = tx_texels(c);
	for (int i = 0; i < 4; i++)
		t[i] = 7 * (i + 1);
	gl_launch_arg_scalar(&c->l, 4, 8);
	int32_t *out = fx_buffer(&c->l, "out", GL_I32, 4);
	out[2] = out[3] = -1;
	gl_launch_arg_scalar(&c->l, 2, 4);
}

static void check_trap(struct tx_case *c)
{
	const int32_t *out = c->l.buffers[0].host;
	CHECK(out[0] == 21 && out[1] == 28 && out[2] == 0 && out[3] == 0);
	const struct gl_finding *f = fx_finding(&c->res, "out-of-bounds");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_STR(f->space, "surface");
	CHECK_EQ(f->count, 2);
	CHECK_EQ(f->address, 16); /* lane 2's x in bytes */
	CHECK_EQ(f->size, 4);
	CHECK_EQ(f->thread[0], 2);
	CHECK(strstr(f->message, "surface read of 4 bytes at x = 16 bytes") != NULL);
	CHECK(strstr(f->message, "outside surface 4 (4 x 1 texels of 4 bytes): suld.trap traps there") != NULL);
	CHECK_EQ(c->res.nerrors, 2);
}

/* ---- byte vectors, layered stores and sured.add */

static void build_bytes(struct tx_case *c)
{
	fx_geometry(&c->l, "surf_bytes", 1, 1, 8, 1);
	tx_object(c, 5, GL_TEX_SURFACE, GL_TEXRES_ARRAY, GL_TEXFMT_U8, 4, 8, 0);
	uint8_t *rgba = tx_texels(c);
	for (int i = 0; i < 32; i++)
		rgba[i] = (uint8_t)(3 * i);
	struct gl_tex_object *o = tx_object(c, 6, GL_TEX_SURFACE, GL_TEXRES_ARRAY, GL_TEXFMT_F32, 1, 4, 1);
	o->res.layers = 2;
	tx_texels(c);
	tx_object(c, 7, GL_TEX_SURFACE, GL_TEXRES_LINEAR, GL_TEXFMT_U32, 1, 3, 0);
	uint32_t *counts = tx_texels(c);
	counts[2] = 40;
	gl_launch_arg_scalar(&c->l, 5, 8);
	gl_launch_arg_scalar(&c->l, 6, 8);
	gl_launch_arg_scalar(&c->l, 7, 8);
}

static void check_bytes(struct tx_case *c)
{
	const uint8_t *rgba = c->obj[0].res.data;
	const float *layers = c->obj[1].res.data;
	const uint32_t *counts = c->obj[2].res.data;
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < 4; k++)
			CHECK_EQ(rgba[4 * i + k], 3 * (4 * i + 3 - k)); /* reversed */
	for (int i = 0; i < 8; i++)
		CHECK(layers[i] == 10.0f * i); /* layer i / 4, texel i % 4 */
	CHECK(counts[0] == 3 && counts[1] == 3 && counts[2] == 42);
	CHECK_EQ(fx_metric(&c->res, "smsp__inst_executed_op_surface_ld.sum"), 1);
	CHECK_EQ(fx_metric(&c->res, "smsp__inst_executed_op_surface_st.sum"), 2);
	CHECK_EQ(fx_metric(&c->res, "smsp__inst_executed_op_surface_red.sum"), 1);
	CHECK_EQ(fx_metric(&c->res, "l1tex__t_requests_pipe_tex_mem_surface_op_red.sum"), 1);
	CHECK_EQ(c->res.findings_total, 0);
}

/* ---- PTX the front end refuses, and PTX it runs */

static const char *head = ".version 7.0\n.target sm_80\n.address_size 64\n"
			  ".visible .entry k(.param .u64 t, .param .u64 p)\n{\n"
			  "\t.reg .b32 %r<9>;\n\t.reg .f32 %f<9>;\n\t.reg .b64 %rd<3>;\n\t.reg .pred %p<2>;\n"
			  "\tld.param.u64 %rd1, [t];\n";

static void refused(const char *body, const char *want)
{
	char text[2048];
	snprintf(text, sizeof text, "%s%s\n\tret;\n}\n", head, body);
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	int rc = ptx_parse(text, "t.ptx", &m, &err);
	CHECK_EQ(rc, GL_EUSAGE);
	if (!strstr(err.msg, want))
		fprintf(stderr, "'%s': %s (want '%s')\n", body, err.msg, want);
	CHECK(strstr(err.msg, want) != NULL);
	ptx_module_free(m);
}

static void accepted(const char *body)
{
	char text[2048];
	snprintf(text, sizeof text, "%s%s\n\tret;\n}\n", head, body);
	struct ptx_module *m = fx_parse(text, "t.ptx");
	ptx_module_free(m);
}

static void test_front_end(void)
{
	refused("\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, {%f5, %f6}];", "independent texture mode");
	refused("\ttex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, %f5];", "explicit sampler operand");
	refused("\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], {%r1, %r2};", "offset or depth-compare");
	refused("\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];", "takes 2 coordinates");
	refused("\ttex.2d.v2.f16x2.f32 {%r1, %r2}, [%rd1, {%f5, %f6}];", "f16x2 texture results are not simulated");
	refused("\ttex.2dms.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %r6, %r7, %r8}];", "multi-sample");
	refused("\ttex.cube.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r5, %r6, %r7, %r8}];",
		"cubemap coordinates are .f32");
	refused("\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, {%f5, %f6}];", "texture references");
	refused("\ttxq.level.width.b32 %r1, [%rd1], %r2;", "txq.level is not simulated");
	refused("\ttxq.force_unnormalized_coords.b32 %r1, [%rd1];", "independent texture mode");
	refused("\tsuq.filter_mode.b32 %r1, [%rd1];", "not a surface query");
	refused("\tsured.p.add.1d.b32.trap [%rd1, {%r1}], %r2;", "sured.p (sample addressing) is not simulated");
	refused("\tsuld.b.2d.v4.b64.trap {%rd1, %rd2, %rd1, %rd2}, [%rd1, {%r1, %r2}];", "at most 16 bytes");
	refused("\tsuld.b.2d.v2.b32.trap {%r3}, [%rd1, {%r1, %r2}];", "loads 2 registers");
	refused("\tsuld.b.2d.b32.wrap %r3, [%rd1, {%r1, %r2}];", "unsupported modifier '.wrap'");
	refused("\ttld4.r.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f7, %f8}];", "tld4.{r,g,b,a}");
	accepted("\ttex.1d.v4.f32.f32 {%f1, _, _, _}, [%rd1, %f5];"); /* a scalar 1D coordinate, sinks */
	accepted("\ttex.2d.v4.s32.f32 {%r1, %r2, %r3, %r4}|%p1, [%rd1, {%f5, %f6}];");
	accepted("\ttex.grad.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f7, %f7}], {%f1, %f2, %f3, %f4}, "
		 "{%f1, %f2, %f3, %f4};");
	accepted("\tsust.p.2d.v4.b32.zero [%rd1, {%r1, %r2}], {%r3, %r4, %r5, %r6};");
	accepted("\tsured.b.max.2d.s64.clamp [%rd1, {%r1, %r2}], %rd2;");
	/* a module-scope texture reference fails the module with the reason */
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	CHECK_EQ(ptx_parse(".version 7.0\n.target sm_80\n.address_size 64\n.global .texref tr;\n", "r.ptx", &m, &err),
		 GL_EUSAGE);
	CHECK(strstr(err.msg, "'.texref' variables (texture references, removed in CUDA 12") != NULL);
	ptx_module_free(m);
}

int main(void)
{
	char cache[512];
	test_front_end();
	tx_setup(cache, sizeof cache);
	if (!tx_module)
		CHECK_DONE();
	tx_both(build_copy, check_copy);
	tx_both(build_modes, check_modes);
	tx_both(build_trap, check_trap);
	tx_both(build_bytes, check_bytes);
	tx_teardown(cache);
	CHECK_DONE();
}
