/* store_guidance.c — the guidance rules that fired on a launch (schema step 4, data/migrate_4.sql): one
 * launch_guidance row per rule, read back in the order written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "store/store_int.h"

int gl_store_insert_guidance(struct gl_store *s, long launch_id, const struct gl_launch_record *l, struct gl_err *err)
{
	sqlite3_stmt *st;
	int r = sqlite3_prepare_v2(s->db,
				   "INSERT INTO launch_guidance (launch_id, seq, rule, severity, message, metric, value, "
				   "estimated_speedup) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
				   -1, &st, NULL);
	if (r != SQLITE_OK)
		return gl_store_sql_error(s, r, "preparing the guidance insert", err);
	for (int i = 0; i < l->nguidance && r == SQLITE_OK; i++) {
		const struct gl_guidance *g = &l->guidance[i];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, launch_id);
		sqlite3_bind_int(st, 2, i);
		sqlite3_bind_text(st, 3, g->rule, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, g->severity, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, g->message, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, g->metric, -1, SQLITE_STATIC);
		if (isnan(g->value))
			sqlite3_bind_null(st, 7);
		else
			sqlite3_bind_double(st, 7, g->value);
		if (isnan(g->estimated_speedup))
			sqlite3_bind_null(st, 8);
		else
			sqlite3_bind_double(st, 8, g->estimated_speedup);
		r = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
	}
	sqlite3_finalize(st);
	return r == SQLITE_OK ? GL_OK : gl_store_sql_error(s, r, "recording the guidance", err);
}

int gl_store_set_guidance(struct gl_store *s, long launch_id, const struct gl_launch_record *l, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = gl_store_exec(s, "BEGIN IMMEDIATE", "starting the guidance's transaction", err);
	if (rc != GL_OK)
		return rc;
	int r = sqlite3_prepare_v2(s->db, "DELETE FROM launch_guidance WHERE launch_id = ?", -1, &st, NULL);
	if (r == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, launch_id);
		r = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
		sqlite3_finalize(st);
	}
	rc = r == SQLITE_OK ? gl_store_insert_guidance(s, launch_id, l, err)
			    : gl_store_sql_error(s, r, "replacing the guidance", err);
	if (rc == GL_OK)
		return gl_store_exec(s, "COMMIT", "committing the guidance", err);
	struct gl_err ignored = {0};
	gl_store_exec(s, "ROLLBACK", "rolling the guidance back", &ignored);
	return rc;
}

static void text_col(sqlite3_stmt *st, int i, char *buf, size_t n)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	snprintf(buf, n, "%s", t ? (const char *)t : "");
}

static double real_col(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

int gl_store_load_guidance(struct gl_store *s, long launch_id, struct gl_launch_record *l, struct gl_err *err)
{
	sqlite3_stmt *st;
	int r = sqlite3_prepare_v2(s->db,
				   "SELECT rule, severity, message, metric, value, estimated_speedup FROM launch_guidance "
				   "WHERE launch_id = ? ORDER BY seq",
				   -1, &st, NULL);
	if (r != SQLITE_OK)
		return gl_store_sql_error(s, r, "preparing a query", err);
	sqlite3_bind_int64(st, 1, launch_id);
	int cap = 0;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		if (l->nguidance == cap) {
			cap = cap ? cap * 2 : 8;
			l->guidance = gl_xrealloc(l->guidance, (size_t)cap * sizeof *l->guidance);
		}
		struct gl_guidance *g = &l->guidance[l->nguidance++];
		text_col(st, 0, g->rule, sizeof g->rule);
		text_col(st, 1, g->severity, sizeof g->severity);
		text_col(st, 2, g->message, sizeof g->message);
		text_col(st, 3, g->metric, sizeof g->metric);
		g->value = real_col(st, 4);
		g->estimated_speedup = real_col(st, 5);
	}
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? GL_OK : gl_store_sql_error(s, r, "reading the guidance", err);
}
