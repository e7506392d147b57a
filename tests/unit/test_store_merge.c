/* test_store_merge.c — gl_store_import as `gpulab merge` uses it: runs keep their UUID, sweep and Slurm
 * ids and record the shard they came from; merging twice adds nothing; a foreign or newer shard is refused
 * with the target byte-identical; partial launches (CTA ranges) that tile their grid are assembled once,
 * with the summed counts (the SASS estimates, stored unrounded, rounded once), and ranges with a gap are
 * left alone. */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "tmp_fixture.h"
#include "common/util.h"
#include "store/store.h"

static void sql_exec(const char *path, const char *sql)
{
	sqlite3 *db;
	CHECK_EQ(sqlite3_open(path, &db), SQLITE_OK);
	CHECK_EQ(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static double value(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	double v = -1;
	CHECK_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void text(const char *path, const char *sql, char *out, size_t n)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	out[0] = '\0';
	CHECK_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0))
		snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* One run in `path` with one launch of an 8-CTA grid: CTAs first..end-1 (0, 0: all), `inst` instructions
 * (an unrounded SASS estimate for a part) and `req` requests. */
static void save(const char *path, const char *sweep, long first, long end, double inst, double req)
{
	struct gl_store *s = NULL;
	struct gl_err err = {0};
	struct gl_run_info info = {0};
	struct gl_launch_record l;
	long run = 0;
	snprintf(info.backend, sizeof info.backend, "sim");
	snprintf(info.host, sizeof info.host, "node7");
	snprintf(info.sweep_id, sizeof info.sweep_id, "%s", sweep);
	snprintf(info.slurm_job_id, sizeof info.slurm_job_id, "4242");
	snprintf(info.slurm_task_id, sizeof info.slurm_task_id, "%ld", first);
	info.argv = "gpulab run gemm";
	memset(&l, 0, sizeof l);
	snprintf(l.topic, sizeof l.topic, "gemm");
	snprintf(l.variant, sizeof l.variant, "smem");
	l.grid[0] = 8, l.grid[1] = l.grid[2] = 1;
	l.block[0] = 256, l.block[1] = l.block[2] = 1;
	l.verified = end ? -1 : 1;
	l.duration_ns = l.max_abs_err = l.max_rel_err = 0.0 / 0.0;
	l.regs = l.static_smem = -1;
	l.cta_first = first, l.cta_end = end;
	snprintf(l.metric_source, sizeof l.metric_source, "sim");
	gl_metrics_set(&l.metrics, "smsp__inst_executed.sum", inst, "inst");
	gl_metrics_set(&l.metrics, GL_M_GLD_REQ, req, "request");
	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	CHECK_EQ(gl_store_save_run(s, &info, &l, 1, "ok", &run, NULL, &err), GL_OK);
	gl_metrics_free(&l.metrics);
	gl_store_close(s);
}

static int merge(const char *into, const char *shard, int *merged, int *skipped, struct gl_err *err)
{
	struct gl_store *s = NULL;
	int rc = gl_store_open(into, 0, &s, err);
	if (rc == GL_OK)
		rc = gl_store_import(s, shard, merged, skipped, err);
	gl_store_close(s);
	return rc;
}

static void test_merge_idempotent(void)
{
	const char *a = tmp_path("a.db"), *into = tmp_path("into.db");
	char uuid_a[64], uuid_m[64], from[600], sweep[64], job[16];
	int merged = -1, skipped = -1;
	struct gl_err err = {0};
	save(a, "sweep-1", 0, 0, 100, 10);
	save(a, "sweep-1", 0, 0, 100, 10);
	CHECK_EQ(merge(into, a, &merged, &skipped, &err), GL_OK);
	CHECK_EQ(merged, 2);
	CHECK_EQ(skipped, 0);
	CHECK_EQ(merge(into, a, &merged, &skipped, &err), GL_OK); /* again: nothing new */
	CHECK_EQ(merged, 0);
	CHECK_EQ(skipped, 2);
	CHECK_EQ(value(into, "SELECT count(*) FROM runs"), 2);
	CHECK_EQ(value(into, "SELECT count(*) FROM metrics"), 4);
	text(a, "SELECT uuid FROM runs ORDER BY id LIMIT 1", uuid_a, sizeof uuid_a);
	text(into, "SELECT uuid FROM runs ORDER BY id LIMIT 1", uuid_m, sizeof uuid_m);
	CHECK(strlen(uuid_a) == 36 && uuid_a[14] == '4');
	CHECK(strcmp(uuid_a, uuid_m) == 0);
	text(into, "SELECT merged_from FROM runs ORDER BY id LIMIT 1", from, sizeof from);
	CHECK(strstr(from, "/a.db") != NULL);
	text(into, "SELECT sweep_id FROM runs ORDER BY id LIMIT 1", sweep, sizeof sweep);
	CHECK(strcmp(sweep, "sweep-1") == 0);
	text(into, "SELECT slurm_job_id FROM runs ORDER BY id LIMIT 1", job, sizeof job);
	CHECK(strcmp(job, "4242") == 0);
	CHECK_EQ(value(a, "SELECT count(DISTINCT uuid) FROM runs"), 2); /* every run its own */
}

static void test_refusals_leave_target(void)
{
	const char *into = tmp_path("into.db"), *foreign = tmp_path("foreign.db"), *newer = tmp_path("newer.db");
	size_t n0, n1;
	int merged = 0, skipped = 0;
	struct gl_err err = {0};
	sql_exec(foreign, "CREATE TABLE runs(id INTEGER PRIMARY KEY, who TEXT);");
	sql_exec(newer, "PRAGMA application_id = 1196444738; PRAGMA user_version = 99;");
	char *before = slurp(into, &n0);
	CHECK_EQ(merge(into, foreign, &merged, &skipped, &err), GL_EENV);
	CHECK(strstr(err.msg, "not gpulab's") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(merge(into, newer, &merged, &skipped, &err), GL_EENV);
	CHECK(strstr(err.msg, "newer") != NULL);
	char *after = slurp(into, &n1);
	CHECK(before && after && n0 == n1 && memcmp(before, after, n0) == 0);
	free(before);
	free(after);
}

static void assemble(const char *into, struct gl_assembly *a)
{
	struct gl_store *s = NULL;
	struct gl_err err = {0};
	CHECK_EQ(gl_store_open(into, 0, &s, &err), GL_OK);
	CHECK_EQ(gl_store_assemble(s, a, &err), GL_OK);
	gl_store_close(s);
}

static void test_assemble(void)
{
	const char *into = tmp_path("parts.db"), *p[3] = {tmp_path("p0.db"), tmp_path("p1.db"), tmp_path("p2.db")};
	struct gl_assembly a;
	int merged, skipped;
	struct gl_err err = {0};
	/* unrounded SASS estimates: the sum rounds once (1.5 + 1.5 + 0.25 + 7 = 10.25 -> 10), where rounding
	 * each part first would give 2 + 2 + 0 + 7 = 11 */
	save(p[0], "sweep-2", 0, 3, 1.5, 30);
	save(p[1], "sweep-2", 3, 5, 1.5, 20);
	save(p[2], "sweep-2", 6, 8, 7.0, 20); /* CTA 5 is missing: no assembly yet */
	for (int i = 0; i < 3; i++)
		CHECK_EQ(merge(into, p[i], &merged, &skipped, &err), GL_OK);
	assemble(into, &a);
	CHECK_EQ(a.assembled, 0);
	CHECK_EQ(a.incomplete, 1);
	const char *gap = tmp_path("gap.db");
	save(gap, "sweep-2", 5, 6, 0.25, 5);
	CHECK_EQ(merge(into, gap, &merged, &skipped, &err), GL_OK);
	assemble(into, &a);
	CHECK_EQ(a.assembled, 1);
	CHECK_EQ(value(into, "SELECT value FROM metrics m JOIN launches l ON l.id = m.launch_id "
			     "WHERE l.cta_end IS NULL AND m.name = 'smsp__inst_executed.sum'"),
		 10); /* 1.5 + 1.5 + 0.25 + 7 = 10.25 -> 10 */
	CHECK_EQ(value(into, "SELECT value FROM metrics m JOIN launches l ON l.id = m.launch_id "
			     "WHERE l.cta_end IS NULL AND m.name = '" GL_M_GLD_REQ "'"),
		 75);
	CHECK_EQ(value(into, "SELECT verified IS NULL FROM launches WHERE cta_end IS NULL"), 1);
	assemble(into, &a); /* again: the assembled run's UUID is there */
	CHECK_EQ(a.assembled, 0);
	CHECK_EQ(a.already, 1);
	CHECK_EQ(value(into, "SELECT count(*) FROM launches WHERE cta_end IS NULL"), 1);
	/* a second sweep's parts are another launch */
	save(tmp_path("q.db"), "sweep-3", 0, 8, 4, 4);
	CHECK_EQ(merge(into, tmp_path("q.db"), &merged, &skipped, &err), GL_OK);
	assemble(into, &a);
	CHECK_EQ(a.assembled, 1);
	CHECK_EQ(a.already, 1);
}

extern const char gl_schema_sql[];

/* Runs stored before schema 5 get a UUID each when the file is upgraded, so they merge once too. */
static void test_old_runs_get_uuids(void)
{
	const char *old = tmp_path("v1.db"), *into = tmp_path("from_v1.db");
	sqlite3 *db;
	int merged = 0, skipped = 0;
	struct gl_err err = {0};
	CHECK_EQ(sqlite3_open(old, &db), SQLITE_OK);
	CHECK_EQ(sqlite3_exec(db, gl_schema_sql, NULL, NULL, NULL), SQLITE_OK);
	CHECK_EQ(sqlite3_exec(db,
			      "PRAGMA user_version = 1; INSERT INTO runs (started_at, finished_at, status, backend, "
			      "gpulab_version) VALUES ('x', 'y', 'ok', 'sim', '0.1.0'), ('x', 'y', 'ok', 'sim', '0.1.0');",
			      NULL, NULL, NULL),
		 SQLITE_OK);
	sqlite3_close(db);
	struct gl_store *s = NULL;
	CHECK_EQ(gl_store_open(old, 0, &s, &err), GL_OK); /* a writer upgrades it */
	gl_store_close(s);
	CHECK_EQ(value(old, "SELECT count(DISTINCT uuid) FROM runs WHERE length(uuid) = 36 "
			    "AND substr(uuid, 15, 1) = '4' AND substr(uuid, 20, 1) IN ('8', '9', 'a', 'b')"),
		 2);
	CHECK_EQ(merge(into, old, &merged, &skipped, &err), GL_OK);
	CHECK_EQ(merge(into, old, &merged, &skipped, &err), GL_OK);
	CHECK_EQ(merged, 0);
	CHECK_EQ(skipped, 2);
	CHECK_EQ(value(into, "SELECT count(*) FROM runs"), 2);
}

int main(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/gl_test_store_merge_XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("HOME", tmpdir, 1);
	unsetenv("GPULAB_BUSY_TIMEOUT_MS");
	unsetenv("GPULAB_LOCK_WAIT_S");
	test_merge_idempotent();
	test_refusals_leave_target();
	test_assemble();
	test_old_runs_get_uuids();
	if (!check_failures) {
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
	}
	CHECK_DONE();
}
