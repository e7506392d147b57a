/* launch_args.c — `gpulab sim --arg SPEC`: scalars and buffers (with their initial contents) in .param
 * order, checked against the kernel's parameter list with messages that name the parameter (textures
 * and surfaces: launch_args_tex.c); and `--dump NAME=PATH`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/util.h"
#include "sim/sim.h"
#include "toolchain/toolchain.h"

#define MAX_BUFFER_BYTES (4ull << 30)

enum scalar_class { SC_SIGNED, SC_UNSIGNED, SC_FLOAT };

static const struct {
	const char *name;
	unsigned size;
	enum scalar_class cls;
} scalars[] = {
	{"i32", 4, SC_SIGNED}, {"u32", 4, SC_UNSIGNED}, {"i64", 8, SC_SIGNED},
	{"u64", 8, SC_UNSIGNED}, {"f32", 4, SC_FLOAT}, {"f64", 8, SC_FLOAT},
};

uint64_t gl_simarg_splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static const char *ptx_type_text(enum ptx_type t)
{
	static const char *const names[] = {
		[PT_NONE] = "?", [PT_PRED] = ".pred", [PT_B8] = ".b8", [PT_B16] = ".b16", [PT_B32] = ".b32",
		[PT_B64] = ".b64", [PT_B128] = ".b128", [PT_U8] = ".u8", [PT_U16] = ".u16", [PT_U32] = ".u32",
		[PT_U64] = ".u64", [PT_S8] = ".s8", [PT_S16] = ".s16", [PT_S32] = ".s32", [PT_S64] = ".s64",
		[PT_F16] = ".f16", [PT_F16X2] = ".f16x2", [PT_BF16] = ".bf16", [PT_BF16X2] = ".bf16x2",
		[PT_TF32] = ".tf32", [PT_F32] = ".f32", [PT_F64] = ".f64",
	};
	return (unsigned)t < GL_ARRAY_LEN(names) && names[t] ? names[t] : "?";
}

/* "parameter 2 (_Z5saxpyifPfS__param_1, .f32)" */
static void param_text(const struct ptx_function *fn, int i, char *buf, size_t n)
{
	const struct ptx_param *p = &fn->params[i];
	if (p->is_array)
		snprintf(buf, n, "parameter %d (%s, a %u-byte .b8 array)", i + 1, p->name, p->size);
	else
		snprintf(buf, n, "parameter %d (%s, %s)", i + 1, p->name, ptx_type_text(p->type));
}

static void param_list(const struct ptx_function *fn, struct gl_str *s)
{
	for (int i = 0; i < fn->nparams; i++) {
		const struct ptx_param *p = &fn->params[i];
		gl_str_addf(s, "%s%s", i ? ", " : "", p->is_array ? ".b8[]" : ptx_type_text(p->type));
		if (!p->is_array && p->size == 8 && !ptx_type_is_float(p->type))
			gl_str_add(s, " (pointer or 64-bit integer)");
	}
	if (!fn->nparams)
		gl_str_add(s, "none");
}

static int parse_int_value(const char *text, enum scalar_class cls, unsigned size, const char *what, uint64_t *out,
			   struct gl_err *err)
{
	char *end;
	errno = 0;
	if (cls == SC_UNSIGNED) {
		if (strchr(text, '-'))
			return gl_errf(err, GL_EUSAGE, "%s: '%s' is negative; use an i32:/i64: argument", what, text);
		unsigned long long v = strtoull(text, &end, 0);
		if (*text && !*end && errno == ERANGE)
			return gl_errf(err, GL_EUSAGE, "%s: %s does not fit in 64 bits", what, text);
		if (!*text || *end || errno)
			return gl_errf(err, GL_EUSAGE, "%s: '%s' is not an unsigned integer", what, text);
		if (size == 4 && v > 0xffffffffull)
			return gl_errf(err, GL_EUSAGE, "%s: %s does not fit in 32 bits (use u64:)", what, text);
		*out = v;
		return GL_OK;
	}
	long long v = strtoll(text, &end, 0);
	if (*text && !*end && errno == ERANGE)
		return gl_errf(err, GL_EUSAGE, "%s: %s does not fit in 64 bits", what, text);
	if (!*text || *end || errno)
		return gl_errf(err, GL_EUSAGE, "%s: '%s' is not an integer", what, text);
	if (size == 4 && (v < INT32_MIN || v > INT32_MAX))
		return gl_errf(err, GL_EUSAGE, "%s: %s does not fit in 32 bits (use i64:)", what, text);
	*out = size == 4 ? (uint32_t)(int32_t)v : (uint64_t)v;
	return GL_OK;
}

