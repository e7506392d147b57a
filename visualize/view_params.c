/* view_params.c — a launch's parameters from its params_json, the row-major shapes of known topics'
 * buffers, and the small sizes the views record with. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_trace.h"

void view_params_parse(const struct gl_topic *t, const char *json, struct gl_problem *p)
{
	gl_problem_defaults(t, p);
	for (int i = 0; json && i < t->nparams; i++) {
		char key[64];
		snprintf(key, sizeof key, "\"%s\"", t->params[i].name);
		const char *at = strstr(json, key);
		if (!at)
			continue;
		at += strlen(key);
		while (*at == ' ' || *at == ':')
			at++;
		char *end;
		long v = strtol(at, &end, 10);
		if (end != at)
			p->v[i] = v;
	}
}

/* Buffer shapes as parameter names: rows x cols.  Buffers not listed are vectors. */
static const struct {
	const char *topic, *buffer, *rows, *cols;
} shapes[] = {
    {"transpose", "in", "rows", "cols"},
    {"transpose", "out", "cols", "rows"},
    {"gemm", "A", "m", "k"},
    {"gemm", "B", "k", "n"},
    {"gemm", "C", "m", "n"},
};

bool view_buffer_shape(const char *topic, const char *buffer, const struct gl_topic *t, const struct gl_problem *p,
                       long *rows, long *cols)
{
	for (size_t i = 0; t && i < sizeof shapes / sizeof shapes[0]; i++) {
		if (strcmp(shapes[i].topic, topic) || strcmp(shapes[i].buffer, buffer))
			continue;
		int r = gl_param_index(t, shapes[i].rows), c = gl_param_index(t, shapes[i].cols);
		if (r < 0 || c < 0)
			return false;
		*rows = p->v[r];
		*cols = p->v[c];
		return true;
	}
	return false;
}

/* Sizes that give a few CTAs and traces of a few thousand events. */
static const struct {
	const char *topic;
	long size;
} small[] = {
    {"transpose", 64}, {"gemm", 128}, {"smem_patterns", 2}, {"gmem_patterns", 8192}, {"reduce", 8192},
};

void view_default_problem(const struct gl_topic *t, struct gl_problem *p)
{
	gl_problem_defaults(t, p);
	long size = 128;
	for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
		if (strcmp(small[i].topic, t->name) == 0)
			size = small[i].size;
	for (int i = 0; i < t->nparams; i++)
		if (t->params[i].is_size && p->v[i] > size)
			p->v[i] = size < t->params[i].min ? t->params[i].min : size;
}
