/* view_source.c — the trace a view shows, read from the results store: which launch (the latest of a
 * topic/variant/problem that was traced) and its events, problem, costs and buffers. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "store/store.h"
#include "view_trace.h"

static int sql_error(struct gl_store *s, const char *what, struct gl_err *err)
{
	return gl_errf(err, GL_EENV, "%s in %s: %s", what, gl_store_file(s), sqlite3_errmsg(gl_store_db(s)));
}

int view_find_traced_launch(struct gl_store *s, const char *topic, const char *variant, const char *params_json,
                            long *launch_id, struct gl_err *err)
{
	sqlite3_stmt *st;
	*launch_id = 0;
	if (sqlite3_prepare_v2(gl_store_db(s),
	                       "SELECT l.id FROM launches l WHERE l.topic = ?1 AND l.variant = ?2 "
	                       "AND (?3 IS NULL OR l.params_json = ?3) "
	                       "AND EXISTS (SELECT 1 FROM trace_events t WHERE t.launch_id = l.id) "
	                       "ORDER BY l.id DESC LIMIT 1",
	                       -1, &st, NULL) != SQLITE_OK)
		return sql_error(s, "looking for a stored trace", err);
	sqlite3_bind_text(st, 1, topic, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, variant, -1, SQLITE_STATIC);
	if (params_json)
		sqlite3_bind_text(st, 3, params_json, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 3);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*launch_id = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return sql_error(s, "looking for a stored trace", err);
	return GL_OK;
}

static void parse_xyz(const unsigned char *text, unsigned v[3])
{
	v[0] = v[1] = v[2] = 1;
	if (text)
		sscanf((const char *)text, "%u,%u,%u", &v[0], &v[1], &v[2]);
}

static void col_text(sqlite3_stmt *st, int i, char *buf, size_t n)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	snprintf(buf, n, "%s", t ? (const char *)t : "");
}

static int load_launch_row(struct gl_store *s, long id, struct view_trace *tr, struct gl_err *err)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(gl_store_db(s),
	                       "SELECT topic, variant, params_json, grid, block, dyn_smem, run_id FROM launches "
	                       "WHERE id = ?",
	                       -1, &st, NULL) != SQLITE_OK)
		return sql_error(s, "reading the launch", err);
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		tr->launch_id = id;
		col_text(st, 0, tr->topic, sizeof tr->topic);
		col_text(st, 1, tr->variant, sizeof tr->variant);
		col_text(st, 2, tr->params_json, sizeof tr->params_json);
		parse_xyz(sqlite3_column_text(st, 3), tr->grid);
		parse_xyz(sqlite3_column_text(st, 4), tr->block);
		tr->dyn_smem = (unsigned)sqlite3_column_int(st, 5);
		tr->run_id = (long)sqlite3_column_int64(st, 6);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return gl_errf(err, GL_EUSAGE, "no launch %ld in %s", id, gl_store_file(s));
	return rc == SQLITE_ROW ? GL_OK : sql_error(s, "reading the launch", err);
}

/* What loading from the store and from a record share: the topic, its problem and the buffers. */
static int finish(struct view_trace *tr, struct gl_err *err)
{
	tr->t = gl_topic_find(tr->topic);
	if (tr->t)
		view_params_parse(tr->t, tr->params_json, &tr->problem);
	int rc = view_buffers_build(tr, err);
	if (rc)
		view_trace_free(tr);
	return rc;
}

int view_load(struct gl_store *s, long launch_id, struct view_trace *tr, struct gl_err *err)
{
	memset(tr, 0, sizeof *tr);
	int rc = load_launch_row(s, launch_id, tr, err);
	if (rc == GL_OK)
		rc = gl_store_load_trace(s, launch_id, &tr->ev, &tr->n, err);
	if (rc == GL_OK && !tr->n)
		rc = gl_errf(err, GL_EUSAGE, "launch %ld has no trace (run it with --trace on the simulator)",
		             launch_id);
	if (rc) {
		view_trace_free(tr);
		return rc;
	}
	snprintf(tr->origin, sizeof tr->origin, "stored trace: run %ld, launch %ld", tr->run_id, launch_id);
	return finish(tr, err);
}

int view_from_record(const struct gl_launch_record *rec, struct view_trace *tr, struct gl_err *err)
{
	memset(tr, 0, sizeof *tr);
	snprintf(tr->topic, sizeof tr->topic, "%s", rec->topic);
	snprintf(tr->variant, sizeof tr->variant, "%s", rec->variant);
	snprintf(tr->params_json, sizeof tr->params_json, "%s", rec->params_json ? rec->params_json : "{}");
	memcpy(tr->grid, rec->grid, sizeof tr->grid);
	memcpy(tr->block, rec->block, sizeof tr->block);
	tr->dyn_smem = rec->dyn_smem;
	if (!rec->ntrace)
		return gl_errf(err, GL_EUSAGE, "%s %s made no memory accesses the trace could record", rec->topic,
		               rec->variant);
	tr->ev = gl_xmalloc((size_t)rec->ntrace * sizeof *tr->ev);
	memcpy(tr->ev, rec->trace, (size_t)rec->ntrace * sizeof *tr->ev);
	tr->n = rec->ntrace;
	snprintf(tr->origin, sizeof tr->origin, "no stored trace: recorded now on the simulator");
	return finish(tr, err);
}