/* A finite value that rounds to infinity (or a non-zero one that rounds to zero) in the target type would
 * silently become another number; "inf" and "nan" written as such are kept. */
static int check_float_range(const char *text, double v, double rounded, const char *type, const char *what,
			     struct gl_err *err)
{
	if (isfinite(v) && !isfinite(rounded))
		return gl_errf(err, GL_EUSAGE, "%s: %s is out of the range of %s (it would become infinity)", what, text,
			       type);
	if (v != 0 && rounded == 0)
		return gl_errf(err, GL_EUSAGE, "%s: %s is too small for %s (it would become 0)", what, text, type);
	return GL_OK;
}

static int parse_float_value(const char *text, unsigned size, const char *what, uint64_t *out, struct gl_err *err)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (!*text || *end)
		return gl_errf(err, GL_EUSAGE, "%s: '%s' is not a number", what, text);
	if (errno == ERANGE && isinf(v))
		return gl_errf(err, GL_EUSAGE, "%s: %s is out of the range of f64 (it would become infinity)", what, text);
	if (errno == ERANGE && v == 0)
		return gl_errf(err, GL_EUSAGE, "%s: %s is too small for f64 (it would become 0)", what, text);
	if (size == 4 && check_float_range(text, v, (float)v, "f32", what, err))
		return err->status;
	*out = size == 4 ? sim_f32_bits((float)v) : sim_f64_bits(v);
	return GL_OK;
}

/* A scalar spec against a non-array parameter: size and kind must fit. */
static int check_scalar(const struct ptx_function *fn, int i, const char *spec, unsigned size, enum scalar_class cls,
			struct gl_err *err)
{
	const struct ptx_param *p = &fn->params[i];
	char ptext[256];
	param_text(fn, i, ptext, sizeof ptext);
	bool pfloat = ptx_type_is_float(p->type);
	if (pfloat && cls != SC_FLOAT)
		return gl_errf(err, GL_EUSAGE, "--arg %s: %s of '%s' is a floating-point value: pass f%u:V", spec, ptext,
			       fn->name, p->size * 8);
	if (!pfloat && cls == SC_FLOAT && p->type != PT_B32 && p->type != PT_B64)
		return gl_errf(err, GL_EUSAGE, "--arg %s: %s of '%s' is an integer: pass i%u:V or u%u:V", spec, ptext,
			       fn->name, p->size < 4 ? 32 : p->size * 8, p->size < 4 ? 32 : p->size * 8);
	if (size == p->size || (cls != SC_FLOAT && p->size < 4 && size == 4))
		return GL_OK;
	if (p->size == 8)
		return gl_errf(err, GL_EUSAGE, "--arg %s: %s of '%s' takes 8 bytes (a pointer or a 64-bit value): pass "
			       "buf:NAME:DTYPE:COUNT for a pointer, or i64:/u64:/f64:", spec, ptext, fn->name);
	return gl_errf(err, GL_EUSAGE, "--arg %s: %s of '%s' takes %u bytes but a %u-byte value was given: pass "
		       "%s%u:V", spec, ptext, fn->name, p->size, size, cls == SC_FLOAT ? "f" : "i", p->size * 8);
}

