/* lesson_eval.c — evaluating a check against the database: each TOPIC.VARIANT METRIC reads the
 * learner's latest launch of that variant (the highest launch id), from launch_summary, launches or
 * the metrics table; the arithmetic and the comparison are done here, so both sides can be shown. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "lessons/lesson.h"

struct eval {
	sqlite3 *db;
	struct lesson_check_result *r;
	struct gl_err *err;
};

static int sql_error(struct eval *e, const char *doing)
{
	return gl_errf(e->err, GL_EENV, "%s: %s", doing, sqlite3_errmsg(e->db));
}

/* The id of the latest launch of topic.variant, 0 when there is none. */
static int latest_launch(struct eval *e, const struct lesson_node *n, long *id)
{
	sqlite3_stmt *st;
	*id = 0;
	if (sqlite3_prepare_v2(e->db,
			       "SELECT id FROM launches WHERE topic = ?1 AND variant = ?2 ORDER BY id DESC LIMIT 1", -1,
			       &st, NULL) != SQLITE_OK)
		return sql_error(e, "finding the latest launch");
	sqlite3_bind_text(st, 1, n->topic, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, n->variant, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? GL_OK : sql_error(e, "finding the latest launch");
}

/* One value of launch `id`; *have is false when it is NULL or absent. */
static int read_value(struct eval *e, const struct lesson_node *n, long id, double *v, bool *have)
{
	char sql[256];
	const char *table = lesson_metric_table(n->metric);
	if (table) /* the column name comes from lesson_expr.c's fixed list, never from the file */
		snprintf(sql, sizeof sql, "SELECT %s FROM %s WHERE %s = ?1", n->metric, table,
			 strcmp(table, "launches") == 0 ? "id" : "launch_id");
	else
		snprintf(sql, sizeof sql,
			 "SELECT value FROM metrics WHERE launch_id = ?1 AND name = ?2 "
			 "ORDER BY source = 'cupti' DESC LIMIT 1");
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(e->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_error(e, "reading a metric");
	sqlite3_bind_int64(st, 1, id);
	if (!table)
		sqlite3_bind_text(st, 2, n->metric, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*have = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL;
	if (*have)
		*v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? GL_OK : sql_error(e, "reading a metric");
}

static int eval_ref(struct eval *e, const struct lesson_node *n, double *v)
{
	long id;
	bool have = false;
	int rc = latest_launch(e, n, &id);
	if (rc)
		return rc;
	if (!id) {
		snprintf(e->r->why, sizeof e->r->why, "no launch of %s.%s recorded yet (run the step's commands)",
			 n->topic, n->variant);
		return GL_OK;
	}
	if ((rc = read_value(e, n, id, v, &have)))
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

int lesson_check_eval(sqlite3 *db, const struct lesson_check *c, struct lesson_check_result *r, struct gl_err *err)
{
	memset(r, 0, sizeof *r);
	r->lhs = r->rhs = NAN;
	struct eval e = {.db = db, .r = r, .err = err};
	int rc = eval_node(&e, c->lhs, &r->lhs);
	if (rc == GL_OK && !r->why[0])
		rc = eval_node(&e, c->rhs, &r->rhs);
	if (rc == GL_OK && !r->why[0])
		r->passed = compare(r->lhs, r->rhs, c->cmp);
	return rc;
}
