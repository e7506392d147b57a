/* cmd_query.c — `gpulab query SQL`: one read-only SQL statement on the results database, printed as an
 * aligned table, JSON or CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/util.h"
#include "store/store.h"

static int query_exec(struct gl_ctx *ctx, int argc, char **argv);

const struct gl_cmd gl_cmd_query_entry = {
	.name = "query",
	.usage = "SQL [--json|--csv] [--db PATH]",
	.summary = "run one read-only SQL statement on the results database",
	.help = "SQL is one SELECT (or WITH, EXPLAIN, or a reporting PRAGMA such as table_info); '-' reads it\n"
		"from standard input.  The database is opened read-only: statements that write are refused.\n"
		"\n"
		"tables: runs, launches, metrics (Nsight Compute names), trace_events, lesson_progress\n"
		"views:  launch_summary (one row per launch: sectors per global request, shared wavefronts and\n"
		"        bank conflicts per instruction, ...), latest_launches (the same for the latest run),\n"
		"        run_summary (one row per run), launch_counters (the raw counters as columns)\n"
		"\n"
		"examples:\n"
		"  gpulab query 'SELECT * FROM run_summary'\n"
		"  gpulab query 'SELECT variant, gst_sectors_per_request FROM latest_launches' --csv\n"
		"  gpulab query \"SELECT name, value FROM metrics WHERE launch_id = 3\" --json\n",
	.min_args = 1,
	.max_args = 1,
	.args_missing = "query needs one SQL statement, e.g. gpulab query 'SELECT * FROM run_summary'",
	.args_name = "one SQL argument",
	.exec = query_exec,
};

static char *read_stdin(void)
{
	struct gl_str s = {0};
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
		gl_str_addf(&s, "%.*s", (int)n, buf);
	return s.buf ? s.buf : gl_xstrdup("");
}

static enum gl_query_format query_format(enum gl_format f)
{
	return f == GL_FMT_JSON ? GL_QUERY_JSON : f == GL_FMT_CSV ? GL_QUERY_CSV : GL_QUERY_TABLE;
}

static int run_query(struct gl_ctx *ctx, const char *sql)
{
	char path[4096];
	struct gl_store *store = NULL;
	int rc = gl_store_path(ctx->db_path, path, sizeof path, &ctx->err);
	if (rc == GL_OK)
		rc = gl_store_open(path, 1, &store, &ctx->err);
	if (rc == GL_OK)
		rc = gl_store_query(store, sql, query_format(ctx->format), stdout, &ctx->err);
	gl_store_close(store);
	return rc;
}

static int query_exec(struct gl_ctx *ctx, int argc, char **argv)
{
	const struct gl_cmd *cmd = &gl_cmd_query_entry;
	struct gl_args args;
	int prc = gl_cmd_parse(ctx, cmd, argc, argv, &args);
	if (prc)
		return prc;
	if (strcmp(args.pos[0], "-") != 0)
		return run_query(ctx, args.pos[0]);
	char *sql = read_stdin();
	int rc = run_query(ctx, sql);
	free(sql);
	return rc;
}
