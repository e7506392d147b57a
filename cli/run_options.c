/* run_options.c — the options of `gpulab run` and `gpulab compare`, and the problem they describe:
 * topic parameters become long options (the union over all topics, checked against the chosen one). */
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "run_options.h"
#include "session/session.h"
#include "engine_opt.h"
#include "sanitizer_opts.h"

void gl_topic_param_options(struct gl_opt *opts, int max, int code)
{
	int count = 0;
	for (const struct gl_topic *const *t = gl_topics; *t; t++)
		for (int i = 0; i < (*t)->nparams && count < max - 1; i++) {
			bool dup = false;
			for (int k = 0; k < count && !dup; k++)
				dup = strcmp(opts[k].name, (*t)->params[i].name) == 0;
			if (!dup)
				opts[count++] = (struct gl_opt)GL_STR((*t)->params[i].name, "V", code, "a topic parameter");
		}
	opts[count] = (struct gl_opt){0};
}

static int handle_option(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_optval *a, struct gl_run_opts *o)
{
	const char *v = a->value;
	switch (a->opt->code) {
	case GL_RUN_OPT_VARIANT: o->variants = v; return GL_OK;
	case GL_RUN_OPT_SIZE: o->size = v; return GL_OK;
	case GL_RUN_OPT_BACKEND: o->backend = v; return GL_OK;
	case GL_RUN_OPT_METRICS: o->b.metrics = v; return GL_OK;
	case GL_RUN_OPT_TRACE: o->b.trace = true; return GL_OK;
	case GL_RUN_OPT_BASELINE: o->baseline = v; return GL_OK;
	case GL_RUN_OPT_RUNS: o->runs = v; return GL_OK;
	case GL_RUN_OPT_STRICT: o->strict = true; return GL_OK;
	case GL_RUN_OPT_DEVICE: o->b.device = (int)gl_optval_long(a); return GL_OK;
	case GL_RUN_OPT_REPEAT: o->b.repeat = (int)gl_optval_long(a); return GL_OK;
	case GL_RUN_OPT_SAMPLE: o->b.sample_ctas = gl_optval_long(a); return GL_OK;
	case GL_RUN_OPT_CTA_RANGE: return gl_parse_cta_range(ctx, cmd, v, &o->b.cta_first, &o->b.cta_end);
	case GL_RUN_OPT_THREADS: o->b.threads = (int)gl_optval_long(a); return GL_OK;
	case GL_RUN_OPT_MAXINST: o->b.max_instructions = (uint64_t)gl_optval_long(a); return GL_OK;
	case GL_RUN_OPT_PRINTF_BUFFER: o->b.printf_buffer = (uint64_t)gl_optval_long(a); return GL_OK;
	case GL_RUN_OPT_TOOL: return gl_parse_tools(ctx, cmd, v, &o->b.sanitizer_tools);
	case GL_RUN_OPT_ENGINE: return gl_parse_engine(ctx, cmd, v, &o->b.engine);
	case GL_RUN_OPT_PRINT_LIMIT: return gl_parse_print_limit(ctx, cmd, v, &o->print_limit);
	case GL_RUN_OPT_SEED:
		o->seed = gl_optval_long(a);
		o->seed_set = true;
		return GL_OK;
	case GL_RUN_OPT_PARAM:
		if (o->nparams >= GL_RUN_MAX_PARAM_OPTS)
			return gl_usage_error(ctx, cmd, "too many topic parameters (at most %d)", GL_RUN_MAX_PARAM_OPTS);
		o->param_names[o->nparams] = a->opt->name;
		o->param_values[o->nparams++] = v;
		return GL_OK;
	default: return gl_errf(&ctx->err, GL_EINTERNAL, "unhandled option --%s", a->opt->name);
	}
}

int gl_parse_cta_range(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *v, long *first, long *end)
{
	const char *colon = strchr(v, ':');
	char a[32];
	if (!colon || (size_t)(colon - v) >= sizeof a || colon == v || !colon[1])
		return gl_usage_error(ctx, cmd, "--cta-range '%s': expected A:B, the CTAs A..B-1 in grid order "
				      "(e.g. 0:64)", v);
	snprintf(a, sizeof a, "%.*s", (int)(colon - v), v);
	if (gl_parse_long(a, 0, (1L << 40) - 1, "--cta-range's first CTA", first, &ctx->err) ||
	    gl_parse_long(colon + 1, 1, 1L << 40, "--cta-range's end", end, &ctx->err))
		return ctx->err.status;
	if (*first >= *end)
		return gl_usage_error(ctx, cmd, "--cta-range %s is empty: B must be greater than A", v);
	return GL_OK;
}

