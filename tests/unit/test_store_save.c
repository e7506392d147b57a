/* test_store_save.c — runs are never lost: a write waits out another writer's lock, a run whose wait
 * runs out goes to a spool file that gl_store_import stores (once); a foreign database with gpulab's
 * table names is refused byte-identical; gl_store_check reaches gl_store_open's verdict, writing nothing. */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

static long count(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long n = -1;
	CHECK_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

static void fill(struct gl_run_info *info, struct gl_launch_record *l, struct gl_trace_event *ev, int nev)
{
	memset(info, 0, sizeof *info);
	snprintf(info->backend, sizeof info->backend, "sim");
	snprintf(info->host, sizeof info->host, "testhost");
	info->argv = "gpulab run transpose --trace";
	memset(l, 0, sizeof *l);
	snprintf(l->topic, sizeof l->topic, "transpose");
	snprintf(l->variant, sizeof l->variant, "naive");
	l->grid[0] = l->grid[1] = l->grid[2] = 1;
	l->block[0] = 160, l->block[1] = l->block[2] = 1; /* 5 warps: the events' warps 0..4 (import checks them) */
	l->verified = 1;
	l->duration_ns = 0.0 / 0.0;
	snprintf(l->metric_source, sizeof l->metric_source, "sim");
	gl_metrics_set(&l->metrics, GL_M_GLD_REQ, 32, "");
	memset(ev, 0, sizeof *ev * (size_t)nev);
	for (int i = 0; i < nev; i++) {
		ev[i].seq = (uint32_t)i, ev[i].warp = (uint32_t)i, ev[i].pc = 7, ev[i].line = 40 + (uint32_t)i;
		ev[i].bytes = 4, ev[i].mask = 0xffffffffu, ev[i].cost = 4, ev[i].strided = true;
		ev[i].addr_base = 0x1000 + 128u * (uint64_t)i, ev[i].addr_stride = 4;
		for (int k = 0; k < 32; k++)
			ev[i].addrs[k] = ev[i].addr_base + 4u * (uint64_t)k;
	}
	l->trace = ev;
	l->ntrace = (uint32_t)nev;
}

/* A child process holds the write lock of `path` for `ms`; returns its pid once it holds it. */
static pid_t hold_lock(const char *path, int ms)
{
	int fd[2];
	CHECK_EQ(pipe(fd), 0);
	pid_t pid = fork();
	if (pid == 0) {
		sqlite3 *db;
		sqlite3_open(path, &db);
		int ok = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
		if (write(fd[1], &ok, sizeof ok) != sizeof ok)
			_exit(1);
		usleep((useconds_t)ms * 1000);
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
		sqlite3_close(db);
		_exit(0);
	}
	int ok = 0;
	CHECK_EQ(read(fd[0], &ok, sizeof ok), (ssize_t)sizeof ok);
	CHECK(ok);
	close(fd[0]);
	close(fd[1]);
	return pid;
}

static void test_waits_for_lock(void)
{
	const char *path = tmp_path("wait.db");
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	gl_store_set_busy_timeout(s, 50); /* each attempt waits briefly; the retry loop waits out the rest */
	struct gl_run_info info;
	struct gl_launch_record l;
	struct gl_trace_event ev[3];
	fill(&info, &l, ev, 3);
	pid_t pid = hold_lock(path, 1500);
	double t0 = gl_now();
	long run = 0, launch = 0;
	CHECK_EQ(gl_store_save_run(s, &info, &l, 1, "ok", &run, &launch, &err), GL_OK);
	CHECK(gl_now() - t0 >= 1.0);
	CHECK(run > 0 && launch > 0);
	waitpid(pid, NULL, 0);
	gl_store_close(s);
	CHECK_EQ(count(path, "SELECT count(*) FROM runs"), 1);
	CHECK_EQ(count(path, "SELECT count(*) FROM trace_events"), 3);
	gl_metrics_free(&l.metrics);
}

/* The lock outlives the wait: the run goes to a spool file, which import stores once. */
static void test_spool_and_import(void)
{
	const char *path = tmp_path("spool.db");
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	setenv("GPULAB_LOCK_WAIT_S", "0", 1);
	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	unsetenv("GPULAB_LOCK_WAIT_S");
	gl_store_set_busy_timeout(s, 20);
	struct gl_run_info info;
	struct gl_launch_record l;
	struct gl_trace_event ev[5];
	fill(&info, &l, ev, 5);
	pid_t pid = hold_lock(path, 600);
	long run = 0;
	CHECK_EQ(gl_store_save_run(s, &info, &l, 1, "ok", &run, NULL, &err), GL_EENV);
	waitpid(pid, NULL, 0);
	CHECK(strstr(err.msg, "stayed locked") != NULL);
	CHECK(strstr(err.msg, "gpulab import") != NULL);
	char spool[600] = "";
	const char *at = strstr(err.msg, "saved to ");
	CHECK(at != NULL);
	if (at)
		sscanf(at + 9, "%599s", spool);
	CHECK(strncmp(spool, path, strlen(path)) == 0 && strstr(spool, ".spool-") != NULL);
	CHECK_EQ(count(path, "SELECT count(*) FROM runs"), 0);
	CHECK_EQ(count(spool, "SELECT count(*) FROM trace_events"), 5);

	size_t n0, n1;
	char *before = slurp(spool, &n0);
	int imported = -1, skipped = -1;
	gl_err_clear(&err);
	CHECK_EQ(gl_store_import(s, spool, &imported, &skipped, &err), GL_OK);
	CHECK_EQ(imported, 1);
	CHECK_EQ(skipped, 0);
	CHECK_EQ(gl_store_import(s, spool, &imported, &skipped, &err), GL_OK);
	CHECK_EQ(imported, 0);
	CHECK_EQ(skipped, 1);
	char *after = slurp(spool, &n1);
	CHECK(before && after && n0 == n1 && memcmp(before, after, n0) == 0); /* the spool is only read */
	free(before);
	free(after);
	/* importing the database into itself is refused */
	CHECK_EQ(gl_store_import(s, path, &imported, &skipped, &err), GL_EUSAGE);
	gl_store_close(s);
	CHECK_EQ(count(path, "SELECT count(*) FROM runs WHERE status = 'ok' AND host = 'testhost' AND "
			     "finished_at IS NOT NULL"), 1);
	CHECK_EQ(count(path, "SELECT count(*) FROM trace_events WHERE line = 44 AND cost = 4"), 1);
	CHECK_EQ(count(path, "SELECT count(*) FROM metrics"), 1);
	gl_metrics_free(&l.metrics);
}

/* gl_store_check and gl_store_open (read-write) reach the same verdict, and check writes nothing. */
static void same_verdict(const char *path, int want)
{
	size_t n0 = 0, n1 = 0;
	char *before = slurp(path, &n0);
	char resolved[600];
	struct gl_err e1 = {0}, e2 = {0};
	CHECK_EQ(gl_store_check(path, resolved, sizeof resolved, &e1), want);
	char *after = slurp(path, &n1);
	CHECK((!before && !after) || (before && after && n0 == n1 && memcmp(before, after, n0) == 0));
	free(before);
	free(after);
	struct gl_store *s = NULL;
	CHECK_EQ(gl_store_open(path, 0, &s, &e2), want);
	if (strcmp(e1.msg, e2.msg) != 0)
		fprintf(stderr, "check: %s\nopen:  %s\n", e1.msg, e2.msg);
	CHECK(strcmp(e1.msg, e2.msg) == 0);
	gl_store_close(s);
}

static void test_check_matches_open(void)
{
	FILE *f = fopen(tmp_path("text.db"), "w");
	fputs("not a database\n", f);
	fclose(f);
	same_verdict(tmp_path("text.db"), GL_EENV);
	mkdir(tmp_path("dir.db"), 0755);
	same_verdict(tmp_path("dir.db"), GL_EENV);
	sql_exec(tmp_path("newer.db"), "PRAGMA application_id = 1196444738; PRAGMA user_version = 99; "
				       "CREATE TABLE runs(id INTEGER PRIMARY KEY);");
	same_verdict(tmp_path("newer.db"), GL_EENV);
	sql_exec(tmp_path("other.db"), "CREATE TABLE customers(id INTEGER PRIMARY KEY);");
	same_verdict(tmp_path("other.db"), GL_EENV);
	char resolved[600];
	struct gl_err err = {0};
	CHECK_EQ(gl_store_check(tmp_path("sub/new.db"), resolved, sizeof resolved, &err), GL_OK);
	struct stat st;
	CHECK(stat(tmp_path("sub"), &st) != 0); /* nothing created */
	same_verdict(tmp_path("good.db"), GL_OK); /* created by the open */
	same_verdict(tmp_path("good.db"), GL_OK);
}

/* Tables named like gpulab's, even with gpulab's user_version (or application id), are not enough. */
static void test_foreign_lookalike(void)
{
	const char *look = tmp_path("lookalike.db");
	sql_exec(look, "PRAGMA user_version = 1; CREATE TABLE runs(id INTEGER PRIMARY KEY, who TEXT); "
		       "CREATE TABLE launches(id INTEGER PRIMARY KEY); CREATE TABLE metrics(launch_id, name); "
		       "INSERT INTO runs(who) VALUES ('ada');");
	const char *forged = tmp_path("forged.db");
	sql_exec(forged, "PRAGMA application_id = 1196444738; PRAGMA user_version = 1; "
			 "CREATE TABLE runs(id INTEGER PRIMARY KEY, who TEXT); CREATE TABLE launches(id); "
			 "CREATE TABLE metrics(a); CREATE TABLE trace_events(a); CREATE TABLE lesson_progress(a);");
	const char *paths[] = {look, forged};
	for (int i = 0; i < 2; i++) {
		size_t n0, n1;
		char *before = slurp(paths[i], &n0);
		for (int ro = 0; ro <= 1; ro++) {
			struct gl_store *s = NULL;
			struct gl_err err = {0};
			CHECK_EQ(gl_store_open(paths[i], ro, &s, &err), GL_EENV);
			CHECK(strstr(err.msg, "not gpulab's") != NULL);
		}
		char *after = slurp(paths[i], &n1);
		CHECK(before && after && n0 == n1 && memcmp(before, after, n0) == 0);
		CHECK(after && after[18] == 1); /* header byte 18: 1 = rollback journal, 2 = WAL */
		free(before);
		free(after);
	}
}

/* The run spooled while the lock is held into `dir`/x.db: the spool file's path from the message. */
static void spool_in(const char *dir, char *spool, size_t n)
{
	char path[600];
	snprintf(path, sizeof path, "%s/x.db", dir);
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	setenv("GPULAB_LOCK_WAIT_S", "0", 1);
	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	unsetenv("GPULAB_LOCK_WAIT_S");
	gl_store_set_busy_timeout(s, 20);
	struct gl_run_info info;
	struct gl_launch_record l;
	struct gl_trace_event ev[1];
	fill(&info, &l, ev, 1);
	pid_t pid = hold_lock(path, 400);
	long run = 0;
	CHECK_EQ(gl_store_save_run(s, &info, &l, 1, "ok", &run, NULL, &err), GL_EENV);
	waitpid(pid, NULL, 0);
	const char *at = strstr(err.msg, "saved to ");
	spool[0] = '\0';
	if (at)
		sscanf(at + 9, "%599s", spool);
	(void)n;
	gl_store_close(s);
	gl_metrics_free(&l.metrics);
}

/* Spool files go through common/safe_dir.h: beside the database only in a directory of the user's own,
 * else in $XDG_DATA_HOME/gpulab/spool; a link planted at a spool's name is replaced, never followed. */
static void test_spool_directory(void)
{
	char spool[600], dir[600], own[600];
	/* a database directory others may write: the spool goes to the user's own spool directory */
	snprintf(dir, sizeof dir, "%s/shared", tmpdir);
	CHECK(mkdir(dir, 0777) == 0 && chmod(dir, 0777) == 0);
	setenv("XDG_DATA_HOME", tmp_path("data"), 1);
	spool_in(dir, spool, sizeof spool);
	snprintf(own, sizeof own, "%s/data/gpulab/spool/x.db.spool-", tmpdir);
	CHECK(strncmp(spool, own, strlen(own)) == 0);
	CHECK_EQ(count(spool, "SELECT count(*) FROM runs"), 1);
	/* another user's directory (as root: user 65534's) */
	if (geteuid() == 0) {
		snprintf(dir, sizeof dir, "%s/theirs", tmpdir);
		CHECK(mkdir(dir, 0755) == 0 && chown(dir, 65534, 65534) == 0);
		spool_in(dir, spool, sizeof spool);
		CHECK(strncmp(spool, own, strlen(own)) == 0);
	}
	/* links planted at the names this process would use in the next seconds: replaced, not followed */
	snprintf(dir, sizeof dir, "%s/mine", tmpdir);
	CHECK(mkdir(dir, 0700) == 0);
	FILE *f = fopen(tmp_path("precious"), "w");
	CHECK(f && fputs("mine", f) >= 0 && fclose(f) == 0);
	for (long t = time(NULL); t < time(NULL) + 5; t++) {
		char link[700];
		snprintf(link, sizeof link, "%s/x.db.spool-%ld-%ld.db", dir, t, (long)getpid());
		CHECK(symlink(tmp_path("precious"), link) == 0);
	}
	spool_in(dir, spool, sizeof spool);
	struct stat st;
	CHECK(lstat(spool, &st) == 0 && S_ISREG(st.st_mode));
	size_t n;
	char *text = slurp(tmp_path("precious"), &n);
	CHECK_STR(text, "mine");
	free(text);
	unsetenv("XDG_DATA_HOME");
}

int main(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/gl_test_store_save_XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("HOME", tmpdir, 1);
	unsetenv("GPULAB_BUSY_TIMEOUT_MS");
	unsetenv("GPULAB_LOCK_WAIT_S");
	test_waits_for_lock();
	test_spool_and_import();
	test_check_matches_open();
	test_foreign_lookalike();
	test_spool_directory();
	if (!check_failures) {
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
	}
	CHECK_DONE();
}
