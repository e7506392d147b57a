/* launch_args_tex.c — `gpulab sim --arg tex:...` and `--arg surf:...`: a texture or surface object for a
 * .u64 parameter (cudaTextureObject_t, cudaSurfaceObject_t), whose texels are a buffer of the launch
 * (initialised and dumped like any buffer), described by common/texture.h and passed to the kernel as
 * its handle: 1, 2, ... in --arg order, as CUDA hands out small integers.
 *   tex:NAME:FORMAT:DIMS[:OPTIONS][:INIT]    surf:NAME:FORMAT:DIMS[:OPTIONS][:INIT]
 * FORMAT is a channel type and a count (f32, u8x4, i16x2), DIMS W, WxH or WxHxD, OPTIONS words separated
 * by commas (below), INIT as for buf: specs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/texture.h"
#include "common/util.h"
#include "toolchain/toolchain.h"

static const struct {
	const char *name;
	enum gl_dtype dtype;
	enum gl_tex_format format;
} formats[] = {
	{"u8", GL_U8, GL_TEXFMT_U8},    {"i8", GL_I8, GL_TEXFMT_S8},    {"u16", GL_U16, GL_TEXFMT_U16},
	{"i16", GL_I16, GL_TEXFMT_S16}, {"u32", GL_U32, GL_TEXFMT_U32}, {"i32", GL_I32, GL_TEXFMT_S32},
	{"f16", GL_F16, GL_TEXFMT_F16}, {"f32", GL_F32, GL_TEXFMT_F32},
};

/* The words OPTIONS takes; texture-only ones are refused for surfaces. */
#define TEX_OPTIONS "point, linear, clamp, wrap, mirror, border[=V], norm, readnorm, layers=N, cube, mem, pitch=BYTES"
#define SURF_OPTIONS "layers=N, cube, mem, pitch=BYTES"

/* FORMAT: TYPE or TYPExN, N 1, 2 or 4. */
static int parse_format(const char *spec, const char *text, struct gl_tex_resource *r, enum gl_dtype *dt,
			struct gl_err *err)
{
	const char *x = strchr(text, 'x');
	size_t n = x ? (size_t)(x - text) : strlen(text);
	r->channels = x ? (unsigned)atoi(x + 1) : 1;
	for (size_t i = 0; i < GL_ARRAY_LEN(formats); i++)
		if (strlen(formats[i].name) == n && strncmp(formats[i].name, text, n) == 0 &&
		    (!x || strcmp(x + 1, "1") == 0 || strcmp(x + 1, "2") == 0 || strcmp(x + 1, "4") == 0)) {
			r->format = formats[i].format;
			*dt = formats[i].dtype;
			return GL_OK;
		}
	return gl_errf(err, GL_EUSAGE, "--arg '%s': FORMAT '%s' is a channel type (u8, i8, u16, i16, u32, i32, f16, f32) "
		       "with an optional channel count x1, x2 or x4, such as f32x4", spec, text);
}

/* DIMS: W, WxH or WxHxD, each 1 to 65536. */
static int parse_dims(const char *spec, const char *text, uint64_t d[3], struct gl_err *err)
{
	d[0] = d[1] = d[2] = 0;
	char *end;
	const char *p = text;
	for (int k = 0; k < 3; k++) {
		unsigned long v = strtoul(p, &end, 10);
		if (end == p || v < 1 || v > 65536 || *p == '-' || *p == '+')
			break;
		d[k] = v;
		if (*end == '\0')
			return GL_OK;
		if (*end != 'x' || k == 2)
			break;
		p = end + 1;
	}
	return gl_errf(err, GL_EUSAGE, "--arg '%s': DIMS '%s' is W, WxH or WxHxD, each from 1 to 65536", spec, text);
}

/* One OPTIONS word. */
static int apply_option(const char *spec, const char *w, struct gl_tex_object *o, struct gl_err *err)
{
	struct gl_tex_sampler *s = &o->sampler;
	bool tex = o->kind == GL_TEX_TEXTURE;
	long v;
	static const struct {
		const char *name;
		enum gl_tex_address mode;
	} modes[] = {{"clamp", GL_TEXADDR_CLAMP}, {"wrap", GL_TEXADDR_WRAP}, {"mirror", GL_TEXADDR_MIRROR},
		     {"border", GL_TEXADDR_BORDER}};
	for (size_t i = 0; tex && i < GL_ARRAY_LEN(modes); i++)
		if (strcmp(w, modes[i].name) == 0 || (modes[i].mode == GL_TEXADDR_BORDER && strncmp(w, "border=", 7) == 0)) {
			s->address[0] = s->address[1] = s->address[2] = modes[i].mode;
			if (modes[i].mode == GL_TEXADDR_BORDER && w[6] == '=') { /* border=V: every channel V */
				char *end;
				float c = strtof(w + 7, &end);
				if (end == w + 7 || *end)
					break;
				s->border[0] = s->border[1] = s->border[2] = s->border[3] = c;
			}
			return GL_OK;
		}
	if (tex && (strcmp(w, "point") == 0 || strcmp(w, "linear") == 0))
		s->filter = w[0] == 'l' ? GL_TEXFILTER_LINEAR : GL_TEXFILTER_POINT;
	else if (tex && strcmp(w, "norm") == 0)
		s->normalized_coords = true;
	else if (tex && strcmp(w, "readnorm") == 0)
		s->read_normalized = true;
	else if (strcmp(w, "cube") == 0)
		o->res.cubemap = true;
	else if (strcmp(w, "mem") == 0)
		o->res.kind = GL_TEXRES_LINEAR;
	else if (strncmp(w, "layers=", 7) == 0 && gl_parse_long(w + 7, 1, 65536, "layers", &v, err) == GL_OK)
		o->res.layers = (uint64_t)v;
	else if (strncmp(w, "pitch=", 6) == 0 && gl_parse_long(w + 6, 1, 1L << 30, "pitch", &v, err) == GL_OK)
		o->res.kind = GL_TEXRES_PITCH2D, o->res.pitch = (uint64_t)v;
	else
		return gl_errf(err, GL_EUSAGE, "--arg '%s': unknown option '%s' (%s takes %s)", spec, w,
			       tex ? "a texture" : "a surface", tex ? TEX_OPTIONS : SURF_OPTIONS);
	return GL_OK;
}

