/* test_store_lesson.c — the store's lesson progress (bookmark, current lesson, marks, reset) and the
 * values a lesson check reads: the one list of numeric launch columns matches the schema, and a
 * launch's values come back by name. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "common/metrics.h"
#include "store/store.h"
#include "store/store_int.h"

static void test_progress(struct gl_store *s)
{
	struct gl_err err = {0};
	char cur[64];
	int step;
	bool current;
	CHECK_EQ(gl_store_lesson_current(s, cur, sizeof cur, &step, &err), GL_OK);
	CHECK_STR(cur, "");
	CHECK_EQ(gl_store_lesson_goto(s, "01-a", 3, &err), GL_OK);
	CHECK_EQ(gl_store_lesson_current(s, cur, sizeof cur, &step, &err), GL_OK);
	CHECK_STR(cur, "01-a");
	CHECK_EQ(step, 3);
	/* another lesson becomes current; the first keeps its bookmark */
	CHECK_EQ(gl_store_lesson_goto(s, "02-b", 1, &err), GL_OK);
	CHECK_EQ(gl_store_lesson_current(s, cur, sizeof cur, &step, &err), GL_OK);
	CHECK_STR(cur, "02-b");
	CHECK_EQ(gl_store_lesson_bookmark(s, "01-a", &step, &current, &err), GL_OK);
	CHECK_EQ(step, 3);
	CHECK(!current);
	CHECK_EQ(gl_store_lesson_mark(s, "01-a", 2, GL_LESSON_PASSED, &err), GL_OK);
	CHECK_EQ(gl_store_lesson_mark(s, "01-a", 1, GL_LESSON_FAILED, &err), GL_OK);
	enum gl_lesson_status st[4];
	CHECK_EQ(gl_store_lesson_steps(s, "01-a", st, 4, &err), GL_OK);
	CHECK_EQ(st[0], GL_LESSON_FAILED);
	CHECK_EQ(st[1], GL_LESSON_PASSED);
	CHECK_EQ(st[2], GL_LESSON_SEEN);
	CHECK_EQ(st[3], GL_LESSON_UNSEEN);
	/* going back to a checked step keeps its status */
	CHECK_EQ(gl_store_lesson_goto(s, "01-a", 2, &err), GL_OK);
	CHECK_EQ(gl_store_lesson_steps(s, "01-a", st, 4, &err), GL_OK);
	CHECK_EQ(st[1], GL_LESSON_PASSED);
	CHECK_EQ(gl_store_lesson_reset(s, "01-a", &err), GL_OK);
	CHECK_EQ(gl_store_lesson_bookmark(s, "01-a", &step, &current, &err), GL_OK);
	CHECK_EQ(step, 0);
	CHECK_EQ(gl_store_lesson_current(s, cur, sizeof cur, &step, &err), GL_OK);
	CHECK_STR(cur, ""); /* 01-a was current; after its reset no lesson is */
	if (err.status)
		fprintf(stderr, "progress: %s\n", err.msg);
}

/* Every listed column exists in launch_summary or launches, and every numeric launch_summary column that
 * is not text is listed: the list cannot drift from data/schema.sql. */
static void test_columns_match_schema(struct gl_store *s)
{
	size_t n = 0;
	const char *const *cols = gl_store_value_columns(&n);
	CHECK(n > 20);
	for (size_t i = 0; i < n; i++) {
		char sql[160];
		snprintf(sql, sizeof sql, "SELECT %s FROM launch_summary LIMIT 0", cols[i]);
		bool in_summary = sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK;
		snprintf(sql, sizeof sql, "SELECT %s FROM launches LIMIT 0", cols[i]);
		bool in_launches = sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK;
		if (!in_summary && !in_launches)
			fprintf(stderr, "column %s is in neither launch_summary nor launches\n", cols[i]);
		CHECK(in_summary || in_launches);
	}
	static const char *const text[] = {"backend", "topic", "variant", "params_json", "grid", "block",
					   "metric_source"};
	sqlite3_stmt *st;
	CHECK_EQ(sqlite3_prepare_v2(s->db, "SELECT name FROM pragma_table_info('launch_summary')", -1, &st, NULL),
		 SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		bool listed = false;
		for (size_t i = 0; i < n; i++)
			listed |= strcmp(cols[i], name) == 0;
		for (size_t i = 0; i < sizeof text / sizeof *text; i++)
			listed |= strcmp(text[i], name) == 0;
		if (!listed)
			fprintf(stderr, "launch_summary.%s is not in gl_store_value_columns\n", name);
		CHECK(listed);
	}
	sqlite3_finalize(st);
}

static void test_values(struct gl_store *s)
{
	struct gl_run_info info = {.backend = "sim", .device = "test", .cc = "8.0", .argv = "test"};
	struct gl_launch_record l = {0};
	struct gl_err err = {0};
	long run = 0, lid = 0, latest = -1;
	snprintf(l.topic, sizeof l.topic, "transpose");
	snprintf(l.variant, sizeof l.variant, "naive");
	l.params_json = "{}";
	l.grid[0] = l.grid[1] = l.grid[2] = 1;
	l.block[0] = 32, l.block[1] = l.block[2] = 1;
	l.regs = 17;
	l.static_smem = -1;
	l.verified = 1;
	l.duration_ns = NAN;
	snprintf(l.metric_source, sizeof l.metric_source, "sim");
	gl_metrics_set(&l.metrics, GL_M_GST_SECT, 64, "sector");
	gl_metrics_set(&l.metrics, GL_M_GST_REQ, 8, "request");
	CHECK_EQ(gl_store_latest_launch(s, "transpose", "naive", &latest, &err), GL_OK);
	CHECK_EQ(latest, 0);
	CHECK_EQ(gl_store_save_run(s, &info, &l, 1, "ok", &run, &lid, &err), GL_OK);
	CHECK_EQ(gl_store_latest_launch(s, "transpose", "naive", &latest, &err), GL_OK);
	CHECK_EQ(latest, lid);
	double v = 0;
	bool have = false;
	CHECK_EQ(gl_store_launch_value(s, lid, "gst_sectors_per_request", &v, &have, &err), GL_OK);
	CHECK(have);
	CHECK_NEAR(v, 8.0, 1e-12);
	CHECK_EQ(gl_store_launch_value(s, lid, "regs", &v, &have, &err), GL_OK);
	CHECK(have);
	CHECK_NEAR(v, 17, 0);
	CHECK_EQ(gl_store_launch_value(s, lid, GL_M_GST_SECT, &v, &have, &err), GL_OK);
	CHECK(have);
	CHECK_NEAR(v, 64, 0);
	CHECK_EQ(gl_store_launch_value(s, lid, "sld_wavefronts_per_instruction", &v, &have, &err), GL_OK);
	CHECK(!have); /* no shared loads: NULL */
	CHECK_EQ(gl_store_launch_value(s, lid, "smsp__inst_executed.sum", &v, &have, &err), GL_OK);
	CHECK(!have);
	gl_metrics_free(&l.metrics);
	if (err.status)
		fprintf(stderr, "values: %s\n", err.msg);
}

int main(void)
{
	struct gl_store *s = NULL;
	struct gl_err err = {0};
	CHECK_EQ(gl_store_open(":memory:", 0, &s, &err), GL_OK);
	if (!s) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	test_progress(s);
	test_columns_match_schema(s);
	test_values(s);
	gl_store_close(s);
	CHECK_DONE();
}
