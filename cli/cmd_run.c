/* cmd_run.c — `gpulab run TOPIC`: run variants of a topic on a backend, verify each against the CPU
 * reference, store the run in one transaction and print it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/util.h"
#include "render.h"
#include "runner.h"

static const struct gl_cmd *self(void);

enum {
	OPT_VARIANT = 300, OPT_SIZE, OPT_BACKEND, OPT_DEVICE, OPT_METRICS, OPT_REPEAT, OPT_TRACE, OPT_SAMPLE,
	OPT_THREADS, OPT_MAXINST, OPT_SEED, OPT_PARAM = 2000,
};

#define MAX_PARAM_OPTS 64
#define MAX_VARIANTS 32

struct run_opts {
	const char *topic_name, *variants, *backend;
	const char *size;
	const char *param_names[MAX_PARAM_OPTS]; /* --NAME VALUE for topic parameters, in order */
	const char *param_values[MAX_PARAM_OPTS];
	int nparams;
	struct gl_backend_opts b;
	long seed;
	bool seed_set;
};

/* Topic parameters become long options: the union over all topics, checked against the chosen one. */
static int param_options(struct option *opts, int n, const char **names)
{
	int count = 0;
	for (const struct gl_topic *const *t = gl_topics; *t; t++)
		for (int i = 0; i < (*t)->nparams && count < MAX_PARAM_OPTS; i++) {
			bool dup = false;
			for (int k = 0; k < count && !dup; k++)
				dup = strcmp(names[k], (*t)->params[i].name) == 0;
			if (dup)
				continue;
			names[count] = (*t)->params[i].name;
			opts[n + count] = (struct option){names[count], required_argument, NULL, OPT_PARAM + count};
			count++;
		}
	opts[n + count] = (struct option){0};
	return count;
}

static int parse_number_opt(struct gl_ctx *ctx, const char *flag, long min, long max, long *out)
{
	return gl_parse_long(optarg, min, max, flag, out, &ctx->err);
}

static int handle_option(struct gl_ctx *ctx, int c, struct run_opts *o, const char **names)
{
	long v;
	switch (c) {
	case OPT_VARIANT: o->variants = optarg; return GL_OK;
	case OPT_SIZE: o->size = optarg; return GL_OK;
	case OPT_BACKEND: o->backend = optarg; return GL_OK;
	case OPT_METRICS: o->b.metrics = optarg; return GL_OK;
	case OPT_TRACE: o->b.trace = true; return GL_OK;
	case OPT_DEVICE:
		if (parse_number_opt(ctx, "--device", 0, 63, &v))
			return ctx->err.status;
		o->b.device = (int)v;
		return GL_OK;
	case OPT_REPEAT:
		if (parse_number_opt(ctx, "--repeat", 1, 10000, &v))
			return ctx->err.status;
		o->b.repeat = (int)v;
		return GL_OK;
	case OPT_SAMPLE:
		if (parse_number_opt(ctx, "--sample-ctas", 1, 1L << 30, &v))
			return ctx->err.status;
		o->b.sample_ctas = v;
		return GL_OK;
	case OPT_THREADS:
		if (parse_number_opt(ctx, "--threads", 1, 256, &v))
			return ctx->err.status;
		o->b.threads = (int)v;
		return GL_OK;
	case OPT_MAXINST:
		if (parse_number_opt(ctx, "--max-instructions", 1, 1L << 62, &v))
			return ctx->err.status;
		o->b.max_instructions = (uint64_t)v;
		return GL_OK;
	case OPT_SEED:
		if (parse_number_opt(ctx, "--seed", 0, 1L << 62, &o->seed))
			return ctx->err.status;
		o->seed_set = true;
		return GL_OK;
	default:
		if (c >= OPT_PARAM && c < OPT_PARAM + MAX_PARAM_OPTS && o->nparams < MAX_PARAM_OPTS) {
			o->param_names[o->nparams] = names[c - OPT_PARAM];
			o->param_values[o->nparams++] = optarg;
			return GL_OK;
		}
		return gl_errf(&ctx->err, GL_EINTERNAL, "unhandled option %d", c);
	}
}

