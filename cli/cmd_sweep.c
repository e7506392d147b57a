/* cmd_sweep.c — `gpulab sweep`: a topic over the cartesian product of parameter values, run on this
 * machine (N processes) or as a Slurm job array, each task writing its own shard database, merged into
 * one at the end; `gpulab sweep status|collect DIR` follow a sweep (docs/sweeps.md). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "common/util.h"
#include "sweep/sweep.h"

static const struct gl_cmd *self(void);

enum { OPT_TOPIC = 1, OPT_VARIANT, OPT_PARAM, OPT_BACKEND, OPT_SHARD, OPT_PARTITION, OPT_GRES, OPT_TIME, OPT_LIMIT };

static int apply_option(struct gl_ctx *ctx, const struct gl_optval *a, struct gl_sweep_spec *s)
{
	const char *v = a->value;
	size_t room = 0;
	char *dst = NULL;
	switch (a->opt->code) {
	case OPT_TOPIC: dst = s->topic, room = sizeof s->topic; break;
	case OPT_VARIANT: dst = s->variants, room = sizeof s->variants; break;
	case OPT_BACKEND: dst = s->backend, room = sizeof s->backend; break;
	case OPT_PARTITION: dst = s->partition, room = sizeof s->partition; break;
	case OPT_GRES: dst = s->gres, room = sizeof s->gres; break;
	case OPT_TIME: dst = s->time, room = sizeof s->time; break;
	case OPT_PARAM: return gl_sweep_spec_param(s, v, &ctx->err);
	case OPT_SHARD: s->shard_ctas = gl_optval_long(a); return GL_OK;
	case OPT_LIMIT: s->array_limit = gl_optval_long(a); return GL_OK;
	default: return GL_OK; /* flags and paths: looked up by name */
	}
	if (strlen(v) >= room || strpbrk(v, " \t\n'\""))
		return gl_usage_error(ctx, self(), "--%s '%s': too long or contains spaces or quotes", a->opt->name, v);
	snprintf(dst, room, "%s", v);
	return GL_OK;
}

static void print_plan(const struct gl_sweep_spec *s, const struct gl_sweep_plan *p)
{
	printf("sweep of %s: %d parameter combination%s -> %d job%s%s\n", s->topic, p->combinations,
	       p->combinations == 1 ? "" : "s", p->njobs, p->njobs == 1 ? "" : "s",
	       s->shard_ctas ? " (one per variant and CTA range)" : " (one run each, its variants together)");
	for (int i = 0; i < p->njobs; i++) {
		char line[1024];
		gl_sweep_job_line(&p->jobs[i], line, sizeof line);
		printf("  job %d: gpulab %s\n", i, line);
	}
	for (int i = 0; i < p->nrefused; i++)
		printf("  refused: %s\n", p->refused[i]);
}

static int default_dir(char *buf, size_t n)
{
	char stamp[32];
	time_t now = time(NULL);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", gmtime(&now));
	snprintf(buf, n, "gpulab-sweep-%s-%ld", stamp, (long)getpid());
	return GL_OK;
}

static int start(struct gl_ctx *ctx, const struct gl_args *args)
{
	struct gl_sweep_spec s = {0};
	struct gl_sweep_plan plan = {0};
	bool dry = gl_args_has(args, "dry-run"), local = gl_args_has(args, "local"), slurm = gl_args_has(args, "slurm");
	if (dry + local + slurm != 1)
		return gl_usage_error(ctx, self(), "choose one of --dry-run (show the jobs), --local [-j N] or --slurm");
	int rc = args->npos ? gl_sweep_spec_read(args->pos[0], &s, &ctx->err) : GL_OK;
	for (int i = 0; rc == GL_OK && i < args->nopts; i++)
		rc = apply_option(ctx, &args->opts[i], &s);
	if (rc == GL_OK)
		rc = gl_sweep_expand(&s, &plan, &ctx->err);
	if (rc == GL_OK)
		print_plan(&s, &plan);
	if (rc == GL_OK && !dry && plan.njobs == 0)
		rc = gl_errf(&ctx->err, GL_EUSAGE, "every combination was refused: nothing to run");
	char dir[PATH_MAX], abs[PATH_MAX], id[128];
	const char *given = gl_args_get(args, "dir");
	if (rc == GL_OK && !dry) {
		if (given)
			snprintf(dir, sizeof dir, "%s", given);
		else
			default_dir(dir, sizeof dir);
		rc = gl_sweep_dir_create(dir, &plan, id, sizeof id, &ctx->err);
	}
	if (rc == GL_OK && !dry) {
		if (!realpath(dir, abs)) /* absolute: tasks may run in other directories, on other nodes */
			snprintf(abs, sizeof abs, "%s", dir);
		printf("sweep %s in %s\n", id, abs);
		if (local)
			rc = gl_sweep_run_local(abs, (int)gl_args_long(args, "jobs", 1), ctx->stderr_tty, &ctx->err);
		if (rc == GL_OK && local)
			rc = gl_sweep_collect(abs, gl_args_get(args, "into") ? gl_args_get(args, "into") : ctx->db_path,
					      false, false, &ctx->err);
		if (slurm)
			rc = gl_sweep_submit(abs, &s, &ctx->err);
	}
	gl_sweep_plan_free(&plan);
	return rc;
}