static int build_scalar(const struct ptx_function *fn, int i, const char *spec, struct gl_launch *l,
			struct gl_err *err)
{
	const char *colon = strchr(spec, ':');
	size_t k = 0;
	for (; k < GL_ARRAY_LEN(scalars); k++)
		if (colon && (size_t)(colon - spec) == strlen(scalars[k].name) &&
		    strncmp(spec, scalars[k].name, (size_t)(colon - spec)) == 0)
			break;
	if (k == GL_ARRAY_LEN(scalars))
		return gl_errf(err, GL_EUSAGE, "--arg '%s': expected i32:V, u32:V, i64:V, u64:V, f32:V, f64:V or "
			       "buf:NAME:DTYPE:COUNT[:INIT]", spec);
	unsigned size = scalars[k].size;
	enum scalar_class cls = scalars[k].cls;
	int rc = check_scalar(fn, i, spec, size, cls, err);
	if (rc)
		return rc;
	char what[96];
	snprintf(what, sizeof what, "--arg %s", spec);
	uint64_t bits;
	rc = cls == SC_FLOAT ? parse_float_value(colon + 1, size, what, &bits, err)
			     : parse_int_value(colon + 1, cls, size, what, &bits, err);
	if (rc)
		return rc;
	unsigned psize = fn->params[i].size;
	if (psize < size) { /* an 8- or 16-bit parameter from an i32/u32 */
		int64_t v = cls == SC_SIGNED ? (int32_t)bits : (int64_t)(uint32_t)bits;
		int64_t lo = cls == SC_SIGNED ? -(1ll << (8 * psize - 1)) : 0;
		int64_t hi = cls == SC_SIGNED ? (1ll << (8 * psize - 1)) - 1 : (1ll << (8 * psize)) - 1;
		if (v < lo || v > hi)
			return gl_errf(err, GL_EUSAGE, "--arg %s: parameter %d takes %u bytes and %lld does not fit", spec,
				       i + 1, psize, (long long)v);
		bits &= (1ull << (8 * psize)) - 1;
	}
	gl_launch_arg_scalar(l, bits, psize);
	return GL_OK;
}

/* Element i of a buffer from a double (floats) or an integer (integer types). */
static void store_value(void *host, enum gl_dtype t, size_t i, double f, uint64_t u)
{
	uint8_t *p = (uint8_t *)host + i * gl_dtype_size(t);
	uint64_t bits;
	switch (t) {
	case GL_F16: bits = sim_round_f16(f, SIM_RN); break;
	case GL_BF16: bits = sim_round_bf16(f, SIM_RN); break;
	case GL_F32: bits = sim_f32_bits((float)f); break;
	case GL_F64: bits = sim_f64_bits(f); break;
	default: bits = u; break;
	}
	memcpy(p, &bits, gl_dtype_size(t));
}

static bool dtype_is_float(enum gl_dtype t)
{
	return t == GL_F16 || t == GL_BF16 || t == GL_F32 || t == GL_F64;
}

static bool dtype_is_signed(enum gl_dtype t)
{
	return t == GL_I8 || t == GL_I16 || t == GL_I32 || t == GL_I64;
}

/* The value an element of a buffer of that type takes from const:V, refused when it would not be V:
 * integers must fit the type (no truncation of 99999999999999 into an i32), floats must not overflow
 * to infinity or underflow to zero in the type (f16's largest finite value is 65504). */
