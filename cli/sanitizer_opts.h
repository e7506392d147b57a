/* sanitizer_opts.h — the sanitizer options `gpulab sim`, `run` and `compare` share: --print-limit N
 * (distinct findings printed) and --tool LIST (compute-sanitizer's tools: which checks run). */
#ifndef GL_SANITIZER_OPTS_H
#define GL_SANITIZER_OPTS_H

#include "cli.h"
#include "common/findings.h"

/* --print-limit N: 0 (all) to 1000000. */
int gl_parse_print_limit(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *text, int *out);
/* --tool memcheck|racecheck|initcheck|synccheck|all, or several comma-separated: a GL_TOOL_* mask. */
int gl_parse_tools(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *text, int *out);

/* What --tool's names check, for the help of the commands that take it. */
#define GL_SANITIZER_TOOLS_HELP                                                                              \
	"--tool names compute-sanitizer's tools: memcheck (out of bounds, misaligned), racecheck (shared/global\n" \
	"races, reads of cp.async data in flight), initcheck (uninitialised shared reads), synccheck (barrier\n"    \
	"divergence, deadlock), all (default).\n"

#endif
