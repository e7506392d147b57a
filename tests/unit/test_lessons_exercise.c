/* test_lessons_exercise.c — exercises as data: the integer expressions, the front matter (and its errors
 * with file:line), every built-in exercise parsing with a solution, the starter, and a launch compared
 * with its CPU reference (a right output passes; one wrong element is found with expected and got). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lessons/exercise.h"

static const char *const tiny =
	"---\n"
	"title: Tiny\n"
	"kernel: tiny_square\n"
	"params: const float *x, float *y, int n\n"
	"vars: n\n"
	"sizes: 5; 300\n"
	"measure: 1024\n"
	"grid: cdiv(n, 128)\n"
	"block: 128\n"
	"buffer: x n rand\n"
	"buffer: y n output\n"
	"reference: square\n"
	"tolerance: 0 0\n"
	"goal: exercise.tiny gld_sectors_per_request <= 4\n"
	"view: coalesce\n"
	"hint: one\n"
	"hint: two\n"
	"---\n"
	"Square it.\n";

static void test_expr(void)
{
	struct exercise e = {.path = "t.md", .nvars = 2, .vars = {"rows", "cols"}};
	struct ex_size s = {{33, 47}};
	struct gl_err err = {0};
	long v = 0;
	CHECK_EQ(exercise_expr_eval("cdiv(cols, 32)", &e, &s, &v, &err), GL_OK);
	CHECK_EQ(v, 2);
	CHECK_EQ(exercise_expr_eval("rows * cols + 2 * (rows - 1) % 5", &e, &s, &v, &err), GL_OK);
	CHECK_EQ(v, 33 * 47 + (2 * 32) % 5);
	CHECK_EQ(exercise_expr_eval("min(rows, cols) - max(1, -3) / 1", &e, &s, &v, &err), GL_OK);
	CHECK_EQ(v, 32);
	CHECK_EQ(exercise_expr_eval("rows / (cols - 47)", &e, &s, &v, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "division by zero") != NULL);
	err = (struct gl_err){0};
	CHECK_EQ(exercise_expr_eval("rows * depth", &e, &s, &v, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "unknown size variable at 'depth'") != NULL);
	err = (struct gl_err){0};
	CHECK_EQ(exercise_expr_eval("9223372036854775807 * 2", &e, &s, &v, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "overflow") != NULL);
}

static void test_parse(void)
{
	struct exercise e;
	struct gl_err err = {0};
	CHECK_EQ(exercise_parse("07-tiny", "x/07-tiny.md", tiny, "// sol\n", &e, &err), GL_OK);
	CHECK_STR(e.id, "tiny");
	CHECK_STR(e.kernel, "tiny_square");
	CHECK_EQ(e.nparams, 3);
	CHECK(e.params[0].pointer && e.params[0].is_const && e.params[0].dtype == GL_F32);
	CHECK(e.params[1].output && !e.params[0].output);
	CHECK_STR(e.params[2].value, "n"); /* a scalar named like a size variable takes its value */
	CHECK_EQ(e.nsizes, 2);
	CHECK_EQ(e.sizes[1].v[0], 300);
	CHECK_EQ(e.ngoals, 1);
	CHECK_STR(e.goals[0].view, "coalesce");
	CHECK_EQ(e.nhints, 2);
	CHECK_STR(e.task, "Square it.\n");
	char sig[256];
	exercise_signature(&e, sig, sizeof sig);
	CHECK_STR(sig, "extern \"C\" __global__ void tiny_square(const float *x, float *y, int n)");
	char *starter = exercise_starter(&e);
	CHECK(strstr(starter, sig) != NULL);
	CHECK(strstr(starter, "// Square it.") != NULL);
	CHECK(strstr(starter, "Checked at: n=5; n=300.") != NULL);
	CHECK(strstr(starter, "exercise.tiny gld_sectors_per_request <= 4") != NULL);
	CHECK(strstr(starter, "cuda_fp16") == NULL);
	free(starter);
	exercise_free(&e);
}

/* The text with line `line` (1-based) replaced. */
static char *with_line(int line, const char *text)
{
	char *out = malloc(strlen(tiny) + strlen(text) + 2);
	const char *p = tiny;
	size_t k = 0;
	for (int n = 1; *p; n++) {
		const char *nl = strchr(p, '\n');
		size_t len = (size_t)(nl - p) + 1;
		if (n == line)
			k += (size_t)sprintf(out + k, "%s\n", text);
		else
			memcpy(out + k, p, len), k += len;
		p += len;
	}
	out[k] = '\0';
	return out;
}

static void refused(int line, const char *text, const char *want)
{
	char *t = with_line(line, text);
	struct exercise e;
	struct gl_err err = {0};
	CHECK_EQ(exercise_parse("07-tiny", "x/07-tiny.md", t, NULL, &e, &err), GL_EUSAGE);
	if (!strstr(err.msg, want)) {
		fprintf(stderr, "want '%s' in: %s\n", want, err.msg);
		CHECK(0);
	}
	free(t);
}

