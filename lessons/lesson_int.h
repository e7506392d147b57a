/* lesson_int.h — helpers shared by the lesson engine's files (not for other modules). */
#ifndef GL_LESSON_INT_H
#define GL_LESSON_INT_H

#include <stdbool.h>

#include "lessons/lesson.h"

/* Is `line` a ``` (or ~~~) fence?  *info gets the text after it ("gpulab", "c", ""). */
bool lesson_is_fence(const char *line, const char **info);
/* Does `line` start a step ("## Step ...")? */
bool lesson_is_step_heading(const char *line);

/* A line of a ```gpulab block: "gpulab COMMAND ARGS"; the command must exist, a `run` or `compare`
 * topic and its --variant names must be known.  Errors name path:line. */
int lesson_cmd_parse(const char *text, const char *path, int line, struct lesson_cmd *out, struct gl_err *err);
void lesson_cmd_free(struct lesson_cmd *c);

#endif
