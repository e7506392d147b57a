/* exercise_parse.c — an exercise file: a front-matter block between two '---' lines of `key: value`
 * lines (docs/exercises.md lists the keys), then the task in Markdown.  Every error names file:line. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "kernels/exercise_ref.h"
#include "lessons/exercise.h"

struct fm {
	struct exercise *e;
	int line;
	struct gl_err *err;
};

static int fail(struct fm *f, const char *fmt, const char *a)
{
	char what[384];
	snprintf(what, sizeof what, fmt, a ? a : "");
	return gl_errf(f->err, GL_EUSAGE, "%s:%d: %s", f->e->path, f->line, what);
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

static int copy(struct fm *f, char *dst, size_t n, const char *v, const char *key)
{
	if (strlen(v) >= n || !*v)
		return fail(f, *v ? "%s: value too long" : "%s: value missing", key);
	snprintf(dst, n, "%s", v);
	return GL_OK;
}

static int ctype(const char *t, enum gl_dtype *out)
{
	static const struct {
		const char *name;
		enum gl_dtype t;
	} types[] = {{"float", GL_F32}, {"int", GL_I32}, {"unsigned", GL_U32}, {"unsigned int", GL_U32},
		     {"__half", GL_F16}, {"half", GL_F16}};
	for (size_t i = 0; i < GL_ARRAY_LEN(types); i++)
		if (strcmp(types[i].name, t) == 0) {
			*out = types[i].t;
			return GL_OK;
		}
	return -1;
}

/* "const float *in" -> a pointer to f32, const, named in */
static int parse_param(struct fm *f, char *decl)
{
	struct exercise *e = f->e;
	if (e->nparams == EX_MAX_PARAMS)
		return fail(f, "params: at most 10%s", "");
	struct ex_param *p = &e->params[e->nparams++];
	decl = trim(decl);
	snprintf(p->decl, sizeof p->decl, "%s", decl);
	char buf[64];
	snprintf(buf, sizeof buf, "%s", decl);
	char *name = buf + strlen(buf);
	while (name > buf && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
		name--;
	if (!*name)
		return fail(f, "params: '%s' has no name", decl);
	if (strlen(name) >= sizeof p->name)
		return fail(f, "params: the name in '%s' is too long", decl);
	snprintf(p->name, sizeof p->name, "%.31s", name);
	*name = '\0';
	char *type = trim(buf);
	size_t n = strlen(type);
	if (n && type[n - 1] == '*') {
		p->pointer = true;
		type[n - 1] = '\0';
		type = trim(type);
	}
	if (strncmp(type, "const ", 6) == 0) {
		p->is_const = true;
		type = trim(type + 6);
	}
	if (ctype(type, &p->dtype))
		return fail(f, "params: unknown type in '%s' (float, int, unsigned, __half)", decl);
	return GL_OK;
}

static int parse_params(struct fm *f, char *v)
{
	for (char *save = NULL, *d = strtok_r(v, ",", &save); d; d = strtok_r(NULL, ",", &save))
		if (parse_param(f, d))
			return f->err->status;
	return GL_OK;
}

static struct ex_param *param(struct exercise *e, const char *name)
{
	for (int i = 0; i < e->nparams; i++)
		if (strcmp(e->params[i].name, name) == 0)
			return &e->params[i];
	return NULL;
}

/* buffer: NAME COUNT INIT */
static int parse_buffer(struct fm *f, char *v)
{
	char name[32], count[EX_EXPR_MAX], init[32];
	if (sscanf(v, "%31s %95s %31s", name, count, init) != 3)
		return fail(f, "buffer: expected NAME COUNT INIT (e.g. 'buffer: x n rand'), found '%s'", v);
	struct ex_param *p = param(f->e, name);
	if (!p || !p->pointer)
		return fail(f, "buffer: '%s' is not a pointer parameter (list it in params first)", name);
	snprintf(p->count, sizeof p->count, "%s", count);
	p->output = strcmp(init, "output") == 0;
	if (!p->output && strcmp(init, "zero") && strcmp(init, "rand") && strcmp(init, "seq") &&
	    strncmp(init, "randint:", 8))
		return fail(f, "buffer: unknown INIT '%s' (zero, rand, randint:K, seq, output)", init);
	bool fp = p->dtype == GL_F32 || p->dtype == GL_F16;
	if ((!strcmp(init, "rand") && !fp) || (!strncmp(init, "randint:", 8) && fp) || (!strcmp(init, "seq") && p->dtype == GL_F16))
		return fail(f, "buffer: INIT '%s' does not fit the buffer's type (rand: float or __half; randint:K and "
			       "seq: integers; seq also float)", init);
	snprintf(p->init, sizeof p->init, "%s", p->output ? "zero" : init);
	return GL_OK;
}

/* scalar: NAME = VALUE */
static int parse_scalar(struct fm *f, char *v)
{
	char *eq = strchr(v, '=');
	if (!eq)
		return fail(f, "scalar: expected NAME = VALUE, found '%s'", v);
	*eq = '\0';
	struct ex_param *p = param(f->e, trim(v));
	if (!p || p->pointer)
		return fail(f, "scalar: '%s' is not a scalar parameter", trim(v));
	return copy(f, p->value, sizeof p->value, trim(eq + 1), "scalar");
}

/* "64 64; 33 47" or one size: the values of the size variables, in order */
static int parse_size(struct fm *f, char *v, struct ex_size *s)
{
	char *end = v;
	for (int i = 0; i < f->e->nvars; i++) {
		s->v[i] = strtol(end, &end, 10);
		if (s->v[i] < 1)
			return fail(f, "sizes: expected %s positive integers per size (the vars, in order)",
				    f->e->nvars == 1 ? "one" : f->e->nvars == 2 ? "two" : "their");
	}
	if (*trim(end))
		return fail(f, "sizes: unexpected '%s' (one value per size variable)", trim(end));
	return GL_OK;
}

static int parse_sizes(struct fm *f, char *v)
{
	if (!f->e->nvars)
		return fail(f, "sizes: give 'vars:' first%s", "");
	for (char *save = NULL, *s = strtok_r(v, ";", &save); s; s = strtok_r(NULL, ";", &save)) {
		if (f->e->nsizes == EX_MAX_SIZES)
			return fail(f, "sizes: at most 10%s", "");
		if (parse_size(f, s, &f->e->sizes[f->e->nsizes++]))
			return f->err->status;
	}
	return GL_OK;
}

/* "cdiv(n,256), 1" -> up to three expressions; missing ones are 1.  Commas inside parentheses stay. */
static int parse_dim(struct fm *f, char *v, char out[3][EX_EXPR_MAX], const char *key)
{
	for (int k = 0; k < 3; k++)
		snprintf(out[k], EX_EXPR_MAX, "1");
	int k = 0, depth = 0;
	char *start = v;
	for (char *c = v;; c++) {
		if (*c == '(')
			depth++;
		else if (*c == ')')
			depth--;
		else if ((*c == ',' && depth == 0) || !*c) {
			bool last = !*c;
			*c = '\0';
			if (k == 3)
				return fail(f, "%s: at most three dimensions", key);
			if (copy(f, out[k++], EX_EXPR_MAX, trim(start), key))
				return f->err->status;
			if (last)
				return GL_OK;
			start = c + 1;
		}
	}
}

static int parse_vars(struct fm *f, char *v)
{
	for (char *save = NULL, *w = strtok_r(v, " ,", &save); w; w = strtok_r(NULL, " ,", &save)) {
		if (f->e->nvars == EX_MAX_VARS)
			return fail(f, "vars: at most 4%s", "");
		if (copy(f, f->e->vars[f->e->nvars++], 16, w, "vars"))
			return f->err->status;
	}
	return GL_OK;
}

static int parse_goal(struct fm *f, char *v)
{
	struct exercise *e = f->e;
	if (e->ngoals == EX_MAX_GOALS)
		return fail(f, "goal: at most 6%s", "");
	char self[64];
	snprintf(self, sizeof self, EX_TOPIC ".%s", e->id);
	/* every reference is to this exercise's launch: name the right one rather than "unknown topic" */
	for (const char *w = strstr(v, EX_TOPIC "."); w; w = strstr(w + 1, EX_TOPIC ".")) {
		size_t n = strlen(self);
		if (strncmp(w, self, n) != 0 || isalnum((unsigned char)w[n]) || w[n] == '_')
			return fail(f, "goal: a goal reads this exercise's launch, %s", self);
	}
	struct ex_goal *g = &e->goals[e->ngoals];
	if (lesson_check_parse_self(v, e->path, f->line, self, &g->check, f->err))
		return f->err->status;
	e->ngoals++;
	return GL_OK;
}

static int parse_view(struct fm *f, char *v)
{
	if (!f->e->ngoals)
		return fail(f, "view: names the view of the goal above it; give a goal first%s", "");
	if (strcmp(v, "coalesce") && strcmp(v, "banks") && strcmp(v, "gemm"))
		return fail(f, "view: '%s' is not a view (coalesce, banks, gemm)", v);
	snprintf(f->e->goals[f->e->ngoals - 1].view, sizeof f->e->goals[0].view, "%s", v);
	return GL_OK;
}

static int parse_key(struct fm *f, const char *key, char *v)
{
	struct exercise *e = f->e;
	if (!strcmp(key, "title")) {
		free(e->title);
		e->title = gl_xstrdup(v);
		return GL_OK;
	}
	if (!strcmp(key, "kernel"))
		return copy(f, e->kernel, sizeof e->kernel, v, key);
	if (!strcmp(key, "params"))
		return parse_params(f, v);
	if (!strcmp(key, "vars"))
		return parse_vars(f, v);
	if (!strcmp(key, "sizes"))
		return parse_sizes(f, v);
	if (!strcmp(key, "measure"))
		return parse_size(f, v, &e->measure);
	if (!strcmp(key, "grid") || !strcmp(key, "block"))
		return parse_dim(f, v, key[0] == 'g' ? e->grid : e->block, key);
	if (!strcmp(key, "smem"))
		return copy(f, e->smem, sizeof e->smem, v, key);
	if (!strcmp(key, "buffer"))
		return parse_buffer(f, v);
	if (!strcmp(key, "scalar"))
		return parse_scalar(f, v);
	if (!strcmp(key, "reference")) {
		if (!gl_exref_find(v))
			return fail(f, "reference: unknown reference '%s' (kernels/exercise_ref.c lists them)", v);
		return copy(f, e->reference, sizeof e->reference, v, key);
	}
	if (!strcmp(key, "tolerance"))
		return sscanf(v, "%lf %lf", &e->atol, &e->rtol) == 2 ? GL_OK
			: fail(f, "tolerance: expected ATOL RTOL, found '%s'", v);
	if (!strcmp(key, "goal"))
		return parse_goal(f, v);
	if (!strcmp(key, "view"))
		return parse_view(f, v);
	if (!strcmp(key, "hint")) {
		if (e->nhints == EX_MAX_HINTS)
			return fail(f, "hint: at most 8%s", "");
		e->hints[e->nhints++] = gl_xstrdup(v);
		return GL_OK;
	}
	return fail(f, "unknown key '%s' (see docs/exercises.md)", key);
}

/* What every exercise must have, checked after the block. */
static int complete(struct fm *f)
{
	struct exercise *e = f->e;
	if (!e->title || !e->kernel[0] || !e->nparams || !e->nsizes || !e->reference[0] || !e->measure.v[0])
		return fail(f, "the front matter needs title, kernel, params, vars, sizes, measure and reference%s", "");
	for (int i = 0; i < e->nparams; i++) {
		struct ex_param *p = &e->params[i];
		if (p->pointer && !p->count[0])
			return fail(f, "pointer parameter '%s' has no 'buffer:' line", p->name);
		if (!p->pointer && !p->value[0]) {
			bool var = false;
			for (int k = 0; k < e->nvars; k++)
				var |= strcmp(e->vars[k], p->name) == 0;
			if (!var)
				return fail(f, "scalar parameter '%s' is no size variable and has no 'scalar:' line", p->name);
			snprintf(p->value, sizeof p->value, "%s", p->name);
		}
	}
	return GL_OK;
}

/* "04-transpose-tiled" -> "transpose_tiled" */
static void make_id(const char *name, char *id, size_t n)
{
	const char *s = name;
	while (isdigit((unsigned char)*s))
		s++;
	if (*s == '-' && s != name)
		s++;
	snprintf(id, n, "%s", s);
	for (char *c = id; *c; c++)
		if (*c == '-')
			*c = '_';
}

int exercise_parse(const char *name, const char *path, const char *text, const char *solution,
		   struct exercise *out, struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", name);
	snprintf(out->path, sizeof out->path, "%s", path);
	make_id(name, out->id, sizeof out->id);
	snprintf(out->smem, sizeof out->smem, "0");
	for (int k = 0; k < 3; k++)
		snprintf(out->grid[k], EX_EXPR_MAX, "1"), snprintf(out->block[k], EX_EXPR_MAX, "1");
	struct fm f = {.e = out, .line = 1, .err = err};
	const char *p = text;
	int rc = strncmp(p, "---\n", 4) == 0 ? GL_OK : fail(&f, "an exercise starts with a '---' line%s", "");
	if (rc == GL_OK)
		p += 4;
	bool closed = false;
	while (rc == GL_OK && *p && !closed) {
		f.line++;
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = gl_xmalloc(n + 1);
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (nl != NULL);
		char *t = trim(line), *colon = strchr(t, ':');
		if (strcmp(t, "---") == 0)
			closed = true;
		else if (*t && *t != '#' && !colon)
			rc = fail(&f, "expected 'key: value', found '%s'", t);
		else if (*t && *t != '#') {
			*colon = '\0';
			rc = parse_key(&f, trim(t), trim(colon + 1));
		}
		free(line);
	}
	if (rc == GL_OK && !closed)
		rc = fail(&f, "the front matter has no closing '---' line%s", "");
	if (rc == GL_OK)
		rc = complete(&f);
	if (rc != GL_OK) {
		exercise_free(out);
		return rc;
	}
	out->task = gl_xstrdup(p);
	out->solution = solution ? gl_xstrdup(solution) : NULL;
	return GL_OK;
}

void exercise_free(struct exercise *e)
{
	free(e->title);
	free(e->task);
	free(e->solution);
	for (int i = 0; i < e->nhints; i++)
		free(e->hints[i]);
	for (int i = 0; i < e->ngoals; i++)
		lesson_check_free(&e->goals[i].check);
	memset(e, 0, sizeof *e);
}

void exercise_signature(const struct exercise *e, char *buf, size_t n)
{
	size_t k = (size_t)snprintf(buf, n, "extern \"C\" __global__ void %s(", e->kernel);
	for (int i = 0; i < e->nparams && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", e->params[i].decl);
	if (k < n)
		snprintf(buf + k, n - k, ")");
}

void exercise_size_str(const struct exercise *e, const struct ex_size *s, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < e->nvars && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s=%ld", i ? " " : "", e->vars[i], s->v[i]);
}