static void test_parse_errors(void)
{
	refused(2, "colour: blue", "x/07-tiny.md:2: unknown key 'colour'");
	refused(4, "params: const float *x, float *y, long n", "x/07-tiny.md:4: params: unknown type in 'long n'");
	refused(4, "params: const double *x, float *y, int n", "params: unknown type in 'const double *x'");
	refused(10, "buffer: x n random", "x/07-tiny.md:10: buffer: unknown INIT 'random'");
	refused(10, "buffer: z n rand", "buffer: 'z' is not a pointer parameter");
	refused(10, "buffer: x n randint:9", "buffer: INIT 'randint:9' does not fit the buffer's type");
	refused(12, "reference: cube", "x/07-tiny.md:12: reference: unknown reference 'cube'");
	refused(14, "goal: exercise.tiny gld_sectors_per_requets <= 4", "x/07-tiny.md:14: check: unknown metric");
	refused(14, "goal: exercise.other gld_sectors_per_request <= 4", "goal: a goal reads this exercise's launch, "
											"exercise.tiny");
	refused(15, "view: sideways", "view: 'sideways' is not a view");
	refused(6, "sizes: 5; 0", "sizes: expected one positive integers per size");
	refused(18, "", "x/07-tiny.md:19: expected 'key: value', found 'Square it.'");
	refused(11, "# no y buffer", "pointer parameter 'y' has no 'buffer:' line");
}

static void test_unclosed(void)
{
	struct exercise e;
	struct gl_err err = {0};
	CHECK_EQ(exercise_parse("07-tiny", "x/07-tiny.md", "---\ntitle: T\nkernel: k\n", NULL, &e, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "x/07-tiny.md:3: the front matter has no closing '---' line") != NULL);
	err = (struct gl_err){0};
	CHECK_EQ(exercise_parse("07-tiny", "x/07-tiny.md", "# Tiny\n", NULL, &e, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "x/07-tiny.md:1: an exercise starts with a '---' line") != NULL);
}

static void test_builtin(void)
{
	struct exercise *all = NULL;
	int n = 0;
	struct gl_err err = {0};
	CHECK_EQ(exercise_list(&all, &n, &err), GL_OK);
	CHECK(n >= 12);
	for (int i = 0; i < n; i++) {
		CHECK(all[i].solution != NULL);
		CHECK(all[i].ngoals >= 1);
		CHECK(all[i].nhints >= 2);
		CHECK(all[i].nsizes >= 4);
		if (i)
			CHECK(strcmp(all[i - 1].name, all[i].name) < 0);
	}
	int k = -1;
	CHECK_EQ(exercise_find(all, n, "4", &k, &err), GL_OK);
	CHECK_STR(k >= 0 ? all[k].name : "", "04-transpose-tiled");
	CHECK_EQ(exercise_find(all, n, "transpose-tiled", &k, &err), GL_OK);
	CHECK_EQ(exercise_find(all, n, "transpose-tilde", &k, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "unknown exercise 'transpose-tilde' (did you mean '04-transpose-tiled'?)") != NULL);
	exercise_list_free(all, n);
}

/* A launch at n = 300 and the reference: the square of each input is right; one wrong element is named. */
static void test_compare(void)
{
	struct exercise e;
	struct gl_err err = {0};
	CHECK_EQ(exercise_parse("07-tiny", "x/07-tiny.md", tiny, NULL, &e, &err), GL_OK);
	struct gl_launch l = {0};
	CHECK_EQ(exercise_launch(&e, &e.sizes[1], 1, &l, &err), GL_OK);
	CHECK_EQ(l.grid[0], 3);
	CHECK_EQ(l.block[0], 128);
	CHECK_EQ(l.nargs, 3);
	CHECK_EQ(l.args[2].bits, 300);
	const float *x = l.buffers[0].host;
	float *y = l.buffers[1].host;
	for (int i = 0; i < 300; i++)
		y[i] = x[i] * x[i];
	struct ex_mismatch m;
	CHECK_EQ(exercise_compare(&e, &e.sizes[1], &l, &m, &err), GL_OK);
	CHECK(m.ok);
	y[123] = 5.0f;
	CHECK_EQ(exercise_compare(&e, &e.sizes[1], &l, &m, &err), GL_OK);
	CHECK(!m.ok);
	CHECK_STR(m.buffer, "y");
	CHECK_EQ(m.index, 123);
	CHECK_NEAR(m.expected, (double)(x[123] * x[123]), 0);
	CHECK_NEAR(m.got, 5.0, 0);
	CHECK_EQ(m.bad, 1);
	CHECK(!m.all_zero);
	gl_launch_free(&l);
	exercise_free(&e);
}

int main(void)
{
	unsetenv("GPULAB_EXERCISES");
	test_expr();
	test_parse();
	test_parse_errors();
	test_unclosed();
	test_builtin();
	test_compare();
	CHECK_DONE();
}
