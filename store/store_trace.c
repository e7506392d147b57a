/* store_trace.c — trace events of a launch: written inside the run's transaction, read back in order
 * for the views and lessons.  Lane addresses are stored as base + stride when every active lane
 * follows it, else as a blob of 32 little-endian u64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "store/store_int.h"

int gl_store_insert_trace(struct gl_store *s, long launch_id, const struct gl_trace_event *ev, uint32_t n,
			  struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db,
				    "INSERT INTO trace_events (launch_id, seq, block, warp, pc, line, space, op, bytes, "
				    "addr_base, addr_stride, mask, buffer, addrs, buffer_base, cost) "
				    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "preparing the trace insert", err);
	for (uint32_t i = 0; i < n && rc == SQLITE_OK; i++) {
		const struct gl_trace_event *e = &ev[i];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, launch_id);
		sqlite3_bind_int64(st, 2, i);
		sqlite3_bind_int64(st, 3, e->block);
		sqlite3_bind_int64(st, 4, e->warp);
		sqlite3_bind_int64(st, 5, e->pc);
		sqlite3_bind_int64(st, 6, e->line);
		sqlite3_bind_text(st, 7, gl_trace_space_name(e->space), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 8, gl_trace_op_name(e->op), -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 9, e->bytes);
		sqlite3_bind_int64(st, 10, (sqlite3_int64)e->addr_base);
		if (e->strided)
			sqlite3_bind_int64(st, 11, e->addr_stride);
		else
			sqlite3_bind_null(st, 11);
		sqlite3_bind_int64(st, 12, e->mask);
		sqlite3_bind_text(st, 13, e->buffer, -1, SQLITE_STATIC);
		if (e->strided)
			sqlite3_bind_null(st, 14);
		else
			sqlite3_bind_blob(st, 14, e->addrs, sizeof e->addrs, SQLITE_STATIC);
		sqlite3_bind_int64(st, 15, (sqlite3_int64)e->buffer_base);
		sqlite3_bind_int64(st, 16, e->cost);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? GL_OK : gl_store_sql_error(s, rc, "recording the trace", err);
}

static void row_to_event(sqlite3_stmt *st, struct gl_trace_event *e)
{
	memset(e, 0, sizeof *e);
	e->seq = (uint32_t)sqlite3_column_int64(st, 0);
	e->block = (uint32_t)sqlite3_column_int64(st, 1);
	e->warp = (uint32_t)sqlite3_column_int64(st, 2);
	e->pc = (uint32_t)sqlite3_column_int64(st, 3);
	e->line = (uint32_t)sqlite3_column_int64(st, 4);
	const char *space = (const char *)sqlite3_column_text(st, 5), *op = (const char *)sqlite3_column_text(st, 6);
	e->space = (uint8_t)(space && gl_trace_space_parse(space) >= 0 ? gl_trace_space_parse(space) : 0);
	e->op = (uint8_t)(op && gl_trace_op_parse(op) >= 0 ? gl_trace_op_parse(op) : 0);
	e->bytes = (uint8_t)sqlite3_column_int(st, 7);
	e->addr_base = (uint64_t)sqlite3_column_int64(st, 8);
	e->strided = sqlite3_column_type(st, 9) != SQLITE_NULL;
	e->addr_stride = e->strided ? sqlite3_column_int64(st, 9) : 0;
	e->mask = (uint32_t)sqlite3_column_int64(st, 10);
	const char *buf = (const char *)sqlite3_column_text(st, 11);
	snprintf(e->buffer, sizeof e->buffer, "%s", buf ? buf : "");
	e->buffer_base = (uint64_t)sqlite3_column_int64(st, 13);
	e->cost = (uint32_t)sqlite3_column_int64(st, 14);
	const void *blob = sqlite3_column_blob(st, 12);
	if (blob && sqlite3_column_bytes(st, 12) == (int)sizeof e->addrs)
		memcpy(e->addrs, blob, sizeof e->addrs);
	else
		for (int l = 0; l < 32; l++)
			e->addrs[l] = e->addr_base + (uint64_t)e->addr_stride * (uint64_t)l; /* modulo 2^64, like the simulator */
}

int gl_store_load_trace(struct gl_store *s, long launch_id, struct gl_trace_event **events, uint32_t *n,
			struct gl_err *err)
{
	*events = NULL;
	*n = 0;
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db,
				    "SELECT seq, block, warp, pc, line, space, op, bytes, addr_base, addr_stride, mask, "
				    "buffer, addrs, buffer_base, cost FROM trace_events WHERE launch_id = ? ORDER BY seq",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "reading the trace", err);
	sqlite3_bind_int64(st, 1, launch_id);
	uint32_t cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			*events = gl_xrealloc(*events, cap * sizeof **events);
		}
		row_to_event(st, &(*events)[(*n)++]);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*events);
		*events = NULL;
		*n = 0;
		return gl_store_sql_error(s, rc, "reading the trace", err);
	}
	return GL_OK;
}

