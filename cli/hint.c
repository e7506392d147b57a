/* hint.c — the gpulab command lines a command suggests ("stored as run 3 (gpulab report 3)"), written so
 * that they work when pasted: the binary as it was started when that was a path (build/gpulab), and the
 * database when it is not the default (--db, or $GPULAB_DB, which another shell may not have). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* `s` as one shell word: as it is when it holds only safe characters, else in single quotes. */
static void shell_word(const char *s, char *buf, size_t n)
{
	if (s[0] && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+:,=-") == strlen(s)) {
		snprintf(buf, n, "%s", s);
		return;
	}
	size_t len = 0;
	len += (size_t)snprintf(buf, n, "'");
	for (const char *p = s; *p && len + 5 < n; p++)
		len += (size_t)(*p == '\'' ? snprintf(buf + len, n - len, "'\\''") : snprintf(buf + len, n - len, "%c", *p));
	snprintf(buf + len, n - len, "'");
}

void gl_cli_hint(const struct gl_ctx *ctx, const char *args, char *buf, size_t n)
{
	const char *program = ctx->argv0 && strchr(ctx->argv0, '/') ? ctx->argv0 : "gpulab";
	const char *env = getenv("GPULAB_DB");
	const char *db = ctx->db_path ? ctx->db_path : env && env[0] ? env : NULL;
	char prog[1024], path[1024];
	shell_word(program, prog, sizeof prog);
	if (!db) {
		snprintf(buf, n, "%s %s", prog, args);
		return;
	}
	shell_word(db, path, sizeof path);
	snprintf(buf, n, "%s %s --db %s", prog, args, path);
}
