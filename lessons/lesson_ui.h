/* lesson_ui.h — the `gpulab lesson` subcommands, called by cli/cmd_lesson.c with the database open. */
#ifndef GL_LESSON_UI_H
#define GL_LESSON_UI_H

#include "lessons/lesson.h"
#include "store/store.h"

struct lesson_ui {
	struct gl_store *store; /* NULL when there is no database yet (list, status and show only) */
	struct lesson_env env; /* how commands run */
	bool run;              /* --run: run the step's commands without asking */
	bool no_run;           /* --no-run: never ask */
	bool answer;           /* --answer: show the step's answer */
	bool color;
	bool tty;              /* stdin and stdout are terminals: page, ask, let views draw */
};

int lesson_do_list(struct lesson_ui *ui, struct gl_err *err);
int lesson_do_status(struct lesson_ui *ui, struct gl_err *err);
int lesson_do_start(struct lesson_ui *ui, const char *name, struct gl_err *err);
/* next (+1) and prev (-1) */
int lesson_do_move(struct lesson_ui *ui, int delta, struct gl_err *err);
int lesson_do_show(struct lesson_ui *ui, const char *step, struct gl_err *err);
/* NAME: every step of that lesson; NULL: the current step of the current lesson. */
int lesson_do_check(struct lesson_ui *ui, const char *name, struct gl_err *err);
int lesson_do_reset(struct lesson_ui *ui, const char *name, struct gl_err *err);

/* The current lesson, loaded, and the step the learner is at; GL_EUSAGE when none is started. */
int lesson_current(struct lesson_ui *ui, struct lesson *l, int *step, struct gl_err *err);

#endif
