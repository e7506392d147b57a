/* store_exercise.c — exercise progress, one row of exercise_progress (data/migrate_6.sql) per exercise:
 * started, the latest check's verdict, how many checks ran, whether one ever passed, its run. */
#include <stdio.h>
#include <string.h>

#include "store/store_int.h"

#define NOW "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"

static int sql_error(sqlite3 *db, const char *doing, struct gl_err *err)
{
	return gl_errf(err, GL_EENV, "%s: %s (is the database writable, and not locked by another gpulab?)", doing,
		       sqlite3_errmsg(db));
}

int gl_store_exercise_record(struct gl_store *s, const char *exercise, enum gl_exercise_event ev, long run_id,
			     struct gl_err *err)
{
	static const char *const sql[] = {
		[GL_EXERCISE_STARTED] = "INSERT INTO exercise_progress (exercise, status, at) VALUES (?1, 'started', " NOW
					") ON CONFLICT(exercise) DO UPDATE SET at = excluded.at",
		[GL_EXERCISE_FAILED] = "INSERT INTO exercise_progress (exercise, status, checks, last_run, at) VALUES "
				       "(?1, 'failed', 1, ?2, " NOW ") ON CONFLICT(exercise) DO UPDATE SET "
				       "status = 'failed', checks = checks + 1, last_run = ?2, at = excluded.at",
		[GL_EXERCISE_PASSED] = "INSERT INTO exercise_progress (exercise, status, checks, passed, last_run, at) "
				       "VALUES (?1, 'passed', 1, 1, ?2, " NOW ") ON CONFLICT(exercise) DO UPDATE SET "
				       "status = 'passed', checks = checks + 1, passed = 1, last_run = ?2, at = excluded.at",
	};
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql[ev], -1, &st, NULL) != SQLITE_OK)
		return sql_error(s->db, "recording exercise progress", err);
	sqlite3_bind_text(st, 1, exercise, -1, SQLITE_STATIC);
	if (ev != GL_EXERCISE_STARTED) {
		if (run_id > 0)
			sqlite3_bind_int64(st, 2, run_id);
		else
			sqlite3_bind_null(st, 2);
	}
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? GL_OK : sql_error(s->db, "recording exercise progress", err);
}

int gl_store_exercise_progress(struct gl_store *s, const char *exercise, struct gl_exercise_progress *out,
			       struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT status, checks, passed, IFNULL(last_run, 0) FROM exercise_progress "
				      "WHERE exercise = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_error(s->db, "reading exercise progress", err);
	sqlite3_bind_text(st, 1, exercise, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(out->status, sizeof out->status, "%s", (const char *)sqlite3_column_text(st, 0));
		out->checks = sqlite3_column_int(st, 1);
		out->passed = sqlite3_column_int(st, 2) != 0;
		out->last_run = (long)sqlite3_column_int64(st, 3);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? GL_OK : sql_error(s->db, "reading exercise progress", err);
}
