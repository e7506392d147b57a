/* lesson_nav.c — moving through a lesson: start (or resume), next, prev, show, reset.  Each move saves
 * the bookmark, shows the step (paged on a terminal) and runs its commands when asked to: --run, or a
 * yes at the prompt on a terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "lessons/lesson_ui.h"

static bool ask(const struct lesson_step *st)
{
	char answer[32];
	if (st->ncmds == 1)
		printf("Run this command now? [Y/n] ");
	else
		printf("Run these %d commands now? [Y/n] ", st->ncmds);
	fflush(stdout);
	if (!fgets(answer, sizeof answer, stdin))
		return false;
	return answer[0] == '\n' || answer[0] == 'y' || answer[0] == 'Y';
}

static void footer(FILE *out, const struct lesson *l, int step)
{
	const struct lesson_step *st = &l->steps[step - 1];
	if (st->ncmds)
		fprintf(out, "Run the commands above, then 'gpulab lesson check' tests what they recorded.\n");
	else if (st->nchecks)
		fprintf(out, "'gpulab lesson check' tests the numbers recorded so far.\n");
	if (step < l->nsteps)
		fprintf(out, "Next: 'gpulab lesson next'");
	else
		fprintf(out, "This is the last step of %s", l->name);
	fprintf(out, "%s\n", step > 1 ? "   back: 'gpulab lesson prev'" : "");
}

static void show(struct lesson_ui *ui, const struct lesson *l, int step, bool intro)
{
	bool paged;
	FILE *out = lesson_pager_open(&paged);
	if (!ui->tty)
		paged = false, out = stdout;
	struct lesson_render_opts o = {.answer = ui->answer, .color = ui->color, .width = lesson_term_width()};
	if (intro)
		lesson_render_intro(out, l, &o);
	lesson_render_step(out, l, step, &o);
	footer(out, l, step);
	lesson_pager_close(out, paged);
}

/* After showing a step: run its commands and checks when asked to. */
static int maybe_run(struct lesson_ui *ui, const struct lesson *l, int step, struct gl_err *err)
{
	const struct lesson_step *st = &l->steps[step - 1];
	bool run = ui->run;
	if (!run && ui->tty && !ui->no_run && st->ncmds) {
		putchar('\n');
		run = ask(st);
	}
	if (!run || (!st->ncmds && !st->nchecks))
		return GL_OK;
	int passed = 0, failed = 0;
	struct lesson_env env = ui->env;
	env.interactive = ui->tty;
	env.quiet = false;
	putchar('\n');
	int rc = lesson_step_check(&env, ui->store, l, step, true, stdout, &passed, &failed, err);
	if (rc == GL_EVERIFY)
		gl_errf(err, GL_EVERIFY, "step %d: %d of %d checks failed (look at the numbers above, then "
					 "'gpulab lesson check' again)", step, failed, passed + failed);
	return rc;
}

static int go(struct lesson_ui *ui, const struct lesson *l, int step, bool intro, struct gl_err *err)
{
	int rc = gl_store_lesson_goto(ui->store, l->name, step, err);
	if (rc)
		return rc;
	show(ui, l, step, intro);
	return maybe_run(ui, l, step, err);
}

int lesson_current(struct lesson_ui *ui, struct lesson *l, int *step, struct gl_err *err)
{
	char name[64] = "";
	int rc = ui->store ? gl_store_lesson_current(ui->store, name, sizeof name, step, err) : GL_OK;
	if (rc)
		return rc;
	if (!name[0])
		return gl_errf(err, GL_EUSAGE, "no lesson started: 'gpulab lesson list' shows the lessons, "
					       "'gpulab lesson start NAME' starts one");
	if ((rc = lesson_load(name, l, err)))
		return rc;
	if (*step < 1)
		*step = 1;
	if (*step > l->nsteps)
		*step = l->nsteps;
	return GL_OK;
}

int lesson_do_start(struct lesson_ui *ui, const char *name, struct gl_err *err)
{
	struct lesson l;
	int at = 0;
	bool current;
	int rc = lesson_load(name, &l, err);
	if (rc)
		return rc;
	rc = gl_store_lesson_bookmark(ui->store, l.name, &at, &current, err);
	if (rc == GL_OK) {
		bool resume = at > 1;
		if (at > l.nsteps)
			at = l.nsteps;
		if (resume)
			printf("Resuming %s at step %d of %d ('gpulab lesson reset %s' starts over).\n\n", l.name, at,
			       l.nsteps, l.name);
		rc = go(ui, &l, resume ? at : 1, !resume, err);
	}
	lesson_free(&l);
	return rc;
}

/* The lesson after `name` in the list, for the end-of-lesson hint; "" when none. */
static void next_lesson(const char *name, char *out, size_t n)
{
	struct lesson_file *files;
	int count;
	char origin[600];
	struct gl_err ignored = {0};
	out[0] = '\0';
	if (lesson_files_list(&files, &count, origin, sizeof origin, &ignored))
		return;
	for (int i = 0; i + 1 < count; i++)
		if (strcmp(files[i].name, name) == 0)
			snprintf(out, n, "%s", files[i + 1].name);
	lesson_files_free(files, count);
}

/* `next` after the last step: the lesson is done, which is good news, not an error. */
static int past_end(const struct lesson_ui *ui, const struct lesson *l)
{
	char after[64];
	next_lesson(l->name, after, sizeof after);
	printf("%sYou have finished %s: all %d steps.%s\n", ui->color ? "\033[1;32m" : "", l->name, l->nsteps,
	       ui->color ? "\033[0m" : "");
	printf("'gpulab lesson check %s' checks every step again.\n", l->name);
	if (after[0])
		printf("Next lesson: %s ('gpulab lesson start %s').\n", after, after);
	else
		printf("That was the last lesson ('gpulab lesson list' shows them all).\n");
	return GL_OK;
}

int lesson_do_move(struct lesson_ui *ui, int delta, struct gl_err *err)
{
	struct lesson l;
	int step;
	int rc = lesson_current(ui, &l, &step, err);
	if (rc)
		return rc;
	int to = step + delta;
	if (to > l.nsteps)
		rc = past_end(ui, &l);
	else if (to < 1)
		rc = gl_errf(err, GL_EUSAGE, "step 1 is the first step of %s: there is no step before it", l.name);
	else
		rc = go(ui, &l, to, false, err);
	lesson_free(&l);
	return rc;
}

int lesson_do_show(struct lesson_ui *ui, const char *step_arg, struct gl_err *err)
{
	struct lesson l;
	int step;
	int rc = lesson_current(ui, &l, &step, err);
	if (rc)
		return rc;
	long want = step;
	if (step_arg)
		rc = gl_parse_long(step_arg, 1, l.nsteps, "STEP", &want, err);
	if (rc == GL_OK) {
		show(ui, &l, (int)want, false);
		if (ui->run)
			rc = maybe_run(ui, &l, (int)want, err);
	}
	lesson_free(&l);
	return rc;
}

int lesson_do_reset(struct lesson_ui *ui, const char *name, struct gl_err *err)
{
	struct lesson l;
	int step;
	int rc = name ? lesson_load(name, &l, err) : lesson_current(ui, &l, &step, err);
	if (rc)
		return rc;
	rc = gl_store_lesson_reset(ui->store, l.name, err);
	if (rc == GL_OK)
		printf("%s: progress cleared ('gpulab lesson start %s' begins again at step 1)\n", l.name, l.name);
	lesson_free(&l);
	return rc;
}
