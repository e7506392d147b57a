/* fuzz_rows.c — the stored-row harness: a real gpulab database (tests/fuzz/rows_seed.sql, recorded by
 * rows_seed.sh) whose rows the input mutates — values, types, NULLs, sizes, values moved between rows, deleted rows —
 * then everything that loads rows reads it: `report` (every run loaded and rendered as text, JSON and CSV,
 * with --details), the list of runs, lesson values, lesson and exercise progress, every view of every
 * traced launch (built, and every page of two of its steps drawn: the first that shows the view's
 * point and the last; drawing is most of the cost of an input), and `import`/`merge` (the file copied
 * into a new database, then assembled).  A refusal is fine; a crash, a sanitizer report, a leak or output
 * that is not JSON where JSON is promised is a finding (abort).  See README.md, "The stored-row harness". */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <unistd.h>

#include "render/render.h"
#include "common/json.h"
#include "store/store.h"
#include "visualize/view.h"
#include "visualize/view_states.h"
#include "visualize/view_trace.h"

#ifndef GL_FUZZ_ROWS_SEED
#define GL_FUZZ_ROWS_SEED "tests/fuzz/rows_seed.sql"
#endif

#define MAX_OPS 24

static const char *const tables[] = {"runs", "launches", "metrics", "trace_events", "sanitizer_findings",
				     "launch_buffers", "launch_guidance", "launch_outputs", "lesson_progress",
				     "exercise_progress"};
/* How a row of each is named: trace_events and sanitizer_findings have no rowid (WITHOUT ROWID). */
static const char *const keys[] = {"rowid", "rowid", "rowid", "launch_id, seq", "launch_id, seq", "rowid",
				   "rowid", "rowid", "rowid", "rowid"};
#define NTABLES (sizeof tables / sizeof *tables)

static sqlite3 *seed;        /* the seed database, in memory */
static char dir[256], path[300];
static char columns[NTABLES][32][40];
static int ncolumns[NTABLES];

struct input {
	const uint8_t *p;
	size_t n;
};

static unsigned take(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static uint64_t take64(struct input *in)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | take(in);
	return v;
}

static void die(const char *what)
{
	fprintf(stderr, "fuzz_rows: %s: %s\n", what, seed ? sqlite3_errmsg(seed) : "");
	abort();
}

