/* backend_select.c — resolves --backend auto|cuda|sim to a backend table, with a one-line reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "profiler/profiler.h"

/* The announcement stays one short line: the reason without its parenthesised details and without what
 * follows a ';' (the advice); `gpulab devices` and `gpulab doctor` give the whole story. */
static void short_reason(char *reason)
{
	char *out = reason;
	int depth = 0;
	for (const char *p = reason; *p && *p != ';'; p++) {
		depth += *p == '(';
		if (!depth)
			*out++ = *p;
		depth -= *p == ')' && depth > 0;
	}
	*out = '\0';
	for (char *q = reason; (q = strstr(q, "  ")) != NULL;) /* the space before a dropped "(...)" */
		memmove(q, q + 1, strlen(q));
	size_t len = strlen(reason);
	while (len && (reason[len - 1] == ' ' || reason[len - 1] == ','))
		reason[--len] = '\0';
}

static int select_auto(const struct gl_backend **out, char *why, size_t n)
{
	char reason[512];
	if (gl_backend_cuda.probe(reason, sizeof reason)) {
		*out = &gl_backend_cuda;
		snprintf(why, n, "backend cuda: %s", reason);
	} else {
		*out = &gl_backend_sim;
		short_reason(reason);
		snprintf(why, n, "backend sim: no usable GPU here (%s; 'gpulab devices' says why)", reason);
	}
	return GL_OK;
}

static int select_cuda(const struct gl_backend **out, char *why, size_t n, struct gl_err *err)
{
	char reason[512];
	if (!gl_backend_cuda.probe(reason, sizeof reason))
		return gl_errf(err, GL_EENV, "--backend cuda needs a GPU: %s; on this machine use --backend sim (or auto)",
			       reason);
	*out = &gl_backend_cuda;
	snprintf(why, n, "backend cuda: %s", reason);
	return GL_OK;
}

int gl_backend_select(const char *name, const struct gl_backend **out, char *why, size_t n, struct gl_err *err)
{
	static const char *const names[] = {"auto", "cuda", "sim"};
	if (!name || strcmp(name, "auto") == 0)
		return select_auto(out, why, n);
	if (strcmp(name, "cuda") == 0)
		return select_cuda(out, why, n, err);
	if (strcmp(name, "sim") == 0) {
		*out = &gl_backend_sim;
		snprintf(why, n, "backend sim: chosen with --backend sim");
		return GL_OK;
	}
	const char *near = gl_suggest(name, names, GL_ARRAY_LEN(names));
	if (near)
		return gl_errf(err, GL_EUSAGE, "unknown backend '%s' (did you mean '%s'? choose auto, cuda or sim)",
			       name, near);
	return gl_errf(err, GL_EUSAGE, "unknown backend '%s' (choose auto, cuda or sim)", name);
}