int gl_run_opts_parse(struct gl_ctx *ctx, const struct gl_cmd *cmd, int argc, char **argv, struct gl_run_opts *o)
{
	/* names point into the topic table, so they outlive this frame as o->param_names requires */
	struct gl_opt params[GL_RUN_MAX_PARAM_OPTS + 1];
	struct gl_args args;
	gl_topic_param_options(params, GL_RUN_MAX_PARAM_OPTS + 1, GL_RUN_OPT_PARAM);
	int rc = gl_cmd_parse_extra(ctx, cmd, params, argc, argv, &args);
	if (rc)
		return rc;
	o->b.repeat = 1;
	o->print_limit = GL_PRINT_LIMIT_DEFAULT;
	for (int i = 0; i < args.nopts; i++)
		if ((rc = handle_option(ctx, cmd, &args.opts[i], o)))
			return rc;
	o->topic_name = args.pos[0];
	if (o->b.cta_end && o->b.sample_ctas)
		return gl_usage_error(ctx, cmd, "--cta-range and --sample-ctas exclude each other: a shard runs "
				      "every CTA of its range");
	if (o->b.cta_end && o->backend && strcmp(o->backend, "sim") != 0)
		return gl_usage_error(ctx, cmd, "--cta-range simulates part of a grid: it needs --backend sim, not %s",
				      o->backend);
	return GL_OK;
}

static int unknown_param(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_topic *t, const char *name)
{
	struct gl_str known = {0};
	for (int q = 0; q < t->nparams; q++)
		gl_str_addf(&known, "%s--%s", q ? ", " : "", t->params[q].name);
	gl_usage_error(ctx, cmd, "--%s does not apply to topic %s (its parameters: %s, --size)", name, t->name,
		       known.buf ? known.buf : "none");
	gl_str_free(&known);
	return ctx->err.status;
}

int gl_problem_apply_options(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_topic *t, const char *size,
			     const char *const *names, const char *const *values, int n, struct gl_problem *p)
{
	for (int k = 0; k < n; k++)
		if (gl_param_index(t, names[k]) < 0)
			return unknown_param(ctx, cmd, t, names[k]);
	return gl_problem_apply(t, size, names, values, n, p, &ctx->err);
}

static int build_problem(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_topic *t,
			 const struct gl_run_opts *o, struct gl_problem *p)
{
	gl_problem_defaults(t, p);
	if (o->seed_set)
		p->seed = (uint64_t)o->seed;
	return gl_problem_apply_options(ctx, cmd, t, o->size, o->param_names, o->param_values, o->nparams, p);
}

static int refuse_variant(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_topic_run *s,
			  const struct gl_variant *v, const char *rule)
{
	const struct gl_topic *t = s->topic;
	struct gl_str able = {0};
	char scratch[256];
	for (int i = 0; i < t->nvariants; i++)
		if (t->accepts(&t->variants[i], &s->problem, scratch, sizeof scratch))
			gl_str_addf(&able, "%s%s", able.buf ? "," : "", t->variants[i].name);
	if (able.buf)
		gl_usage_error(ctx, cmd, "%s %s %s; these variants take this size: --variant %s", t->name, v->name, rule,
			       able.buf);
	else
		gl_usage_error(ctx, cmd, "%s %s %s", t->name, v->name, rule);
	gl_str_free(&able);
	return ctx->err.status;
}

/* Keep the variants that accept the problem.  With every variant asked for (no --variant, or 'all') the
 * others are named with the rule they break and skipped; a variant named explicitly that cannot run it is
 * a usage error, before anything runs or the database is opened. */
