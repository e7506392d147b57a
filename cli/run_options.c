/* run_options.c — the options of `gpulab run` and `gpulab compare`, and the problem they describe:
 * topic parameters become long options (the union over all topics, checked against the chosen one). */
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "sim/sim.h" /* GL_SIM_PRINTF_BUFFER_MAX */
#include "run_options.h"
#include "run/runner.h"
#include "sanitizer_opts.h"

enum {
	OPT_VARIANT = 300, OPT_SIZE, OPT_BACKEND, OPT_DEVICE, OPT_METRICS, OPT_REPEAT, OPT_TRACE, OPT_SAMPLE,
	OPT_THREADS, OPT_MAXINST, OPT_SEED, OPT_BASELINE, OPT_PRINTF_BUFFER, OPT_TOOL, OPT_PRINT_LIMIT,
	OPT_PARAM = 2000,
};

int gl_topic_param_options(struct option *opts, int n, const char **names, int code)
{
	int count = 0;
	for (const struct gl_topic *const *t = gl_topics; *t; t++)
		for (int i = 0; i < (*t)->nparams && count < GL_RUN_MAX_PARAM_OPTS; i++) {
			bool dup = false;
			for (int k = 0; k < count && !dup; k++)
				dup = strcmp(names[k], (*t)->params[i].name) == 0;
			if (dup)
				continue;
			names[count] = (*t)->params[i].name;
			opts[n + count] = (struct option){names[count], required_argument, NULL, code + count};
			count++;
		}
	opts[n + count] = (struct option){0};
	return count;
}

static int parse_number_opt(struct gl_ctx *ctx, const char *flag, long min, long max, long *out)
{
	return gl_parse_long(optarg, min, max, flag, out, &ctx->err);
}

static int handle_option(struct gl_ctx *ctx, const struct gl_cmd *cmd, int c, struct gl_run_opts *o,
			 const char **names)
{
	long v;
	switch (c) {
	case OPT_VARIANT: o->variants = optarg; return GL_OK;
	case OPT_SIZE: o->size = optarg; return GL_OK;
	case OPT_BACKEND: o->backend = optarg; return GL_OK;
	case OPT_METRICS: o->b.metrics = optarg; return GL_OK;
	case OPT_TRACE: o->b.trace = true; return GL_OK;
	case OPT_BASELINE: o->baseline = optarg; return GL_OK;
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
	case OPT_TOOL: return gl_parse_tools(ctx, cmd, optarg, &o->b.sanitizer_tools);
	case OPT_PRINT_LIMIT: return gl_parse_print_limit(ctx, cmd, optarg, &o->print_limit);
	case OPT_PRINTF_BUFFER:
		if (parse_number_opt(ctx, "--printf-buffer", 1, (long)GL_SIM_PRINTF_BUFFER_MAX, &v))
			return ctx->err.status;
		o->b.printf_buffer = (uint64_t)v;
		return GL_OK;
	case OPT_SEED:
		if (parse_number_opt(ctx, "--seed", 0, 1L << 62, &o->seed))
			return ctx->err.status;
		o->seed_set = true;
		return GL_OK;
	default:
		if (c >= OPT_PARAM && c < OPT_PARAM + GL_RUN_MAX_PARAM_OPTS && o->nparams < GL_RUN_MAX_PARAM_OPTS) {
			o->param_names[o->nparams] = names[c - OPT_PARAM];
			o->param_values[o->nparams++] = optarg;
			return GL_OK;
		}
		return gl_errf(&ctx->err, GL_EINTERNAL, "unhandled option %d", c);
	}
}

