/* test_lessons_parse.c — the lesson Markdown parser: steps, commands, checks, question and answer, and
 * every malformed-file error with its file:line; command-line word splitting; the built-in lessons. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli/run_options.h"
#include "lessons/lesson.h"
#include "lessons/lesson_int.h"

static const char good[] =
	"# A title\n"
	"\n"
	"Intro text.\n"
	"\n"
	"## Step 1: Run it\n"
	"Some prose.\n"
	"```gpulab\n"
	"# a comment\n"
	"gpulab run transpose --variant naive,coalesced --size 64\n"
	"gpulab query \"select 1\"\n"
	"```\n"
	"check: transpose.naive gst_sectors_per_request == 32\n"
	"```c\n"
	"check: not a check inside a C fence\n"
	"```\n"
	"> **Question:** why?\n"
	"<details><summary>Answer</summary>\n"
	"Because.\n"
	"```gpulab\n"
	"gpulab run transpose --variant copy\n"
	"```\n"
	"</details>\n"
	"\n"
	"## Step 2: Look\n"
	"check: transpose.padded sld_conflicts < transpose.coalesced sld_conflicts\n";

static void test_good(void)
{
	struct lesson l;
	struct gl_err err = {0};
	CHECK_EQ(lesson_parse("t", "t.md", good, &l, &err), GL_OK);
	CHECK_STR(err.msg, "");
	CHECK_STR(l.title, "A title");
	CHECK_EQ(l.nsteps, 2);
	if (l.nsteps != 2)
		return;
	const struct lesson_step *s1 = &l.steps[0], *s2 = &l.steps[1];
	CHECK_EQ(s1->number, 1);
	CHECK_EQ(s1->line, 5);
	CHECK_STR(s1->title, "Run it");
	CHECK_EQ(s1->ncmds, 2); /* the block inside <details> is shown, not run */
	CHECK_STR(s1->cmds[0].argv[0], "run");
	CHECK_STR(s1->cmds[0].argv[4], "--size");
	CHECK_EQ(s1->cmds[0].argc, 6);
	CHECK_EQ(s1->cmds[0].line, 9);
	CHECK_STR(s1->cmds[1].argv[1], "select 1");
	CHECK_EQ(s1->nchecks, 1);
	CHECK_EQ(s1->checks[0].line, 12);
	CHECK_STR(s1->checks[0].text, "transpose.naive gst_sectors_per_request == 32");
	CHECK(s1->has_question);
	CHECK(s1->has_answer);
	CHECK_EQ(s2->nchecks, 1);
	CHECK_EQ(s2->checks[0].cmp, LESSON_LT);
	CHECK(!s2->has_question);
	CHECK_EQ(l.intro_first, 1);
	CHECK_EQ(l.intro_last, 4);
	CHECK_EQ(s1->last, s2->line - 1);
	CHECK_EQ(s2->last, l.nlines);
	lesson_free(&l);
}

/* A malformed text gives GL_EUSAGE and a message starting with `where` and containing `what`. */
static void expect_bad(const char *text, const char *where, const char *what)
{
	struct lesson l;
	struct gl_err err = {0};
	int rc = lesson_parse("bad", "bad.md", text, &l, &err);
	CHECK_EQ(rc, GL_EUSAGE);
	if (strncmp(err.msg, where, strlen(where)) != 0 || !strstr(err.msg, what)) {
		fprintf(stderr, "expected '%s ... %s', got '%s'\n", where, what, err.msg);
		check_failures++;
	}
	if (rc == GL_OK)
		lesson_free(&l);
}

