/* test_store_exercise.c — exercise progress (migration step 6): started keeps an existing verdict, a
 * failed check after a passing one keeps the exercise unlocked, checks are counted, runs remembered. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "store/store.h"

static void test_progress(struct gl_store *s)
{
	struct gl_err err = {0};
	struct gl_exercise_progress p;
	CHECK_EQ(gl_store_exercise_progress(s, "01-map", &p, &err), GL_OK);
	CHECK_STR(p.status, "");
	CHECK(!p.passed);
	CHECK_EQ(gl_store_exercise_record(s, "01-map", GL_EXERCISE_STARTED, 0, &err), GL_OK);
	CHECK_EQ(gl_store_exercise_progress(s, "01-map", &p, &err), GL_OK);
	CHECK_STR(p.status, "started");
	CHECK_EQ(p.checks, 0);
	CHECK_EQ(gl_store_exercise_record(s, "01-map", GL_EXERCISE_FAILED, 0, &err), GL_OK);
	CHECK_EQ(gl_store_exercise_progress(s, "01-map", &p, &err), GL_OK);
	CHECK_STR(p.status, "failed");
	CHECK_EQ(p.checks, 1);
	CHECK(!p.passed);
	CHECK_EQ(p.last_run, 0);
	CHECK_EQ(gl_store_exercise_record(s, "01-map", GL_EXERCISE_PASSED, 7, &err), GL_OK);
	CHECK_EQ(gl_store_exercise_record(s, "01-map", GL_EXERCISE_FAILED, 9, &err), GL_OK);
	CHECK_EQ(gl_store_exercise_record(s, "01-map", GL_EXERCISE_STARTED, 0, &err), GL_OK); /* start again */
	CHECK_EQ(gl_store_exercise_progress(s, "01-map", &p, &err), GL_OK);
	CHECK_STR(p.status, "failed"); /* the latest verdict, not reset by starting again */
	CHECK_EQ(p.checks, 3);
	CHECK(p.passed); /* unlocked once, stays unlocked */
	CHECK_EQ(p.last_run, 9);
	/* another exercise is independent; a check without a start creates the row */
	CHECK_EQ(gl_store_exercise_record(s, "02-zip", GL_EXERCISE_PASSED, 3, &err), GL_OK);
	CHECK_EQ(gl_store_exercise_progress(s, "02-zip", &p, &err), GL_OK);
	CHECK_STR(p.status, "passed");
	CHECK_EQ(p.checks, 1);
	CHECK_EQ(p.last_run, 3);
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
	gl_store_close(s);
	CHECK_DONE();
}