int gl_run_opts_parse(struct gl_ctx *ctx, const struct gl_cmd *cmd, int argc, char **argv, bool with_baseline,
		      struct gl_run_opts *o)
{
	struct option opts[16 + GL_RUN_MAX_PARAM_OPTS + 1] = {
		{"variant", required_argument, NULL, OPT_VARIANT}, {"size", required_argument, NULL, OPT_SIZE},
		{"backend", required_argument, NULL, OPT_BACKEND}, {"device", required_argument, NULL, OPT_DEVICE},
		{"metrics", required_argument, NULL, OPT_METRICS}, {"repeat", required_argument, NULL, OPT_REPEAT},
		{"trace", no_argument, NULL, OPT_TRACE},	   {"sample-ctas", required_argument, NULL, OPT_SAMPLE},
		{"threads", required_argument, NULL, OPT_THREADS},
		{"max-instructions", required_argument, NULL, OPT_MAXINST},
		{"seed", required_argument, NULL, OPT_SEED},
		{"printf-buffer", required_argument, NULL, OPT_PRINTF_BUFFER},
		{"tool", required_argument, NULL, OPT_TOOL},	   {"print-limit", required_argument, NULL, OPT_PRINT_LIMIT},
	};
	int nopts = 14;
	if (with_baseline)
		opts[nopts++] = (struct option){"baseline", required_argument, NULL, OPT_BASELINE};
	const char *names[GL_RUN_MAX_PARAM_OPTS];
	gl_topic_param_options(opts, nopts, names, OPT_PARAM);
	o->b.repeat = 1;
	o->print_limit = GL_PRINT_LIMIT_DEFAULT;
	int c;
	optind = 1;
	while ((c = gl_getopt(ctx, cmd, argc, argv, "", opts)) != -1) {
		if (c == 'h')
			return 'h';
		if (c == '?' || handle_option(ctx, cmd, c, o, names))
			return ctx->err.status;
	}
	if (optind >= argc)
		return gl_usage_error(ctx, cmd, "%s needs a TOPIC (see 'gpulab list')", cmd->name);
	if (optind + 1 < argc)
		return gl_usage_error(ctx, cmd, "unexpected argument '%s' after the topic", argv[optind + 1]);
	o->topic_name = argv[optind];
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
	for (int i = 0; size && i < t->nparams; i++) {
		if (!t->params[i].is_size)
			continue;
		if (gl_parse_long(size, t->params[i].min, t->params[i].max, "--size", &p->v[i], &ctx->err))
			return ctx->err.status;
	}
	for (int k = 0; k < n; k++) {
		int i = gl_param_index(t, names[k]);
		if (i < 0)
			return unknown_param(ctx, cmd, t, names[k]);
		char flag[64];
		snprintf(flag, sizeof flag, "--%s", t->params[i].name);
		if (gl_parse_long(values[k], t->params[i].min, t->params[i].max, flag, &p->v[i], &ctx->err))
			return ctx->err.status;
	}
	return t->check ? t->check(p, &ctx->err) : GL_OK;
}

static int build_problem(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_topic *t,
			 const struct gl_run_opts *o, struct gl_problem *p)
{
	gl_problem_defaults(t, p);
	if (o->seed_set)
		p->seed = (uint64_t)o->seed;
	return gl_problem_apply_options(ctx, cmd, t, o->size, o->param_names, o->param_values, o->nparams, p);
}

int gl_run_session_prepare(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_run_opts *o,
			   struct gl_run_session *s)
{
	int rc;
	if ((rc = gl_topic_lookup(o->topic_name, &s->topic, &ctx->err)) ||
	    (rc = gl_parse_variants(s->topic, o->variants, s->variants, GL_RUN_MAX_VARIANTS, &s->nvariants,
				    &ctx->err)))
		return rc;
	return build_problem(ctx, cmd, s->topic, o, &s->problem);
}

struct gl_run_env gl_cli_run_env(struct gl_ctx *ctx)
{
	return (struct gl_run_env){.db_path = ctx->db_path,
				   .argv = ctx->argv_joined,
				   .announce = ctx->format == GL_FMT_TABLE,
				   .progress = ctx->stderr_tty,
				   .err = &ctx->err};
}
