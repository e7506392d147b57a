/* store_source.c — what `gpulab import` and `gpulab merge` accept from another database (a spool file, a
 * sweep's shard, anybody's file), checked with it open read-only before the target is touched:
 *  - its schema objects are gpulab's: no trigger (a trigger runs SQL of the file's author when gpulab
 *    reads or copies), and every view is one of gpulab's with gpulab's SQL (a view under a table's name was
 *    refused when it was opened: store_schema.c);
 *  - its size is within what a merge takes on: the rows of each table are counted and bounded, so a merge
 *    never holds the target's write lock for longer than copying that much takes;
 *  - every row that would be copied passes the checks every reader applies (store_check.c): each finished
 *    run is loaded as `report` loads it, each traced launch as a view loads it, and each shard's outputs
 *    and CTA range are checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "store/store_int.h"

/* Rows one source may hold (the largest sweep shards hold far fewer). */
static const struct {
	const char *table;
	long long max;
} bounds[] = {
	{"runs", 100000},           {"launches", 1000000},         {"metrics", 50000000},
	{"trace_events", 50000000}, {"sanitizer_findings", 2000000}, {"launch_buffers", 1000000},
	{"launch_guidance", 5000000}, {"launch_outputs", 1000000},
};

static int refused(struct gl_store *src, const char *why, struct gl_err *err)
{
	return gl_errf(err, GL_EUSAGE, "%s cannot be imported or merged: %s; gpulab copies only what it wrote itself",
		       src->path, why);
}

/* Triggers and views, against gpulab's own schema at the file's version. */
static int schema_objects(struct gl_store *src, struct gl_err *err)
{
	int version = 0;
	sqlite3 *ref = NULL;
	sqlite3_stmt *st = NULL, *q = NULL;
	char why[512] = "";
	if (sqlite3_prepare_v2(src->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	int rc = gl_store_reference_schema(version, &ref);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(src->db, "SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', "
					"'view') ORDER BY name", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(ref, "SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = ?1 AND sql = ?2",
					-1, &q, NULL);
	while (rc == SQLITE_OK && !why[0] && sqlite3_step(st) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0), *name = (const char *)sqlite3_column_text(st, 1);
		sqlite3_reset(q);
		sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_value(q, 2, sqlite3_column_value(st, 2));
		if (strcmp(type, "trigger") == 0 || sqlite3_step(q) != SQLITE_ROW)
			snprintf(why, sizeof why, "it has a %s '%.60s' that is not gpulab's", type, name ? name : "");
	}
	sqlite3_finalize(st);
	sqlite3_finalize(q);
	sqlite3_close(ref);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(src, rc, "reading its schema", err);
	return why[0] ? refused(src, why, err) : GL_OK;
}

static int count_rows(struct gl_store *src, struct gl_err *err)
{
	for (size_t i = 0; i < sizeof bounds / sizeof *bounds; i++) {
		char sql[96], why[160];
		sqlite3_stmt *st;
		snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", bounds[i].table); /* our names, not the file's */
		int rc = sqlite3_prepare_v2(src->db, sql, -1, &st, NULL);
		long long n = rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
		sqlite3_finalize(st);
		if (rc == SQLITE_OK && n < 0)
			rc = sqlite3_errcode(src->db);
		if (rc != SQLITE_OK)
			return gl_store_sql_error(src, rc, "counting its rows", err);
		if (n > bounds[i].max) {
			snprintf(why, sizeof why, "its table %s has %lld rows, more than the %lld one merge copies",
				 bounds[i].table, n, bounds[i].max);
			return refused(src, why, err);
		}
	}
	return GL_OK;
}

/* Every finished run as `report` loads it, and each of its launches with a trace or a map as a view does. */
static int load_everything(struct gl_store *src, struct gl_err *err)
{
	long *runs = NULL, *launches = NULL;
	size_t nruns = 0, nlaunches = 0;
	int rc = gl_store_ids(src, "SELECT id FROM runs WHERE finished_at IS NOT NULL ORDER BY id", 0, &runs, &nruns, err);
	for (size_t i = 0; rc == GL_OK && i < nruns; i++) {
		struct gl_run_record r;
		rc = gl_store_load_run(src, runs[i], &r, err);
		if (rc == GL_OK)
			gl_run_record_free(&r);
	}
	if (rc == GL_OK)
		rc = gl_store_ids(src, "SELECT l.id FROM launches l JOIN runs r ON r.id = l.run_id WHERE r.finished_at IS NOT "
			    "NULL AND (EXISTS (SELECT 1 FROM trace_events t WHERE t.launch_id = l.id) OR EXISTS (SELECT 1 "
			    "FROM launch_buffers b WHERE b.launch_id = l.id)) ORDER BY l.id", 0, &launches, &nlaunches, err);
	for (size_t i = 0; rc == GL_OK && i < nlaunches; i++) {
		struct gl_traced_launch t;
		rc = gl_store_load_traced_launch(src, launches[i], &t, err);
		if (rc == GL_OK)
			gl_traced_launch_free(&t);
	}
	free(runs);
	free(launches);
	return rc;
}

/* The CTA ranges of partial launches and the outputs they kept (what merge assembles). */
static int partial_launches(struct gl_store *src, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(src->db, "SELECT id, grid, block, cta_first, cta_end FROM launches WHERE cta_end "
				    "IS NOT NULL OR cta_first IS NOT NULL", -1, &st, NULL);
	int bad = GL_OK;
	while (rc == SQLITE_OK && bad == GL_OK && sqlite3_step(st) == SQLITE_ROW) {
		long id = (long)sqlite3_column_int64(st, 0);
		unsigned g[3], b[3];
		long long first = sqlite3_column_int64(st, 3), end = sqlite3_column_int64(st, 4);
		bad = gl_store_grid_block(src, "launch", id, sqlite3_column_text(st, 1), sqlite3_column_text(st, 2), g, b,
					  err);
		if (bad == GL_OK && (first < 0 || end <= first || (unsigned long long)end > (unsigned long long)g[0] * g[1] * g[2]))
			bad = gl_store_bad_row(src, "launch", id, err, "has the CTA range %lld:%lld, not inside its grid "
					       "of %u x %u x %u", first, end, g[0], g[1], g[2]);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc == SQLITE_OK && bad == GL_OK)
		rc = sqlite3_prepare_v2(src->db, "SELECT launch_id, name, bytes, segments FROM launch_outputs", -1, &st,
					NULL);
	while (rc == SQLITE_OK && bad == GL_OK && sqlite3_step(st) == SQLITE_ROW)
		bad = gl_store_check_outputs(src, (long)sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1),
					     sqlite3_column_int64(st, 2), sqlite3_column_blob(st, 3),
					     (size_t)sqlite3_column_bytes(st, 3), err);
	sqlite3_finalize(st);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(src, rc, "reading the shards' CTA ranges", err);
	return bad;
}

int gl_store_check_source(struct gl_store *src, struct gl_err *err)
{
	int rc = schema_objects(src, err);
	if (rc == GL_OK)
		rc = count_rows(src, err);
	if (rc == GL_OK)
		rc = load_everything(src, err);
	if (rc == GL_OK)
		rc = partial_launches(src, err);
	return rc;
}

int gl_store_check_import(const char *file, struct gl_err *err)
{
	struct gl_store *src = NULL;
	/* a gpulab database at this binary's schema version: the same checks as any reader, then the above */
	int rc = gl_store_open(file, 1, &src, err);
	if (rc == GL_OK)
		rc = gl_store_check_source(src, err);
	gl_store_close(src);
	return rc;
}