static void test_malformed(void)
{
	expect_bad("no title\n## Step 1: x\n", "bad.md:1:", "'# Title'");
	expect_bad("# T\n## Step 1:\n", "bad.md:2:", "step 1 has no title");
	expect_bad("# T\n## Step 1 Run\n", "bad.md:2:", "step 1 has no title");
	expect_bad("# T\n## Step: x\n", "bad.md:2:", "'## Step N: title'");
	expect_bad("# T\n## Step 2: x\n", "bad.md:2:", "expected step 1");
	expect_bad("# T\n## Step 1: a\n## Step 3: b\n", "bad.md:3:", "expected step 2");
	expect_bad("# T\n## Step 1: a\ntext\n```gpulab\ngpulab list\n", "bad.md:4:", "unterminated ``` fence");
	expect_bad("# T\n## Step 1: a\n<details><summary>Answer</summary>\nx\n", "bad.md:3:", "unterminated <details>");
	expect_bad("# T\n## Step 1: a\n<details>\n## Step 2: b\n", "bad.md:3:", "not closed");
	expect_bad("# T\nintro\n", "bad.md:2:", "no steps");
	expect_bad("# T\n```gpulab\ngpulab list\n```\n## Step 1: a\n", "bad.md:3:", "inside a step");
	expect_bad("# T\ncheck: transpose.naive regs > 0\n## Step 1: a\n", "bad.md:2:", "inside a step");
	/* commands */
	expect_bad("# T\n## Step 1: a\n```gpulab\ngpulab rn transpose\n```\n", "bad.md:4:",
		   "unknown gpulab command 'rn' (did you mean 'run'?)");
	expect_bad("# T\n## Step 1: a\n```gpulab\nls -l\n```\n", "bad.md:4:", "holds gpulab commands");
	expect_bad("# T\n## Step 1: a\n```gpulab\ngpulab run transpos\n```\n", "bad.md:4:",
		   "unknown topic 'transpos' (did you mean 'transpose'?)");
	expect_bad("# T\n## Step 1: a\n```gpulab\ngpulab run transpose --variant naive,padd\n```\n", "bad.md:4:",
		   "unknown variant 'padd'");
	/* read as `gpulab run` reads it: 'all' only alone, options the command knows */
	expect_bad("# T\n## Step 1: a\n```gpulab\ngpulab run transpose --variant naive,all\n```\n", "bad.md:4:",
		   "unknown variant 'all' for topic transpose");
	expect_bad("# T\n## Step 1: a\n```gpulab\ngpulab run transpose --rowz 64\n```\n", "bad.md:4:",
		   "unknown option '--rowz' for run (did you mean '--rows'?)");
	expect_bad("# T\n## Step 1: a\n```gpulab\ngpulab query \"select\n```\n", "bad.md:4:", "unterminated \" quote");
	expect_bad("# T\n## Step 1: a\n```gpulab\ngpulab lesson next\n```\n", "bad.md:4:", "cannot run 'gpulab lesson'");
	/* checks */
	expect_bad("# T\n## Step 1: a\ncheck: transpose.naive gst_sectors_per_request\n", "bad.md:3:", "expected a comparison");
	expect_bad("# T\n## Step 1: a\ncheck: transpose.naive gst_sectors_per_request = 32\n", "bad.md:3:",
		   "expected a comparison");
	expect_bad("# T\n## Step 1: a\ncheck: transpos.naive regs > 0\n", "bad.md:3:",
		   "unknown topic 'transpos' (did you mean 'transpose'?)");
	expect_bad("# T\n## Step 1: a\ncheck: transpose.naiv regs > 0\n", "bad.md:3:",
		   "unknown variant 'transpose.naiv' (did you mean 'naive'?)");
	expect_bad("# T\n## Step 1: a\ncheck: transpose.naive gst_sector_per_request == 32\n", "bad.md:3:",
		   "unknown metric 'gst_sector_per_request' (did you mean 'gst_sectors_per_request'?)");
	expect_bad("# T\n## Step 1: a\ncheck: transpose.naive == 32\n", "bad.md:3:", "expected a metric");
	expect_bad("# T\n## Step 1: a\ncheck: naive regs > 0\n", "bad.md:3:", "expected TOPIC.VARIANT");
	expect_bad("# T\n## Step 1: a\ncheck: (transpose.naive regs > 0\n", "bad.md:3:", "expected ')'");
	expect_bad("# T\n## Step 1: a\ncheck: transpose.naive regs > 0 0\n", "bad.md:3:", "unexpected '0'");
	expect_bad("# T\n## Step 1: a\ncheck:\n", "bad.md:3:", "empty check");
	expect_bad("# T\n## Step 1: a\ncheck: 1x > 0\n", "bad.md:3:", "found '1x'");
}

/* A ~~~ fence shows a lesson's source: the ```gpulab inside it is content, not commands. */
static void test_nested_fences(void)
{
	static const char text[] = "# T\n## Step 1: a\n~~~markdown\n```gpulab\ngpulab rn\n```\ncheck: x\n~~~\n"
				   "````gpulab\ngpulab list\n````\n";
	struct lesson l;
	struct gl_err err = {0};
	CHECK_EQ(lesson_parse("t", "t.md", text, &l, &err), GL_OK);
	CHECK_STR(err.msg, "");
	if (err.status)
		return;
	CHECK_EQ(l.steps[0].nchecks, 0);
	CHECK_EQ(l.steps[0].ncmds, 1); /* "gpulab list" */
	lesson_free(&l);
	/* ``` does not close a ```` block: it is content, here a line that is not a gpulab command */
	expect_bad("# T\n## Step 1: a\n````gpulab\ngpulab list\n```\n````\n", "bad.md:5:", "holds gpulab commands");
}

