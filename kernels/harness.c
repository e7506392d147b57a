/* harness.c — what every topic's harness shares: parameters and problems, random inputs, verification
 * with absolute + relative tolerance, and ptxas resource lookup. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/half.h"
#include "common/json.h"
#include "common/ptxas.h"
#include "common/util.h"
#include "registry.h"

void gl_problem_defaults(const struct gl_topic *t, struct gl_problem *p)
{
	memset(p, 0, sizeof *p);
	for (int i = 0; i < t->nparams; i++)
		p->v[i] = t->params[i].def;
	p->seed = GL_DEFAULT_SEED;
}

int gl_param_index(const struct gl_topic *t, const char *name)
{
	for (int i = 0; i < t->nparams; i++)
		if (strcmp(t->params[i].name, name) == 0)
			return i;
	return -1;
}

int gl_param_choice(const struct gl_param *param, const char *name)
{
	for (int i = 0; param->choices && param->choices[i]; i++)
		if (strcmp(param->choices[i], name) == 0)
			return i;
	return -1;
}

int gl_param_parse(const struct gl_param *param, const char *text, const char *flag, long *out, struct gl_err *err)
{
	if (!param->choices)
		return gl_parse_long(text, param->min, param->max, flag, out, err);
	int i = gl_param_choice(param, text);
	if (i >= 0) {
		*out = i;
		return GL_OK;
	}
	size_t n = 0;
	struct gl_str all = {0};
	for (; param->choices[n]; n++)
		gl_str_addf(&all, "%s%s", n ? ", " : "", param->choices[n]);
	const char *near = gl_suggest(text, param->choices, n);
	if (near)
		gl_errf(err, GL_EUSAGE, "%s: unknown value '%s' (did you mean '%s'?)", flag, text, near);
	else
		gl_errf(err, GL_EUSAGE, "%s: unknown value '%s' (one of: %s)", flag, text, all.buf);
	gl_str_free(&all);
	return GL_EUSAGE;
}

void gl_geometry_add(struct gl_geometry *g, const char *entry, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
		     unsigned by, unsigned dyn_smem)
{
	if (g->n >= GL_MAX_STEPS)
		return;
	g->launch[g->n++] = (struct gl_geometry_launch){entry, {gx, gy, gz}, {bx, by, 1}, dyn_smem};
}

void gl_geometry_apply(const struct gl_geometry *g, int k, struct gl_launch *l)
{
	const struct gl_geometry_launch *s = &g->launch[k];
	l->entry = s->entry;
	memcpy(l->grid, s->grid, sizeof l->grid);
	memcpy(l->block, s->block, sizeof l->block);
	l->dyn_smem = s->dyn_smem;
}

int gl_problem_apply(const struct gl_topic *t, const char *size, const char *const *names, const char *const *values,
		     int n, struct gl_problem *p, struct gl_err *err)
{
	for (int i = 0; size && i < t->nparams; i++)
		if (t->params[i].is_size && gl_parse_long(size, t->params[i].min, t->params[i].max, "--size", &p->v[i], err))
			return err->status;
	for (int k = 0; k < n; k++) {
		int i = gl_param_index(t, names[k]);
		if (i < 0)
			return gl_errf(err, GL_EINTERNAL, "--%s is not a parameter of topic %s", names[k], t->name);
		char flag[64];
		snprintf(flag, sizeof flag, "--%s", t->params[i].name);
		if (gl_param_parse(&t->params[i], values[k], flag, &p->v[i], err))
			return err->status;
	}
	return t->check ? t->check(p, err) : GL_OK;
}

char *gl_problem_json(const struct gl_topic *t, const struct gl_problem *p)
{
	struct gl_str s = {0};
	gl_str_add(&s, "{");
	for (int i = 0; i < t->nparams; i++) {
		const struct gl_param *q = &t->params[i];
		if (q->choices)
			gl_str_addf(&s, "%s\"%s\":\"%s\"", i ? "," : "", q->name, q->choices[p->v[i]]);
		else
			gl_str_addf(&s, "%s\"%s\":%ld", i ? "," : "", q->name, p->v[i]);
	}
	if (p->seed != GL_DEFAULT_SEED) /* the inputs differ from the default's: say which they are */
		gl_str_addf(&s, "%s\"seed\":%llu", t->nparams ? "," : "", (unsigned long long)p->seed);
	gl_str_add(&s, "}");
	return s.buf;
}

