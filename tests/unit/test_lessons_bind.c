/* test_lessons_bind.c — which launch a check reads: the parameters with which the check's step (else the
 * nearest earlier step) ran the variant, from --size, --PARAM V and --PARAM=V over the topic's defaults;
 * NULL when no step runs it.  Also the reflow of lesson prose: never past the width, never mid-word. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli/cmd_profile.h"
#include "cli/run_options.h"
#include "lessons/lesson.h"

static const char text[] =
	"# Binding\n\nIntro.\n\n"
	"## Step 1: two sizes\n"
	"```gpulab\n"
	"gpulab run gmem_patterns --variant offset --size 4096 --offset 0\n"
	"gpulab run gmem_patterns --variant offset --size 4096 --offset=3\n"
	"```\n"
	"check: gmem_patterns.offset gld_sectors_per_request == 5\n\n"
	"## Step 2: another variant, all of a topic\n"
	"```gpulab\n"
	"gpulab run gmem_patterns --variant stride --stride 2 --size 1024\n"
	"gpulab run transpose --size 64\n"
	"```\n"
	"check: gmem_patterns.offset gld_sectors_per_request == 5\n\n"
	"## Step 3: compare with a baseline\n"
	"```gpulab\n"
	"gpulab compare transpose --baseline copy --variant naive --rows 32 --cols 128\n"
	"```\n"
	"check: transpose.copy gld_sectors_per_request == 4\n\n"
	"## Step 4: a choice parameter\n"
	"```gpulab\n"
	"gpulab run conv2d --variant direct --layout nhwc\n"
	"```\n"
	"check: conv2d.direct verified == 1\n";

static void check_bound(const struct lesson *l, int step, const char *topic, const char *variant, const char *want)
{
	char *got = lesson_bound_params(l, step, topic, variant);
	if (want)
		CHECK_STR(got ? got : "(null)", want);
	else
		CHECK(got == NULL);
	free(got);
}

static void test_bind(void)
{
	struct lesson l;
	struct gl_err err = {0};
	CHECK_EQ(lesson_parse("t", "t.md", text, &l, &err), GL_OK);
	/* the step's last command running the variant: --offset=3 */
	check_bound(&l, 1, "gmem_patterns", "offset", "{\"n\":4096,\"offset\":3,\"stride\":2}");
	/* step 2 does not run offset: step 1's binding still holds */
	check_bound(&l, 2, "gmem_patterns", "offset", "{\"n\":4096,\"offset\":3,\"stride\":2}");
	check_bound(&l, 2, "gmem_patterns", "stride", "{\"n\":1024,\"offset\":1,\"stride\":2}");
	/* no --variant: every variant of the topic */
	check_bound(&l, 2, "transpose", "padded", "{\"rows\":64,\"cols\":64}");
	/* --baseline runs too; named parameters over the defaults */
	check_bound(&l, 3, "transpose", "copy", "{\"rows\":32,\"cols\":128}");
	check_bound(&l, 3, "transpose", "naive", "{\"rows\":32,\"cols\":128}");
	/* not run by step 1 (nor before it) */
	check_bound(&l, 1, "transpose", "copy", NULL);
	check_bound(&l, 1, "gmem_patterns", "vector4", NULL);
	check_bound(NULL, 1, "transpose", "copy", NULL);
	/* a parameter that names a choice is read as the topic reads it */
	char *conv = lesson_bound_params(&l, 4, "conv2d", "direct");
	CHECK(conv && strstr(conv, "\"layout\":\"nhwc\"") != NULL);
	free(conv);
	lesson_free(&l);
}

static void test_wrap(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	lesson_wrap(out, "  ", "alpha beta gamma delta epsilon zeta eta theta iota kappa", 24);
	lesson_wrap(out, "", "an_unbreakable_word_longer_than_the_line short", 20);
	fclose(out);
	CHECK_STR(buf, "  alpha beta gamma delta\n  epsilon zeta eta theta\n  iota kappa\n"
		       "an_unbreakable_word_longer_than_the_line\nshort\n");
	free(buf);
}

/* program.KERNEL: the program of the step's last `profile` line (the word after profile's own options and
 * their values, or after "--"), else an earlier step's, as a real path when it exists. */
static void test_bind_program(void)
{
	static const char prog[] = "# P\n\nIntro.\n\n"
				   "## Step 1: one\n```gpulab\n"
				   "gpulab profile --error-exitcode 9 --kernel-name fill ./no-such-app --size 3 # exits 9\n"
				   "```\n\n"
				   "## Step 2: none\n\nText.\n\n"
				   "## Step 3: two\n```gpulab\n"
				   "gpulab run transpose --size 64\n"
				   "gpulab profile --trace -- /tmp\n"
				   "```\n";
	struct lesson l;
	struct gl_err err = {0};
	CHECK_EQ(lesson_parse("p", "p.md", prog, &l, &err), GL_OK);
	char *got = lesson_bound_program(&l, 1);
	CHECK_STR(got ? got : "(null)", "./no-such-app");
	free(got);
	got = lesson_bound_program(&l, 2);
	CHECK_STR(got ? got : "(null)", "./no-such-app");
	free(got);
	char real[PATH_MAX];
	CHECK(realpath("/tmp", real) != NULL);
	got = lesson_bound_program(&l, 3);
	CHECK_STR(got ? got : "(null)", real);
	free(got);
	CHECK(lesson_bound_program(&l, 4) == NULL);
	lesson_free(&l);
}

static const char *const commands[] = {"run", "compare", "view", "profile", NULL};

int main(void)
{
	unsetenv("GPULAB_LESSONS");
	lesson_set_commands(commands);
	lesson_set_run_parser(gl_cli_run_line);
	lesson_set_profile_parser(gl_cli_profile_app);
	test_bind();
	test_bind_program();
	test_wrap();
	CHECK_DONE();
}
