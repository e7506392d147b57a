/* test_store.c — the results store: path rules, schema and migrations, one transaction per run, refusals
 * of files that are not gpulab's (which must stay byte-identical), loading runs, and `query` output. */
#define _GNU_SOURCE
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "tmp_fixture.h"
#include "common/util.h"
#include "store/store.h"
#include "store/store_int.h"

static int same_file(const char *path, const char *before, size_t nbefore)
{
	size_t n;
	char *now = slurp(path, &n);
	int same = now && n == nbefore && memcmp(now, before, n) == 0;
	free(now);
	return same;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void sql_exec(const char *path, const char *sql)
{
	sqlite3 *db;
	CHECK_EQ(sqlite3_open(path, &db), SQLITE_OK);
	char *msg = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK)
		fprintf(stderr, "sql_exec(%s): %s\n", sql, msg);
	CHECK_EQ(rc, SQLITE_OK);
	sqlite3_free(msg);
	sqlite3_close(db);
}

static long long sql_int(struct gl_store *s, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -12345;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static char *sql_text(struct gl_store *s, const char *sql)
{
	sqlite3_stmt *st;
	char *v = NULL;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

static void fill_info(struct gl_run_info *info)
{
	memset(info, 0, sizeof *info);
	snprintf(info->backend, sizeof info->backend, "sim");
	snprintf(info->device, sizeof info->device, "PTX simulator (2 CPU threads)");
	snprintf(info->cc, sizeof info->cc, "8.0");
	info->sm_count = 0;
	info->argv = "gpulab run transpose --variant all";
}

static void fill_launch(struct gl_launch_record *l, const char *variant, double sectors)
{
	memset(l, 0, sizeof *l);
	snprintf(l->topic, sizeof l->topic, "transpose");
	snprintf(l->variant, sizeof l->variant, "%s", variant);
	l->params_json = "{\"rows\":1024,\"cols\":1024}";
	l->grid[0] = 32, l->grid[1] = 32, l->grid[2] = 1;
	l->block[0] = 32, l->block[1] = 8, l->block[2] = 1;
	l->dyn_smem = 0;
	l->regs = -1;
	l->static_smem = 4224;
	l->verified = 1;
	l->max_abs_err = 0;
	l->max_rel_err = 1e-7;
	l->duration_ns = NAN;
	snprintf(l->metric_source, sizeof l->metric_source, "sim");
	snprintf(l->note, sizeof l->note, "sampled 64 of 1024 CTAs, counts scaled");
	gl_metrics_set(&l->metrics, GL_M_GST_SECT, sectors, "sector");
	gl_metrics_set(&l->metrics, GL_M_GST_REQ, 32768, "");
	gl_metrics_set(&l->metrics, GL_M_GLD_REQ, 32768, "");
	gl_metrics_set(&l->metrics, GL_M_GLD_SECT, 131072, "sector");
}

/* One committed run with two launches; returns its id. */
static long record_run(struct gl_store *s, const char *status)
{
	struct gl_err err = {0};
	struct gl_run_info info;
	fill_info(&info);
	long id = 0, lid = 0;
	CHECK_EQ(gl_store_begin_run(s, &info, &id, &err), GL_OK);
	struct gl_launch_record a, b;
	fill_launch(&a, "naive", 1048576);
	fill_launch(&b, "smem", 131072);
	b.regs = 30;
	b.duration_ns = 12345.5;
	CHECK_EQ(gl_store_add_launch(s, id, &a, &lid, &err), GL_OK);
	CHECK_EQ(gl_store_add_launch(s, id, &b, &lid, &err), GL_OK);
	CHECK_EQ(gl_store_commit_run(s, id, status, &err), GL_OK);
	if (err.status)
		fprintf(stderr, "record_run: %s\n", err.msg);
	gl_metrics_free(&a.metrics);
	gl_metrics_free(&b.metrics);
	return id;
}

static void test_path_rules(void)
{
	struct gl_err err = {0};
	char buf[512];
	setenv("GPULAB_DB", "/env/db.sqlite", 1);
	setenv("XDG_DATA_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	CHECK_EQ(gl_store_path("/explicit.db", buf, sizeof buf, &err), GL_OK);
	CHECK_STR(buf, "/explicit.db");
	CHECK_EQ(gl_store_path(NULL, buf, sizeof buf, &err), GL_OK);
	CHECK_STR(buf, "/env/db.sqlite");
	unsetenv("GPULAB_DB");
	CHECK_EQ(gl_store_path(NULL, buf, sizeof buf, &err), GL_OK);
	CHECK_STR(buf, "/xdg/gpulab/gpulab.db");
	setenv("XDG_DATA_HOME", "relative/dir", 1); /* ignored, as the XDG spec says */
	CHECK_EQ(gl_store_path(NULL, buf, sizeof buf, &err), GL_OK);
	CHECK_STR(buf, "/home/u/.local/share/gpulab/gpulab.db");
	unsetenv("XDG_DATA_HOME");
	CHECK_EQ(gl_store_path(NULL, buf, sizeof buf, &err), GL_OK);
	CHECK_STR(buf, "/home/u/.local/share/gpulab/gpulab.db");
	unsetenv("HOME");
	CHECK_EQ(gl_store_path(NULL, buf, sizeof buf, &err), GL_EENV);
	CHECK(strstr(err.msg, "--db") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(gl_store_path("/a/very/long/path.db", buf, 8, &err), GL_EUSAGE);
	gl_err_clear(&err);
	CHECK_EQ(gl_store_path("", buf, sizeof buf, &err), GL_EUSAGE);
	setenv("HOME", tmpdir, 1);
}

static void test_create(void)
{
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	const char *path = tmp_path("deep/er/dir/new.db");
	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR(gl_store_file(s), path);
	CHECK_EQ(sql_int(s, "PRAGMA user_version"), gl_store_schema_version());
	CHECK_EQ(sql_int(s, "PRAGMA application_id"), 1196444738);
	CHECK_EQ(sql_int(s, "PRAGMA foreign_keys"), 1);
	char *mode = sql_text(s, "PRAGMA journal_mode");
	CHECK_STR(mode, "wal");
	free(mode);
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM sqlite_master WHERE name IN ('runs', 'launches', 'metrics', "
			    "'trace_events', 'lesson_progress', 'launch_summary', 'run_summary')"),
		 7);
	gl_store_close(s);
	/* Opening again is a no-op on the schema. */
	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	CHECK_EQ(sql_int(s, "PRAGMA user_version"), gl_store_schema_version());
	gl_store_close(s);
}

static void test_empty_files_get_schema(void)
{
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	const char *zero = tmp_path("zero.db");
	write_file(zero, "");
	CHECK_EQ(gl_store_open(zero, 0, &s, &err), GL_OK);
	CHECK_EQ(s ? sql_int(s, "PRAGMA user_version") : -1, gl_store_schema_version());
	gl_store_close(s);
	/* A valid SQLite file with nothing in it is also empty. */
	const char *blank = tmp_path("blank.db");
	sql_exec(blank, "CREATE TABLE t(x); DROP TABLE t;");
	CHECK_EQ(gl_store_open(blank, 0, &s, &err), GL_OK);
	CHECK_EQ(s ? sql_int(s, "SELECT count(*) FROM runs") : -1, 0);
	gl_store_close(s);
	/* Read-only, an empty file is "nothing recorded yet". */
	const char *zero2 = tmp_path("zero2.db");
	write_file(zero2, "");
	CHECK_EQ(gl_store_open(zero2, 1, &s, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "gpulab run") != NULL);
	CHECK(s == NULL);
}

static void test_roundtrip(void)
{
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	CHECK_EQ(gl_store_open(tmp_path("rt.db"), 0, &s, &err), GL_OK);
	if (!s)
		return;
	CHECK_EQ(gl_store_load_run(s, 0, &(struct gl_run_record){0}, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "no runs recorded yet in") != NULL);
	CHECK(strstr(err.msg, "rt.db") != NULL);
	gl_err_clear(&err);

	long first = record_run(s, "ok");
	long second = record_run(s, "failed");
	CHECK(second > first);

	struct gl_run_record r;
	CHECK_EQ(gl_store_load_run(s, 0, &r, &err), GL_OK);
	CHECK_EQ(r.id, second);
	CHECK_STR(r.status, "failed");
	CHECK_STR(r.info.backend, "sim");
	CHECK_STR(r.info.device, "PTX simulator (2 CPU threads)");
	CHECK_STR(r.info.cc, "8.0");
	CHECK_STR(r.argv, "gpulab run transpose --variant all");
	CHECK(r.info.argv == r.argv);
	CHECK(r.info.host[0] != '\0'); /* from gethostname */
	CHECK_EQ(strlen(r.started_at), 20);
	CHECK(r.started_at[10] == 'T' && r.started_at[19] == 'Z');
	CHECK_EQ(strlen(r.finished_at), 20);
	CHECK_EQ(r.nlaunches, 2);
	if (r.nlaunches == 2) {
		struct gl_launch_record *a = &r.launches[0], *b = &r.launches[1];
		CHECK_STR(a->variant, "naive");
		CHECK_STR(b->variant, "smem");
		CHECK_STR(a->topic, "transpose");
		CHECK_STR(a->params_json, "{\"rows\":1024,\"cols\":1024}");
		CHECK_EQ(a->grid[0], 32);
		CHECK_EQ(a->grid[1], 32);
		CHECK_EQ(a->block[1], 8);
		CHECK_EQ(a->regs, -1);
		CHECK_EQ(b->regs, 30);
		CHECK_EQ(a->static_smem, 4224);
		CHECK_EQ(a->verified, 1);
		CHECK(isnan(a->duration_ns));
		CHECK_NEAR(b->duration_ns, 12345.5, 1e-9);
		CHECK_NEAR(a->max_rel_err, 1e-7, 1e-15);
		CHECK_STR(a->metric_source, "sim");
		CHECK_STR(a->note, "sampled 64 of 1024 CTAs, counts scaled");
		CHECK_EQ(a->metrics.n, 4);
		if (a->metrics.n == 4) { /* in insertion order */
			CHECK_STR(a->metrics.items[0].name, GL_M_GST_SECT);
			CHECK_STR(a->metrics.items[0].unit, "sector");
			CHECK_STR(a->metrics.items[1].name, GL_M_GST_REQ);
			CHECK_STR(a->metrics.items[3].name, GL_M_GLD_SECT);
		}
		const double *v = gl_metrics_get(&a->metrics, GL_M_GST_SECT);
		CHECK(v && *v == 1048576);
	}
	gl_run_record_free(&r);

	CHECK_EQ(gl_store_load_run(s, first, &r, &err), GL_OK);
	CHECK_EQ(r.id, first);
	CHECK_STR(r.status, "ok");
	gl_run_record_free(&r);

	CHECK_EQ(gl_store_load_run(s, 999, &r, &err), GL_EUSAGE);
	char want[64];
	snprintf(want, sizeof want, "(latest is %ld)", second);
	CHECK(strstr(err.msg, "no run 999 in ") != NULL);
	CHECK(strstr(err.msg, want) != NULL);
	CHECK_EQ(r.nlaunches, 0);

	/* The summary view pivots the counters: 1048576 sectors / 32768 requests = 32. */
	CHECK_EQ(sql_int(s, "SELECT gst_sectors_per_request FROM launch_summary WHERE variant = 'naive' "
			    "ORDER BY launch_id DESC"),
		 32);
	CHECK_EQ(sql_int(s, "SELECT gld_sectors_per_request FROM latest_launches WHERE variant = 'smem'"), 4);
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM latest_launches"), 2);
	CHECK_EQ(sql_int(s, "SELECT launches FROM run_summary WHERE run_id = 1"), 2);
	CHECK_EQ(sql_int(s, "SELECT sld_conflicts_per_instruction IS NULL FROM launch_summary LIMIT 1"), 1);

	/* Deleting a run cascades to its launches and metrics. */
	CHECK_EQ(sqlite3_exec(s->db, "DELETE FROM runs WHERE id = 1", NULL, NULL, NULL), SQLITE_OK);
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM launches WHERE run_id = 1"), 0);
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM metrics"), 8);
	gl_store_close(s);
}

static void test_abort_and_close_leave_nothing(void)
{
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	const char *path = tmp_path("abort.db");
	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	if (!s)
		return;
	struct gl_run_info info;
	fill_info(&info);
	struct gl_launch_record l;
	fill_launch(&l, "naive", 1);
	long id, lid;
	CHECK_EQ(gl_store_begin_run(s, &info, &id, &err), GL_OK);
	CHECK_EQ(gl_store_add_launch(s, id, &l, &lid, &err), GL_OK);
	/* A second begin while one is open is a bug of the caller. */
	long other;
	CHECK_EQ(gl_store_begin_run(s, &info, &other, &err), GL_EINTERNAL);
	gl_err_clear(&err);
	gl_store_abort_run(s);
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM runs"), 0);
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM metrics"), 0);
	/* Adding to a run that is not open is refused. */
	CHECK_EQ(gl_store_add_launch(s, id, &l, &lid, &err), GL_EINTERNAL);
	gl_err_clear(&err);

	CHECK_EQ(gl_store_begin_run(s, &info, &id, &err), GL_OK);
	CHECK_EQ(gl_store_add_launch(s, id, &l, &lid, &err), GL_OK);
	gl_store_close(s); /* without commit */
	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	CHECK_EQ(s ? sql_int(s, "SELECT count(*) FROM runs") : -1, 0);
	CHECK_EQ(s ? sql_int(s, "SELECT count(*) FROM launches") : -1, 0);
	gl_store_close(s);
	gl_metrics_free(&l.metrics);
}

static void test_failed_launch_is_left_out(void)
{
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	CHECK_EQ(gl_store_open(tmp_path("partial.db"), 0, &s, &err), GL_OK);
	if (!s)
		return;
	CHECK_EQ(sqlite3_exec(s->db,
			      "CREATE TEMP TRIGGER boom BEFORE INSERT ON main.metrics WHEN NEW.name = 'boom' "
			      "BEGIN SELECT RAISE(ABORT, 'boom refused'); END",
			      NULL, NULL, NULL),
		 SQLITE_OK);
	struct gl_run_info info;
	fill_info(&info);
	struct gl_launch_record good, bad;
	fill_launch(&good, "good", 1);
	fill_launch(&bad, "bad", 1);
	gl_metrics_set(&bad.metrics, "boom", 1, "");
	long id, lid = 0;
	CHECK_EQ(gl_store_begin_run(s, &info, &id, &err), GL_OK);
	CHECK(gl_store_add_launch(s, id, &bad, &lid, &err) != GL_OK);
	CHECK(strstr(err.msg, "boom refused") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(gl_store_add_launch(s, id, &good, &lid, &err), GL_OK);
	CHECK_EQ(gl_store_commit_run(s, id, "ok", &err), GL_OK);
	struct gl_run_record r;
	CHECK_EQ(gl_store_load_run(s, id, &r, &err), GL_OK);
	CHECK_EQ(r.nlaunches, 1);
	CHECK_STR(r.nlaunches ? r.launches[0].variant : "", "good");
	gl_run_record_free(&r);
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM metrics"), 4);
	gl_metrics_free(&good.metrics);
	gl_metrics_free(&bad.metrics);
	gl_store_close(s);
}

static void test_killed_run_leaves_nothing(void)
{
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	const char *path = tmp_path("killed.db");
	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	long kept = s ? record_run(s, "ok") : 0;
	gl_store_close(s);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		struct gl_store *c = NULL;
		struct gl_err e = {0};
		struct gl_run_info info;
		fill_info(&info);
		struct gl_launch_record l;
		fill_launch(&l, "killed", 1);
		long id, lid;
		if (gl_store_open(path, 0, &c, &e) == GL_OK && gl_store_begin_run(c, &info, &id, &e) == GL_OK &&
		    gl_store_add_launch(c, id, &l, &lid, &e) == GL_OK)
			kill(getpid(), SIGKILL);
		_exit(3);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	if (!s)
		return;
	struct gl_run_record r;
	CHECK_EQ(gl_store_load_run(s, 0, &r, &err), GL_OK);
	CHECK_EQ(r.id, kept);
	gl_run_record_free(&r);
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM launches WHERE variant = 'killed'"), 0);
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM runs"), 1);
	gl_store_close(s);
}

static void test_locked(void)
{
	struct gl_err err = {0};
	struct gl_store *a = NULL, *b = NULL;
	const char *path = tmp_path("locked.db");
	CHECK_EQ(gl_store_open(path, 0, &a, &err), GL_OK);
	CHECK_EQ(gl_store_open(path, 0, &b, &err), GL_OK);
	if (!a || !b)
		return;
	gl_store_set_busy_timeout(b, 100);
	struct gl_run_info info;
	fill_info(&info);
	long ida, idb = 0;
	CHECK_EQ(gl_store_begin_run(a, &info, &ida, &err), GL_OK);
	double t0 = gl_now();
	CHECK_EQ(gl_store_begin_run(b, &info, &idb, &err), GL_EENV);
	CHECK(gl_now() - t0 >= 0.09);
	CHECK(strstr(err.msg, "is locked by another process") != NULL);
	CHECK(strstr(err.msg, path) != NULL);
	gl_err_clear(&err);
	/* Readers see the database as it was before the open run. */
	struct gl_run_record r;
	CHECK_EQ(gl_store_load_run(b, 0, &r, &err), GL_EUSAGE);
	gl_err_clear(&err);
	CHECK_EQ(gl_store_commit_run(a, ida, "ok", &err), GL_OK);
	CHECK_EQ(gl_store_begin_run(b, &info, &idb, &err), GL_OK);
	CHECK(idb > ida);
	CHECK_EQ(gl_store_commit_run(b, idb, "ok", &err), GL_OK);
	gl_store_close(a);
	gl_store_close(b);
}

/* Opening `path` read-write and read-only must fail with `status` and `needle`, leaving it unchanged
 * (and, unless it already is a WAL-mode gpulab database, without SQLite side files). */
static void check_refused_wal(const char *path, int status, const char *needle, int wal)
{
	size_t n;
	char *before = slurp(path, &n);
	CHECK(before != NULL);
	for (int ro = 0; ro <= 1; ro++) {
		struct gl_err err = {0};
		struct gl_store *s = (struct gl_store *)1;
		CHECK_EQ(gl_store_open(path, ro, &s, &err), status);
		CHECK(s == NULL);
		if (!strstr(err.msg, needle) || !strstr(err.msg, path))
			fprintf(stderr, "unexpected message: %s\n", err.msg);
		CHECK(strstr(err.msg, needle) != NULL);
		CHECK(strstr(err.msg, path) != NULL);
	}
	CHECK(same_file(path, before, n));
	char side[600];
	snprintf(side, sizeof side, "%s-wal", path);
	CHECK(wal || access(side, F_OK) != 0);
	free(before);
}

static void check_refused(const char *path, int status, const char *needle)
{
	check_refused_wal(path, status, needle, 0);
}

static void test_refuse_foreign_files(void)
{
	const char *text = tmp_path("notes.txt");
	write_file(text, "these are my notes, not a database\n");
	check_refused(text, GL_EENV, "is not a SQLite database");

	const char *tiny = tmp_path("tiny");
	write_file(tiny, "x");
	check_refused(tiny, GL_EENV, "is not a SQLite database");

	const char *foreign = tmp_path("foreign.db");
	sql_exec(foreign, "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT); "
			  "INSERT INTO customers(name) VALUES ('ada');");
	check_refused(foreign, GL_EENV, "not gpulab's");

	const char *other_app = tmp_path("otherapp.db");
	sql_exec(other_app, "PRAGMA user_version = 7; CREATE TABLE runs(x); CREATE TABLE launches(y);");
	check_refused(other_app, GL_EENV, "not gpulab's");

	const char *alien_id = tmp_path("alienid.db");
	sql_exec(alien_id, "PRAGMA application_id = 42;");
	check_refused(alien_id, GL_EENV, "not gpulab's");

	/* A gpulab database from a newer gpulab. */
	const char *newer = tmp_path("newer.db");
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	CHECK_EQ(gl_store_open(newer, 0, &s, &err), GL_OK);
	gl_store_close(s);
	sql_exec(newer, "PRAGMA user_version = 99;");
	check_refused_wal(newer, GL_EENV, "upgrade gpulab", 1);

	const char *dir = tmp_path("adir");
	mkdir(dir, 0755);
	struct gl_err e2 = {0};
	CHECK_EQ(gl_store_open(dir, 0, &s, &e2), GL_EENV);
	CHECK(strstr(e2.msg, "is a directory") != NULL);
	gl_err_clear(&e2);
	CHECK_EQ(gl_store_open("/dev/null", 0, &s, &e2), GL_EENV);
	CHECK(strstr(e2.msg, "not a regular file") != NULL);
}

static void test_unwritable(void)
{
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	CHECK_EQ(gl_store_open("/proc/x.db", 0, &s, &err), GL_EENV);
	CHECK(strstr(err.msg, "/proc/x.db") != NULL);
	CHECK(strstr(err.msg, "--db") != NULL);
	CHECK(s == NULL);
	gl_err_clear(&err);
	CHECK_EQ(gl_store_open("/proc/gpulab-nope/x.db", 0, &s, &err), GL_EENV);
	CHECK(strstr(err.msg, "cannot create directory") != NULL);
	gl_err_clear(&err);
	const char *file = tmp_path("plainfile");
	write_file(file, "x");
	CHECK_EQ(gl_store_open(tmp_path("plainfile/sub/x.db"), 0, &s, &err), GL_EENV);
	CHECK(strstr(err.msg, "Not a directory") != NULL);
	gl_err_clear(&err);

	if (geteuid() == 0) {
		fprintf(stderr, "note: running as root, skipping the read-only directory checks\n");
		return;
	}
	const char *rodir = tmp_path("rodir");
	mkdir(rodir, 0755);
	chmod(rodir, 0555);
	CHECK_EQ(gl_store_open(tmp_path("rodir/x.db"), 0, &s, &err), GL_EENV);
	CHECK(strstr(err.msg, "rodir/x.db") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(gl_store_open(tmp_path("rodir/sub/x.db"), 0, &s, &err), GL_EENV);
	gl_err_clear(&err);
	chmod(rodir, 0755);
	const char *rofile = tmp_path("rodir/ro.db");
	CHECK_EQ(gl_store_open(rofile, 0, &s, &err), GL_OK);
	gl_store_close(s);
	chmod(rofile, 0444);
	CHECK_EQ(gl_store_open(rofile, 0, &s, &err), GL_EENV);
	CHECK(strstr(err.msg, "read-only") != NULL);
	gl_err_clear(&err);
	/* A WAL database in a directory this user cannot write can still be queried. */
	chmod(rodir, 0555);
	CHECK_EQ(gl_store_open(rofile, 1, &s, &err), GL_OK);
	if (s) {
		CHECK_EQ(sql_int(s, "SELECT count(*) FROM launch_summary"), 0);
		gl_store_close(s);
	}
	chmod(rodir, 0755);
	chmod(rofile, 0644);
}

static char *query(struct gl_store *s, const char *sql, enum gl_query_format fmt, int *status,
		   struct gl_err *err)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	*status = gl_store_query(s, sql, fmt, out, err);
	fclose(out);
	return buf;
}

static void check_query(struct gl_store *s, const char *sql, enum gl_query_format fmt, const char *want)
{
	struct gl_err err = {0};
	int status;
	char *got = query(s, sql, fmt, &status, &err);
	CHECK_EQ(status, GL_OK);
	if (status)
		fprintf(stderr, "query error: %s\n", err.msg);
	CHECK_STR(got, want);
	free(got);
}

static void check_query_refused(struct gl_store *s, const char *sql, const char *needle)
{
	struct gl_err err = {0};
	int status;
	char *got = query(s, sql, GL_QUERY_TABLE, &status, &err);
	CHECK_EQ(status, GL_EUSAGE);
	if (!strstr(err.msg, needle))
		fprintf(stderr, "for %s: unexpected message: %s\n", sql, err.msg);
	CHECK(strstr(err.msg, needle) != NULL);
	CHECK_STR(got, "");
	free(got);
}

static void test_query(void)
{
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	const char *path = tmp_path("query.db");
	CHECK_EQ(gl_store_open(path, 1, &s, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "no database exists at") != NULL);
	CHECK(strstr(err.msg, "gpulab run") != NULL);
	CHECK(access(path, F_OK) != 0); /* read-only never creates */
	gl_err_clear(&err);

	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	if (s)
		record_run(s, "ok");
	gl_store_close(s);
	size_t n;
	char *before = slurp(path, &n);
	CHECK_EQ(gl_store_open(path, 1, &s, &err), GL_OK);
	if (!s)
		return;

	const char *sql = "SELECT 1 AS n, 2.5 AS x, 'a,\"b\"' AS s, NULL AS z, 'é' AS u UNION ALL "
			  "SELECT 100, 0.1, 'line\nbreak', 3, 'ab'";
	check_query(s, sql, GL_QUERY_TABLE,
		    "  n    x  s               z  u\n"
		    "---  ---  -----------  ----  --\n"
		    "  1  2.5  a,\"b\"        NULL  é\n"
		    "100  0.1  line\\nbreak     3  ab\n");
	check_query(s, sql, GL_QUERY_JSON,
		    "[{\"n\":1,\"x\":2.5,\"s\":\"a,\\\"b\\\"\",\"z\":null,\"u\":\"é\"},"
		    "{\"n\":100,\"x\":0.1,\"s\":\"line\\nbreak\",\"z\":3,\"u\":\"ab\"}]\n");
	check_query(s, sql, GL_QUERY_CSV,
		    "n,x,s,z,u\n"
		    "1,2.5,\"a,\"\"b\"\"\",,é\n"
		    "100,0.1,\"line\nbreak\",3,ab\n");
	check_query(s, "SELECT 1 AS a WHERE 0", GL_QUERY_TABLE, "a\n-\n(0 rows)\n");
	check_query(s, "SELECT 1 AS a WHERE 0", GL_QUERY_JSON, "[]\n");
	check_query(s, "SELECT 1 AS a WHERE 0", GL_QUERY_CSV, "a\n");
	check_query(s, "  -- comment\n SELECT count(*) AS runs FROM runs; ; -- trailing\n", GL_QUERY_CSV,
		    "runs\n1\n");
	check_query(s, "SELECT variant, gst_sectors_per_request FROM latest_launches ORDER BY launch_id",
		    GL_QUERY_CSV, "variant,gst_sectors_per_request\nnaive,32\nsmem,4\n");
	char version_csv[64];
	snprintf(version_csv, sizeof version_csv, "user_version\n%d\n", gl_store_schema_version());
	check_query(s, "PRAGMA user_version", GL_QUERY_CSV, version_csv);
	check_query(s, "SELECT name FROM pragma_table_info('runs') WHERE cid = 0", GL_QUERY_CSV, "name\nid\n");
	check_query(s, "SELECT x'00ff' AS b", GL_QUERY_JSON, "[{\"b\":\"X'00FF'\"}]\n");

	check_query_refused(s, "DELETE FROM runs", "query is read-only: 'DELETE' statements are refused");
	check_query_refused(s, "  insert into runs(started_at) values ('x')",
			    "query is read-only: 'INSERT' statements are refused");
	check_query_refused(s, "UPDATE runs SET status = 'x'", "'UPDATE' statements are refused");
	check_query_refused(s, "DROP TABLE metrics", "'DROP' statements are refused");
	check_query_refused(s, "CREATE TABLE t(x)", "'CREATE' statements are refused");
	check_query_refused(s, "CREATE TEMP TABLE t(x)", "'CREATE' statements are refused");
	check_query_refused(s, "ATTACH ':memory:' AS other", "'ATTACH' statements are refused");
	check_query_refused(s, "PRAGMA user_version = 5", "'PRAGMA' statements that change settings");
	check_query_refused(s, "PRAGMA journal_mode = DELETE", "'PRAGMA' statements that change settings");
	check_query_refused(s, "PRAGMA query_only(0)", "'PRAGMA' statements that change settings");
	check_query_refused(s, "VACUUM", "'VACUUM' statements are refused");
	check_query_refused(s, "REPLACE INTO lesson_progress VALUES ('a', 1, 'done', 'now')",
			    "'REPLACE' statements are refused");
	check_query_refused(s, "WITH x AS (SELECT 1) DELETE FROM runs", "'WITH' statements that write");
	check_query_refused(s, "SELECT 1; DELETE FROM runs", "exactly one SQL statement");
	check_query_refused(s, "SELECT 1; SELECT 2", "exactly one SQL statement");
	check_query_refused(s, "SELEC * FROM runs", "SQL error: near \"SELEC\": syntax error");
	check_query_refused(s, "SELECT * FROM nope", "SQL error: no such table: nope");
	check_query_refused(s, "  ; -- nothing\n", "no SQL statement given");
	gl_store_close(s);
	CHECK(same_file(path, before, n));

	/* Writes through a read-only store fail. */
	CHECK_EQ(gl_store_open(path, 1, &s, &err), GL_OK);
	if (s) {
		struct gl_run_info info;
		fill_info(&info);
		long id;
		CHECK(gl_store_begin_run(s, &info, &id, &err) != GL_OK);
		CHECK(sqlite3_exec(s->db, "DELETE FROM runs", NULL, NULL, NULL) != SQLITE_OK);
		gl_store_close(s);
	}
	CHECK(same_file(path, before, n));
	free(before);
}

static void test_memory(void)
{
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	CHECK_EQ(gl_store_open(":memory:", 0, &s, &err), GL_OK);
	if (!s)
		return;
	record_run(s, "ok");
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM launches"), 2);
	gl_store_close(s);
}

int main(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/gl_test_store_XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("HOME", tmpdir, 1);
	unsetenv("GPULAB_BUSY_TIMEOUT_MS");
	test_path_rules();
	test_create();
	test_empty_files_get_schema();
	test_roundtrip();
	test_abort_and_close_leave_nothing();
	test_failed_launch_is_left_out();
	test_killed_run_leaves_nothing();
	test_locked();
	test_refuse_foreign_files();
	test_unwritable();
	test_query();
	test_memory();
	if (!check_failures) {
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
	}
	CHECK_DONE();
}