static void load_columns(void)
{
	for (size_t t = 0; t < NTABLES; t++) {
		char sql[128];
		sqlite3_stmt *st;
		snprintf(sql, sizeof sql, "SELECT name FROM pragma_table_info('%s')", tables[t]);
		if (sqlite3_prepare_v2(seed, sql, -1, &st, NULL) != SQLITE_OK)
			die("reading the seed's columns");
		while (sqlite3_step(st) == SQLITE_ROW && ncolumns[t] < 32)
			snprintf(columns[t][ncolumns[t]++], 40, "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
}

static void init(void)
{
	char *text = NULL;
	const char *seed_path = getenv("FUZZ_ROWS_SEED") ? getenv("FUZZ_ROWS_SEED") : GL_FUZZ_ROWS_SEED;
	FILE *f = fopen(seed_path, "rb");
	size_t len = 0, cap = 0, got;
	char buf[65536];
	while (f && (got = fread(buf, 1, sizeof buf, f)) > 0) {
		if (len + got + 1 > cap)
			text = realloc(text, cap = 2 * (len + got + 1));
		memcpy(text + len, buf, got);
		len += got;
	}
	if (!f || !text)
		die("cannot read the seed SQL (FUZZ_ROWS_SEED or tests/fuzz/rows_seed.sql from the source root)");
	fclose(f);
	text[len] = '\0';
	if (sqlite3_open(":memory:", &seed) != SQLITE_OK || sqlite3_exec(seed, text, NULL, NULL, NULL) != SQLITE_OK)
		die("loading the seed");
	free(text);
	load_columns();
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(dir, sizeof dir, "%s/gl-fuzz-rows-XXXXXX", base);
	if (!mkdtemp(dir))
		die("no temporary directory");
	snprintf(path, sizeof path, "%s/fuzz.db", dir);
	setenv("GPULAB_BUSY_TIMEOUT_MS", "0", 1);
	setenv("GPULAB_LOCK_WAIT_S", "0", 1);
}

/* A value for a column, chosen by the input. */
static void bind_value(sqlite3_stmt *st, struct input *in)
{
	static const int64_t edges[] = {-1, 0, 1, 2, 31, 32, 33, 255, 256, 1023, 1024, 1025, 65535, 65536,
					INT32_MAX, (int64_t)UINT32_MAX, (int64_t)UINT32_MAX + 1, INT64_MAX, INT64_MIN,
					-4294967296ll, 1ll << 40, 0x7f0000000000ll};
	static const char *const texts[] = {"", "1,1,1", "0,0,0", "1024,1,1", "1025,1,1", "4294967295,1,1",
					    "2147483647,2147483647,2147483647", "1,1", "a,b,c", "{}", "{\"m\":1,\"n\":1,\"k\":64}",
					    "{\"m\":", "{\"a\":[1,2,{\"b\":null}]}", "[1]", "{\"seq\":1000000}",
					    "global", "shared", "local", "ld", "st", "atom", "cp.async", "ldmatrix", "warning",
					    "error", "current 2", "current", "passed", "seen", "x\ny", "{\"m\":-5}"};
	unsigned kind = take(in) % 9;
	uint8_t raw[300];
	unsigned len;
	switch (kind) {
	case 0: sqlite3_bind_null(st, 1); return;
	case 1: sqlite3_bind_int64(st, 1, (int8_t)take(in)); return;
	case 2: sqlite3_bind_int64(st, 1, edges[take(in) % (sizeof edges / sizeof *edges)]); return;
	case 3: sqlite3_bind_int64(st, 1, (int64_t)take64(in)); return;
	case 4: {
		uint64_t bits = take64(in);
		double d;
		memcpy(&d, &bits, sizeof d);
		sqlite3_bind_double(st, 1, d);
		return;
	}
	case 5: sqlite3_bind_text(st, 1, texts[take(in) % (sizeof texts / sizeof *texts)], -1, SQLITE_STATIC); return;
	case 6:
		len = take(in) % 48;
		for (unsigned i = 0; i < len; i++)
			raw[i] = (uint8_t)take(in);
		sqlite3_bind_text(st, 1, (const char *)raw, (int)len, SQLITE_TRANSIENT);
		return;
	default: {
		static const unsigned sizes[] = {0, 1, 12, 13, 255, 256, 257, 300};
		len = sizes[take(in) % 8];
		for (unsigned i = 0; i < len; i++)
			raw[i] = (uint8_t)(i < 16 ? take(in) : raw[i % 16] + i);
		sqlite3_bind_blob(st, 1, raw, (int)len, SQLITE_TRANSIENT);
		return;
	}
	}
}

/* Row number ?N of table t (modulo its rows), as SQL. */
static void row_sql(size_t t, int param, char *out, size_t n)
{
	snprintf(out, n, "(SELECT %s FROM %s ORDER BY %s LIMIT 1 OFFSET (?%d %% max(1, (SELECT count(*) FROM %s))))",
		 keys[t], tables[t], keys[t], param, tables[t]);
}

/* One mutation: a column of a row set to a value or to another row's, or a row deleted. */
static void mutate(sqlite3 *db, struct input *in)
{
	unsigned op = take(in) % 8, t = take(in) % NTABLES, row = take(in) << 8;
	row |= take(in);
	if (!ncolumns[t])
		return;
	const char *col = columns[t][take(in) % ncolumns[t]];
	char sql[1200], one[300], other[300];
	row_sql(t, 2, one, sizeof one);
	row_sql(t, 3, other, sizeof other);
	if (op == 6)
		snprintf(sql, sizeof sql, "DELETE FROM %s WHERE (%s) = %s", tables[t], keys[t], one);
	else if (op == 7) /* the value of the same column in another row (a swapped id, a moved address) */
		snprintf(sql, sizeof sql, "UPDATE %s SET \"%s\" = (SELECT \"%s\" FROM %s WHERE (%s) = %s) WHERE (%s) = %s",
			 tables[t], col, col, tables[t], keys[t], other, keys[t], one);
	else
		snprintf(sql, sizeof sql, "UPDATE %s SET \"%s\" = ?1 WHERE (%s) = %s", tables[t], col, keys[t], one);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "fuzz_rows: the harness's own SQL failed: %s: %s\n", sql, sqlite3_errmsg(db));
		abort();
	}
	if (op < 6)
		bind_value(st, in);
	sqlite3_bind_int64(st, 2, row);
	sqlite3_bind_int64(st, 3, (long long)(take(in) << 8 | take(in)));
	sqlite3_step(st); /* constraints may refuse it: that is a mutation too */
	sqlite3_finalize(st);
}

/* The seed, mutated by the input, as the file at `path`. */
static bool make_database(struct input *in)
{
	char side[320];
	unlink(path);
	snprintf(side, sizeof side, "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", path);
	unlink(side);
	sqlite3 *db;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		die("creating the database");
	sqlite3_backup *b = sqlite3_backup_init(db, "main", seed, "main");
	if (!b || sqlite3_backup_step(b, -1) != SQLITE_DONE)
		die("copying the seed");
	sqlite3_backup_finish(b);
	for (int i = 0; i < MAX_OPS && in->n; i++)
		mutate(db, in);
	return sqlite3_close(db) == SQLITE_OK;
}

