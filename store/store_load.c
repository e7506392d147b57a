/* store_load.c — reading a stored run back: the runs row, its launches in id order and each launch's
 * metrics in the order they were recorded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "store/store_int.h"

static int prepare(struct gl_store *s, const char *sql, sqlite3_stmt **st, struct gl_err *err)
{
	int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
	return rc == SQLITE_OK ? GL_OK : gl_store_sql_error(s, rc, "preparing a query", err);
}

void gl_store_col_text(sqlite3_stmt *st, int i, char *buf, size_t n)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	snprintf(buf, n, "%s", t ? (const char *)t : "");
}

static double col_real_or_nan(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static int col_int_or(sqlite3_stmt *st, int i, int fallback)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? fallback : sqlite3_column_int(st, i);
}

void gl_store_col_xyz(sqlite3_stmt *st, int i, unsigned v[3])
{
	const char *text = (const char *)sqlite3_column_text(st, i);
	v[0] = v[1] = v[2] = 1;
	if (text)
		sscanf(text, "%u,%u,%u", &v[0], &v[1], &v[2]);
}

/* Which run: the given id, or the latest when 0; errors say what exists. */
static int resolve_run(struct gl_store *s, long want, long *id, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s, "SELECT MAX(id), (SELECT 1 FROM runs WHERE id = ?) FROM runs", &st, err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, want);
	int r = sqlite3_step(st);
	if (r != SQLITE_ROW) {
		sqlite3_finalize(st);
		return gl_store_sql_error(s, r, "looking up the run", err);
	}
	int empty = sqlite3_column_type(st, 0) == SQLITE_NULL;
	long latest = (long)sqlite3_column_int64(st, 0);
	int found = sqlite3_column_type(st, 1) != SQLITE_NULL;
	sqlite3_finalize(st);
	if (empty)
		return gl_errf(err, GL_EUSAGE, "no runs recorded yet in %s; run 'gpulab run TOPIC' first", s->path);
	if (want != 0 && !found)
		return gl_errf(err, GL_EUSAGE, "no run %ld in %s (latest is %ld)", want, s->path, latest);
	*id = want != 0 ? want : latest;
	return GL_OK;
}

static int load_run_row(struct gl_store *s, long id, struct gl_run_record *r, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s,
			 "SELECT started_at, finished_at, status, backend, device, chip, sm_count, cc, driver, "
			 "cupti_version, host, argv, backend_note FROM runs WHERE id = ?",
			 &st, err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	int step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		r->id = id;
		gl_store_col_text(st, 0, r->started_at, sizeof r->started_at);
		gl_store_col_text(st, 1, r->finished_at, sizeof r->finished_at);
		gl_store_col_text(st, 2, r->status, sizeof r->status);
		gl_store_col_text(st, 3, r->info.backend, sizeof r->info.backend);
		gl_store_col_text(st, 4, r->info.device, sizeof r->info.device);
		gl_store_col_text(st, 5, r->info.chip, sizeof r->info.chip);
		r->info.sm_count = col_int_or(st, 6, 0);
		gl_store_col_text(st, 7, r->info.cc, sizeof r->info.cc);
		gl_store_col_text(st, 8, r->info.driver, sizeof r->info.driver);
		gl_store_col_text(st, 9, r->info.cupti_version, sizeof r->info.cupti_version);
		gl_store_col_text(st, 10, r->info.host, sizeof r->info.host);
		gl_store_col_text(st, 11, r->argv, sizeof r->argv);
		gl_store_col_text(st, 12, r->info.backend_note, sizeof r->info.backend_note);
		r->info.argv = r->argv;
	} else {
		rc = gl_store_sql_error(s, step == SQLITE_DONE ? SQLITE_INTERNAL : step, "reading the run", err);
	}
	sqlite3_finalize(st);
	return rc;
}

