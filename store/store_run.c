/* store_run.c — writing a run: one transaction from gl_store_begin_run to gl_store_commit_run, so that
 * a run is visible whole or not at all.  Values always go through bound parameters. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "store/store_int.h"

static int prepare(struct gl_store *s, const char *sql, sqlite3_stmt **st, struct gl_err *err)
{
	int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
	return rc == SQLITE_OK ? GL_OK : gl_store_sql_error(s, rc, "preparing a statement", err);
}

/* Step a statement that returns no rows, then finalize it. */
static int step_done(struct gl_store *s, sqlite3_stmt *st, const char *doing, struct gl_err *err)
{
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? GL_OK : gl_store_sql_error(s, rc, doing, err);
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
	sqlite3_bind_text(st, i, v ? v : "", -1, SQLITE_TRANSIENT);
}

static void bind_real_or_null(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static void bind_int_or_null(sqlite3_stmt *st, int i, long v)
{
	if (v >= 0)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static int check_writable(struct gl_store *s, long run_id, int need_run, struct gl_err *err)
{
	if (s->readonly)
		return gl_errf(err, GL_EINTERNAL, "store %s was opened read-only; runs cannot be written", s->path);
	if (need_run && (s->run_id == 0 || s->run_id != run_id))
		return gl_errf(err, GL_EINTERNAL, "run %ld is not the open run of %s (open: %ld)", run_id, s->path,
			       s->run_id);
	if (!need_run && s->run_id != 0)
		return gl_errf(err, GL_EINTERNAL, "run %ld of %s is still open; commit or abort it first",
			       s->run_id, s->path);
	return GL_OK;
}

/* A random (version 4) UUID: the run's identity when it is merged into other databases. */
void gl_store_new_uuid(char *buf, size_t n)
{
	unsigned char b[16];
	sqlite3_randomness(sizeof b, b);
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	gl_store_format_uuid(b, buf, n);
}

void gl_store_format_uuid(const unsigned char b[16], char *buf, size_t n)
{
	snprintf(buf, n, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
		 b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static int insert_run(struct gl_store *s, const struct gl_run_info *info, long *run_id, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s,
			 "INSERT INTO runs (started_at, status, backend, device, chip, sm_count, cc, driver, "
			 "cupti_version, gpulab_version, host, argv, uuid, sweep_id, slurm_job_id, slurm_task_id, "
			 "backend_note) VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			 &st, err);
	if (rc)
		return rc;
	char now[32], host[sizeof info->host];
	gl_store_utc_now(now, sizeof now);
	snprintf(host, sizeof host, "%s", info->host);
	if (!host[0] && gethostname(host, sizeof host - 1) != 0)
		host[0] = '\0';
	host[sizeof host - 1] = '\0';
	bind_text(st, 1, now);
	bind_text(st, 2, info->backend);
	bind_text(st, 3, info->device);
	bind_text(st, 4, info->chip);
	bind_int_or_null(st, 5, info->sm_count > 0 ? info->sm_count : -1);
	bind_text(st, 6, info->cc);
	bind_text(st, 7, info->driver);
	bind_text(st, 8, info->cupti_version);
	bind_text(st, 9, GPULAB_VERSION);
	bind_text(st, 10, host);
	bind_text(st, 11, info->argv);
	char uuid[40];
	gl_store_new_uuid(uuid, sizeof uuid);
	bind_text(st, 12, uuid);
	bind_text(st, 13, info->sweep_id);
	bind_text(st, 14, info->slurm_job_id);
	bind_text(st, 15, info->slurm_task_id);
	bind_text(st, 16, info->backend_note);
	rc = step_done(s, st, "recording the run", err);
	if (rc == GL_OK)
		*run_id = (long)sqlite3_last_insert_rowid(s->db);
	return rc;
}

int gl_store_begin_run(struct gl_store *s, const struct gl_run_info *info, long *run_id, struct gl_err *err)
{
	int rc = check_writable(s, 0, 0, err);
	if (rc)
		return rc;
	rc = gl_store_exec(s, "BEGIN IMMEDIATE", "starting the run's transaction", err);
	if (rc)
		return rc;
	rc = insert_run(s, info, run_id, err);
	if (rc) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	s->run_id = *run_id;
	return GL_OK;
}

static void xyz(char *buf, size_t n, const unsigned v[3])
{
	snprintf(buf, n, "%u,%u,%u", v[0], v[1], v[2]);
}

static int insert_launch(struct gl_store *s, long run_id, const struct gl_launch_record *l, long *id,
			 struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s,
			 "INSERT INTO launches (run_id, topic, variant, params_json, grid, block, dyn_smem, regs, "
			 "static_smem, verified, max_abs_err, max_rel_err, duration_ns, metric_source, note, part, entry, "
			 "cta_first, cta_end) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			 &st, err);
	if (rc)
		return rc;
	char grid[40], block[40];
	xyz(grid, sizeof grid, l->grid);
	xyz(block, sizeof block, l->block);
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, l->topic);
	bind_text(st, 3, l->variant);
	bind_text(st, 4, l->params_json && *l->params_json ? l->params_json : "{}");
	bind_text(st, 5, grid);
	bind_text(st, 6, block);
	sqlite3_bind_int64(st, 7, l->dyn_smem);
	bind_int_or_null(st, 8, l->regs);
	bind_int_or_null(st, 9, l->static_smem);
	bind_int_or_null(st, 10, l->verified < 0 ? -1 : l->verified ? 1 : 0);
	bind_real_or_null(st, 11, l->max_abs_err);
	bind_real_or_null(st, 12, l->max_rel_err);
	bind_real_or_null(st, 13, l->duration_ns);
	bind_text(st, 14, l->metric_source);
	bind_text(st, 15, l->note);
	sqlite3_bind_int64(st, 16, l->part);
	bind_text(st, 17, l->entry);
	bind_int_or_null(st, 18, l->cta_end > 0 ? l->cta_first : -1);
	bind_int_or_null(st, 19, l->cta_end > 0 ? l->cta_end : -1);
	rc = step_done(s, st, "recording a launch", err);
	if (rc == GL_OK)
		*id = (long)sqlite3_last_insert_rowid(s->db);
	return rc;
}

static int insert_metrics(struct gl_store *s, long launch_id, const struct gl_launch_record *l,
			  struct gl_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = prepare(s, "INSERT INTO metrics (launch_id, name, value, unit, source) VALUES (?, ?, ?, ?, ?)",
			 &st, err);
	for (size_t i = 0; rc == GL_OK && i < l->metrics.n; i++) {
		const struct gl_metric *m = &l->metrics.items[i];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, launch_id);
		bind_text(st, 2, m->name);
		bind_real_or_null(st, 3, m->value);
		bind_text(st, 4, m->unit);
		bind_text(st, 5, l->metric_source[0] ? l->metric_source : "sim");
		int r = sqlite3_step(st);
		if (r != SQLITE_DONE)
			rc = gl_store_sql_error(s, r, "recording a metric", err);
	}
	sqlite3_finalize(st);
	return rc;
}

/* One row with its metrics, trace, buffer map and findings. */
static int insert_one(struct gl_store *s, long run_id, const struct gl_launch_record *l, long *id,
		      struct gl_err *err)
{
	int rc = insert_launch(s, run_id, l, id, err);
	if (rc == GL_OK)
		rc = insert_metrics(s, *id, l, err);
	if (rc == GL_OK && l->ntrace)
		rc = gl_store_insert_trace(s, *id, l->trace, l->ntrace, err);
	if (rc == GL_OK && l->nbuffers)
		rc = gl_store_insert_buffers(s, *id, l->buffers, l->nbuffers, err);
	if (rc == GL_OK)
		rc = gl_store_insert_findings(s, *id, l, err);
	if (rc == GL_OK && l->nguidance)
		rc = gl_store_insert_guidance(s, *id, l, err);
	if (rc == GL_OK && l->noutputs)
		rc = gl_store_insert_outputs(s, *id, l->outputs, l->noutputs, err);
	return rc;
}

int gl_store_add_launch(struct gl_store *s, long run_id, const struct gl_launch_record *l, long *launch_id,
			struct gl_err *err)
{
	int rc = check_writable(s, run_id, 1, err);
	if (rc)
		return rc;
	/* A launch (with its parts) is added whole or not at all; the run stays open either way. */
	rc = gl_store_exec(s, "SAVEPOINT gl_launch", "recording a launch", err);
	if (rc)
		return rc;
	long id = 0, part_id;
	rc = insert_one(s, run_id, l, &id, err);
	/* the parts follow their variant's row, so id order keeps them together (migrate_4.sql) */
	for (int k = 0; rc == GL_OK && k < l->nparts; k++)
		rc = insert_one(s, run_id, &l->parts[k], &part_id, err);
	if (rc != GL_OK)
		sqlite3_exec(s->db, "ROLLBACK TO gl_launch", NULL, NULL, NULL);
	sqlite3_exec(s->db, "RELEASE gl_launch", NULL, NULL, NULL);
	if (rc == GL_OK && launch_id)
		*launch_id = id;
	return rc;
}

int gl_store_commit_run(struct gl_store *s, long run_id, const char *status, struct gl_err *err)
{
	int rc = check_writable(s, run_id, 1, err);
	if (rc)
		return rc;
	sqlite3_stmt *st;
	rc = prepare(s, "UPDATE runs SET finished_at = ?, status = ? WHERE id = ?", &st, err);
	if (rc == GL_OK) {
		char now[32];
		gl_store_utc_now(now, sizeof now);
		bind_text(st, 1, now);
		bind_text(st, 2, status && *status ? status : "ok");
		sqlite3_bind_int64(st, 3, run_id);
		rc = step_done(s, st, "finishing the run", err);
	}
	if (rc == GL_OK)
		rc = gl_store_exec(s, "COMMIT", "committing the run", err);
	if (rc != GL_OK)
		gl_store_abort_run(s);
	s->run_id = 0;
	return rc;
}

void gl_store_abort_run(struct gl_store *s)
{
	if (!s || !s->db)
		return;
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	s->run_id = 0;
}
