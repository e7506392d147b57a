/* view_params.c — a launch's parameters from its params_json.  (Buffer shapes and the sizes views record
 * at are the topic's: kernels/registry.h.) */
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
		if (*at == '"' && t->params[i].choices) { /* "layout":"nhwc" */
			char name[32];
			if (sscanf(at + 1, "%31[^\"]", name) == 1 && gl_param_choice(&t->params[i], name) >= 0)
				p->v[i] = gl_param_choice(&t->params[i], name);
			continue;
		}
		char *end;
		long v = strtol(at, &end, 10);
		if (end != at)
			p->v[i] = v;
	}
}
