/* lesson_eval.c — evaluating a check against the database: each TOPIC.VARIANT METRIC reads the
 * learner's latest launch of that variant made with the step's parameters (lesson_bind.c), or of a
 * profiled kernel from the step's program, through the store's value reads
 * (a launch_summary or launches column, or a metric); the arithmetic and the comparison are done here, so both sides can be shown. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lessons/lesson.h"
#include "store/store.h"

struct eval {
	struct gl_store *store;
	const struct lesson *l;
	int step;
	struct lesson_check_result *r;
	struct gl_err *err;
};

/* No launch with the step's parameters: say what the latest one used, if there is one. */
static int unbound(struct eval *e, const struct lesson_node *n, const char *want)
{
	long latest;
	char *params = NULL;
	int rc = gl_store_latest_launch(e->store, n->topic, n->variant, &latest, e->err);
	if (rc == GL_OK && latest)
		rc = gl_store_launch_params(e->store, latest, &params, e->err);
	if (rc)
		return rc;
	if (params)
		snprintf(e->r->why, sizeof e->r->why,
			 "no launch of %s.%s with the step's parameters %s; the latest (launch %ld) used %s: run the "
			 "step's commands ('gpulab lesson check --run')", n->topic, n->variant, want, latest, params);
	else
		snprintf(e->r->why, sizeof e->r->why, "no launch of %s.%s recorded yet (run the step's commands)",
			 n->topic, n->variant);
	free(params);
	return GL_OK;
}

/* The bound launch is not the latest of its variant: say so, so a surprising number has its reason. */
static int note_other_latest(struct eval *e, const struct lesson_node *n, long id, const char *want)
{
	long latest;
	char *params = NULL;
	int rc = gl_store_latest_launch(e->store, n->topic, n->variant, &latest, e->err);
	if (rc || latest == id)
		return rc;
	if ((rc = gl_store_launch_params(e->store, latest, &params, e->err)))
		return rc;
	if (params && strcmp(params, want) != 0 && !e->r->note[0])
		snprintf(e->r->note, sizeof e->r->note,
			 "the latest launch of %s.%s (%ld) used %s; this check reads launch %ld, made with %s as the step "
			 "asks", n->topic, n->variant, latest, params, id, want);
	free(params);
	return GL_OK;
}

/* A profiled program's kernel: its latest launch from the program the step profiles (else any). */
static int program_launch(struct eval *e, const struct lesson_node *n, long *id)
{
	char *path = lesson_bound_program(e->l, e->step);
	int rc = path ? gl_store_latest_program_launch(e->store, n->variant, path, id, e->err)
		      : gl_store_latest_launch(e->store, n->topic, n->variant, id, e->err);
	if (rc == GL_OK && !*id)
		snprintf(e->r->why, sizeof e->r->why, "no launch of %s.%s profiled from %s yet (run the step's "
			 "commands)", n->topic, n->variant, path ? path : "any program");
	free(path);
	return rc;
}

/* A topic's variant: its latest launch made with the step's parameters (lesson_bind.c). */
static int bound_launch(struct eval *e, const struct lesson_node *n, long *id)
{
	char *want = lesson_bound_params(e->l, e->step, n->topic, n->variant);
	int rc = gl_store_latest_launch_with(e->store, n->topic, n->variant, want, id, e->err);
	if (rc == GL_OK && !*id)
		rc = want ? unbound(e, n, want)
			  : (snprintf(e->r->why, sizeof e->r->why, "no launch of %s.%s recorded yet (run the step's "
				      "commands)", n->topic, n->variant), GL_OK);
	if (rc == GL_OK && *id && want)
		rc = note_other_latest(e, n, *id, want);
	free(want);
	return rc;
}

static int eval_ref(struct eval *e, const struct lesson_node *n, double *v)
{
	long id = 0;
	bool have = false;
	int rc = strcmp(n->topic, LESSON_PROGRAM_TOPIC) == 0 ? program_launch(e, n, &id) : bound_launch(e, n, &id);
	if (rc || !id)
		return rc;
	if ((rc = gl_store_launch_value(e->store, id, n->metric, v, &have, e->err)))
		return rc;
	if (!have)
		snprintf(e->r->why, sizeof e->r->why, "launch %ld (%s.%s) has no value for %s", id, n->topic,
			 n->variant, n->metric);
	return GL_OK;
}

static int eval_node(struct eval *e, const struct lesson_node *n, double *v)
{
	double a = 0, b = 0;
	int rc;
	switch (n->kind) {
	case LESSON_NUM:
		*v = n->num;
		return GL_OK;
	case LESSON_REF:
		return eval_ref(e, n, v);
	case LESSON_NEG:
		rc = eval_node(e, n->a, &a);
		*v = -a;
		return rc;
	case LESSON_BIN:
		if ((rc = eval_node(e, n->a, &a)) || (rc = eval_node(e, n->b, &b)) || e->r->why[0])
			return rc;
		if (n->op == '/' && b == 0) {
			snprintf(e->r->why, sizeof e->r->why, "division by zero");
			return GL_OK;
		}
		*v = n->op == '+' ? a + b : n->op == '-' ? a - b : n->op == '*' ? a * b : a / b;
		return GL_OK;
	}
	return gl_errf(e->err, GL_EINTERNAL, "unknown check node %d", (int)n->kind);
}

static bool compare(double a, double b, enum lesson_cmp cmp)
{
	/* == tolerates rounding in ratios: equal to 1e-9 of the larger magnitude */
	bool eq = fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
	switch (cmp) {
	case LESSON_EQ: return eq;
	case LESSON_NE: return !eq;
	case LESSON_LT: return a < b && !eq;
	case LESSON_LE: return a < b || eq;
	case LESSON_GT: return a > b && !eq;
	case LESSON_GE: return a > b || eq;
	}
	return false;
}

int lesson_check_eval(struct gl_store *store, const struct lesson *l, int step, const struct lesson_check *c,
		      struct lesson_check_result *r, struct gl_err *err)
{
	memset(r, 0, sizeof *r);
	r->lhs = r->rhs = NAN;
	struct eval e = {.store = store, .l = l, .step = step, .r = r, .err = err};
	int rc = eval_node(&e, c->lhs, &r->lhs);
	if (rc == GL_OK && !r->why[0])
		rc = eval_node(&e, c->rhs, &r->rhs);
	if (rc == GL_OK && !r->why[0])
		r->passed = compare(r->lhs, r->rhs, c->cmp);
	return rc;
}
