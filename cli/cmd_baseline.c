/* cmd_baseline.c — `gpulab baseline TOPIC`: the vendor library on the topic's problem, timed on the GPU,
 * so a variant's TFLOP/s can be read as a fraction of it.  hgemm: cuBLAS cublasGemmEx (fp16 A and B,
 * fp32 C, CUBLAS_COMPUTE_32F; profiler/cublas_ref.c).  Exits 3 without a GPU or without libcublas. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "run_options.h"
#include "common/json.h"
#include "profiler/profiler.h"

static const struct gl_cmd *self(void);

enum { OPT_SIZE = 1, OPT_REPEAT, OPT_PARAM };
#define MAX_PARAM_OPTS GL_RUN_MAX_PARAM_OPTS

static void print(const struct gl_ctx *ctx, const struct gl_problem *p, int repeat, const struct gl_cublas_timing *t)
{
	if (ctx->format == GL_FMT_JSON) {
		struct gl_json j;
		gl_json_init(&j, stdout);
		gl_json_begin_object(&j, NULL);
		gl_json_string(&j, "library", "cuBLAS");
		gl_json_string(&j, "call", "cublasGemmEx fp16 x fp16 -> fp32, CUBLAS_COMPUTE_32F");
		gl_json_string(&j, "path", t->library);
		gl_json_string(&j, "device", t->device);
		gl_json_int(&j, "m", p->v[0]);
		gl_json_int(&j, "n", p->v[1]);
		gl_json_int(&j, "k", p->v[2]);
		gl_json_int(&j, "repeat", repeat);
		gl_json_number(&j, "ms", t->ms);
		gl_json_number(&j, "tflops", t->tflops);
		gl_json_end_object(&j);
		putchar('\n');
		return;
	}
	printf("cuBLAS cublasGemmEx (fp16 A, B; fp32 C; CUBLAS_COMPUTE_32F) m=%ld n=%ld k=%ld on %s: %.4f ms, "
	       "%.2f TFLOP/s (mean of %d calls)\n", p->v[0], p->v[1], p->v[2], t->device, t->ms, t->tflops, repeat);
}

static int baseline_exec(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_opt params[MAX_PARAM_OPTS + 1];
	struct gl_args args;
	gl_topic_param_options(params, MAX_PARAM_OPTS + 1, OPT_PARAM);
	int rc = gl_cmd_parse_extra(ctx, self(), params, argc, argv, &args);
	if (rc)
		return rc;
	const char *size = NULL, *names[MAX_PARAM_OPTS], *values[MAX_PARAM_OPTS];
	int nparams = 0, repeat = 20;
	for (int i = 0; i < args.nopts; i++) {
		const struct gl_optval *a = &args.opts[i];
		if (a->opt->code == OPT_SIZE)
			size = a->value;
		else if (a->opt->code == OPT_REPEAT)
			repeat = (int)gl_optval_long(a);
		else if (nparams < MAX_PARAM_OPTS)
			names[nparams] = a->opt->name, values[nparams++] = a->value;
	}
	const struct gl_topic *t;
	if ((rc = gl_topic_lookup(args.pos[0], &t, &ctx->err)))
		return rc;
	if (strcmp(t->name, "hgemm") != 0)
		return gl_usage_error(ctx, self(), "no vendor baseline for topic %s: hgemm has one (cuBLAS cublasGemmEx)",
				      t->name);
	struct gl_problem p;
	gl_problem_defaults(t, &p);
	if ((rc = gl_problem_apply_options(ctx, self(), t, size, names, values, nparams, &p)))
		return rc;
	struct gl_cublas_timing timing;
	if ((rc = gl_cublas_hgemm_time(p.v[0], p.v[1], p.v[2], repeat, &timing, &ctx->err)))
		return rc;
	print(ctx, &p, repeat, &timing);
	return GL_OK;
}

static const struct gl_opt baseline_opts[] = {
	GL_STR("size", "N", OPT_SIZE, "set every size parameter"),
	GL_NUM("repeat", "R", 1, 100000, OPT_REPEAT, "timed calls after one warm-up (default 20)"),
	{0},
};

const struct gl_cmd gl_cmd_baseline_entry = {
	.name = "baseline",
	.usage = "TOPIC [--size N | --PARAM V ...] [--repeat R] [--json]",
	.summary = "time the vendor library on a topic's problem on the GPU (hgemm: cuBLAS cublasGemmEx)",
	.help = "hgemm: cublasGemmEx with fp16 A and B, fp32 C and CUBLAS_COMPUTE_32F on the same row-major\n"
		"problem as 'gpulab run hgemm' (--m --n --k, --size sets all three), timed with CUDA events over\n"
		"R calls after one warm-up.  libcublas is loaded at run time; without a GPU or libcublas the\n"
		"command exits 3 saying which.\n" GL_RUN_PARAMS_HELP,
	.opts = baseline_opts,
	.min_args = 1,
	.max_args = 1,
	.args_missing = "baseline needs a TOPIC (hgemm)",
	.args_name = "one TOPIC",
	.exec = baseline_exec,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_baseline_entry;
}
