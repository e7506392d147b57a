/* lesson_step.c — checking one step: run its commands (optionally), evaluate its checks against the
 * database, print a PASS/FAIL line per check with both sides' values, and record the outcome. */
#include <math.h>
#include <string.h>

#include "lessons/lesson.h"
#include "store/store.h"

static void print_value(FILE *out, double v)
{
	if (isnan(v))
		fprintf(out, "?");
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(out, "%.0f", v); /* counts print whole: 1978368, not 1.97837e+06 */
	else
		fprintf(out, "%.6g", v);
}

static void print_result(FILE *out, const struct lesson_check *c, const struct lesson_check_result *r, bool color)
{
	const char *paint = !color ? "" : r->passed ? "\033[32m" : "\033[31m", *reset = color ? "\033[0m" : "";
	fprintf(out, "  %s%s%s  %s", paint, r->passed ? "PASS" : "FAIL", reset, c->text);
	if (r->why[0]) {
		fprintf(out, "\n        %s\n", r->why);
		return;
	}
	fprintf(out, "   (");
	print_value(out, r->lhs);
	fprintf(out, " %s ", lesson_cmp_str(c->cmp));
	print_value(out, r->rhs);
	fprintf(out, ")\n");
	if (!r->passed) {
		fprintf(out, "        got ");
		print_value(out, r->lhs);
		fprintf(out, ", expected %s", c->cmp == LESSON_EQ ? "" : lesson_cmp_str(c->cmp));
		fprintf(out, c->cmp == LESSON_EQ ? "" : " ");
		print_value(out, r->rhs);
		fprintf(out, "\n");
	}
	if (r->note[0])
		fprintf(out, "        note: %s\n", r->note);
}

/* Run the step's commands; a usage error (exit 2) means the lesson itself is wrong. */
static int run_commands(const struct lesson_env *env, const struct lesson *l, const struct lesson_step *st,
			FILE *out, bool *ok, struct gl_err *err)
{
	int worst = GL_OK;
	for (int i = 0; i < st->ncmds; i++) {
		int status = 0;
		int rc = lesson_cmd_run(env, &st->cmds[i], out, &status, err);
		if (rc)
			return rc;
		if (status == st->cmds[i].expect_status)
			continue;
		*ok = false;
		if (st->cmds[i].expect_status)
			fprintf(out, "  command ended with exit status %d, the step expects %d (%s:%d)\n", status,
				st->cmds[i].expect_status, l->path, st->cmds[i].line);
		else
			fprintf(out, "  command failed with exit status %d (%s:%d)\n", status, l->path,
				st->cmds[i].line);
		if (status == GL_EUSAGE) {
			gl_errf(err, GL_EUSAGE, "%s:%d: '%s' was refused as a usage error: fix the lesson", l->path,
				st->cmds[i].line, st->cmds[i].text);
			worst = GL_EUSAGE;
		}
	}
	return worst;
}

int lesson_step_check(const struct lesson_env *env, struct gl_store *store, const struct lesson *l, int step,
		      bool run_cmds, FILE *out, int *passed, int *failed, struct gl_err *err)
{
	const struct lesson_step *st = &l->steps[step - 1];
	bool ok = true;
	int rc = GL_OK;
	fprintf(out, "step %d/%d: %s\n", st->number, l->nsteps, st->title);
	if (run_cmds)
		rc = run_commands(env, l, st, out, &ok, err);
	if (rc && rc != GL_EUSAGE)
		return rc;
	for (int i = 0; i < st->nchecks; i++) {
		struct lesson_check_result r;
		int erc = lesson_check_eval(store, l, step, &st->checks[i], &r, err);
		if (erc)
			return erc;
		print_result(out, &st->checks[i], &r, env->color);
		ok = ok && r.passed;
		*(r.passed ? passed : failed) += 1;
	}
	if (!st->nchecks)
		fprintf(out, "  (no checks in this step)\n");
	if (st->nchecks || run_cmds) {
		int mrc = gl_store_lesson_mark(store, l->name, step, ok ? GL_LESSON_PASSED : GL_LESSON_FAILED, err);
		if (mrc && !rc)
			rc = mrc;
	}
	fflush(out);
	if (rc)
		return rc;
	return ok ? GL_OK : GL_EVERIFY;
}
