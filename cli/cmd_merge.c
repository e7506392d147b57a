/* cmd_merge.c — `gpulab merge SHARD... --into DB`: copy the runs of shard databases (a sweep's, or any
 * gpulab database) into one, a transaction per shard, then make sharded launches whole again. */
#include <stdio.h>

#include "cli.h"
#include "run/run.h"
#include "store/store.h"
#include "sweep.h"

static const struct gl_cmd *self(void);

/* Every shard must be a gpulab database this binary reads, whose every row passes the readers' checks
 * (gl_store_check_import), checked before the target is opened: a refused shard leaves the target exactly
 * as it was. */
static int check_shards(struct gl_ctx *ctx, const char *const *shards, int n)
{
	for (int i = 0; i < n; i++) {
		struct gl_err e = {0};
		int rc = gl_store_check_import(shards[i], &e);
		if (rc != GL_OK)
			return gl_errf(&ctx->err, rc, "shard %s refused, nothing was merged: %s", shards[i], e.msg);
	}
	return GL_OK;
}

static void say_assembly(const struct gl_assembly *a)
{
	if (a->assembled)
		printf("assembled %d sharded launch%s from their CTA ranges (counts summed)\n",
		       a->assembled, a->assembled == 1 ? "" : "es");
	if (a->incomplete)
		printf("%d sharded launch%s not assembled: the CTA ranges merged so far leave gaps or overlap\n",
		       a->incomplete, a->incomplete == 1 ? " is" : "es are");
}

int gl_merge_shards(struct gl_ctx *ctx, const char *const *shards, int n, const char *into)
{
	int rc = check_shards(ctx, shards, n);
	struct gl_store *store = NULL;
	if (rc == GL_OK)
		rc = gl_store_open(into, 0, &store, &ctx->err);
	int total = 0;
	for (int i = 0; rc == GL_OK && i < n; i++) {
		int merged = 0, skipped = 0;
		rc = gl_store_import(store, shards[i], &merged, &skipped, &ctx->err);
		if (rc == GL_OK)
			printf("merged %d run%s from %s (%d already there)\n", merged, merged == 1 ? "" : "s", shards[i],
			       skipped);
		total += merged;
	}
	struct gl_assembly a = {0};
	if (rc == GL_OK)
		rc = gl_store_assemble(store, &a, &ctx->err);
	int failed = 0;
	for (int i = 0; rc == GL_OK && i < a.nverify; i++) {
		int verdict = -1;
		rc = gl_run_verify_assembled(store, a.verify[i], &verdict, &ctx->err);
		if (rc == GL_OK && verdict >= 0)
			printf("launch %ld: outputs joined from CTA-disjoint writes %s verification\n", a.verify[i],
			       verdict ? "passed" : "FAILED");
		failed += verdict == 0;
	}
	if (rc == GL_OK) {
		say_assembly(&a);
		printf("%d run%s merged into %s\n", total, total == 1 ? "" : "s", gl_store_file(store));
	}
	gl_store_close(store);
	if (rc == GL_OK && failed)
		rc = gl_errf(&ctx->err, GL_EVERIFY, "%d assembled launch%s failed verification", failed,
			     failed == 1 ? "" : "es");
	return rc;
}

static int exec_merge(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int prc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (prc)
		return prc;
	const char *into = gl_args_get(&args, "into");
	if (!into)
		return gl_errf(&ctx->err, GL_EUSAGE, "merge needs --into DB: the database the shards are merged into");
	return gl_merge_shards(ctx, (const char *const *)args.pos, args.npos, into);
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