static int parse(struct gl_ctx *ctx, int argc, char **argv, struct run_opts *o)
{
	struct option opts[16 + MAX_PARAM_OPTS + 1] = {
		{"variant", required_argument, NULL, OPT_VARIANT}, {"size", required_argument, NULL, OPT_SIZE},
		{"backend", required_argument, NULL, OPT_BACKEND}, {"device", required_argument, NULL, OPT_DEVICE},
		{"metrics", required_argument, NULL, OPT_METRICS}, {"repeat", required_argument, NULL, OPT_REPEAT},
		{"trace", no_argument, NULL, OPT_TRACE},	   {"sample-ctas", required_argument, NULL, OPT_SAMPLE},
		{"threads", required_argument, NULL, OPT_THREADS},
		{"max-instructions", required_argument, NULL, OPT_MAXINST},
		{"seed", required_argument, NULL, OPT_SEED},
	};
	const char *names[MAX_PARAM_OPTS];
	param_options(opts, 11, names);
	o->b.repeat = 1;
	int c;
	optind = 1;
	while ((c = gl_getopt(ctx, self(), argc, argv, "", opts)) != -1) {
		if (c == 'h')
			return 'h';
		if (c == '?' || handle_option(ctx, c, o, names))
			return ctx->err.status;
	}
	if (optind >= argc)
		return gl_usage_error(ctx, self(), "run needs a TOPIC (see 'gpulab list')");
	if (optind + 1 < argc)
		return gl_usage_error(ctx, self(), "unexpected argument '%s' after the topic", argv[optind + 1]);
	o->topic_name = argv[optind];
	return GL_OK;
}

/* --size sets every size parameter; --NAME sets one.  Values are checked against the topic's limits. */
static int build_problem(struct gl_ctx *ctx, const struct gl_topic *t, const struct run_opts *o,
			 struct gl_problem *p)
{
	gl_problem_defaults(t, p);
	if (o->seed_set)
		p->seed = (uint64_t)o->seed;
	for (int i = 0; o->size && i < t->nparams; i++) {
		if (!t->params[i].is_size)
			continue;
		if (gl_parse_long(o->size, t->params[i].min, t->params[i].max, "--size", &p->v[i], &ctx->err))
			return ctx->err.status;
	}
	for (int k = 0; k < o->nparams; k++) {
		int i = gl_param_index(t, o->param_names[k]);
		if (i < 0) {
			struct gl_str known = {0};
			for (int q = 0; q < t->nparams; q++)
				gl_str_addf(&known, "%s--%s", q ? ", " : "", t->params[q].name);
			gl_usage_error(ctx, self(), "--%s does not apply to topic %s (its parameters: %s, --size)",
				       o->param_names[k], t->name, known.buf ? known.buf : "none");
			gl_str_free(&known);
			return ctx->err.status;
		}
		char flag[64];
		snprintf(flag, sizeof flag, "--%s", t->params[i].name);
		if (gl_parse_long(o->param_values[k], t->params[i].min, t->params[i].max, flag, &p->v[i], &ctx->err))
			return ctx->err.status;
	}
	return t->check ? t->check(p, &ctx->err) : GL_OK;
}

static void run_info(struct gl_run_info *info, const struct gl_backend *b, const struct gl_device_info *dev,
		     const char *argv)
{
	memset(info, 0, sizeof *info);
	snprintf(info->backend, sizeof info->backend, "%s", b->name);
	snprintf(info->device, sizeof info->device, "%s", dev->name);
	snprintf(info->chip, sizeof info->chip, "%s", dev->chip);
	info->sm_count = dev->sm_count;
	snprintf(info->cc, sizeof info->cc, "%d.%d", dev->cc_major, dev->cc_minor);
	snprintf(info->driver, sizeof info->driver, "%s", dev->driver);
	snprintf(info->cupti_version, sizeof info->cupti_version, "%s", dev->cupti_version);
	gethostname(info->host, sizeof info->host - 1);
	info->argv = argv;
}

struct run_state {
	const struct gl_topic *topic;
	const struct gl_variant *variants[MAX_VARIANTS];
	int nvariants;
	struct gl_problem problem;
	const struct gl_backend *backend;
	void *bctx;
	struct gl_device_info dev;
	struct gl_launch_record recs[MAX_VARIANTS];
	int nrecs;
	bool failed;
};

static int run_all(struct gl_ctx *ctx, struct run_state *s)
{
	const char *source = strcmp(s->backend->name, "sim") == 0 ? "sim" : "cupti";
	for (int i = 0; i < s->nvariants; i++) {
		struct gl_variant_outcome out;
		int rc = gl_run_variant(s->backend, s->bctx, &s->dev, s->topic, s->variants[i], &s->problem, source,
					&s->recs[s->nrecs], &out, &ctx->err);
		if (rc)
			return rc;
		if (!s->recs[s->nrecs].verified) {
			s->failed = true;
			fprintf(stderr, "gpulab: %s %s failed: %s\n", s->topic->name, s->variants[i]->name,
				s->recs[s->nrecs].note);
		}
		s->nrecs++;
	}
	return GL_OK;
}

