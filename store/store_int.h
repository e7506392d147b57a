/* store_int.h — what the store's own files share (not part of the public API in store.h):
 * the store handle, the sqlite error mapping and the schema steps. */
#ifndef GL_STORE_INT_H
#define GL_STORE_INT_H

#include <limits.h>
#include <sqlite3.h>

#include "store/store.h"

#define GL_STORE_BUSY_MS 5000
#define GL_STORE_APP_ID 1196444738 /* 'GPLB', set by data/schema.sql */

struct gl_store {
	sqlite3 *db;
	char path[PATH_MAX];
	int readonly;
	int busy_ms;
	long run_id; /* the run whose transaction is open, 0 when none */
	int busy;    /* the last sqlite failure was a lock held by another connection */
	long wait_ms; /* how long a write waits out other writers' locks before giving up */
};

/* One write step retried by gl_store_retry_locked; it must leave no transaction open when it fails. */
typedef int (*gl_store_step)(struct gl_store *s, void *arg, struct gl_err *err);

/* Run `step` until it succeeds, fails for another reason than a lock, or s->wait_ms passes (then s->busy
 * is still set), printing a line on stderr every few seconds while it waits.  `what` completes "waiting
 * to ...". */
int gl_store_retry_locked(struct gl_store *s, const char *what, gl_store_step step, void *arg,
			  struct gl_err *err);

/* The wait bound: $GPULAB_LOCK_WAIT_S seconds, default 600. */
long gl_store_lock_wait_ms(void);

/* Turn a failed sqlite call into a gl_err naming the path, what was being done and what to do.
 * Locks, permissions, full disks and damaged files are GL_EENV; anything else is GL_EINTERNAL. */
int gl_store_sql_error(struct gl_store *s, int rc, const char *doing, struct gl_err *err);

/* Run SQL without results (no values: only constant statements). */
int gl_store_exec(struct gl_store *s, const char *sql, const char *doing, struct gl_err *err);
/* Run one statement with ?1 = a and ?2 = b (integers) and, when text is not NULL, ?3 = text (binding an
 * index past the statement's is a harmless SQLITE_RANGE); for an INSERT, *id (when asked) receives the
 * new rowid. */
int gl_store_exec_bound(struct gl_store *s, const char *sql, long a, long b, const char *text, long *id,
			const char *doing, struct gl_err *err);

/* Check the opened file is gpulab's (or empty) and bring its schema to the version this binary knows;
 * read-only stores are checked but never migrated. */
int gl_store_schema_prepare(struct gl_store *s, struct gl_err *err);

/* The checks of gl_store_schema_prepare alone: is the opened file gpulab's, at a version this binary can
 * use (an older one is upgraded by writers); reads only. */
int gl_store_schema_check(struct gl_store *s, struct gl_err *err);

/* A private in-memory database with gpulab's schema at `version` (the migration steps run in it). */
int gl_store_reference_schema(int version, sqlite3 **out);

/* The schema version this binary writes. */
int gl_store_schema_version(void);

/* Create the directories above `path` (mkdir -p of its parent). */
int gl_store_make_parent_dirs(const char *path, struct gl_err *err);

/* Whether gl_store_make_parent_dirs and creating the file would work, creating nothing: the nearest
 * existing directory above `path` must be a directory this user can write. */
int gl_store_check_creatable(const char *path, struct gl_err *err);

/* Step `st` to the end, printing its rows to `out` in `fmt`; returns SQLITE_DONE or the failing code. */
int gl_store_print_rows(sqlite3_stmt *st, enum gl_query_format fmt, FILE *out);

/* ---- checks on rows read back (store_check.c): every loader calls them before a reader sees a value.
 * Each returns GL_OK, or GL_EUSAGE with a sentence naming the database, the table, the row and the value. */
