/* store_trace.c — trace events of a launch: written inside the run's transaction, read back in order
 * for the views and lessons.  Lane addresses are stored as base + stride when every active lane
 * follows it, else as a blob of 32 little-endian u64. */
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
