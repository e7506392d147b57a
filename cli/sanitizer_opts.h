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

#define GL_SANITIZER_OPTIONS_HELP                                                                                      \
	"  --tool LIST            sanitizer checks (compute-sanitizer's tools), comma-separated: memcheck\n"           \
	"                         (out of bounds, misaligned), racecheck (shared/global races, reads of\n"             \
	"                         cp.async data in flight), initcheck (uninitialised shared reads),\n"                 \
	"                         synccheck (barrier divergence, deadlock), all (default)\n"                           \
	"  --print-limit N        distinct findings printed (default 100, 0 = all); the ERROR SUMMARY\n"               \
	"                         and --json count every one\n"

#endif
