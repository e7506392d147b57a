/* store_import.c — `gpulab import` and `gpulab merge`: copy the runs of another gpulab database (a spool
 * file written when the database stayed locked, or a sweep's shard) into this one, in one transaction,
 * with new ids for runs and launches and the file they came from.  A run is known by its UUID, so a file
 * merged twice adds nothing the second time. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>

#include "common/util.h"
#include "store/store_int.h"

struct import_args {
	const char *file; /* recorded as each copied run's merged_from (unless the run already names one) */
	int imported, skipped;
};

static const char run_cols[] = "started_at, finished_at, status, backend, device, chip, sm_count, cc, driver, "
			       "cupti_version, gpulab_version, host, argv, uuid, sweep_id, slurm_job_id, slurm_task_id, "
			       "backend_note";
static const char launch_cols[] = "topic, variant, params_json, grid, block, dyn_smem, regs, static_smem, "
				  "verified, max_abs_err, max_rel_err, duration_ns, metric_source, note, "
				  "sanitizer_errors, sanitizer_warnings, sanitizer_dropped, cta_first, cta_end";
static const char metric_cols[] = "name, value, unit, source";
static const char trace_cols[] = "seq, block, warp, pc, line, space, op, bytes, addr_base, addr_stride, mask, "
				 "buffer, buffer_base, cost, addrs";
static const char finding_cols[] = "seq, kind, tool, severity, space, line, cuda_line, count, address, size, "
						 "block, thread, samples, message";

/* The ids of `sql`'s first column (with ?1 = a), in order; the caller frees *ids. */
static int ids_of(struct gl_store *s, const char *sql, long a, long **ids, size_t *n, struct gl_err *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	*ids = NULL;
	*n = 0;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "reading the file to import", err);
	sqlite3_bind_int64(st, 1, a);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap)
			*ids = gl_xrealloc(*ids, (cap = cap ? 2 * cap : 16) * sizeof **ids);
		(*ids)[(*n)++] = (long)sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? GL_OK : gl_store_sql_error(s, rc, "reading the file to import", err);
}

/* A file written before schema 3 has no launch_buffers table: its launches come without a buffer map;
 * one written before schema 5 has no launch_guidance. */
static bool spool_has_table(struct gl_store *s, const char *table)
{
	sqlite3_stmt *st;
	bool yes = false;
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM spool.sqlite_master WHERE name = ?", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		yes = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	return yes;
}

/* A file written before schema 4 has no launches.part: every launch in it is a single-launch variant. */
static bool spool_has_parts(struct gl_store *s)
{
	sqlite3_stmt *st;
	bool yes = false;
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM pragma_table_info('launches', 'spool') WHERE name = 'part'", -1,
			       &st, NULL) == SQLITE_OK) {
		yes = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	return yes;
}

static int copy_launch(struct gl_store *s, long run, long old, struct gl_err *err)
{
	char sql[1024];
	long id;
	/* launches are copied in id order, so a multi-launch variant's parts stay after its row */
	const char *parts = spool_has_parts(s) ? ", part, entry" : "";
	snprintf(sql, sizeof sql,
		 "INSERT INTO main.launches (run_id, %s%s) SELECT ?1, %s%s FROM spool.launches WHERE id = ?2", launch_cols,
		 parts, launch_cols, parts);
	int rc = gl_store_exec_bound(s, sql, run, old, NULL, &id, "importing a launch", err);
	snprintf(sql, sizeof sql,
		 "INSERT INTO main.metrics (launch_id, %s) SELECT ?1, %s FROM spool.metrics WHERE launch_id = ?2",
		 metric_cols, metric_cols);
	if (rc == GL_OK)
		rc = gl_store_exec_bound(s, sql, id, old, NULL, NULL, "importing metrics", err);
	snprintf(sql, sizeof sql,
		 "INSERT INTO main.trace_events (launch_id, %s) SELECT ?1, %s FROM spool.trace_events "
		 "WHERE launch_id = ?2 ORDER BY seq",
		 trace_cols, trace_cols);
	if (rc == GL_OK)
		rc = gl_store_exec_bound(s, sql, id, old, NULL, NULL, "importing trace events", err);
	snprintf(sql, sizeof sql,
		 "INSERT INTO main.sanitizer_findings (launch_id, %s) SELECT ?1, %s FROM spool.sanitizer_findings "
		 "WHERE launch_id = ?2 ORDER BY seq",
		 finding_cols, finding_cols);
	if (rc == GL_OK)
		rc = gl_store_exec_bound(s, sql, id, old, NULL, NULL, "importing sanitizer findings", err);
	if (rc == GL_OK)
		rc = gl_store_exec_bound(s,
					 "INSERT INTO main.launch_outputs (launch_id, name, bytes, segments) SELECT ?1, name, bytes, "
					 "segments FROM spool.launch_outputs WHERE launch_id = ?2",
					 id, old, NULL, NULL, "importing a shard's outputs", err);
	if (rc == GL_OK && spool_has_table(s, "launch_guidance"))
		rc = gl_store_exec_bound(s,
					 "INSERT INTO main.launch_guidance (launch_id, seq, rule, severity, message, metric, value, "
					 "estimated_speedup) SELECT ?1, seq, rule, severity, message, metric, value, estimated_speedup "
					 "FROM spool.launch_guidance WHERE launch_id = ?2 ORDER BY seq",
					 id, old, NULL, NULL, "importing guidance", err);
	if (rc == GL_OK && spool_has_table(s, "launch_buffers"))
		rc = gl_store_exec_bound(s,
					 "INSERT INTO main.launch_buffers (launch_id, seq, name, shared, base, bytes, dtype, elem, rows, "
					 "cols) SELECT ?1, seq, name, shared, base, bytes, dtype, elem, rows, cols "
					 "FROM spool.launch_buffers WHERE launch_id = ?2 ORDER BY seq",
					 id, old, NULL, NULL, "importing the buffer map", err);
	return rc;
}

