/* cmd_compare.c — `gpulab compare TOPIC`: run a topic's variants exactly as `gpulab run` does (same
 * options, same session, stored as one run), then show them side by side with ratios to a baseline. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common/util.h"
#include "render/render.h"
#include "run_options.h"

static const struct gl_cmd *self(void);

#define MAX_RUNS 8

static int parse_ids(struct gl_ctx *ctx, const char *list, long *ids, int *n)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", list);
	*n = 0;
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n == MAX_RUNS)
			return gl_errf(&ctx->err, GL_EUSAGE, "--runs takes at most %d run ids", MAX_RUNS);
		if (gl_parse_long(tok, 1, 1L << 62, "run id in --runs", &ids[(*n)++], &ctx->err))
			return ctx->err.status;
	}
	if (*n < 2)
		return gl_errf(&ctx->err, GL_EUSAGE, "--runs needs two run ids or more, comma-separated: --runs 3,4 "
			       "(see 'gpulab runs')");
	return GL_OK;
}

/* --strict: exit 1 when an exact count differs between the simulator's run and the GPU's. */
static int strict_check(struct gl_ctx *ctx, const struct gl_run_record *runs, int n)
{
	struct gl_vcount count = {0};
	char first[400];
	if (n != 2)
		return gl_errf(&ctx->err, GL_EUSAGE, "--strict compares two runs (a simulator run and a GPU run), not %d",
			       n);
	int rc = gl_validate_runs(&runs[0], &runs[1], &count, first, sizeof first, &ctx->err);
	if (rc == GL_OK && count.differs)
		rc = gl_errf(&ctx->err, GL_EVERIFY, "--strict: %d exact count%s differ%s between the simulator and the GPU "
			     "(%d agree, %d not collected); first: %s", count.differs, count.differs == 1 ? "" : "s",
			     count.differs == 1 ? "s" : "", count.agree, count.not_collected, first);
	return rc;
}

/* --runs A,B[,C]: the stored runs side by side; nothing runs. */
static int compare_runs(struct gl_ctx *ctx, const char *list, const char *baseline, bool strict)
{
	long ids[MAX_RUNS];
	struct gl_run_record runs[MAX_RUNS];
	int n, loaded = 0;
	size_t launches = 0;
	struct gl_store *store;
	int rc = parse_ids(ctx, list, ids, &n);
	if (rc || (rc = gl_store_open(ctx->db_path, 1, &store, &ctx->err)))
		return rc;
	while (loaded < n && rc == GL_OK)
		if ((rc = gl_store_load_run(store, ids[loaded], &runs[loaded], &ctx->err)) == GL_OK)
			launches += runs[loaded++].nlaunches;
	gl_store_close(store);
	if (rc == GL_OK && launches == 0)
		rc = gl_errf(&ctx->err, GL_EUSAGE, "runs %s have no launches to compare", list);
	int verdict = rc == GL_OK && strict ? strict_check(ctx, runs, n) : GL_OK; /* before the launches move */
	if (rc == GL_OK && verdict != GL_EUSAGE)
		rc = gl_render_compare_runs(stdout, runs, n, baseline, ctx->format, &ctx->err);
	if (rc == GL_OK)
		rc = verdict;
	for (int i = 0; i < loaded; i++) /* their launches moved into the comparison */
		gl_run_record_free(&runs[i]);
	return rc;
}

/* The baseline is the first variant run unless --baseline names one; a baseline left out of --variant
 * runs first, so that every ratio has its reference. */
static int choose_baseline(struct gl_ctx *ctx, const struct gl_run_opts *o, struct gl_topic_run *s)
{
	if (!o->baseline)
		return GL_OK;
	const struct gl_variant *b;
	int rc = gl_variant_lookup_as(s->topic, o->baseline, "baseline", &b, &ctx->err);
	if (rc)
		return rc;
	for (int i = 0; i < s->nvariants; i++)
		if (s->variants[i] == b)
			return GL_OK;
	if (s->nvariants >= GL_RUN_MAX_VARIANTS)
		return gl_usage_error(ctx, self(), "too many variants (at most %d)", GL_RUN_MAX_VARIANTS);
	memmove(&s->variants[1], &s->variants[0], (size_t)s->nvariants * sizeof s->variants[0]);
	s->variants[0] = b;
	s->nvariants++;
	return GL_OK;
}

