/* engine_opt.c — --engine NAME (engine_opt.h). */
#include "engine_opt.h"
#include "sim/sim.h"

int gl_parse_engine(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *text, int *out)
{
	int e = gl_sim_engine_parse(text);
	if (e < 0)
		return gl_usage_error(ctx, cmd, "--engine takes auto, interp or compiled, not '%s'", text);
	*out = e;
	return GL_OK;
}