static bool is_init(const char *field)
{
	static const char *const inits[] = {"zero", "seq", "rand", "const", "file"};
	for (size_t i = 0; i < GL_ARRAY_LEN(inits); i++) {
		size_t n = strlen(inits[i]);
		if (strncmp(field, inits[i], n) == 0 && (field[n] == '\0' || field[n] == ':'))
			return true;
	}
	return false;
}

/* The texels' buffer: rows of `pitch` bytes (a whole number of elements) for every row and layer. */
static int add_texels(struct gl_launch *l, const char *spec, const char *name, struct gl_tex_object *o, enum gl_dtype t,
		      const char *init, struct gl_err *err)
{
	struct gl_tex_resource *r = &o->res;
	uint64_t elem = gl_dtype_size(t), pitch = gl_tex_pitch(r);
	if (pitch % elem)
		return gl_errf(err, GL_EUSAGE, "--arg '%s': a pitch of %llu bytes is not a whole number of %llu-byte "
			       "channels", spec, (unsigned long long)pitch, (unsigned long long)elem);
	uint64_t rows = (r->height ? r->height : 1) * (r->depth ? r->depth : r->layers ? r->layers : 1);
	int b, rc = gl_simarg_add_buffer(l, spec, name, t, (long)(rows * pitch / elem), init, &b, err);
	if (rc)
		return rc;
	r->data = l->buffers[b].host;
	r->bytes = l->buffers[b].count * elem;
	return GL_OK;
}

int gl_simarg_texture(const struct ptx_function *fn, int i, const char *spec, struct gl_launch *l, struct gl_err *err)
{
	const struct ptx_param *p = &fn->params[i];
	bool tex = strncmp(spec, "tex:", 4) == 0;
	if (p->size != 8 || ptx_type_is_float(p->type))
		return gl_errf(err, GL_EUSAGE, "--arg %s: parameter %d (%s) of '%s' is not a 64-bit integer; a %s object "
			       "is passed as one", spec, i + 1, p->name, fn->name, tex ? "texture" : "surface");
	if (!l->textures)
		l->textures = gl_xcalloc(GL_MAX_ARGS, sizeof *l->textures);
	struct gl_tex_object *o = (struct gl_tex_object *)&l->textures[l->ntextures];
	*o = (struct gl_tex_object){.handle = (uint64_t)l->ntextures + 1, .kind = tex ? GL_TEX_TEXTURE : GL_TEX_SURFACE};
	o->sampler.address[0] = o->sampler.address[1] = o->sampler.address[2] = GL_TEXADDR_CLAMP;
	char *copy = gl_xstrdup(spec + (tex ? 4 : 5)), *field[6] = {0};
	int nf = 0;
	for (char *f = copy; f && nf < 6; nf++) { /* NAME, FORMAT, DIMS, then OPTIONS and/or INIT */
		field[nf] = f;
		char *colon = nf < 3 || !is_init(f) ? strchr(f, ':') : NULL;
		if (colon)
			*colon = '\0';
		f = colon ? colon + 1 : NULL;
	}
	enum gl_dtype t = GL_F32;
	uint64_t d[3];
	char *opts = field[3] && !is_init(field[3]) ? field[3] : NULL, *init = opts ? field[4] : field[3];
	int rc = nf < 3 ? gl_errf(err, GL_EUSAGE, "--arg '%s': a %s is %s:NAME:FORMAT:DIMS[:OPTIONS][:INIT]", spec,
				  tex ? "texture" : "surface", tex ? "tex" : "surf")
			: parse_format(spec, field[1], &o->res, &t, err);
	if (rc == GL_OK)
		rc = parse_dims(spec, field[2], d, err);
	if (rc == GL_OK && nf > (opts ? 5 : 4))
		rc = gl_errf(err, GL_EUSAGE, "--arg '%s': '%s' is neither OPTIONS nor an INIT", spec, field[opts ? 4 : 3]);
	char *save = NULL;
	for (char *w = opts ? strtok_r(opts, ",", &save) : NULL; rc == GL_OK && w; w = strtok_r(NULL, ",", &save))
		rc = apply_option(spec, w, o, err);
	if (rc == GL_OK) {
		o->res.width = d[0], o->res.height = d[1], o->res.depth = d[2];
		if (o->res.cubemap && !o->res.layers)
			o->res.layers = 6;
		if (o->res.cubemap && !o->res.height)
			o->res.height = o->res.width;
		rc = add_texels(l, spec, field[0], o, t, init, err);
	}
	if (rc == GL_OK && (rc = gl_tex_check(o, err)) != GL_OK) {
		char why[sizeof err->msg];
		snprintf(why, sizeof why, "%s", err->msg);
		gl_err_clear(err);
		rc = gl_errf(err, GL_EUSAGE, "--arg '%s': %s", spec, why);
	}
	if (rc == GL_OK) {
		l->ntextures++;
		gl_launch_arg_scalar(l, o->handle, 8);
	}
	free(copy);
	return rc;
}

void gl_simarg_free(struct gl_launch *l)
{
	free((void *)l->textures);
	l->textures = NULL;
	l->ntextures = 0;
}
