/* test_lessons_check.c — check: expressions: precedence, evaluation against a store (the latest
 * launch of each variant; launch_summary columns, launches columns and metrics rows), missing data,
 * division by zero, the comparison tolerance.  (Lesson progress is the store's: test_store_lesson.c.) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "common/metrics.h"
#include "lessons/lesson.h"
#include "store/store.h"

static void launch(struct gl_store *s, const char *variant, double st_sectors, double st_requests, int regs)
{
	struct gl_run_info info = {.backend = "sim", .device = "test", .cc = "8.0", .argv = "test"};
	struct gl_launch_record l = {0};
	struct gl_err err = {0};
	long run, lid;
	snprintf(l.topic, sizeof l.topic, "transpose");
	snprintf(l.variant, sizeof l.variant, "%s", variant);
	l.params_json = "{}";
	l.grid[0] = l.grid[1] = l.grid[2] = 1;
	l.block[0] = 32, l.block[1] = l.block[2] = 1;
	l.regs = regs;
	l.static_smem = -1;
	l.verified = 1;
	l.duration_ns = NAN;
	snprintf(l.metric_source, sizeof l.metric_source, "sim");
	gl_metrics_set(&l.metrics, GL_M_GST_SECT, st_sectors, "sector");
	gl_metrics_set(&l.metrics, GL_M_GST_REQ, st_requests, "request");
	CHECK_EQ(gl_store_begin_run(s, &info, &run, &err), GL_OK);
	CHECK_EQ(gl_store_add_launch(s, run, &l, &lid, &err), GL_OK);
	CHECK_EQ(gl_store_commit_run(s, run, "ok", &err), GL_OK);
	if (err.status)
		fprintf(stderr, "launch: %s\n", err.msg);
	gl_metrics_free(&l.metrics);
}

/* Parse and evaluate `text`; returns 1 passed, 0 failed, -1 error; *r gets the result. */
static int eval(struct gl_store *s, const char *text, struct lesson_check_result *r)
{
	struct lesson_check c;
	struct gl_err err = {0};
	if (lesson_check_parse(text, "t.md", 1, &c, &err) != GL_OK) {
		fprintf(stderr, "parse: %s\n", err.msg);
		return -1;
	}
	int rc = lesson_check_eval(s, NULL, 0, &c, r, &err);
	lesson_check_free(&c);
	if (rc)
		fprintf(stderr, "eval: %s\n", err.msg);
	return rc ? -1 : r->passed;
}

static void test_eval(struct gl_store *s)
{
	struct lesson_check_result r;
	/* nothing recorded yet */
	CHECK_EQ(eval(s, "transpose.naive gst_sectors_per_request == 32", &r), 0);
	CHECK(strstr(r.why, "no launch of transpose.naive recorded yet") != NULL);

	launch(s, "naive", 1000, 100, 40);  /* an older launch: 10 per request */
	launch(s, "naive", 3200, 100, 32);  /* the latest: 32 */
	launch(s, "padded", 400, 100, 0);
	CHECK_EQ(eval(s, "transpose.naive gst_sectors_per_request == 32", &r), 1);
	CHECK_NEAR(r.lhs, 32, 0);
	CHECK_NEAR(r.rhs, 32, 0);
	CHECK_EQ(eval(s,
		      "transpose.naive l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum / "
		      "transpose.naive l1tex__t_requests_pipe_lsu_mem_global_op_st.sum == 32",
		      &r),
		 1);
	CHECK_EQ(eval(s, "transpose.naive regs == 32", &r), 1); /* a launches column */
	CHECK_EQ(eval(s, "transpose.padded gst_sectors < transpose.naive gst_sectors", &r), 1);
	CHECK_EQ(eval(s, "transpose.padded gst_sectors > transpose.naive gst_sectors", &r), 0);
	CHECK_NEAR(r.lhs, 400, 0);
	CHECK_NEAR(r.rhs, 3200, 0);
	/* precedence and unary minus: 3200 / 100 + 1 * 2 - -1 = 35 */
	CHECK_EQ(eval(s, "transpose.naive gst_sectors / 100 + 1 * 2 - -1 == 35", &r), 1);
	CHECK_EQ(eval(s, "(transpose.naive gst_sectors - 200) / (1 + 2) >= 1000", &r), 1);
	CHECK_EQ(eval(s, "transpose.naive gst_sectors / 100 != 32", &r), 0);
	CHECK_EQ(eval(s, "transpose.naive gst_sectors <= 3200", &r), 1);
	CHECK_EQ(eval(s, "1e3 * 3.2 == transpose.naive gst_sectors", &r), 1);
	/* == tolerates rounding: 0.1 + 0.2 == 0.3 */
	CHECK_EQ(eval(s, "0.1 + 0.2 == 0.3", &r), 1);
	CHECK_EQ(eval(s, "0.1 + 0.2 > 0.3", &r), 0);
	/* a value that is NULL (no shared loads), a metric not recorded, division by zero */
	CHECK_EQ(eval(s, "transpose.naive sld_wavefronts_per_instruction == 1", &r), 0);
	CHECK(strstr(r.why, "has no value for sld_wavefronts_per_instruction") != NULL);
	CHECK_EQ(eval(s, "transpose.naive smsp__inst_executed.sum > 0", &r), 0);
	CHECK(strstr(r.why, "no value for smsp__inst_executed.sum") != NULL);
	CHECK_EQ(eval(s, "transpose.naive gst_sectors / transpose.padded regs > 0", &r), 0);
	CHECK_STR(r.why, "division by zero");
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
	test_eval(s);
	gl_store_close(s);
	CHECK_DONE();
}