static int const_value(const struct gl_buffer *b, const char *text, double *f, uint64_t *bits, struct gl_err *err)
{
	char what[96];
	unsigned size = (unsigned)gl_dtype_size(b->dtype);
	snprintf(what, sizeof what, "buffer '%s' const", b->name);
	if (dtype_is_float(b->dtype)) {
		if (parse_float_value(text, 8, what, bits, err))
			return err->status;
		*f = sim_f64(*bits);
		double rounded = b->dtype == GL_F16    ? (double)sim_f16_to_f32(sim_round_f16(*f, SIM_RN))
				 : b->dtype == GL_BF16 ? (double)sim_bf16_to_f32(sim_round_bf16(*f, SIM_RN))
				 : b->dtype == GL_F32  ? (double)(float)*f
						       : *f;
		return check_float_range(text, *f, rounded, gl_dtype_name(b->dtype), what, err);
	}
	bool sgn = dtype_is_signed(b->dtype);
	if (parse_int_value(text, sgn ? SC_SIGNED : SC_UNSIGNED, 8, what, bits, err))
		return err->status;
	if (size == 8)
		return GL_OK;
	int64_t v = (int64_t)*bits;
	int64_t lo = sgn ? -(1ll << (8 * size - 1)) : 0;
	int64_t hi = sgn ? (1ll << (8 * size - 1)) - 1 : (1ll << (8 * size)) - 1;
	if (!sgn && *bits > (uint64_t)hi)
		v = hi + 1; /* beyond int64_t: out of range either way */
	if (v < lo || v > hi)
		return gl_errf(err, GL_EUSAGE, "%s: %s does not fit in %s (%lld to %lld)", what, text,
			       gl_dtype_name(b->dtype), (long long)lo, (long long)hi);
	return GL_OK;
}