/* The run's UUID is its identity: the same run stored here already (merged or imported before). */
static int present(struct gl_store *s, long old, int *yes, struct gl_err *err)
{
	long *ids;
	size_t n;
	int rc = ids_of(s, "SELECT m.id FROM main.runs m JOIN spool.runs r ON r.id = ?1 AND m.uuid = r.uuid", old,
			&ids, &n, err);
	*yes = n > 0;
	free(ids);
	return rc;
}

static int copy_run_row(struct gl_store *s, long old, const char *file, long *run, struct gl_err *err)
{
	char sql[768];
	sqlite3_stmt *st;
	snprintf(sql, sizeof sql,
		 "INSERT INTO main.runs (%s, merged_from) SELECT %s, CASE WHEN merged_from = '' THEN ?2 "
		 "ELSE merged_from END FROM spool.runs WHERE id = ?1",
		 run_cols, run_cols);
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, old);
		sqlite3_bind_text(st, 2, file, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	if (rc != SQLITE_DONE)
		return gl_store_sql_error(s, rc, "copying a run", err);
	*run = (long)sqlite3_last_insert_rowid(s->db);
	return GL_OK;
}

static int copy_run(struct gl_store *s, long old, struct import_args *a, struct gl_err *err)
{
	int dup;
	int rc = present(s, old, &dup, err);
	if (rc != GL_OK || dup) {
		a->skipped += dup;
		return rc;
	}
	long run = 0, *launches = NULL;
	size_t n = 0;
	rc = copy_run_row(s, old, a->file, &run, err);
	if (rc == GL_OK)
		rc = ids_of(s, "SELECT id FROM spool.launches WHERE run_id = ?1 ORDER BY id", old, &launches, &n, err);
	for (size_t i = 0; rc == GL_OK && i < n; i++)
		rc = copy_launch(s, run, launches[i], err);
	free(launches);
	a->imported += rc == GL_OK;
	return rc;
}

static int import_once(struct gl_store *s, void *arg, struct gl_err *err)
{
	struct import_args *a = arg;
	long *runs;
	size_t n;
	a->imported = a->skipped = 0;
	int rc = gl_store_exec(s, "BEGIN IMMEDIATE", "starting the import's transaction", err);
	if (rc != GL_OK)
		return rc;
	rc = ids_of(s, "SELECT id FROM spool.runs WHERE finished_at IS NOT NULL ORDER BY id", 0, &runs, &n, err);
	for (size_t i = 0; rc == GL_OK && i < n; i++)
		rc = copy_run(s, runs[i], a, err);
	free(runs);
	if (rc == GL_OK)
		rc = gl_store_exec(s, "COMMIT", "committing the import", err);
	if (rc != GL_OK)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int attach(struct gl_store *s, const char *file, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "ATTACH DATABASE ?1 AS spool", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, file, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	return rc == SQLITE_DONE ? GL_OK : gl_store_sql_error(s, rc, "opening the file to import", err);
}

int gl_store_import(struct gl_store *s, const char *file, int *imported, int *skipped, struct gl_err *err)
{
	struct gl_store *src = NULL;
	char where[PATH_MAX];
	struct import_args a = {.file = realpath(file, where) ? where : file};
	if (s->readonly)
		return gl_errf(err, GL_EINTERNAL, "store %s was opened read-only; runs cannot be imported", s->path);
	if (same_file(file, s->path))
		return gl_errf(err, GL_EUSAGE, "%s is the database itself; pass the spool file to import", file);
	/* The file must be a gpulab database at this binary's schema version: the same checks as any reader. */
	int rc = gl_store_open(file, 1, &src, err);
	gl_store_close(src);
	if (rc == GL_OK)
		rc = attach(s, file, err);
	if (rc != GL_OK)
		return rc;
	rc = gl_store_retry_locked(s, "import the runs", import_once, &a, err);
	sqlite3_exec(s->db, "DETACH DATABASE spool", NULL, NULL, NULL);
	*imported = a.imported;
	*skipped = a.skipped;
	return rc;
}
