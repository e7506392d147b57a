/* sanitizer_opts.c — parsing --print-limit and --tool (sanitizer_opts.h). */
#include <string.h>

#include "common/util.h"
#include "sanitizer_opts.h"

int gl_parse_print_limit(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *text, int *out)
{
	(void)cmd;
	long v;
	if (gl_parse_long(text, 0, 1000000, "--print-limit", &v, &ctx->err))
		return ctx->err.status;
	*out = (int)v;
	return GL_OK;
}

int gl_parse_tools(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *text, int *out)
{
	int mask = gl_tool_parse(text);
	if (mask > 0) {
		*out = mask;
		return GL_OK;
	}
	static const char *const names[] = {"memcheck", "racecheck", "initcheck", "synccheck", "all"};
	char word[64] = "";
	for (const char *p = text; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] ? 1 : 0)) {
		snprintf(word, sizeof word, "%.*s", (int)strcspn(p, ","), p); /* the first unknown name */
		if (gl_tool_parse(word) < 0)
			break;
	}
	if (!word[0] || gl_tool_parse(word) > 0)
		return gl_usage_error(ctx, cmd,
		                      "--tool '%s': an empty tool name; use memcheck, racecheck, initcheck, "
		                      "synccheck or all, comma-separated",
		                      text);
	const char *near = gl_suggest(word, names, GL_ARRAY_LEN(names));
	char hint[64] = "";
	if (near)
		snprintf(hint, sizeof hint, " (did you mean '%s'?)", near);
	return gl_usage_error(ctx, cmd,
	                      "--tool '%s': unknown tool '%s'%s; use memcheck, racecheck, initcheck, "
	                      "synccheck or all, comma-separated",
	                      text, word, hint);
}
