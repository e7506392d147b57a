/* test_store_findings.c — the simulator's sanitizer findings in the store: written with their counts
 * and sample coordinates, read back in order (errors first) with the launch's occurrence totals; a
 * launch without a sanitizer keeps NULL counts; a version-1 database is migrated forward with its rows
 * intact. */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "store/store.h"
#include "store/store_int.h"

extern const char gl_schema_sql[]; /* schema step 1 */

static long long sql_int(struct gl_store *s, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -12345;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void fill_launch(struct gl_launch_record *l, const char *variant)
{
	memset(l, 0, sizeof *l);
	snprintf(l->topic, sizeof l->topic, "sim");
	snprintf(l->variant, sizeof l->variant, "%s", variant);
	l->params_json = "{}";
	/* the findings' coordinates below lie inside this launch (the loader checks that they do) */
	l->grid[0] = 4, l->grid[1] = 1, l->grid[2] = 3;
	l->block[0] = 64, l->block[1] = 2, l->block[2] = 1;
	l->regs = l->static_smem = -1;
	l->verified = 0;
	snprintf(l->metric_source, sizeof l->metric_source, "sim");
}

static struct gl_finding finding(const char *kind, int line, bool warning, long count, int nsamples)
{
	struct gl_finding f = {0};
	snprintf(f.kind, sizeof f.kind, "%s", kind);
	snprintf(f.space, sizeof f.space, "shared");
	f.warning = warning;
	f.address = 0x7f0000000100ull + (uint64_t)line;
	f.size = 4;
	f.line = line;
	f.src_line = line == 7 ? 0 : line / 2;
	f.count = count;
	f.nsamples = nsamples;
	for (int i = 0; i < nsamples; i++)
		f.samples[i] = (struct gl_finding_site){{(unsigned)i, 0, 2}, {31u + (unsigned)i, 1, 0}};
	memcpy(f.block, f.samples[0].block, sizeof f.block);
	memcpy(f.thread, f.samples[0].thread, sizeof f.thread);
	snprintf(f.message, sizeof f.message, "%s at line %d, with a \"quote\"", kind, line);
	return f;
}

static long store_one(struct gl_store *s, struct gl_launch_record *a, struct gl_launch_record *b)
{
	struct gl_err err = {0};
	struct gl_run_info info = {.backend = "sim", .device = "sim", .cc = "8.0", .argv = "gpulab sim"};
	long id = 0;
	CHECK_EQ(gl_store_begin_run(s, &info, &id, &err), GL_OK);
	CHECK_EQ(gl_store_add_launch(s, id, a, NULL, &err), GL_OK);
	CHECK_EQ(gl_store_add_launch(s, id, b, NULL, &err), GL_OK);
	CHECK_EQ(gl_store_commit_run(s, id, "failed", &err), GL_OK);
	if (err.status)
		fprintf(stderr, "store_one: %s\n", err.msg);
	return id;
}

static void test_roundtrip(void)
{
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	CHECK_EQ(gl_store_open(":memory:", 0, &s, &err), GL_OK);
	if (!s)
		return;
	struct gl_finding fs[3] = {finding("race", 53, false, 64, 4), finding("out-of-bounds", 7, false, 1, 1),
	                           finding("uninitialized", 60, true, 32, 3)};
	struct gl_launch_record a, b;
	fill_launch(&a, "racy");
	a.sanitized = true;
	a.sanitizer_errors = 65;
	a.sanitizer_warnings = 32;
	a.sanitizer_dropped = 5;
	a.findings = fs;
	a.nfindings = 3;
	fill_launch(&b, "gpu"); /* no sanitizer ran (a GPU launch) */
	long id = store_one(s, &a, &b);
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM sanitizer_findings"), 3);
	CHECK_EQ(sql_int(s, "SELECT sum(count) FROM sanitizer_findings WHERE severity = 'error'"), 65);
	CHECK_EQ(sql_int(s, "SELECT count FROM sanitizer_findings WHERE tool = 'racecheck'"), 64);
	CHECK_EQ(sql_int(s, "SELECT count(*) FROM sanitizer_findings WHERE tool = 'initcheck' AND kind = "
	                    "'uninitialized'"),
	         1);
	CHECK_EQ(sql_int(s, "SELECT json_array_length(samples) FROM sanitizer_findings WHERE seq = 0"), 4);
	CHECK_EQ(sql_int(s, "SELECT sanitizer_errors FROM launches WHERE variant = 'gpu'"), -1); /* NULL */

	struct gl_run_record r;
	CHECK_EQ(gl_store_load_run(s, id, &r, &err), GL_OK);
	CHECK_EQ(r.nlaunches, 2);
	if (r.nlaunches == 2) {
		const struct gl_launch_record *l = &r.launches[0];
		CHECK(l->sanitized);
		CHECK_EQ(l->sanitizer_errors, 65);
		CHECK_EQ(l->sanitizer_warnings, 32);
		CHECK_EQ(l->sanitizer_dropped, 5);
		CHECK_EQ(l->nfindings, 3);
		for (int i = 0; i < l->nfindings && i < 3; i++) {
			const struct gl_finding *g = &l->findings[i], *w = &fs[i];
			CHECK_STR(g->kind, w->kind);
			CHECK_STR(g->space, w->space);
			CHECK_STR(g->message, w->message);
			CHECK_EQ(g->warning, w->warning);
			CHECK_EQ(g->line, w->line);
			CHECK_EQ(g->src_line, w->src_line);
			CHECK_EQ(g->count, w->count);
			CHECK_EQ(g->address, w->address);
			CHECK_EQ(g->size, w->size);
			CHECK_EQ(g->nsamples, w->nsamples);
			CHECK(memcmp(g->samples, w->samples, (size_t)w->nsamples * sizeof *w->samples) == 0);
			CHECK(memcmp(g->block, w->block, sizeof g->block) == 0);
			CHECK(memcmp(g->thread, w->thread, sizeof g->thread) == 0);
		}
		CHECK(!r.launches[1].sanitized);
		CHECK_EQ(r.launches[1].nfindings, 0);
	}
	gl_run_record_free(&r);
	gl_store_close(s);
}

/* A database made by a gpulab of schema version 1 gains the findings table; its rows stay. */
static void test_migrate_from_1(void)
{
	char dir[] = "/tmp/gl_test_findings_XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		check_failures++;
		return;
	}
	char path[128];
	snprintf(path, sizeof path, "%s/v1.db", dir);
	sqlite3 *db;
	CHECK_EQ(sqlite3_open(path, &db), SQLITE_OK);
	CHECK_EQ(sqlite3_exec(db, gl_schema_sql, NULL, NULL, NULL), SQLITE_OK);
	CHECK_EQ(
	    sqlite3_exec(db,
	                 "PRAGMA user_version = 1; INSERT INTO runs (id, started_at, status, backend, "
	                 "gpulab_version) VALUES (1, 'x', 'ok', 'sim', '0.1.0'); INSERT INTO launches (run_id, topic, "
	                 "variant, grid, block) VALUES (1, 't', 'v', '1,1,1', '32,1,1');",
	                 NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	struct gl_err err = {0};
	struct gl_store *s = NULL;
	CHECK_EQ(gl_store_open(path, 1, &s, &err), GL_EENV); /* read-only: an older schema is not upgraded */
	CHECK(strstr(err.msg, "older than this gpulab's") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(gl_store_open(path, 0, &s, &err), GL_OK);
	if (s) {
		CHECK_EQ(sql_int(s, "PRAGMA user_version"), gl_store_schema_version()); /* every step applied */
		CHECK_EQ(sql_int(s, "SELECT count(*) FROM launch_buffers"), 0);
		CHECK_EQ(sql_int(s, "SELECT count(*) FROM sanitizer_findings"), 0);
		CHECK_EQ(sql_int(s, "SELECT count(*) FROM launches WHERE sanitizer_errors IS NULL"), 1);
		struct gl_run_record r;
		CHECK_EQ(gl_store_load_run(s, 1, &r, &err), GL_OK);
		CHECK(r.nlaunches == 1 && !r.launches[0].sanitized);
		gl_run_record_free(&r);
		gl_store_close(s);
	}
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

int main(void)
{
	test_roundtrip();
	test_migrate_from_1();
	CHECK_DONE();
}
