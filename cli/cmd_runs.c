/* cmd_runs.c — `gpulab runs [--topic T] [--limit N] [--json|--csv]`: the stored runs, newest first. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/csv.h"
#include "common/json.h"
#include "kernels/registry.h"
#include "store/store.h"

static const struct gl_cmd *self(void);

/* `s` in at most `w` columns: cut with "..." at its end when longer, so a cut value says it was cut. */
static const char *fit(const char *s, int w, char *buf, size_t n)
{
	if ((int)strlen(s) <= w)
		return s;
	snprintf(buf, n, "%.*s...", w > 3 ? w - 3 : 0, s);
	return buf;
}

/* A column as wide as its widest value or its heading, at most `cap`. */
static int column(const struct gl_run_row *rows, size_t n, size_t field, const char *head, int cap)
{
	int w = (int)strlen(head);
	for (size_t i = 0; i < n; i++) {
		int len = (int)strlen((const char *)&rows[i] + field);
		w = len > w ? len : w;
	}
	return w < cap ? w : cap;
}

static void show_table(const struct gl_run_row *rows, size_t n)
{
	int tw = column(rows, n, offsetof(struct gl_run_row, topic), "topic", 16);
	int vw = column(rows, n, offsetof(struct gl_run_row, variants), "variants", 28);
	int pw = column(rows, n, offsetof(struct gl_run_row, params_json), "parameters", 40);
	printf("%5s  %-20s  %-*s  %-*s  %-*s  %-7s  %s\n", "run", "started (UTC)", tw, "topic", vw, "variants", pw,
	       "parameters", "backend", "status");
	for (size_t i = 0; i < n; i++) {
		const struct gl_run_row *r = &rows[i];
		char t[64], v[64], p[64];
		printf("%5ld  %-20s  %-*s  %-*s  %-*s  %-7s  %s", r->id, r->started_at, tw, fit(r->topic, tw, t, sizeof t),
		       vw, fit(r->variants, vw, v, sizeof v), pw, fit(r->params_json, pw, p, sizeof p), r->backend,
		       r->status);
		if (r->failed)
			printf(" (%ld of %ld failed verification)", r->failed, r->launches);
		putchar('\n');
	}
	if (!n)
		printf("(no runs stored yet: 'gpulab run TOPIC' stores one)\n");
}

static void show_json(const struct gl_run_row *rows, size_t n)
{
	struct gl_json j;
	gl_json_init(&j, stdout);
	gl_json_begin_array(&j, NULL);
	for (size_t i = 0; i < n; i++) {
		const struct gl_run_row *r = &rows[i];
		gl_json_begin_object(&j, NULL);
		gl_json_int(&j, "run_id", r->id);
		gl_json_string(&j, "started_at", r->started_at);
		gl_json_string(&j, "topic", r->topic);
		gl_json_string(&j, "variants", r->variants);
		gl_json_raw(&j, "params", r->params_json[0] ? r->params_json : "{}");
		gl_json_string(&j, "backend", r->backend);
		gl_json_string(&j, "device", r->device);
		gl_json_string(&j, "status", r->status);
		gl_json_int(&j, "launches", r->launches);
		gl_json_int(&j, "failed", r->failed);
		gl_json_end_object(&j);
	}
	gl_json_end_array(&j);
}

static void show_csv(const struct gl_run_row *rows, size_t n)
{
	puts("run_id,started_at,topic,variants,params,backend,device,status,launches,failed");
	for (size_t i = 0; i < n; i++) {
		const struct gl_run_row *r = &rows[i];
		printf("%ld,%s,%s,", r->id, r->started_at, r->topic);
		gl_csv_field(stdout, r->variants);
		putchar(',');
		gl_csv_field(stdout, r->params_json);
		printf(",%s,", r->backend);
		gl_csv_field(stdout, r->device);
		printf(",%s,%ld,%ld\n", r->status, r->launches, r->failed);
	}
}

static int exec_runs(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int rc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (rc)
		return rc;
	const char *topic = gl_args_get(&args, "topic");
	const struct gl_topic *t;
	if (topic && (rc = gl_topic_lookup(topic, &t, &ctx->err)))
		return rc;
	struct gl_store *store;
	if ((rc = gl_store_open(ctx->db_path, 1, &store, &ctx->err)))
		return rc;
	struct gl_run_row *rows;
	size_t n;
	rc = gl_store_list_runs(store, topic, gl_args_long(&args, "limit", 20), &rows, &n, &ctx->err);
	gl_store_close(store);
	if (rc)
		return rc;
	if (ctx->format == GL_FMT_JSON)
		show_json(rows, n);
	else if (ctx->format == GL_FMT_CSV)
		show_csv(rows, n);
	else
		show_table(rows, n);
	free(rows);
	return GL_OK;
}

static const struct gl_opt runs_opts[] = {
	GL_STR("topic", "T", 0, "only runs of topic T"),
	GL_NUM("limit", "N", 0, 1000000, 0, "at most N runs (default 20, 0 = all)"),
	{0},
};

const struct gl_cmd gl_cmd_runs_entry = {
	.name = "runs",
	.usage = "[--topic T] [--limit N] [--json|--csv]",
	.summary = "the stored runs, newest first: id, time, topic, variants, parameters, backend, status",
	.help = "'gpulab report RUN' shows one; 'gpulab compare --runs A,B' puts several side by side.\n",
	.opts = runs_opts,
	.max_args = 0,
	.args_name = "no arguments",
	.exec = exec_runs,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_runs_entry;
}