/* The ids of `sql`'s first column, read with sqlite directly (the store is what is under test). */
static int ids(const char *sql, long *out, int max)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int n = 0;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		while (n < max && sqlite3_step(st) == SQLITE_ROW)
			out[n++] = (long)sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return n;
}

/* --json output must be one JSON object. */
static void check_json(char *text)
{
	if (text && text[0] && !gl_json_valid_object(text)) {
		fprintf(stderr, "fuzz_rows: report --json printed what is not JSON:\n%s\n", text);
		abort();
	}
}

static void report(struct gl_store *s, FILE *null)
{
	long runs[64];
	int n = ids("SELECT id FROM runs ORDER BY id", runs, 64);
	for (int i = 0; i < n; i++) {
		struct gl_run_record r;
		struct gl_err err = {0};
		if (gl_store_load_run(s, runs[i], &r, &err) != GL_OK)
			continue;
		gl_render_run(null, &r, GL_FMT_TABLE, 100);
		gl_render_run(null, &r, GL_FMT_CSV, 0);
		gl_render_details(null, &r, gl_render_gpu_of(&r));
		char *json = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&json, &len);
		if (mem) {
			gl_render_run(mem, &r, GL_FMT_JSON, 100);
			fclose(mem);
			check_json(json);
			free(json);
		}
		for (size_t k = 0; k < r.nlaunches; k++) {
			long id = 0;
			double v;
			bool have;
			if (gl_store_latest_launch(s, r.launches[k].topic, r.launches[k].variant, &id, &err) == GL_OK && id)
				gl_store_launch_value(s, id, "smsp__inst_executed.sum", &v, &have, &err);
		}
		gl_run_record_free(&r);
	}
	struct gl_run_row *rows = NULL;
	size_t nrows = 0;
	struct gl_err err = {0};
	if (gl_store_list_runs(s, NULL, 0, &rows, &nrows, &err) == GL_OK)
		free(rows);
	char lesson[64];
	int step;
	gl_store_lesson_current(s, lesson, sizeof lesson, &step, &err);
	struct gl_exercise_progress pr;
	gl_store_exercise_progress(s, "01-map", &pr, &err);
}

/* Build view `kind` of the trace and draw every page of its first steps. */
static void one_view(const struct view_trace *tr, enum gl_topic_view kind, FILE *null)
{
	struct gl_err err = {0};
	struct view_any v;
	if (view_any_build(&v, kind, tr, -1, &err) != GL_OK)
		return;
	int steps = v.ops->nsteps(v.state), pick[] = {view_first_point(v.ops, v.state), steps - 1};
	for (size_t i = 0; i < sizeof pick / sizeof *pick; i++) /* drawing is what costs: a few steps */
		if (pick[i] >= 0 && pick[i] < steps)
			view_print_frames_from(v.ops, v.state, pick[i], 1, null);
	view_any_free(&v);
}

static void views(struct gl_store *s, FILE *null)
{
	long launches[64];
	int n = ids("SELECT DISTINCT launch_id FROM trace_events ORDER BY launch_id", launches, 64);
	for (int i = 0; i < n; i++) {
		struct view_trace tr;
		struct gl_err err = {0};
		if (view_load(s, launches[i], &tr, &err) != GL_OK)
			continue;
		for (int kind = GL_VIEW_COALESCE; kind <= GL_VIEW_REDUCE; kind++) /* every view */
			one_view(&tr, (enum gl_topic_view)kind, null);
		view_trace_free(&tr);
	}
}

/* import and merge: the same loaders check what they copy. */
static void import(void)
{
	struct gl_store *into = NULL;
	struct gl_err err = {0};
	int imported, skipped;
	if (gl_store_open(":memory:", 0, &into, &err) != GL_OK)
		return;
	if (gl_store_import(into, path, &imported, &skipped, &err) == GL_OK) {
		struct gl_assembly a = {0};
		gl_store_assemble(into, &a, &err);
	}
	gl_store_close(into);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!seed)
		init();
	struct input in = {data, size};
	if (!make_database(&in))
		return 0;
	FILE *null = fopen("/dev/null", "w");
	struct gl_store *s = NULL;
	struct gl_err err = {0};
	if (gl_store_open(path, 1, &s, &err) == GL_OK) {
		report(s, null);
		views(s, null);
	}
	gl_store_close(s);
	import();
	fclose(null);
	return 0;
}