static int store_and_show(struct gl_ctx *ctx, struct gl_store *store, struct run_state *s)
{
	struct gl_run_info info;
	run_info(&info, s->backend, &s->dev, ctx->argv_joined);
	long run_id = 0;
	int rc = gl_store_begin_run(store, &info, &run_id, &ctx->err);
	for (int i = 0; rc == GL_OK && i < s->nrecs; i++)
		rc = gl_store_add_launch(store, run_id, &s->recs[i], NULL, &ctx->err);
	if (rc == GL_OK)
		rc = gl_store_commit_run(store, run_id, s->failed ? "failed" : "ok", &ctx->err);
	if (rc) {
		gl_store_abort_run(store);
		return rc;
	}
	struct gl_run_record rec;
	rc = gl_store_load_run(store, run_id, &rec, &ctx->err);
	if (rc == GL_OK) {
		gl_render_run(stdout, &rec, ctx->format);
		gl_run_record_free(&rec);
	}
	return rc;
}

static int exec_run(struct gl_ctx *ctx, int argc, char **argv)
{
	struct run_opts o = {0};
	struct run_state s = {0};
	int rc = parse(ctx, argc, argv, &o);
	if (rc)
		return rc;
	if ((rc = gl_topic_lookup(o.topic_name, &s.topic, &ctx->err)) ||
	    (rc = gl_parse_variants(s.topic, o.variants, s.variants, MAX_VARIANTS, &s.nvariants, &ctx->err)) ||
	    (rc = build_problem(ctx, s.topic, &o, &s.problem)))
		return rc;
	char why[512];
	if ((rc = gl_backend_select(o.backend, &s.backend, why, sizeof why, &ctx->err)))
		return rc;
	if (ctx->format == GL_FMT_TABLE)
		fprintf(stderr, "gpulab: %s\n", why);
	/* the database is opened (and created) only once the request is known to be valid */
	struct gl_store *store = NULL;
	if ((rc = gl_store_open(ctx->db_path, 0, &store, &ctx->err)))
		return rc;
	o.b.progress = ctx->stderr_tty;
	rc = s.backend->open(&o.b, &s.bctx, &ctx->err);
	if (rc == GL_OK)
		rc = s.backend->describe(s.bctx, &s.dev, &ctx->err);
	if (rc == GL_OK)
		rc = run_all(ctx, &s);
	if (rc == GL_OK)
		rc = store_and_show(ctx, store, &s);
	if (s.bctx)
		s.backend->close(s.bctx);
	for (int i = 0; i < s.nrecs; i++)
		gl_launch_record_free(&s.recs[i]);
	gl_store_close(store);
	if (rc == GL_OK && s.failed)
		rc = GL_EVERIFY;
	return rc;
}

const struct gl_cmd gl_cmd_run_entry = {
	.name = "run",
	.usage = "TOPIC [--variant A,B|all] [--size N | --PARAM V ...] [--backend auto|cuda|sim] [options]",
	.summary = "run a topic's kernel variants, verify them, store and show the metrics",
	.help = "options:\n"
		"  --variant LIST        variants to run, comma-separated, or 'all' (default)\n"
		"  --size N              set every size parameter of the topic (see 'gpulab list TOPIC')\n"
		"  --PARAM V             set one topic parameter, e.g. --rows 512 --cols 2048\n"
		"  --backend NAME        auto (default: cuda when a GPU is usable, else sim), cuda or sim\n"
		"  --seed S              seed of the random inputs\n"
		"  --device N            GPU to use (cuda)\n"
		"  --metrics SET         memory, compute, all, or metric names (cuda)\n"
		"  --repeat N            timed launches, with an L2 flush between them (cuda)\n"
		"  --threads N           CPU threads of the simulator (default: all cores)\n"
		"  --sample-ctas N       simulate N CTAs spread over the grid and scale the counts\n"
		"  --max-instructions N  simulator budget of warp instructions per CTA\n"
		"  --trace               record warp-level memory events (simulator)\n"
		"exit status: 0 all verified, 1 a variant failed verification or the sanitizer found errors,\n"
		"2 usage, 3 environment (no GPU for --backend cuda, unwritable database)\n",
	.exec = exec_run,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_run_entry;
}
