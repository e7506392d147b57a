/* store_buffers.c — a launch's buffer map (launch_buffers, data/migrate_3.sql): written with the launch
 * inside the run's transaction, read back with its trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "store/store_int.h"

int gl_store_insert_buffers(struct gl_store *s, long launch_id, const struct gl_buffer_desc *b, int n,
			    struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db,
				    "INSERT INTO launch_buffers (launch_id, seq, name, shared, base, bytes, dtype, elem, "
				    "rows, cols) VALUES (?,?,?,?,?,?,?,?,?,?)",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "preparing the buffer map insert", err);
	for (int i = 0; i < n && rc == SQLITE_OK; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, launch_id);
		sqlite3_bind_int(st, 2, i);
		sqlite3_bind_text(st, 3, b[i].name, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 4, b[i].shared ? 1 : 0);
		sqlite3_bind_int64(st, 5, (sqlite3_int64)b[i].base);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)b[i].bytes);
		sqlite3_bind_text(st, 7, b[i].dtype[0] ? b[i].dtype : "b32", -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 8, (int)b[i].elem);
		sqlite3_bind_int64(st, 9, b[i].rows);
		sqlite3_bind_int64(st, 10, b[i].cols);
		int r = sqlite3_step(st);
		rc = r == SQLITE_DONE ? SQLITE_OK : r;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? GL_OK : gl_store_sql_error(s, rc, "recording the buffer map", err);
}

int gl_store_load_buffers(struct gl_store *s, long launch_id, struct gl_buffer_desc **out, int *n,
			  struct gl_err *err)
{
	sqlite3_stmt *st;
	*out = NULL;
	*n = 0;
	int rc = sqlite3_prepare_v2(s->db,
				    "SELECT name, shared, base, bytes, dtype, elem, rows, cols FROM launch_buffers "
				    "WHERE launch_id = ? ORDER BY seq",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "reading the buffer map", err);
	sqlite3_bind_int64(st, 1, launch_id);
	int bad = GL_OK;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == GL_STORE_MAX_BUFFERS) {
			bad = gl_store_bad_row(s, "launch", launch_id, err, "has more than the %d buffers a launch maps",
					       GL_STORE_MAX_BUFFERS);
			break;
		}
		*out = gl_xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
		struct gl_buffer_desc *b = &(*out)[(*n)++];
		memset(b, 0, sizeof *b);
		gl_store_col_text(st, 0, b->name, sizeof b->name);
		long long shared = sqlite3_column_int64(st, 1), elem = sqlite3_column_int64(st, 5);
		b->shared = shared == 0 ? 0 : shared == 1 ? 1 : -1; /* anything else is refused below */
		b->base = (uint64_t)sqlite3_column_int64(st, 2);
		b->bytes = (uint64_t)sqlite3_column_int64(st, 3);
		gl_store_col_text(st, 4, b->dtype, sizeof b->dtype);
		b->elem = elem < 0 || elem > 16 ? 0 : (unsigned)elem;
		b->rows = (long)sqlite3_column_int64(st, 6);
		b->cols = (long)sqlite3_column_int64(st, 7);
	}
	sqlite3_finalize(st);
	if (bad == GL_OK && rc != SQLITE_DONE)
		bad = gl_store_sql_error(s, rc, "reading the buffer map", err);
	if (bad == GL_OK)
		bad = gl_store_check_buffers(s, launch_id, *out, *n, err);
	if (bad != GL_OK) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return bad;
}
