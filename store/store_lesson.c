/* store_lesson.c — lesson progress: where the learner is, in the lesson_progress table (data/schema.sql):
 *   (LESSON, N, 'seen' | 'passed' | 'failed', at)  step N >= 1 was shown / its checks passed / failed
 *   (LESSON, 0, 'current N' | 'paused N', at)     the bookmark: the learner is at step N of LESSON;
 *                                                 'current' marks the current lesson (at most one row)
 * so the current lesson and step survive between invocations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"

#define NOW "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"

static const char *const status_names[] = {"", "seen", "passed", "failed"};

static int sql_error(sqlite3 *db, const char *doing, struct gl_err *err)
{
	int code = sqlite3_errcode(db);
	if (code == SQLITE_READONLY || code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return gl_errf(err, GL_EENV, "%s: %s (is the database writable, and not locked by another gpulab?)",
			       doing, sqlite3_errmsg(db));
	return gl_errf(err, GL_EENV, "%s: %s", doing, sqlite3_errmsg(db));
}

/* Run one statement with up to two text parameters and one integer; no rows expected. */
static int exec(sqlite3 *db, const char *sql, const char *a, const char *b, long n, const char *doing,
		struct gl_err *err)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_error(db, doing, err);
	int np = sqlite3_bind_parameter_count(st);
	if (np >= 1)
		sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
	if (np >= 2)
		sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
	if (np >= 3)
		sqlite3_bind_int64(st, 3, n);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? GL_OK : sql_error(db, doing, err);
}

int gl_store_lesson_current(struct gl_store *s, char *lesson, size_t n, int *step, struct gl_err *err)
{
	sqlite3 *db = s->db;
	sqlite3_stmt *st;
	lesson[0] = '\0';
	*step = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT lesson, status FROM lesson_progress WHERE step = 0 AND status LIKE 'current %' "
			       "ORDER BY at DESC LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_error(db, "reading the current lesson", err);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(lesson, n, "%s", (const char *)sqlite3_column_text(st, 0));
		*step = atoi((const char *)sqlite3_column_text(st, 1) + 8);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? GL_OK : sql_error(db, "reading the current lesson", err);
}

int gl_store_lesson_bookmark(struct gl_store *s, const char *lesson, int *step, bool *current, struct gl_err *err)
{
	sqlite3 *db = s->db;
	sqlite3_stmt *st;
	*step = 0;
	*current = false;
	if (sqlite3_prepare_v2(db, "SELECT status FROM lesson_progress WHERE lesson = ?1 AND step = 0", -1, &st,
			       NULL) != SQLITE_OK)
		return sql_error(db, "reading lesson progress", err);
	sqlite3_bind_text(st, 1, lesson, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 0);
		const char *sp = text ? strchr(text, ' ') : NULL;
		*current = text && strncmp(text, "current ", 8) == 0;
		*step = sp ? atoi(sp + 1) : 0;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? GL_OK : sql_error(db, "reading lesson progress", err);
}

int gl_store_lesson_goto(struct gl_store *s, const char *lesson, int step, struct gl_err *err)
{
	sqlite3 *db = s->db;
	char bookmark[32];
	snprintf(bookmark, sizeof bookmark, "current %d", step);
	int rc = exec(db, "BEGIN IMMEDIATE", NULL, NULL, 0, "saving lesson progress", err);
	if (rc)
		return rc;
	rc = exec(db,
		  "UPDATE lesson_progress SET status = 'paused ' || substr(status, 9) "
		  "WHERE step = 0 AND status LIKE 'current %' AND lesson <> ?1",
		  lesson, NULL, 0, "saving lesson progress", err);
	if (rc == GL_OK)
		rc = exec(db, "INSERT OR REPLACE INTO lesson_progress VALUES (?1, 0, ?2, " NOW ")", lesson, bookmark, 0,
			  "saving lesson progress", err);
	if (rc == GL_OK)
		rc = exec(db, "INSERT OR IGNORE INTO lesson_progress VALUES (?1, ?3, ?2, " NOW ")", lesson, "seen", step,
			  "saving lesson progress", err);
	if (rc == GL_OK)
		return exec(db, "COMMIT", NULL, NULL, 0, "saving lesson progress", err);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int gl_store_lesson_mark(struct gl_store *s, const char *lesson, int step, enum gl_lesson_status st,
			 struct gl_err *err)
{
	sqlite3 *db = s->db;
	return exec(db, "INSERT OR REPLACE INTO lesson_progress VALUES (?1, ?3, ?2, " NOW ")", lesson, status_names[st],
		    step, "saving lesson progress", err);
}

int gl_store_lesson_steps(struct gl_store *s, const char *lesson, enum gl_lesson_status *out, int n,
			  struct gl_err *err)
{
	sqlite3 *db = s->db;
	sqlite3_stmt *st;
	for (int i = 0; i < n; i++)
		out[i] = GL_LESSON_UNSEEN;
	if (sqlite3_prepare_v2(db, "SELECT step, status FROM lesson_progress WHERE lesson = ?1 AND step > 0", -1, &st,
			       NULL) != SQLITE_OK)
		return sql_error(db, "reading lesson progress", err);
	sqlite3_bind_text(st, 1, lesson, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int step = sqlite3_column_int(st, 0);
		const char *text = (const char *)sqlite3_column_text(st, 1);
		for (int k = GL_LESSON_SEEN; text && step >= 1 && step <= n && k <= GL_LESSON_FAILED; k++)
			if (strcmp(text, status_names[k]) == 0)
				out[step - 1] = (enum gl_lesson_status)k;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? GL_OK : sql_error(db, "reading lesson progress", err);
}

int gl_store_lesson_reset(struct gl_store *s, const char *lesson, struct gl_err *err)
{
	sqlite3 *db = s->db;
	return exec(db, "DELETE FROM lesson_progress WHERE lesson = ?1", lesson, NULL, 0, "resetting lesson progress",
		    err);
}
