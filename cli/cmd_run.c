/* cmd_run.c — `gpulab run TOPIC`: run variants of a topic on a backend, verify each against the CPU
 * reference, store the run in one transaction and print it (options and the run itself: run_options.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "render/render.h"
#include "run_options.h"

static const struct gl_cmd *self(void);

/* The run as stored: JSON and CSV whole, the table's lines that need every row (its rows are out). */
static int show(struct gl_ctx *ctx, struct gl_store *store, long run_id, int print_limit, struct gl_render_stream *st)
{
	struct gl_run_record rec;
	int rc = gl_store_load_run(store, run_id, &rec, &ctx->err);
	if (rc == GL_OK) {
		char args[32], report[2200];
		snprintf(args, sizeof args, "report %ld", run_id);
		gl_cli_hint(ctx, args, report, sizeof report);
		if (ctx->format == GL_FMT_TABLE)
			gl_render_stream_finish(st, &rec, print_limit, report);
		else
			gl_render_run(stdout, &rec, ctx->format, print_limit);
		gl_run_record_free(&rec);
	}
	return rc;
}

/* Each variant's row as soon as it has run: the session's hooks print through the stream. */
static void started(void *user, const char *backend, const struct gl_device_info *dev)
{
	gl_render_stream_started(user, backend, dev->name);
}

static void finished(void *user, const struct gl_launch_record *rec)
{
	gl_render_stream_row(user, rec);
}

static void attach(struct gl_render_stream *st, const struct gl_topic_run *s, struct gl_session_env *env)
{
	const char *names[GL_RUN_MAX_VARIANTS];
	for (int i = 0; i < s->nvariants; i++)
		names[i] = s->variants[i]->name;
	char *params = gl_problem_json(s->topic, &s->problem);
	gl_render_stream_init(st, stdout, s->topic->name, params, names, (size_t)s->nvariants);
	free(params);
	env->started = started;
	env->finished = finished;
	env->user = st;
}

static int exec_run(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_run_opts o = {0};
	struct gl_topic_run s = {0};
	struct gl_store *store = NULL;
	int rc = gl_run_opts_parse(ctx, self(), argc, argv, &o);
	if (rc)
		return rc;
	struct gl_session_env env = gl_cli_session_env(ctx); /* after parsing: --db is known */
	struct gl_render_stream st = {0};
	if ((rc = gl_topic_run_prepare(ctx, self(), &o, &s)))
		return rc;
	if (ctx->format == GL_FMT_TABLE) /* each variant's row as soon as it has run */
		attach(&st, &s, &env);
	if ((rc = gl_session_run_topic(&env, o.backend, &o.b, &s, &store)) == GL_OK) {
		rc = show(ctx, store, s.run_id, o.print_limit, &st);
		gl_store_close(store);
	}
	free(st.params_json); /* gl_render_stream_finish freed it when the table was finished */
	if (rc == GL_OK && s.failed)
		rc = GL_EVERIFY;
	return rc;
}

static const struct gl_opt run_opts[] = {GL_RUN_OPT_ROWS, {0}};

const struct gl_cmd gl_cmd_run_entry = {
	.topic_params = true,
	.complete = "topic",
	.name = "run",
	.usage = "TOPIC [--variant A,B|all] [--size N | --PARAM V ...] [--backend auto|cuda|sim] [options]",
	.summary = "run a topic's kernel variants, verify them, store and show the metrics",
	.help = GL_RUN_PARAMS_HELP
		"exit status: 0 all verified, 1 a variant failed verification or the sanitizer found errors,\n"
		"2 usage, 3 environment (no GPU for --backend cuda, unwritable database)\n",
	.opts = run_opts,
	.min_args = 1,
	.max_args = 1,
	.args_missing = "run needs a TOPIC (see 'gpulab list')",
	.args_name = "one TOPIC",
	.exec = exec_run,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_run_entry;
}
