/* test_common_texture.c — the checks a texture/surface table passes before a launch reads it
 * (common/texture.h): shapes each resource kind may have, strides, data that holds every texel, the
 * filter rule, handles. */
#include <stdint.h>
#include <string.h>

#include "common/texture.h"
#include "tests/unit/check.h"

static uint8_t data[4096];

static struct gl_tex_object array2d(uint64_t handle, enum gl_tex_format f, unsigned ch, uint64_t w, uint64_t h)
{
	struct gl_tex_object o = {.handle = handle, .kind = GL_TEX_TEXTURE};
	o.res = (struct gl_tex_resource){.kind = GL_TEXRES_ARRAY, .format = f, .channels = ch, .width = w, .height = h,
					 .data = data, .bytes = sizeof data};
	return o;
}

static int check(const struct gl_tex_object *o, const char *want)
{
	struct gl_err err = {0};
	int rc = gl_tex_check(o, &err);
	if (want && !strstr(err.msg, want))
		fprintf(stderr, "message '%s' lacks '%s'\n", err.msg, want);
	CHECK(!want || strstr(err.msg, want));
	return rc;
}

static void test_sizes(void)
{
	CHECK_EQ(gl_tex_format_bytes(GL_TEXFMT_U8), 1);
	CHECK_EQ(gl_tex_format_bytes(GL_TEXFMT_S16), 2);
	CHECK_EQ(gl_tex_format_bytes(GL_TEXFMT_F16), 2);
	CHECK_EQ(gl_tex_format_bytes(GL_TEXFMT_F32), 4);
	struct gl_tex_object o = array2d(1, GL_TEXFMT_U16, 4, 10, 3);
	CHECK_EQ(gl_tex_texel_bytes(&o.res), 8);
	CHECK_EQ(gl_tex_pitch(&o.res), 80);  /* dense rows */
	CHECK_EQ(gl_tex_slice(&o.res), 240); /* three rows */
	o.res.pitch = 96;
	CHECK_EQ(gl_tex_slice(&o.res), 288);
	CHECK(!gl_tex_returns_float(&o));
	o.sampler.read_normalized = true;
	CHECK(gl_tex_returns_float(&o));
	o.res.format = GL_TEXFMT_U32; /* 32-bit integers are never normalised */
	CHECK(!gl_tex_returns_float(&o));
}

static void test_valid(void)
{
	struct gl_tex_object o = array2d(7, GL_TEXFMT_F32, 1, 32, 32); /* exactly 4096 bytes */
	CHECK_EQ(check(&o, NULL), GL_OK);
	o.res.height = 0; /* 1D */
	CHECK_EQ(check(&o, NULL), GL_OK);
	o.res.height = 4, o.res.layers = 3; /* layered 2D: 3 x 4 x 32 x 4 bytes */
	CHECK_EQ(check(&o, NULL), GL_OK);
	o = array2d(7, GL_TEXFMT_U8, 4, 8, 8);
	o.res.layers = 12, o.res.cubemap = true; /* two cubemaps: 12 x 256 bytes */
	CHECK_EQ(check(&o, NULL), GL_OK);
	o = array2d(7, GL_TEXFMT_F32, 4, 4, 4);
	o.res.depth = 4; /* 3D: 4 x 4 x 4 x 16 bytes */
	o.sampler.filter = GL_TEXFILTER_LINEAR;
	CHECK_EQ(check(&o, NULL), GL_OK);
	o = array2d(7, GL_TEXFMT_U8, 1, 100, 0);
	o.res.kind = GL_TEXRES_LINEAR;
	o.sampler.filter = GL_TEXFILTER_LINEAR; /* ignored for linear memory, as CUDA ignores it */
	CHECK_EQ(check(&o, NULL), GL_OK);
	o = array2d(7, GL_TEXFMT_S16, 2, 10, 20);
	o.res.kind = GL_TEXRES_PITCH2D, o.res.pitch = 64; /* last row: 19 x 64 + 40 = 1256 bytes */
	o.kind = GL_TEX_SURFACE;
	CHECK_EQ(check(&o, NULL), GL_OK);
}