int gl_store_bad_row(struct gl_store *s, const char *table, long id, struct gl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* "X,Y,Z": three numbers, each min..max[i]. */
int gl_store_parse_xyz(struct gl_store *s, const char *table, long id, const char *column, const unsigned char *text,
		       unsigned min, const unsigned max[3], unsigned v[3], struct gl_err *err);
/* A launch's grid and block columns: within CUDA's limits, at most 1024 threads a block. */
int gl_store_grid_block(struct gl_store *s, const char *table, long id, const unsigned char *grid,
			const unsigned char *block, unsigned g[3], unsigned b[3], struct gl_err *err);
/* params_json: one well-formed JSON object of at most 4 KiB (printers copy it into --json output). */
int gl_store_check_params(struct gl_store *s, const char *table, long id, const char *json, struct gl_err *err);
/* A launches row as loaded (grid and block already parsed): every number within its range. */
int gl_store_check_launch(struct gl_store *s, long id, const struct gl_launch_record *l, struct gl_err *err);
/* A sanitizer finding of launch l: coordinates inside the launch, line, count and size in range. */
int gl_store_check_finding(struct gl_store *s, long launch_id, const struct gl_launch_record *l,
			   const struct gl_finding *f, struct gl_err *err);
#define GL_STORE_MAX_BUFFERS 64 /* buffers and shared arrays of one launch's map */
#define GL_STORE_MAX_OUTPUT (4ull << 30) /* bytes of one output buffer of a shard (gpulab sim's buffers: 4 GiB) */
/* A launch_outputs row of launch_id: its size within bounds and its segments well-formed inside it. */
int gl_store_check_outputs(struct gl_store *s, long launch_id, const char *name, long long bytes, const void *segs,
			   size_t len, struct gl_err *err);
/* What `gpulab import` and `merge` accept from another database (store_import.c): its schema objects are
 * gpulab's own (real tables, gpulab's views with gpulab's SQL, no triggers), its size is within the bounds a
 * merge takes on before it locks the target, and every row of every finished run passes the loaders'
 * checks above. */
int gl_store_check_source(struct gl_store *src, struct gl_err *err);
/* The ids of `sql`'s first column (with ?1 = a), in order; the caller frees *ids (store_import.c). */
int gl_store_ids(struct gl_store *s, const char *sql, long a, long **ids, size_t *n, struct gl_err *err);
/* The directory a database path lies in ("." for a bare name; "/" for one directly under it). */
void gl_store_parent_dir(const char *path, char *dir, size_t n);
/* A buffer map: names, element sizes, no overflow, shapes within their bytes, no name twice per space. */
int gl_store_check_buffers(struct gl_store *s, long launch_id, const struct gl_buffer_desc *b, int n,
			   struct gl_err *err);
/* A traced launch's events against its geometry and buffer map: CTA within the grid, warp and lanes within
 * the block, access size, and the first active lane inside the buffer the event names. */
int gl_store_check_trace(struct gl_store *s, const struct gl_traced_launch *l, struct gl_err *err);

/* Write a launch's trace events (inside the open run). */
int gl_store_insert_trace(struct gl_store *s, long launch_id, const struct gl_trace_event *ev, uint32_t n,
			  struct gl_err *err);

/* A launch's sanitizer findings (store_findings.c): written inside the open run, read back in order. */
int gl_store_insert_findings(struct gl_store *s, long launch_id, const struct gl_launch_record *l, struct gl_err *err);
int gl_store_load_findings(struct gl_store *s, long launch_id, struct gl_launch_record *l, struct gl_err *err);

/* Write / read a launch's guidance (store_guidance.c, schema 4). */
int gl_store_insert_guidance(struct gl_store *s, long launch_id, const struct gl_launch_record *l, struct gl_err *err);
int gl_store_load_guidance(struct gl_store *s, long launch_id, struct gl_launch_record *l, struct gl_err *err);

/* Write / read a launch's buffer map (store_buffers.c); a launch stored before schema 3 reads as none. */
int gl_store_insert_buffers(struct gl_store *s, long launch_id, const struct gl_buffer_desc *b, int n,
			    struct gl_err *err);
int gl_store_load_buffers(struct gl_store *s, long launch_id, struct gl_buffer_desc **out, int *n,
			  struct gl_err *err);

#define GL_MAX_OUTPUTS_JOINED 16 /* output buffers of one launch (GL_MAX_BUFFERS) */
/* Write a partial launch's output segments (store_assemble.c). */
int gl_store_insert_outputs(struct gl_store *s, long launch_id, const struct gl_output_bytes *o, int n,
			    struct gl_err *err);

/* Column i as text into buf ("" for NULL). */
void gl_store_col_text(sqlite3_stmt *st, int i, char *buf, size_t n);

/* A new random UUID ("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx"), and 16 bytes formatted as one. */
void gl_store_new_uuid(char *buf, size_t n);
void gl_store_format_uuid(const unsigned char b[16], char *buf, size_t n);

/* The current UTC time as ISO-8601 ("2025-01-31T12:00:00Z"). */
void gl_store_utc_now(char *buf, size_t n);

#endif
