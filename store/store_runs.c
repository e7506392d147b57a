/* store_runs.c — the stored runs as `gpulab runs` lists them: run_summary's rows, newest first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "store/store_int.h"

static void text_col(sqlite3_stmt *st, int i, char *buf, size_t n)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	snprintf(buf, n, "%s", t ? (const char *)t : "");
}

int gl_store_list_runs(struct gl_store *s, const char *topic, long limit, struct gl_run_row **rows, size_t *n,
		       struct gl_err *err)
{
	*rows = NULL;
	*n = 0;
	sqlite3_stmt *st;
	int r = sqlite3_prepare_v2(s->db,
				   "SELECT run_id, started_at, status, backend, device, topic, variants, params_json, "
				   "launches, failed FROM run_summary WHERE (?1 IS NULL OR topic = ?1) "
				   "ORDER BY run_id DESC LIMIT ?2",
				   -1, &st, NULL);
	if (r != SQLITE_OK)
		return gl_store_sql_error(s, r, "preparing the list of runs", err);
	if (topic)
		sqlite3_bind_text(st, 1, topic, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, limit > 0 ? limit : -1);
	size_t cap = 0;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*rows = gl_xrealloc(*rows, cap * sizeof **rows);
		}
		struct gl_run_row *w = &(*rows)[(*n)++];
		memset(w, 0, sizeof *w);
		w->id = (long)sqlite3_column_int64(st, 0);
		text_col(st, 1, w->started_at, sizeof w->started_at);
		text_col(st, 2, w->status, sizeof w->status);
		text_col(st, 3, w->backend, sizeof w->backend);
		text_col(st, 4, w->device, sizeof w->device);
		text_col(st, 5, w->topic, sizeof w->topic);
		text_col(st, 6, w->variants, sizeof w->variants);
		text_col(st, 7, w->params_json, sizeof w->params_json);
		w->launches = (long)sqlite3_column_int64(st, 8);
		w->failed = (long)sqlite3_column_int64(st, 9);
	}
	sqlite3_finalize(st);
	if (r != SQLITE_DONE) {
		free(*rows);
		*rows = NULL;
		*n = 0;
		return gl_store_sql_error(s, r, "reading the list of runs", err);
	}
	return GL_OK;
}
