/* lesson_verify.c — `lesson check`: a whole lesson (NAME) or the current step, checks evaluated against
 * the database, commands run first with --run.  Exit status: 0 every check passed, 1 one failed (or a
 * command failed), 2 the lesson is malformed. */
#include <string.h>

#include "lessons/lesson_ui.h"

static int check_steps(struct lesson_ui *ui, const struct lesson *l, int from, int to, struct gl_err *err)
{
	struct lesson_env env = ui->env;
	env.quiet = true;        /* the commands' own output only when they fail */
	env.interactive = false; /* views print frames */
	int passed = 0, failed = 0, worst = GL_OK;
	for (int s = from; s <= to; s++) {
		int rc = lesson_step_check(&env, ui->store, l, s, ui->run, stdout, &passed, &failed, err);
		if (rc == GL_EVERIFY || rc == GL_EUSAGE) {
			if (worst != GL_EUSAGE)
				worst = rc;
			continue;
		}
		if (rc)
			return rc;
	}
	printf("%s: %d step%s, %d check%s: %d passed, %d failed\n", l->name, to - from + 1, to > from ? "s" : "",
	       passed + failed, passed + failed == 1 ? "" : "s", passed, failed);
	if (worst == GL_EVERIFY)
		gl_errf(err, GL_EVERIFY, "%s: %d of %d checks failed%s", l->name, failed, passed + failed,
			ui->run ? "" : " (with --run, the lesson's commands run first)");
	return worst;
}

int lesson_do_check(struct lesson_ui *ui, const char *name, struct gl_err *err)
{
	struct lesson l;
	int step = 0;
	int rc = name ? lesson_load(name, &l, err) : lesson_current(ui, &l, &step, err);
	if (rc)
		return rc;
	rc = name ? check_steps(ui, &l, 1, l.nsteps, err) : check_steps(ui, &l, step, step, err);
	lesson_free(&l);
	return rc;
}
