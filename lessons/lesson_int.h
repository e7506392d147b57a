/* lesson_int.h — helpers shared by the lesson engine's files (not for other modules). */
#ifndef GL_LESSON_INT_H
#define GL_LESSON_INT_H

#include <stdbool.h>

#include "lessons/lesson.h"

/* Fenced code blocks as CommonMark has them: ``` or ~~~ (3 or more) opens one, the same character at
 * least as many times with nothing after it closes it. */
struct lesson_fence {
	bool open;
	bool gpulab; /* the open fence's info string is "gpulab" */
	char ch;
	int len;
};
/* Feed one line; true when the line opens or closes a fence (it is markup, not content). */
bool lesson_fence_feed(struct lesson_fence *f, const char *line);
/* Does `line` start a step ("## Step ...")? */
bool lesson_is_step_heading(const char *line);

/* A line of a ```gpulab block: "gpulab COMMAND ARGS"; the command must exist, and a `run` or `compare`
 * line must be one the command accepts (lesson_set_run_parser).  Errors name path:line. */
int lesson_cmd_parse(const char *text, const char *path, int line, struct lesson_cmd *out, struct gl_err *err);
void lesson_cmd_free(struct lesson_cmd *c);
/* What a `run` or `compare` command runs, through the command layer's parser: GL_OK with out->topic NULL
 * for another command or when no parser was handed in. */
int lesson_run_line_of(const struct lesson_cmd *c, struct lesson_run_line *out, struct gl_err *err);

#endif
