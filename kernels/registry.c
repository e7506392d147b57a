/* registry.c — the table of topics.  Adding a topic: kernels/NAME.cu, kernels/NAME.c, one line here. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "registry.h"

extern const struct gl_topic gl_topic_transpose;
extern const struct gl_topic gl_topic_smem_patterns;
extern const struct gl_topic gl_topic_gmem_patterns;
extern const struct gl_topic gl_topic_gemm;
extern const struct gl_topic gl_topic_reduce;
extern const struct gl_topic gl_topic_hgemm;
extern const struct gl_topic gl_topic_conv2d;
extern const struct gl_topic gl_topic_attention;

const struct gl_topic *const gl_topics[] = {
	&gl_topic_transpose,
	&gl_topic_smem_patterns,
	&gl_topic_gmem_patterns,
	&gl_topic_gemm,
	&gl_topic_reduce,
	&gl_topic_hgemm,
	&gl_topic_conv2d,
	&gl_topic_attention,
	NULL,
};

const struct gl_topic *gl_topic_find(const char *name)
{
	for (const struct gl_topic *const *t = gl_topics; *t; t++)
		if (strcmp((*t)->name, name) == 0)
			return *t;
	return NULL;
}

const struct gl_variant *gl_variant_find(const struct gl_topic *t, const char *name)
{
	for (int i = 0; i < t->nvariants; i++)
		if (strcmp(t->variants[i].name, name) == 0)
			return &t->variants[i];
	return NULL;
}

int gl_topic_lookup(const char *name, const struct gl_topic **out, struct gl_err *err)
{
	*out = gl_topic_find(name);
	if (*out)
		return GL_OK;
	const char *names[64];
	size_t n = 0;
	struct gl_str all = {0};
	for (const struct gl_topic *const *t = gl_topics; *t && n < 64; t++) {
		names[n++] = (*t)->name;
		gl_str_addf(&all, "%s%s", n > 1 ? ", " : "", (*t)->name);
	}
	const char *near = gl_suggest(name, names, n);
	if (near)
		gl_errf(err, GL_EUSAGE, "unknown topic '%s' (did you mean '%s'?)", name, near);
	else
		gl_errf(err, GL_EUSAGE, "unknown topic '%s' (topics: %s)", name, all.buf);
	gl_str_free(&all);
	return GL_EUSAGE;
}

int gl_variant_lookup(const struct gl_topic *t, const char *name, const struct gl_variant **out, struct gl_err *err)
{
	return gl_variant_lookup_as(t, name, "variant", out, err);
}

int gl_variant_lookup_as(const struct gl_topic *t, const char *name, const char *role, const struct gl_variant **out,
			 struct gl_err *err)
{
	*out = gl_variant_find(t, name);
	if (*out)
		return GL_OK;
	const char *names[64];
	size_t n = 0;
	struct gl_str all = {0};
	for (int i = 0; i < t->nvariants && n < 64; i++) {
		names[n++] = t->variants[i].name;
		gl_str_addf(&all, "%s%s", i ? ", " : "", t->variants[i].name);
	}
	const char *near = gl_suggest(name, names, n);
	if (near)
		gl_errf(err, GL_EUSAGE, "unknown %s '%s' for topic %s (did you mean '%s'?)", role, name, t->name, near);
	else
		gl_errf(err, GL_EUSAGE, "unknown %s '%s' for topic %s (variants: %s)", role, name, t->name, all.buf);
	gl_str_free(&all);
	return GL_EUSAGE;
}

int gl_parse_variants(const struct gl_topic *t, const char *list, const struct gl_variant **out, int max, int *n,
		      struct gl_err *err)
{
	*n = 0;
	if (!list || strcmp(list, "all") == 0) {
		for (int i = 0; i < t->nvariants && i < max; i++)
			out[(*n)++] = &t->variants[i];
		return GL_OK;
	}
	char *copy = gl_xstrdup(list);
	int rc = GL_OK;
	for (char *save = NULL, *name = strtok_r(copy, ",", &save); name && rc == GL_OK;
	     name = strtok_r(NULL, ",", &save)) {
		if (*n >= max) {
			rc = gl_errf(err, GL_EUSAGE, "too many variants (at most %d)", max);
			break;
		}
		rc = gl_variant_lookup(t, name, &out[*n], err);
		if (rc == GL_OK)
			(*n)++;
	}
	if (rc == GL_OK && *n == 0)
		rc = gl_errf(err, GL_EUSAGE, "--variant needs a name, a comma-separated list or 'all'");
	free(copy);
	return rc;
}

int gl_topic_rebuild(const struct gl_topic *t, const struct gl_variant *v, const char *params_json,
		     struct gl_launch *l, struct gl_err *err)
{
	struct gl_problem p;
	memset(l, 0, sizeof *l);
	gl_problem_from_json(t, params_json, &p); /* what it lacks (a parameter added since): the default */
	l->module = t->ptx;
	l->module_name = t->name;
	return gl_topic_setup(t, v, &p, l, err);
}

int gl_topic_setup(const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p,
		   struct gl_launch *l, struct gl_err *err)
{
	struct gl_geometry g;
	if (t->geometry && gl_topic_geometry(t, v, p, &g, err))
		return err->status;
	return t->setup(v, p, t->geometry ? &g : NULL, l, err);
}

int gl_topic_geometry(const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p,
		      struct gl_geometry *g, struct gl_err *err)
{
	memset(g, 0, sizeof *g);
	if (!t->geometry)
		return gl_errf(err, GL_EINTERNAL, "topic %s has no geometry function", t->name);
	return t->geometry(v, p, g, err);
}

unsigned gl_topic_dyn_smem(const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p)
{
	struct gl_geometry g;
	struct gl_err err = {0};
	unsigned most = 0;
	if (gl_topic_geometry(t, v, p, &g, &err) != GL_OK)
		return 0;
	for (int k = 0; k < g.n; k++)
		most = g.launch[k].dyn_smem > most ? g.launch[k].dyn_smem : most;
	return most;
}

bool gl_topic_buffer_shape(const struct gl_topic *t, const struct gl_problem *p, const char *buffer, long *rows,
			   long *cols)
{
	for (const struct gl_buffer_shape *sh = t ? t->shapes : NULL; sh && sh->buffer; sh++) {
		if (strcmp(sh->buffer, buffer) != 0)
			continue;
		int r = gl_param_index(t, sh->rows), c = gl_param_index(t, sh->cols);
		if (r < 0 || c < 0)
			return false;
		*rows = p->v[r];
		*cols = p->v[c];
		return true;
	}
	return false;
}

void gl_topic_view_problem(const struct gl_topic *t, struct gl_problem *p)
{
	gl_problem_defaults(t, p);
	long size = t->view_size ? t->view_size : 128;
	for (int i = 0; i < t->nparams; i++)
		if (t->params[i].is_size && p->v[i] > size)
			p->v[i] = size < t->params[i].min ? t->params[i].min : size;
}