int gl_problem_from_json(const struct gl_topic *t, const char *json, struct gl_problem *p)
{
	char text[64];
	int missing = 0;
	gl_problem_defaults(t, p);
	for (int i = 0; i < t->nparams; i++) {
		const struct gl_param *q = &t->params[i];
		struct gl_err ignored = {0};
		long v;
		if (!gl_json_flat_get(json, q->name, text, sizeof text) || gl_param_parse(q, text, q->name, &v, &ignored))
			missing = -1; /* absent, or not a value this topic takes: the default stays */
		else
			p->v[i] = v;
	}
	if (gl_json_flat_get(json, "seed", text, sizeof text))
		p->seed = strtoull(text, NULL, 10);
	return missing;
}

/* xorshift64*: deterministic and fast; values in [-1, 1) with magnitudes spread over three decades so
 * that relative errors are tested on small numbers too. */
void gl_fill_random_f32(float *a, size_t n, uint64_t seed)
{
	uint64_t state = gl_random_state(seed);
	gl_random_f32_next(&state, a, n);
}

uint64_t gl_random_state(uint64_t seed)
{
	return seed ? seed : 0x9E3779B97F4A7C15ull;
}

void gl_random_f32_next(uint64_t *state, float *a, size_t n)
{
	uint64_t x = *state;
	for (size_t i = 0; i < n; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		uint64_t r = x * 0x2545F4914F6CDD1Dull;
		double u = (double)(r >> 11) / 9007199254740992.0;      /* [0, 1) */
		static const double scales[3] = {1.0, 0.1, 0.01};
		double scale = scales[(r >> 3) % 3];
		a[i] = (float)((2.0 * u - 1.0) * scale);
	}
	*state = x;
}

int gl_fill_random_f16(uint16_t *h, size_t n, uint64_t seed, struct gl_err *err)
{
	float *f = malloc((n ? n : 1) * sizeof *f);
	if (!f)
		return gl_oom_error(err, "the fp16 inputs", 4.0 * (double)n);
	gl_fill_random_f32(f, n, seed);
	gl_f32_to_f16_array(f, h, n);
	free(f);
	return GL_OK;
}

void gl_verify_f32(const float *out, const float *ref, size_t n, double atol, double rtol, struct gl_verify *v)
{
	memset(v, 0, sizeof *v);
	v->ok = true;
	for (size_t i = 0; i < n; i++) {
		double o = out[i], r = ref[i];
		double abs_err = fabs(o - r);
		double rel_err = r != 0.0 ? abs_err / fabs(r) : (abs_err ? INFINITY : 0.0);
		if (isnan(o) != isnan(r))
			abs_err = rel_err = INFINITY;
		if (abs_err > v->max_abs_err)
			v->max_abs_err = abs_err;
		if (rel_err > v->max_rel_err && isfinite(rel_err))
			v->max_rel_err = rel_err;
		if (!(abs_err <= atol + rtol * fabs(r))) {
			if (v->mismatches++ == 0)
				snprintf(v->first_mismatch, sizeof v->first_mismatch,
					 "element %zu: got %.9g, expected %.9g", i, o, r);
			v->ok = false;
		}
	}
}

void gl_topic_resources(const struct gl_topic *t, const char *entry, const char *arch, struct gl_resources *out)
{
	struct gl_ptxas_usage u;
	gl_ptxas_usage(strcmp(arch, "sm_90") == 0 ? t->res_sm90 : t->res_sm80, entry, &u);
	*out = (struct gl_resources){u.regs, u.static_smem, u.spill_stores, u.spill_loads, u.stack};
}