static void test_refused(void)
{
	struct gl_tex_object o = array2d(0, GL_TEXFMT_F32, 1, 4, 4);
	CHECK_EQ(check(&o, "handle 0"), GL_EUSAGE);
	o = array2d(3, GL_TEXFMT_F32, 3, 4, 4);
	CHECK_EQ(check(&o, "3 channels"), GL_EUSAGE);
	o = array2d(3, GL_TEXFMT_F32, 1, 0, 4);
	CHECK_EQ(check(&o, "width must be at least 1"), GL_EUSAGE);
	o = array2d(3, GL_TEXFMT_F32, 1, 33, 32); /* 4224 bytes > 4096 */
	CHECK_EQ(check(&o, "need 4224 bytes but its data has 4096"), GL_EUSAGE);
	o.res.data = NULL;
	CHECK_EQ(check(&o, "missing"), GL_EUSAGE);
	o = array2d(3, GL_TEXFMT_F32, 1, 8, 4);
	o.res.pitch = 16; /* a row is 32 bytes */
	CHECK_EQ(check(&o, "pitch of 16 bytes is less than a row"), GL_EUSAGE);
	o.res.pitch = 0, o.res.slice = 64, o.res.layers = 2; /* a slice holds 4 rows of 32 */
	CHECK_EQ(check(&o, "slice of 64 bytes"), GL_EUSAGE);
	o = array2d(3, GL_TEXFMT_F32, 1, 8, 4);
	o.res.kind = GL_TEXRES_LINEAR;
	CHECK_EQ(check(&o, "linear memory is one row"), GL_EUSAGE);
	o.res.kind = GL_TEXRES_PITCH2D, o.res.height = 0;
	CHECK_EQ(check(&o, "height of at least 1"), GL_EUSAGE);
	o = array2d(3, GL_TEXFMT_F32, 1, 8, 4);
	o.res.cubemap = true, o.res.layers = 6;
	CHECK_EQ(check(&o, "square"), GL_EUSAGE);
	o.res.height = 8, o.res.layers = 7;
	CHECK_EQ(check(&o, "multiple of 6"), GL_EUSAGE);
	o = array2d(3, GL_TEXFMT_F32, 1, 4, 4);
	o.res.depth = 2, o.res.layers = 2;
	CHECK_EQ(check(&o, "3D array"), GL_EUSAGE);
	o = array2d(3, GL_TEXFMT_U8, 1, 4, 4);
	o.sampler.filter = GL_TEXFILTER_LINEAR; /* integers read as integers cannot be filtered */
	CHECK_EQ(check(&o, "linear filtering of u8"), GL_EUSAGE);
	o.sampler.read_normalized = true;
	CHECK_EQ(check(&o, NULL), GL_OK);
	o.sampler.address[1] = (enum gl_tex_address)9;
	CHECK_EQ(check(&o, "address mode 9 of dimension 1"), GL_EUSAGE);
	o.kind = GL_TEX_SURFACE; /* a surface has no sampler */
	CHECK_EQ(check(&o, NULL), GL_OK);
}

static void test_table(void)
{
	struct gl_tex_object t[3] = {array2d(1, GL_TEXFMT_F32, 1, 4, 4), array2d(2, GL_TEXFMT_F32, 1, 4, 4),
				     array2d(1, GL_TEXFMT_F32, 1, 4, 4)};
	struct gl_err err = {0};
	CHECK_EQ(gl_tex_check_table(t, 2, &err), GL_OK);
	CHECK_EQ(gl_tex_check_table(t, 3, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "handle 1 is used by two objects") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(gl_tex_check_table(NULL, 0, &err), GL_OK);
	CHECK_EQ(gl_tex_check_table(NULL, 2, &err), GL_EUSAGE);
}

int main(void)
{
	test_sizes();
	test_valid();
	test_refused();
	test_table();
	CHECK_DONE();
}