static void fill_launch(sqlite3_stmt *st, struct gl_launch_record *l)
{
	memset(l, 0, sizeof *l);
	gl_store_col_text(st, 1, l->topic, sizeof l->topic);
	gl_store_col_text(st, 2, l->variant, sizeof l->variant);
	const unsigned char *params = sqlite3_column_text(st, 3);
	l->params_json = gl_xstrdup(params ? (const char *)params : "{}");
	gl_store_col_xyz(st, 4, l->grid);
	gl_store_col_xyz(st, 5, l->block);
	l->dyn_smem = (unsigned)sqlite3_column_int64(st, 6);
	l->regs = col_int_or(st, 7, -1);
	l->static_smem = col_int_or(st, 8, -1);
	l->verified = col_int_or(st, 9, -1); /* NULL: not checked */
	l->max_abs_err = col_real_or_nan(st, 10);
	l->max_rel_err = col_real_or_nan(st, 11);
	l->duration_ns = col_real_or_nan(st, 12);
	gl_store_col_text(st, 13, l->metric_source, sizeof l->metric_source);
	gl_store_col_text(st, 14, l->note, sizeof l->note);
	l->part = col_int_or(st, 15, 0);
	gl_store_col_text(st, 16, l->entry, sizeof l->entry);
}

/* The record a row read next goes into: a new variant, or (part >= 1) the next part of the variant read
 * last.  A part row with no variant before it (a database edited by hand) is shown as a variant. */
static struct gl_launch_record *next_record(struct gl_run_record *r, size_t *cap, int part)
{
	struct gl_launch_record *owner = r->nlaunches ? &r->launches[r->nlaunches - 1] : NULL;
	if (part >= 1 && owner && owner->part == 0) {
		owner->parts = gl_xrealloc(owner->parts, (size_t)(owner->nparts + 1) * sizeof *owner->parts);
		return &owner->parts[owner->nparts++];
	}
	if (r->nlaunches == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		r->launches = gl_xrealloc(r->launches, *cap * sizeof *r->launches);
	}
	return &r->launches[r->nlaunches++];
}

static int load_metrics(struct gl_store *s, long launch_id, struct gl_launch_record *l, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s, "SELECT name, value, unit, source FROM metrics WHERE launch_id = ? ORDER BY rowid",
			 &st, err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, launch_id);
	int step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *unit = (const char *)sqlite3_column_text(st, 2);
		gl_metrics_set(&l->metrics, name ? name : "", col_real_or_nan(st, 1), unit);
		if (!l->metric_source[0])
			gl_store_col_text(st, 3, l->metric_source, sizeof l->metric_source);
	}
	if (step != SQLITE_DONE)
		rc = gl_store_sql_error(s, step, "reading metrics", err);
	sqlite3_finalize(st);
	return rc;
}

static int load_launches(struct gl_store *s, struct gl_run_record *r, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s,
			 "SELECT id, topic, variant, params_json, grid, block, dyn_smem, regs, static_smem, "
			 "verified, max_abs_err, max_rel_err, duration_ns, metric_source, note, part, entry "
			 "FROM launches WHERE run_id = ? ORDER BY id",
			 &st, err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, r->id);
	size_t cap = 0;
	int step = SQLITE_DONE;
	while (rc == GL_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct gl_launch_record *l = next_record(r, &cap, col_int_or(st, 15, 0));
		fill_launch(st, l);
		rc = load_metrics(s, sqlite3_column_int64(st, 0), l, err);
		if (rc == GL_OK)
			rc = gl_store_load_findings(s, sqlite3_column_int64(st, 0), l, err);
		if (rc == GL_OK)
			rc = gl_store_load_guidance(s, sqlite3_column_int64(st, 0), l, err);
	}
	if (rc == GL_OK && step != SQLITE_DONE)
		rc = gl_store_sql_error(s, step, "reading launches", err);
	sqlite3_finalize(st);
	return rc;
}

int gl_store_load_run(struct gl_store *s, long run_id, struct gl_run_record *out, struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	long id = 0;
	/* One read transaction, so the run and its launches are read from the same snapshot. */
	int rc = gl_store_exec(s, "SAVEPOINT gl_load", "reading the run", err);
	if (rc)
		return rc;
	rc = resolve_run(s, run_id, &id, err);
	if (rc == GL_OK)
		rc = load_run_row(s, id, out, err);
	if (rc == GL_OK)
		rc = load_launches(s, out, err);
	sqlite3_exec(s->db, "RELEASE gl_load", NULL, NULL, NULL);
	if (rc != GL_OK)
		gl_run_record_free(out);
	return rc;
}