static int show(struct gl_ctx *ctx, struct gl_store *store, long run_id, const char *baseline)
{
	struct gl_run_record rec;
	int rc = gl_store_load_run(store, run_id, &rec, &ctx->err);
	if (rc)
		return rc;
	size_t base = 0;
	for (size_t i = 0; baseline && i < rec.nlaunches; i++)
		if (strcmp(rec.launches[i].variant, baseline) == 0)
			base = i;
	if (rec.nlaunches > 0)
		gl_render_compare(stdout, &rec, base, ctx->format);
	gl_run_record_free(&rec);
	return GL_OK;
}

static int exec_compare(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_run_opts o = {0};
	struct gl_topic_run s = {0};
	struct gl_store *store = NULL;
	int rc = gl_run_opts_parse(ctx, self(), argc, argv, &o);
	if (rc)
		return rc;
	if (o.runs) /* stored runs side by side: nothing runs */
		return o.topic_name ? gl_usage_error(ctx, self(), "give a TOPIC to run or --runs to compare stored runs, not both")
				    : compare_runs(ctx, o.runs, o.baseline, o.strict);
	if (o.strict)
		return gl_usage_error(ctx, self(), "--strict goes with --runs A,B (a simulator run and a GPU run)");
	if (!o.topic_name)
		return gl_usage_error(ctx, self(), "compare needs a TOPIC (see 'gpulab list') or --runs A,B");
	struct gl_session_env env = gl_cli_session_env(ctx); /* after parsing: --db is known */
	if ((rc = gl_topic_run_prepare(ctx, self(), &o, &s)) || (rc = choose_baseline(ctx, &o, &s)) ||
	    (rc = gl_session_run_topic(&env, o.backend, &o.b, &s, &store)))
		return rc;
	rc = show(ctx, store, s.run_id, o.baseline);
	gl_store_close(store);
	if (rc == GL_OK && s.failed)
		rc = GL_EVERIFY;
	return rc;
}

static const struct gl_opt compare_opts[] = {
	GL_STR("baseline", "VARIANT", GL_RUN_OPT_BASELINE,
	       "the reference of the ratios (default: the first variant run)"),
	GL_STR("runs", "A,B[,C]", GL_RUN_OPT_RUNS, "compare stored runs (ids from 'gpulab runs') instead of running"),
	GL_FLAG("strict", GL_RUN_OPT_STRICT, "with --runs A,B: exit 1 when an exact count differs between a simulator "
		"run and a GPU run (validate --strict's rule)"),
	GL_RUN_OPT_ROWS,
	{0},
};

const struct gl_cmd gl_cmd_compare_entry = {
	.topic_params = true,
	.complete = "topic",
	.name = "compare",
	.usage = "TOPIC|--runs A,B[,C] [--baseline VARIANT] [--variant A,B|all] [--size N | --PARAM V ...] [--backend auto|cuda|sim] "
		 "[options]",
	.summary = "run a topic's variants and show them side by side, with ratios to a baseline",
	.help = "Runs the variants as 'gpulab run' does (and stores the run), then shows per variant: global load and\n"
		"store sectors, shared-memory wavefronts (loads + stores), bank conflicts (loads + stores), FLOPs\n"
		"(2*FFMA + FADD + FMUL thread instructions) and FLOP per global byte (32 bytes per load, store and\n"
		"atomic sector), each also as variant / baseline.  The baseline is run first when --variant\n"
		"leaves it out.  --runs A,B[,C] compares stored runs instead (before and after an edit, the simulator\n"
		"against a GPU), every launch of each, labelled rRUN:VARIANT; the first is the baseline.  A baseline\n"
		"of 0 shows the absolute difference (+N) instead of a ratio.  With --strict, two runs of one program\n"
		"(gpulab profile on the simulator and on a GPU) are judged launch by launch as 'validate --strict'\n"
		"judges a topic: exit 1 when a count that should agree exactly differs.\n" GL_RUN_PARAMS_HELP
		"exit status: 0 all verified, 1 a variant failed verification or the sanitizer found errors,\n"
		"2 usage, 3 environment (no GPU for --backend cuda, unwritable database)\n",
	.opts = compare_opts,
	.min_args = 0,
	.max_args = 1,
	.args_missing = "compare needs a TOPIC (see 'gpulab list')",
	.args_name = "one TOPIC",
	.exec = exec_compare,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_compare_entry;
}
