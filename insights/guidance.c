/* guidance.c — applying the rules table to a launch. */
#include "guidance.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

const struct gl_rule *gl_rule_find(const char *name)
{
	for (const struct gl_rule *r = gl_rules; r->name; r++)
		if (strcmp(r->name, name) == 0)
			return r;
	return NULL;
}

void gl_guidance_apply(const struct gl_gpu_model *g, struct gl_launch_record *l)
{
	struct gl_estimate est;
	gl_estimate_launch(g, l, &est);
	struct gl_rule_input in = {l, &est};
	free(l->guidance);
	l->guidance = NULL;
	l->nguidance = 0;
	size_t n = 0;
	while (gl_rules[n].name)
		n++;
	l->guidance = gl_xcalloc(n ? n : 1, sizeof *l->guidance);
	for (const struct gl_rule *r = gl_rules; r->name; r++) {
		struct gl_guidance *out = &l->guidance[l->nguidance];
		memset(out, 0, sizeof *out);
		out->value = NAN;
		out->estimated_speedup = NAN;
		if (!r->eval(&in, out))
			continue;
		snprintf(out->rule, sizeof out->rule, "%s", r->name);
		snprintf(out->severity, sizeof out->severity, "%s", r->severity);
		size_t len = strlen(out->message);
		if (strcmp(r->severity, "INF") != 0) /* information has nothing to fix */
			snprintf(out->message + len, sizeof out->message - len, "; fix: %s", r->fix);
		l->nguidance++;
	}
	if (!l->nguidance) {
		free(l->guidance);
		l->guidance = NULL;
	}
}
