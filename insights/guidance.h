/* guidance.h — the guidance rules: one table (guidance_rules.c) of what Nsight Compute's rules judge,
 * applied to a launch's counts, its occupancy and its estimate on a GPU model.  Each rule names the
 * metrics it reads, its condition, severity (OPT: an optimization with a bound on what it gains; WRN: a
 * problem; INF: information), a message with the numbers, the fix, and an estimated speedup where the
 * rule can bound one. */
#ifndef GL_GUIDANCE_H
#define GL_GUIDANCE_H

#include <stdbool.h>

#include "insights/estimate.h"
#include "common/record.h"

struct gl_rule_input {
	const struct gl_launch_record *l;
	const struct gl_estimate *est;  /* on the GPU model the guidance is for */
};

struct gl_rule {
	const char *name;
	const char *metrics;   /* what it reads, for docs and --details */
	const char *severity;  /* "OPT", "WRN", "INF" */
	const char *fix;
	/* true when the rule fires; fills message, metric, value, estimated_speedup (NAN: not bounded) */
	bool (*eval)(const struct gl_rule_input *in, struct gl_guidance *out);
};

extern const struct gl_rule gl_rules[]; /* terminated by a zeroed entry */
const struct gl_rule *gl_rule_find(const char *name);

/* Apply every rule to the launch on GPU model g; l->guidance receives the ones that fire (owned). */
void gl_guidance_apply(const struct gl_gpu_model *g, struct gl_launch_record *l);

#endif
