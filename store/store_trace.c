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

/* One trace_events row into e; what is wrong with its form (it is checked against the launch afterwards,
 * by gl_store_check_trace), or NULL. */
static const char *row_to_event(sqlite3_stmt *st, struct gl_trace_event *e)
{
	memset(e, 0, sizeof *e);
	const char *space = (const char *)sqlite3_column_text(st, 5), *op = (const char *)sqlite3_column_text(st, 6);
	int sp = space ? gl_trace_space_parse(space) : -1, o = op ? gl_trace_op_parse(op) : -1;
	long long block = sqlite3_column_int64(st, 1), warp = sqlite3_column_int64(st, 2);
	long long bytes = sqlite3_column_int64(st, 7), mask = sqlite3_column_int64(st, 10);
	long long pc = sqlite3_column_int64(st, 3), line = sqlite3_column_int64(st, 4), cost = sqlite3_column_int64(st, 14);
	e->seq = (uint32_t)sqlite3_column_int64(st, 0);
	if (sp < 0 || o < 0)
		return "an unknown space or operation";
	if (block < 0 || block > UINT32_MAX || warp < 0 || warp > 32 || bytes < 0 || bytes > 16 || mask < 0 ||
	    mask > UINT32_MAX || pc < 0 || pc > UINT32_MAX || line < 0 || line > UINT32_MAX || cost < 0 || cost > UINT32_MAX)
		return "a block, warp, pc, line, size, mask or cost out of range";
	e->block = (uint32_t)block;
	e->warp = (uint32_t)warp;
	e->pc = (uint32_t)pc;
	e->line = (uint32_t)line;
	e->space = (uint8_t)sp;
	e->op = (uint8_t)o;
	e->bytes = (uint8_t)bytes;
	e->mask = (uint32_t)mask;
	e->cost = (uint32_t)cost;
	e->addr_base = (uint64_t)sqlite3_column_int64(st, 8);
	e->strided = sqlite3_column_type(st, 9) != SQLITE_NULL;
	e->addr_stride = e->strided ? sqlite3_column_int64(st, 9) : 0;
	const char *buf = (const char *)sqlite3_column_text(st, 11);
	snprintf(e->buffer, sizeof e->buffer, "%s", buf ? buf : "");
	e->buffer_base = (uint64_t)sqlite3_column_int64(st, 13);
	const void *blob = sqlite3_column_blob(st, 12);
	if (!e->strided && (!blob || sqlite3_column_bytes(st, 12) != (int)sizeof e->addrs))
		return "neither a stride nor 32 lane addresses";
	if (!e->strided)
		memcpy(e->addrs, blob, sizeof e->addrs);
	else
		for (int l = 0; l < 32; l++)
			e->addrs[l] = e->addr_base + (uint64_t)e->addr_stride * (uint64_t)l; /* modulo 2^64, like the simulator */
	return NULL;
}

/* Events of one launch at most, refused before any is read (memory): a trace keeps GL_SIM_TRACE_CTAS x
 * GL_SIM_TRACE_LIMIT (2 x 50,000) events by default. */
#define MAX_EVENTS 4000000u

static int count_events(struct gl_store *s, long launch_id, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM trace_events WHERE launch_id = ?", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "reading the trace", err);
	sqlite3_bind_int64(st, 1, launch_id);
	rc = sqlite3_step(st);
	long long n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return gl_store_sql_error(s, rc, "reading the trace", err);
	if (n > MAX_EVENTS)
		return gl_store_bad_row(s, "launch", launch_id, err, "has %lld trace events, more than the %u gpulab "
					"reads for one launch", n, MAX_EVENTS);
	return GL_OK;
}

int gl_store_load_trace(struct gl_store *s, long launch_id, struct gl_trace_event **events, uint32_t *n,
			struct gl_err *err)
{
	*events = NULL;
	*n = 0;
	int rc = count_events(s, launch_id, err);
	if (rc)
		return rc;
	sqlite3_stmt *st;
	rc = sqlite3_prepare_v2(s->db,
				"SELECT seq, block, warp, pc, line, space, op, bytes, addr_base, addr_stride, mask, "
				"buffer, addrs, buffer_base, cost FROM trace_events WHERE launch_id = ? ORDER BY seq",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "reading the trace", err);
	sqlite3_bind_int64(st, 1, launch_id);
	uint32_t cap = 0;
	const char *bad = NULL;
	while (!bad && *n < MAX_EVENTS && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			*events = gl_xrealloc(*events, cap * sizeof **events);
		}
		bad = row_to_event(st, &(*events)[(*n)++]);
	}
	sqlite3_finalize(st);
	if (bad || rc != SQLITE_DONE) {
		uint32_t seq = *n ? (*events)[*n - 1].seq : 0;
		free(*events);
		*events = NULL;
		*n = 0;
		if (bad)
			return gl_store_bad_row(s, "the trace of launch", launch_id, err, "has an event (seq %u) with %s",
						seq, bad);
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
	int bad = GL_OK;
	if (rc == SQLITE_ROW) {
		out->launch_id = id;
		gl_store_col_text(st, 0, out->topic, sizeof out->topic);
		gl_store_col_text(st, 1, out->variant, sizeof out->variant);
		const char *params = (const char *)sqlite3_column_text(st, 2);
		long long dyn = sqlite3_column_int64(st, 5);
		bad = gl_store_check_params(s, "launch", id, params ? params : "{}", err);
		if (bad == GL_OK && params && strlen(params) >= sizeof out->params_json)
			bad = gl_store_bad_row(s, "launch", id, err, "has params_json of %zu bytes, more than a traced "
					       "launch's %zu", strlen(params), sizeof out->params_json - 1);
		snprintf(out->params_json, sizeof out->params_json, "%s", params ? params : "{}");
		if (bad == GL_OK)
			bad = gl_store_grid_block(s, "launch", id, sqlite3_column_text(st, 3), sqlite3_column_text(st, 4),
						  out->grid, out->block, err);
		if (bad == GL_OK && (dyn < 0 || dyn > (1 << 20)))
			bad = gl_store_bad_row(s, "launch", id, err, "has dyn_smem = %lld, out of range", dyn);
		out->dyn_smem = (unsigned)dyn;
		out->run_id = (long)sqlite3_column_int64(st, 6);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return gl_errf(err, GL_EUSAGE, "no launch %ld in %s", id, s->path);
	return rc != SQLITE_ROW ? read_error(s, "reading the launch", err) : bad;
}

int gl_store_load_traced_launch(struct gl_store *s, long launch_id, struct gl_traced_launch *out, struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	int rc = load_launch_row(s, launch_id, out, err);
	if (rc == GL_OK)
		rc = gl_store_load_trace(s, launch_id, &out->ev, &out->n, err);
	if (rc == GL_OK)
		rc = gl_store_load_buffers(s, launch_id, &out->buffers, &out->nbuffers, err);
	if (rc == GL_OK) /* the events against the launch's geometry and buffer map */
		rc = gl_store_check_trace(s, out, err);
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
