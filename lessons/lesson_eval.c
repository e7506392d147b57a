/* lesson_eval.c — evaluating a check against the database: each TOPIC.VARIANT METRIC reads the
 * learner's latest launch of that variant (the highest launch id), through the store's value reads
 * (a launch_summary or launches column, or a metric); the arithmetic and the comparison are done here, so both sides can be shown. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lessons/lesson.h"
#include "store/store.h"

struct eval {
	struct gl_store *store;
	struct lesson_check_result *r;
	struct gl_err *err;
};

static int eval_ref(struct eval *e, const struct lesson_node *n, double *v)
{
	long id;
	bool have = false;
	int rc = gl_store_latest_launch(e->store, n->topic, n->variant, &id, e->err);
	if (rc)
		return rc;
	if (!id) {
		snprintf(e->r->why, sizeof e->r->why, "no launch of %s.%s recorded yet (run the step's commands)",
			 n->topic, n->variant);
		return GL_OK;
	}
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

int lesson_check_eval(struct gl_store *store, const struct lesson_check *c, struct lesson_check_result *r,
		      struct gl_err *err)
{
	memset(r, 0, sizeof *r);
	r->lhs = r->rhs = NAN;
	struct eval e = {.store = store, .r = r, .err = err};
	int rc = eval_node(&e, c->lhs, &r->lhs);
	if (rc == GL_OK && !r->why[0])
		rc = eval_node(&e, c->rhs, &r->rhs);
	if (rc == GL_OK && !r->why[0])
		r->passed = compare(r->lhs, r->rhs, c->cmp);
	return rc;
}