/* file:PATH must be a regular file of exactly the buffer's size. */
static int init_from_file(struct gl_buffer *b, const char *path, struct gl_err *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return gl_errf(err, GL_EUSAGE, "buffer '%s': cannot read '%s': %s", b->name, path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return gl_errf(err, GL_EUSAGE, "buffer '%s': '%s' is a directory; file:PATH needs a file of raw "
			       "little-endian values", b->name, path);
	if (!S_ISREG(st.st_mode))
		return gl_errf(err, GL_EUSAGE, "buffer '%s': '%s' is not a regular file (%s); file:PATH needs a file of "
			       "raw little-endian values", b->name, path,
			       S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ? "a block device"
			       : S_ISFIFO(st.st_mode) ? "a pipe" : S_ISSOCK(st.st_mode) ? "a socket" : "not a plain file");
	FILE *f = fopen(path, "rb");
	if (!f)
		return gl_errf(err, GL_EUSAGE, "buffer '%s': cannot read '%s': %s", b->name, path, strerror(errno));
	size_t want = b->count * gl_dtype_size(b->dtype);
	size_t got = fread(b->host, 1, want, f);
	int read_errno = ferror(f) ? errno : 0;
	long size = (fseek(f, 0, SEEK_END) == 0) ? ftell(f) : -1;
	fclose(f);
	if (read_errno)
		return gl_errf(err, GL_EUSAGE, "buffer '%s': error reading '%s': %s", b->name, path, strerror(read_errno));
	if (got != want || size != (long)want)
		return gl_errf(err, GL_EUSAGE, "buffer '%s': '%s' has %ld bytes but %zu x %s needs exactly %zu bytes",
			       b->name, path, size, b->count, gl_dtype_name(b->dtype), want);
	return GL_OK;
}

static int init_buffer(struct gl_buffer *b, const char *init, struct gl_err *err)
{
	if (!init || strcmp(init, "zero") == 0)
		return GL_OK; /* gl_launch_add_buffer zeroes */
	if (strcmp(init, "seq") == 0) {
		for (size_t i = 0; i < b->count; i++)
			store_value(b->host, b->dtype, i, (double)i, (uint64_t)i);
		return GL_OK;
	}
	if (strcmp(init, "rand") == 0 || strncmp(init, "rand:", 5) == 0) {
		long seed = 1;
		if (init[4] && gl_parse_long(init + 5, 0, (1L << 62), "rand seed", &seed, err))
			return err->status;
		uint64_t state = (uint64_t)seed;
		for (size_t i = 0; i < b->count; i++) {
			uint64_t z = gl_simarg_splitmix(&state);
			store_value(b->host, b->dtype, i, (double)(z >> 40) * 0x1p-24, z % 100);
		}
		return GL_OK;
	}
	if (strncmp(init, "const:", 6) == 0) {
		uint64_t bits = 0;
		double f = 0;
		int rc = const_value(b, init + 6, &f, &bits, err);
		for (size_t i = 0; rc == GL_OK && i < b->count; i++)
			store_value(b->host, b->dtype, i, f, bits);
		return rc;
	}
	if (strncmp(init, "file:", 5) == 0)
		return init_from_file(b, init + 5, err);
	return gl_errf(err, GL_EUSAGE, "buffer '%s': unknown INIT '%s' (zero, seq, rand[:SEED], const:V or file:PATH)",
		       b->name, init);
}

static bool valid_name(const char *s, size_t n)
{
	if (n == 0 || n >= sizeof((struct gl_buffer *)0)->name)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '_' || s[i] == '-' || s[i] == '.' || (s[i] >= '0' && s[i] <= '9') ||
		      ((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z')))
			return false;
	return true;
}

int gl_simarg_add_buffer(struct gl_launch *l, const char *spec, const char *name, enum gl_dtype t, long n,
			 const char *init, int *index, struct gl_err *err)
{
	int rc = GL_OK;
	if (!valid_name(name, strlen(name)))
		rc = gl_errf(err, GL_EUSAGE, "--arg '%s': buffer name '%s' must be 1-31 letters, digits, '_', '-' or '.'",
			     spec, name);
	else if ((uint64_t)n * gl_dtype_size(t) > MAX_BUFFER_BYTES)
		rc = gl_errf(err, GL_EUSAGE, "--arg '%s': %ld x %s is more than the simulator's %llu GiB per buffer", spec,
			     n, gl_dtype_name(t), MAX_BUFFER_BYTES >> 30);
	else if (l->nbuffers >= GL_MAX_BUFFERS)
		rc = gl_errf(err, GL_EUSAGE, "--arg '%s': at most %d buffers", spec, GL_MAX_BUFFERS);
	for (int b = 0; rc == GL_OK && b < l->nbuffers; b++)
		if (strcmp(l->buffers[b].name, name) == 0)
			rc = gl_errf(err, GL_EUSAGE, "--arg '%s': there is already a buffer named '%s'", spec, name);
	if (rc)
		return rc;
	double bytes = (double)n * (double)gl_dtype_size(t);
	for (int k = 0; k < l->nbuffers; k++)
		bytes += (double)l->buffers[k].count * (double)gl_dtype_size(l->buffers[k].dtype);
	if ((rc = gl_check_host_memory("the buffers of this launch", bytes, err)))
		return rc;
	*index = gl_launch_add_buffer(l, name, t, (size_t)n, 1);
	rc = gl_launch_check(l, err);
	return rc == GL_OK ? init_buffer(&l->buffers[*index], init, err) : rc;
}

/* buf:NAME:DTYPE:COUNT[:INIT] */
static int build_buffer(const struct ptx_function *fn, int i, const char *spec, struct gl_launch *l,
			struct gl_err *err)
{
	const struct ptx_param *p = &fn->params[i];
	char ptext[256];
	param_text(fn, i, ptext, sizeof ptext);
	if (p->size != 8 || ptx_type_is_float(p->type))
		return gl_errf(err, GL_EUSAGE, "--arg %s: %s of '%s' is a %u-byte value, not a pointer: pass a scalar "
			       "such as %s%u:V", spec, ptext, fn->name, p->size,
			       ptx_type_is_float(p->type) ? "f" : "i", p->size < 4 ? 32 : p->size * 8);
	char *copy = gl_xstrdup(spec + 4);
	char *name = copy, *dtype = strchr(name, ':');
	char *count = dtype ? strchr(dtype + 1, ':') : NULL;
	int rc = GL_OK, b;
	if (!dtype || !count) {
		rc = gl_errf(err, GL_EUSAGE, "--arg '%s': a buffer is buf:NAME:DTYPE:COUNT[:INIT]", spec);
		goto out;
	}
	*dtype++ = '\0';
	*count++ = '\0';
	char *init = strchr(count, ':');
	if (init)
		*init++ = '\0';
	enum gl_dtype t;
	long n;
	if (gl_dtype_parse(dtype, &t) != 0)
		rc = gl_errf(err, GL_EUSAGE, "--arg '%s': unknown DTYPE '%s' (f16, bf16, f32, f64, i8, u8, i16, u16, "
			     "i32, u32, i64, u64)", spec, dtype);
	else if (gl_parse_long(count, 1, 1L << 40, "buffer COUNT", &n, err))
		rc = err->status;
	else
		rc = gl_simarg_add_buffer(l, spec, name, t, n, init, &b, err);
	if (rc == GL_OK)
		gl_launch_arg_buffer(l, b);
out:
	free(copy);
	return rc;
}

int gl_simarg_build(const struct ptx_function *fn, char *const *specs, int n, struct gl_launch *l,
		    struct gl_err *err)
{
	if (n != fn->nparams) {
		struct gl_str s = {0};
		param_list(fn, &s);
		int rc = gl_errf(err, GL_EUSAGE, "kernel '%s' takes %d parameter%s (%s) but %d --arg %s given: pass one "
				 "--arg per parameter, in order", fn->name, fn->nparams, fn->nparams == 1 ? "" : "s", s.buf,
				 n, n == 1 ? "was" : "were");
		gl_str_free(&s);
		return rc;
	}
	if (n > GL_MAX_ARGS)
		return gl_errf(err, GL_EUSAGE, "kernel '%s' has %d parameters; gpulab passes at most %d", fn->name, n,
			       GL_MAX_ARGS);
	for (int i = 0; i < n; i++) {
		if (fn->params[i].is_array) {
			char ptext[256];
			param_text(fn, i, ptext, sizeof ptext);
			return gl_errf(err, GL_EUSAGE, "%s of '%s' is a struct passed by value; --arg cannot build it "
				       "(pass its fields as separate parameters)", ptext, fn->name);
		}
		bool object = strncmp(specs[i], "tex:", 4) == 0 || strncmp(specs[i], "surf:", 5) == 0;
		int rc = strncmp(specs[i], "buf:", 4) == 0 ? build_buffer(fn, i, specs[i], l, err)
			 : object			   ? gl_simarg_texture(fn, i, specs[i], l, err)
							   : build_scalar(fn, i, specs[i], l, err);
		if (rc)
			return rc;
	}
	return GL_OK;
}

int gl_simarg_dump_target(const struct gl_launch *l, const char *spec, int *buffer, const char **path,
			  struct gl_err *err)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec || !eq[1])
		return gl_errf(err, GL_EUSAGE, "--dump '%s': expected NAME=PATH", spec);
	for (int b = 0; b < l->nbuffers; b++)
		if (strlen(l->buffers[b].name) == (size_t)(eq - spec) &&
		    strncmp(l->buffers[b].name, spec, (size_t)(eq - spec)) == 0) {
			*buffer = b;
			*path = eq + 1;
			return GL_OK;
		}
	struct gl_str names = {0};
	for (int b = 0; b < l->nbuffers; b++)
		gl_str_addf(&names, "%s%s", b ? ", " : "", l->buffers[b].name);
	int rc = gl_errf(err, GL_EUSAGE, "--dump '%s': no buffer named '%.*s' (buffers: %s)", spec, (int)(eq - spec), spec,
			 names.buf ? names.buf : "none");
	gl_str_free(&names);
	return rc;
}

int gl_simarg_dump(const struct gl_launch *l, int buffer, const char *path, struct gl_err *err)
{
	const struct gl_buffer *b = &l->buffers[buffer];
	FILE *f = fopen(path, "wb");
	if (!f)
		return gl_errf(err, GL_EUSAGE, "--dump %s: cannot write '%s': %s", b->name, path, strerror(errno));
	size_t bytes = b->count * gl_dtype_size(b->dtype);
	bool ok = fwrite(b->host, 1, bytes, f) == bytes;
	ok &= fclose(f) == 0;
	return ok ? GL_OK : gl_errf(err, GL_EUSAGE, "--dump %s: error writing '%s'", b->name, path);
}