static int follow(struct gl_ctx *ctx, const struct gl_args *args)
{
	const char *verb = args->pos[0];
	if (args->npos < 2)
		return gl_usage_error(ctx, self(), "sweep %s needs the sweep's DIR", verb);
	char abs[PATH_MAX];
	const char *dir = realpath(args->pos[1], abs) ? abs : args->pos[1]; /* logs and shards named in full */
	if (strcmp(verb, "task") == 0) {
		long index;
		if (args->npos != 3 || gl_parse_long(args->pos[2], 0, 1L << 30, "the task index", &index, &ctx->err))
			return ctx->err.status ? ctx->err.status
					       : gl_usage_error(ctx, self(), "sweep task needs DIR and the task index I");
		int code = gl_sweep_task(dir, index, &ctx->err);
		return code;
	}
	if (args->npos != 2)
		return gl_usage_error(ctx, self(), "sweep %s takes one DIR", verb);
	if (strcmp(verb, "status") == 0)
		return gl_sweep_status(dir, &ctx->err);
	const char *into = gl_args_get(args, "into");
	return gl_sweep_collect(dir, into ? into : ctx->db_path, gl_args_has(args, "wait"),
				gl_args_has(args, "retry-failed"), &ctx->err);
}

static int exec_sweep(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int prc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (prc)
		return prc;
	if (args.npos && (strcmp(args.pos[0], "status") == 0 || strcmp(args.pos[0], "collect") == 0 ||
			  strcmp(args.pos[0], "task") == 0))
		return follow(ctx, &args);
	if (args.npos > 1)
		return gl_usage_error(ctx, self(), "sweep takes one SPEC file (or status|collect DIR)");
	return start(ctx, &args);
}

static const struct gl_opt sweep_opts[] = {
	GL_STR("topic", "T", OPT_TOPIC, "the topic to sweep (or topic = \"T\" in SPEC)"),
	GL_STR("variant", "LIST", OPT_VARIANT, "variants, comma-separated, or 'all' (default)"),
	GL_STR("param", "NAME=V1,V2", OPT_PARAM, "a parameter's values (repeat for more; 'size' sets every size)"),
	GL_STR("backend", "NAME", OPT_BACKEND, "auto (default), cuda or sim, for every job"),
	GL_NUM("shard-ctas", "K", 1, 1L << 20, OPT_SHARD,
	       "split each launch into K CTA ranges (one job each, assembled at merge; simulator)"),
	GL_FLAG("dry-run", 0, "show the jobs and the refused combinations; run nothing"),
	GL_FLAG("local", 0, "run the jobs on this machine"),
	{.name = "jobs", .short_name = 'j', .kind = GL_OPT_LONG, .value = "N", .min = 1, .max = 256,
	 .help = "with --local: N processes at once (default 1)"},
	GL_FLAG("slurm", 0, "submit the jobs as a Slurm job array (sbatch)"),
	GL_STR("partition", "P", OPT_PARTITION, "Slurm partition"),
	GL_STR("gres", "G", OPT_GRES, "Slurm generic resources per task, e.g. gpu:1"),
	GL_STR("time", "T", OPT_TIME, "Slurm time limit per task, e.g. 00:10:00"),
	GL_NUM("array-limit", "K", 1, 100000, OPT_LIMIT, "at most K array tasks at once"),
	GL_STR("dir", "DIR", 0, "the sweep directory (default ./gpulab-sweep-TIME-PID; shared with the nodes)"),
	GL_STR("into", "DB", 0, "merge the shards into DB (default: --db / GPULAB_DB / the default database)"),
	GL_FLAG("wait", 0, "collect: wait until no task is queued or running"),
	GL_FLAG("retry-failed", 0, "collect: resubmit the failed tasks alone"),
	{0},
};

const struct gl_cmd gl_cmd_sweep_entry = {
	.name = "sweep",
	.usage = "[SPEC.toml] [--topic T] [--variant LIST] [--param NAME=V1,V2...] (--dry-run | --local [-j N] | "
		 "--slurm [--partition P --gres G --time T --array-limit K]) [--shard-ctas K] [--dir DIR] "
		 "[--into DB]\n       gpulab sweep status DIR\n       gpulab sweep collect DIR [--into DB] [--wait] "
		 "[--retry-failed]",
	.summary = "run a topic over parameter values, locally or as a Slurm job array, into one database",
	.help = "The jobs are the cartesian product of the --param values (SPEC: a TOML subset, docs/sweeps.md),\n"
		"each checked by the topic's size rules; refused combinations are listed.  Each job is one\n"
		"'gpulab run' writing DIR/shard-I.db; the shards are merged (gpulab merge) into one database.\n"
		"Every run records its host, the sweep id and the Slurm job and array task ids.\n"
		"'gpulab sweep task DIR I' is what each task runs.\n"
		"exit status: 0 ok, 1 a task failed (listed with its log), 2 usage, 3 environment (no sbatch)\n",
	.opts = sweep_opts,
	.min_args = 0,
	.max_args = 3,
	.args_name = "a SPEC file, or status|collect DIR",
	.exec = exec_sweep,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_sweep_entry;
}