static int read_error(struct gl_store *s, const char *what, struct gl_err *err)
{
	return gl_errf(err, GL_EENV, "%s in %s: %s", what, s->path, sqlite3_errmsg(s->db));
}

int gl_store_find_traced_launch(struct gl_store *s, const char *topic, const char *variant, const char *params_json,
				long *launch_id, struct gl_err *err)
{
	sqlite3_stmt *st;
	*launch_id = 0;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT l.id FROM launches l WHERE l.topic = ?1 AND l.variant = ?2 "
			       "AND (?3 IS NULL OR l.params_json = ?3) "
			       "AND EXISTS (SELECT 1 FROM trace_events t WHERE t.launch_id = l.id) "
			       "ORDER BY l.run_id DESC, l.id LIMIT 1", /* a multi-launch variant: its first launch */
			       -1, &st, NULL) != SQLITE_OK)
		return read_error(s, "looking for a stored trace", err);
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
		return read_error(s, "looking for a stored trace", err);
	return GL_OK;
}

static int load_launch_row(struct gl_store *s, long id, struct gl_traced_launch *out, struct gl_err *err)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT topic, variant, params_json, grid, block, dyn_smem, run_id FROM launches "
			       "WHERE id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return read_error(s, "reading the launch", err);
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->launch_id = id;
		gl_store_col_text(st, 0, out->topic, sizeof out->topic);
		gl_store_col_text(st, 1, out->variant, sizeof out->variant);
		gl_store_col_text(st, 2, out->params_json, sizeof out->params_json);
		gl_store_col_xyz(st, 3, out->grid);
		gl_store_col_xyz(st, 4, out->block);
		out->dyn_smem = (unsigned)sqlite3_column_int(st, 5);
		out->run_id = (long)sqlite3_column_int64(st, 6);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return gl_errf(err, GL_EUSAGE, "no launch %ld in %s", id, s->path);
	return rc == SQLITE_ROW ? GL_OK : read_error(s, "reading the launch", err);
}

int gl_store_load_traced_launch(struct gl_store *s, long launch_id, struct gl_traced_launch *out, struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	int rc = load_launch_row(s, launch_id, out, err);
	if (rc == GL_OK)
		rc = gl_store_load_trace(s, launch_id, &out->ev, &out->n, err);
	if (rc == GL_OK)
		rc = gl_store_load_buffers(s, launch_id, &out->buffers, &out->nbuffers, err);
	if (rc)
		gl_traced_launch_free(out);
	return rc;
}

void gl_traced_launch_free(struct gl_traced_launch *l)
{
	free(l->ev);
	free(l->buffers);
	memset(l, 0, sizeof *l);
}

static int one_long(struct gl_store *s, const char *sql, long a, long b, long *out, struct gl_err *err)
{
	sqlite3_stmt *st;
	*out = 0;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return read_error(s, "looking for a launch", err);
	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? GL_OK : read_error(s, "looking for a launch", err);
}

int gl_store_find_run_launch(struct gl_store *s, long run_id, long launch_id, long *id, struct gl_err *err)
{
	long n = 0;
	int rc = one_long(s, "SELECT COUNT(*) FROM runs WHERE id = ?1 AND ?2 = ?2", run_id, 0, &n, err);
	if (rc == GL_OK && !n)
		return gl_errf(err, GL_EUSAGE, "no run %ld in %s (see 'gpulab report')", run_id, s->path);
	if (rc == GL_OK && launch_id) {
		rc = one_long(s, "SELECT id FROM launches WHERE run_id = ?1 AND id = ?2", run_id, launch_id, id, err);
		if (rc == GL_OK && !*id)
			return gl_errf(err, GL_EUSAGE, "run %ld has no launch %ld (see 'gpulab report %ld --json')", run_id,
				       launch_id, run_id);
	} else if (rc == GL_OK) {
		rc = one_long(s,
			      "SELECT l.id FROM launches l WHERE l.run_id = ?1 AND ?2 = ?2 AND EXISTS "
			      "(SELECT 1 FROM trace_events t WHERE t.launch_id = l.id) ORDER BY l.id LIMIT 1",
			      run_id, 0, id, err);
		if (rc == GL_OK && !*id)
			return gl_errf(err, GL_EUSAGE,
				       "run %ld has no trace (record one with --trace: gpulab run ... --trace, "
				       "gpulab sim ... --trace)",
				       run_id);
	}
	return rc;
}
