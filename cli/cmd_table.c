/* cmd_table.c — every gpulab subcommand, in the order `gpulab --help` lists them: one X(NAME) per
 * cli/cmd_NAME.c, whose table entry is gl_cmd_NAME_entry.
 * Adding a command: one new cli/cmd_NAME.c and one line here. */
#include <string.h>

#include "cli.h"

#define GL_COMMANDS(X)                                                                                       \
	X(list)                                                                                              \
	X(run)                                                                                               \
	X(sim)                                                                                               \
	X(profile)                                                                                           \
	X(report)                                                                                            \
	X(compare)                                                                                           \
	X(query)                                                                                             \
	X(import)                                                                                            \
	X(merge)                                                                                             \
	X(sweep)                                                                                             \
	X(view)                                                                                              \
	X(metrics)                                                                                           \
	X(devices)                                                                                           \
	X(doctor)                                                                                            \
	X(validate)                                                                                          \
	X(lesson)                                                                                            \
	X(occupancy)                                                                                         \
	X(runs)                                                                                              \
	X(plot)                                                                                              \
	X(baseline)                                                                                          \
	X(exercise)                                                                                          \
	X(completion)

#define GL_CMD_EXTERN(name) extern const struct gl_cmd gl_cmd_##name##_entry;
#define GL_CMD_ROW(name) &gl_cmd_##name##_entry,

GL_COMMANDS(GL_CMD_EXTERN)

const struct gl_cmd *const gl_cmd_table[] = {GL_COMMANDS(GL_CMD_ROW) NULL};

const struct gl_cmd *gl_cmd_find(const char *name)
{
	for (const struct gl_cmd *const *c = gl_cmd_table; *c; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}