static int filter_variants(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_run_opts *o,
			   struct gl_topic_run *s)
{
	const struct gl_topic *t = s->topic;
	bool all = !o->variants || strcmp(o->variants, "all") == 0;
	int kept = 0;
	for (int i = 0; t->accepts && i < s->nvariants; i++) {
		char rule[256];
		const struct gl_variant *v = s->variants[i];
		if (t->accepts(v, &s->problem, rule, sizeof rule))
			s->variants[kept++] = v;
		else if (!all)
			return refuse_variant(ctx, cmd, s, v, rule);
		else
			gl_note(ctx, "skipped %s %s: it %s", t->name, v->name, rule);
	}
	if (!t->accepts)
		return GL_OK;
	s->nvariants = kept;
	if (kept == 0)
		return gl_usage_error(ctx, cmd, "no variant of %s can run this problem (see the rules above)", t->name);
	return GL_OK;
}

int gl_topic_run_prepare(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_run_opts *o,
			 struct gl_topic_run *s)
{
	int rc;
	if ((rc = gl_topic_lookup(o->topic_name, &s->topic, &ctx->err)) ||
	    (rc = gl_parse_variants(s->topic, o->variants, s->variants, GL_RUN_MAX_VARIANTS, &s->nvariants,
				    &ctx->err)) ||
	    (rc = build_problem(ctx, cmd, s->topic, o, &s->problem)))
		return rc;
	return filter_variants(ctx, cmd, o, s);
}

/* The backend gpulab chose, said on stderr with the table output: with -v every time, else once per
 * terminal session (a learner needs it once; every run stores it, and report and --json show it). */
static void note_backend(void *user, const char *why)
{
	const struct gl_ctx *ctx = user;
	if (ctx->format != GL_FMT_TABLE || ctx->quiet)
		return;
	if (ctx->verbose || gl_cli_first_in_session("backend"))
		fprintf(stderr, "gpulab: %s\n", why);
}

struct gl_session_env gl_cli_session_env(struct gl_ctx *ctx)
{
	return (struct gl_session_env){.db_path = ctx->db_path,
				       .argv = ctx->argv_joined,
				       .announce = ctx->format == GL_FMT_TABLE && !ctx->quiet,
				       .note_backend = note_backend,
				       .note_user = ctx,
				       .progress = ctx->stderr_tty,
				       .err = &ctx->err};
}

/* compare's --baseline runs too, first when --variant leaves it out (cmd_compare.c). */
static int add_baseline(const char *baseline, struct gl_topic_run *r, struct gl_err *err)
{
	const struct gl_variant *b;
	int rc = gl_variant_lookup_as(r->topic, baseline, "baseline", &b, err);
	for (int i = 0; rc == GL_OK && i < r->nvariants; i++)
		if (r->variants[i] == b)
			return GL_OK;
	if (rc == GL_OK && r->nvariants < GL_RUN_MAX_VARIANTS)
		r->variants[r->nvariants++] = b;
	return rc;
}

int gl_cli_run_line(int argc, char **argv, struct lesson_run_line *out, struct gl_err *err)
{
	struct gl_ctx ctx = {.format = GL_FMT_TABLE, .quiet = true}; /* the reading says nothing on its own */
	const struct gl_cmd *cmd = argc > 0 ? gl_cmd_find(argv[0]) : NULL;
	struct gl_run_opts o = {0};
	struct gl_topic_run *r = &out->run;
	memset(out, 0, sizeof *out);
	if (!cmd || (strcmp(cmd->name, "run") != 0 && strcmp(cmd->name, "compare") != 0))
		return gl_errf(err, GL_EINTERNAL, "not a run or compare command line");
	int rc = gl_run_opts_parse(&ctx, cmd, argc, argv, &o);
	if (rc == 'h')
		return gl_errf(err, GL_EUSAGE, "a lesson's command does not ask for --help");
	if (rc == GL_OK && !o.topic_name) /* compare --runs: nothing runs */
		return GL_OK;
	if (rc == GL_OK && (rc = gl_topic_lookup(o.topic_name, &r->topic, &ctx.err)) == GL_OK) /* the names */
		rc = gl_parse_variants(r->topic, o.variants, r->variants, GL_RUN_MAX_VARIANTS, &r->nvariants, &ctx.err);
	if (rc != GL_OK)
		return gl_errf(err, rc, "%s", ctx.err.msg);
	out->problem_ok = gl_topic_run_prepare(&ctx, cmd, &o, r) == GL_OK; /* the sizes: refused when it runs */
	return o.baseline ? add_baseline(o.baseline, r, err) : GL_OK;
}
