/* engine_opt.h — --engine auto|interp|compiled, which `gpulab sim`, `run` and `compare` share: which
 * engine of the simulator runs the warps (docs/sim.md, "Engines"). */
#ifndef GL_ENGINE_OPT_H
#define GL_ENGINE_OPT_H

#include "cli.h"

int gl_parse_engine(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *text, int *out);

#define GL_ENGINE_HELP "simulator engine: auto (default), interp, or compiled (C compiled once, cached)"

#endif
