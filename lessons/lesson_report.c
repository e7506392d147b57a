/* lesson_report.c — `lesson list` (every lesson with its title, steps and the learner's progress) and
 * `lesson status` (the current lesson and step, and each lesson's steps seen, passed and failed). */
#include <stdlib.h>
#include <string.h>

#include "lessons/lesson_ui.h"

struct tally {
	int at;        /* bookmark step, 0 when not started */
	bool current;
	int seen, passed, failed;
};

static int tally(struct lesson_ui *ui, const struct lesson *l, struct tally *t, struct gl_err *err)
{
	memset(t, 0, sizeof *t);
	if (!ui->store)
		return GL_OK;
	int rc = gl_store_lesson_bookmark(ui->store, l->name, &t->at, &t->current, err);
	enum gl_lesson_status *st = calloc((size_t)l->nsteps, sizeof *st);
	if (rc == GL_OK && st)
		rc = gl_store_lesson_steps(ui->store, l->name, st, l->nsteps, err);
	for (int i = 0; rc == GL_OK && st && i < l->nsteps; i++) {
		t->seen += st[i] != GL_LESSON_UNSEEN;
		t->passed += st[i] == GL_LESSON_PASSED;
		t->failed += st[i] == GL_LESSON_FAILED;
	}
	free(st);
	return rc;
}

static void progress_words(const struct lesson *l, const struct tally *t, char *buf, size_t n)
{
	if (!t->at)
		snprintf(buf, n, "not started");
	else
		snprintf(buf, n, "at step %d of %d, %d passed%s", t->at, l->nsteps, t->passed,
			 t->current ? " (current)" : "");
}

int lesson_do_list(struct lesson_ui *ui, struct gl_err *err)
{
	struct lesson_file *files;
	int n;
	char origin[600];
	int rc = lesson_files_list(&files, &n, origin, sizeof origin, err);
	if (rc)
		return rc;
	printf("lessons (%s):\n", origin);
	for (int i = 0; rc == GL_OK && i < n; i++) {
		struct lesson l;
		struct gl_err perr = {0};
		if (lesson_parse(files[i].name, files[i].path, files[i].text, &l, &perr)) {
			printf("  %-20s MALFORMED: %s\n", files[i].name, perr.msg);
			continue;
		}
		struct tally t;
		char words[128];
		rc = tally(ui, &l, &t, err);
		progress_words(&l, &t, words, sizeof words);
		printf("  %-20s %2d steps  %s\n  %-20s %s\n", l.name, l.nsteps, l.title, "", words);
		lesson_free(&l);
	}
	if (rc == GL_OK)
		printf("\n'gpulab lesson start NAME' starts one (NAME may be its number: 'gpulab lesson start 1').\n");
	lesson_files_free(files, n);
	return rc;
}

static int current_line(struct lesson_ui *ui, struct gl_err *err)
{
	struct lesson l;
	int step;
	struct gl_err none = {0};
	if (lesson_current(ui, &l, &step, &none) != GL_OK) {
		if (none.status != GL_EUSAGE || strncmp(none.msg, "no lesson started", 17) != 0)
			return gl_errf(err, none.status, "%s", none.msg);
		printf("no lesson started ('gpulab lesson start NAME'; 'gpulab lesson list' shows them)\n");
		return GL_OK;
	}
	printf("current: %s, step %d of %d: %s\n", l.name, step, l.nsteps, l.steps[step - 1].title);
	lesson_free(&l);
	return GL_OK;
}

int lesson_do_status(struct lesson_ui *ui, struct gl_err *err)
{
	struct lesson_file *files;
	int n;
	char origin[600];
	int rc = current_line(ui, err);
	if (rc == GL_OK)
		rc = lesson_files_list(&files, &n, origin, sizeof origin, err);
	if (rc)
		return rc;
	printf("\n%-22s %5s %5s %6s %7s %7s\n", "lesson", "steps", "at", "seen", "passed", "failed");
	for (int i = 0; rc == GL_OK && i < n; i++) {
		struct lesson l;
		struct gl_err perr = {0};
		if (lesson_parse(files[i].name, files[i].path, files[i].text, &l, &perr)) {
			printf("%-22s (malformed: see 'gpulab lesson check %s')\n", files[i].name, files[i].name);
			continue;
		}
		struct tally t;
		rc = tally(ui, &l, &t, err);
		char at[16];
		if (t.at)
			snprintf(at, sizeof at, "%d", t.at);
		else
			snprintf(at, sizeof at, "-");
		printf("%-20s%s %5d %5s %6d %7d %7d\n", l.name, t.current ? " *" : "  ", l.nsteps, at, t.seen, t.passed,
		       t.failed);
		lesson_free(&l);
	}
	lesson_files_free(files, n);
	return rc;
}
