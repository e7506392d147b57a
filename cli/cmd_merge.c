/* cmd_merge.c — `gpulab merge SHARD... --into DB`: copy the runs of shard databases (a sweep's, or any
 * gpulab database) into one, a transaction per shard, then make sharded launches whole again. */
#include <stdio.h>

#include "cli.h"
#include "session/session.h"
#include "store/store.h"
#include "sweep/sweep.h"

static const struct gl_cmd *self(void);

static int exec_merge(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int prc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (prc)
		return prc;
	const char *into = gl_args_get(&args, "into");
	if (!into)
		return gl_errf(&ctx->err, GL_EUSAGE, "merge needs --into DB: the database the shards are merged into");
	return gl_merge_shards((const char *const *)args.pos, args.npos, into, stdout, &ctx->err);
}

static const struct gl_opt merge_opts[] = {
	GL_STR("into", "DB", 0, "the database to merge into (created when missing)"),
	{0},
};

const struct gl_cmd gl_cmd_merge_entry = {
	.name = "merge",
	.usage = "SHARD... --into DB",
	.summary = "merge shard databases (a sweep's) into one, idempotently",
	.help = "Copies every finished run of each SHARD (with its launches, metrics, traces, sanitizer findings\n"
		"and buffer maps) into DB with new ids, one transaction per shard.  Each run keeps its UUID, host,\n"
		"sweep and Slurm ids and records the shard it came from (runs.merged_from); a run whose UUID is in\n"
		"DB already is skipped, so merging a shard twice adds nothing.  Every SHARD is checked first: a\n"
		"file that is not a gpulab database, or has a newer schema, is refused (exit 3) and DB is left\n"
		"untouched.  Then launches simulated in CTA ranges (--cta-range, 'gpulab sweep --shard-ctas') whose\n"
		"ranges tile their grid are assembled into one launch with the summed counts.\n",
	.opts = merge_opts,
	.min_args = 1,
	.max_args = -1,
	.args_missing = "merge needs at least one SHARD database to merge",
	.exec = exec_merge,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_merge_entry;
}