static void test_words(void)
{
	char **w;
	int n;
	char why[64];
	CHECK(lesson_split_words("  gpulab query 'select a, b' \"x \\\"y\\\"\" c\\ d ''", &w, &n, why, sizeof why));
	CHECK_EQ(n, 6);
	if (n == 6) {
		CHECK_STR(w[0], "gpulab");
		CHECK_STR(w[2], "select a, b");
		CHECK_STR(w[3], "x \"y\"");
		CHECK_STR(w[4], "c d");
		CHECK_STR(w[5], "");
		CHECK(w[6] == NULL);
	}
	lesson_words_free(w);
	CHECK(!lesson_split_words("a 'b", &w, &n, why, sizeof why));
	CHECK_STR(why, "unterminated ' quote");
}

/* Every lesson built into the binary parses, has 6 to 12 steps, each with a title, and at least one
 * check in most steps. */
static void test_builtin(void)
{
	int count = 0;
	for (const struct lesson_embedded *e = lesson_embedded; e->name; e++, count++) {
		struct lesson l;
		struct gl_err err = {0};
		int rc = lesson_parse(e->name, e->path, e->text, &l, &err);
		if (rc) {
			fprintf(stderr, "%s\n", err.msg);
			check_failures++;
			continue;
		}
		CHECK(l.nsteps >= 6 && l.nsteps <= 12);
		int checks = 0;
		for (int i = 0; i < l.nsteps; i++)
			checks += l.steps[i].nchecks;
		CHECK(checks >= l.nsteps);
		lesson_free(&l);
	}
	CHECK(count >= 1);
}

static void test_find(void)
{
	struct lesson_file files[2] = {{.name = "01-coalescing"}, {.name = "02-bank-conflicts"}};
	struct gl_err err = {0};
	int i = -1;
	CHECK_EQ(lesson_file_find(files, 2, "2", &i, &err), GL_OK);
	CHECK_EQ(i, 1);
	CHECK_EQ(lesson_file_find(files, 2, "01", &i, &err), GL_OK);
	CHECK_EQ(i, 0);
	CHECK_EQ(lesson_file_find(files, 2, "bank-conflicts", &i, &err), GL_OK);
	CHECK_EQ(i, 1);
	CHECK_EQ(lesson_file_find(files, 2, "coalesing", &i, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "did you mean '01-coalescing'") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(lesson_file_find(files, 2, "zzzzzzzz", &i, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "lessons: 01-coalescing, 02-bank-conflicts") != NULL);
}

/* "# exits N" ends a command the step expects to fail with status N; the words stop before it.  A check
 * may name a profiled program's kernel, program.KERNEL, which no registry lists. */
static void test_expected_exit(void)
{
	struct lesson_cmd c;
	struct gl_err err = {0};
	CHECK_EQ(lesson_cmd_parse("gpulab profile --error-exitcode 9 ./app # exits 9", "t.md", 3, &c, &err), GL_OK);
	CHECK_EQ(c.expect_status, 9);
	CHECK_EQ(c.argc, 4);
	CHECK_STR(c.argv[c.argc - 1], "./app");
	lesson_cmd_free(&c);
	CHECK_EQ(lesson_cmd_parse("gpulab profile ./app", "t.md", 3, &c, &err), GL_OK);
	CHECK_EQ(c.expect_status, 0);
	lesson_cmd_free(&c);
	CHECK_EQ(lesson_cmd_parse("gpulab profile ./app # exits 0", "t.md", 4, &c, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "t.md:4: '# exits N' needs the exit status") != NULL);
	gl_err_clear(&err);
	struct lesson_check k;
	CHECK_EQ(lesson_check_parse("program.scale gld_sectors_per_request == 4", "t.md", 5, &k, &err), GL_OK);
	lesson_check_free(&k);
	CHECK_EQ(lesson_check_parse("program.scale gld_sectors_per_reqest == 4", "t.md", 5, &k, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "unknown metric") != NULL);
	gl_err_clear(&err);
}

/* The command layer hands lessons the command table's names; these are gpulab's (cli/cmd_table.c). */
static const char *const commands[] = {"list", "run", "sim", "report", "compare", "query", "view", "metrics",
				       "devices", "doctor", "validate", "profile", "lesson", NULL};

int main(void)
{
	unsetenv("GPULAB_LESSONS");
	lesson_set_commands(commands);
	lesson_set_run_parser(gl_cli_run_line);
	test_good();
	test_malformed();
	test_nested_fences();
	test_words();
	test_builtin();
	test_find();
	test_expected_exit();
	CHECK_DONE();
}
