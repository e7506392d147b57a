/* cmd_sim.c — `gpulab sim SOURCE --kernel NAME --grid X,Y,Z --block X,Y,Z --arg SPEC...`: run any
 * kernel of a .cu or .ptx file in the simulator with arguments built on the command line, and show its
 * Nsight Compute counts, device printf output and compute-sanitizer-style findings.  The run is stored
 * only with --db or --trace. */
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/json.h"
#include "common/util.h"
#include "session/session.h"
#include "run_options.h"
#include "engine_opt.h"
#include "sanitizer_opts.h"
#include "store/store.h"
#include "toolchain/toolchain.h"

static const struct gl_cmd *self(void);

enum {
	OPT_KERNEL = 1, OPT_GRID, OPT_BLOCK, OPT_SMEM, OPT_ARG, OPT_DUMP, OPT_MAXINST, OPT_THREADS, OPT_TRACE,
	OPT_PRINTF_BUFFER, OPT_STACK_SIZE, OPT_ARCH, OPT_NO_CACHE, OPT_PRINT_LIMIT, OPT_TOOL, OPT_CTA_RANGE, OPT_ENGINE,
	OPT_SAMPLE,
};

#define MAX_DUMPS 16

struct sim_opts {
	const char *source, *kernel, *grid, *block;
	char *args[GL_MAX_ARGS + 1];
	int nargs;
	const char *dumps[MAX_DUMPS];
	int ndumps;
	unsigned smem;
	int print_limit;
	struct gl_sim_opts sim;
	struct gl_nvcc_opts nvcc;
};

/* --arch sm_XX (or compute_XX): digits after the prefix, as nvcc spells them. */
static int set_arch(struct gl_ctx *ctx, struct sim_opts *o, const char *a)
{
	const char *d = strncmp(a, "sm_", 3) == 0 ? a + 3 : strncmp(a, "compute_", 8) == 0 ? a + 8 : NULL;
	size_t k = d ? strspn(d, "0123456789") : 0;
	if (!d || k < 2 || (d[k] && strcmp(d + k, "a") != 0 && strcmp(d + k, "f") != 0))
		return gl_usage_error(ctx, self(), "--arch '%s': expected sm_XX such as sm_80 or sm_90a", a);
	o->nvcc.arch = a;
	return GL_OK;
}

/* -I DIR and -D MACRO[=VALUE], passed to nvcc in order. */
static int add_nvcc_flag(struct gl_ctx *ctx, struct sim_opts *o, const char *flag, const char *value)
{
	if (o->nvcc.nflags + 2 > 2 * GL_NVCC_MAX_FLAGS)
		return gl_usage_error(ctx, self(), "at most %d -I and -D options", GL_NVCC_MAX_FLAGS);
	if (!*value || value[0] == '-')
		return gl_usage_error(ctx, self(), "%s needs a %s, not '%s'", flag, flag[1] == 'I' ? "directory" : "macro",
				      value);
	o->nvcc.flags[o->nvcc.nflags++] = flag;
	o->nvcc.flags[o->nvcc.nflags++] = value;
	return GL_OK;
}

static int handle_option(struct gl_ctx *ctx, const struct gl_optval *a, struct sim_opts *o)
{
	const char *v = a->value;
	switch (a->opt->code) {
	case OPT_ARCH: return set_arch(ctx, o, v);
	case 'I': return add_nvcc_flag(ctx, o, "-I", v);
	case 'D': return add_nvcc_flag(ctx, o, "-D", v);
	case OPT_NO_CACHE: o->nvcc.no_cache = true; return GL_OK;
	case OPT_KERNEL: o->kernel = v; return GL_OK;
	case OPT_GRID: o->grid = v; return GL_OK;
	case OPT_BLOCK: o->block = v; return GL_OK;
	case OPT_TRACE: o->sim.trace = true; return GL_OK;
	case OPT_ARG: /* repeated, in order: parse() lists them */
	case OPT_DUMP: return GL_OK;
	case OPT_SMEM: o->smem = (unsigned)gl_optval_long(a); return GL_OK;
	case OPT_THREADS: o->sim.threads = (int)gl_optval_long(a); return GL_OK;
	case OPT_CTA_RANGE: return gl_parse_cta_range(ctx, self(), v, &o->sim.cta_first, &o->sim.cta_end);
	case OPT_SAMPLE: o->sim.sample_ctas = gl_optval_long(a); return GL_OK;
	case OPT_MAXINST: o->sim.max_instructions = (uint64_t)gl_optval_long(a); return GL_OK;
	case OPT_PRINT_LIMIT: return gl_parse_print_limit(ctx, self(), v, &o->print_limit);
	case OPT_TOOL: return gl_parse_tools(ctx, self(), v, &o->sim.tools);
	case OPT_PRINTF_BUFFER: o->sim.printf_buffer = (uint64_t)gl_optval_long(a); return GL_OK;
	case OPT_STACK_SIZE: o->sim.stack_size = (uint64_t)gl_optval_long(a); return GL_OK;
	case OPT_ENGINE: return gl_parse_engine(ctx, self(), v, &o->sim.engine);
	default: return gl_errf(&ctx->err, GL_EINTERNAL, "unhandled option --%s", a->opt->name);
	}
}

static int parse(struct gl_ctx *ctx, int argc, char **argv, struct sim_opts *o)
{
	struct gl_args args;
	int rc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (rc)
		return rc;
	for (int i = 0; i < args.nopts; i++)
		if ((rc = handle_option(ctx, &args.opts[i], o)))
			return rc;
	o->nvcc.verbose = ctx->verbose; /* -v: whether nvcc ran or the PTX cache answered */
	o->nargs = gl_args_list(&args, "arg", (const char **)o->args, GL_MAX_ARGS + 1);
	if (o->nargs > GL_MAX_ARGS + 1)
		return gl_usage_error(ctx, self(), "at most %d --arg options", GL_MAX_ARGS + 1);
	o->ndumps = gl_args_list(&args, "dump", o->dumps, MAX_DUMPS);
	if (o->ndumps > MAX_DUMPS)
		return gl_usage_error(ctx, self(), "at most %d --dump options", MAX_DUMPS);
	o->source = args.pos[0];
	if (o->sim.sample_ctas && o->sim.cta_end)
		return gl_usage_error(ctx, self(), "--cta-range and --sample-ctas exclude each other: a range counts its "
				      "CTAs as they are, a sample scales its counts to the grid");
	if (!o->kernel)
		return gl_usage_error(ctx, self(), "sim needs --kernel NAME");
	if (!o->grid || !o->block)
		return gl_usage_error(ctx, self(), "sim needs --grid X[,Y[,Z]] and --block X[,Y[,Z]]");
	return GL_OK;
}

/* "X[,Y[,Z]]", each at least 1; every field is required (",,5" and "32,,2" are refused, not read as
 * "5" and "32,2"). */
static int parse_dim(struct gl_ctx *ctx, const char *flag, const char *text, unsigned out[3])
{
	out[0] = out[1] = out[2] = 1;
	const char *p = text;
	for (int k = 0;; k++) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char field[32];
		long v;
		if (k == 3)
			return gl_usage_error(ctx, self(), "%s '%s': at most three dimensions X,Y,Z", flag, text);
		if (len == 0)
			return gl_usage_error(ctx, self(), "%s '%s': dimension %d is empty; expected X[,Y[,Z]] with "
					      "positive integers", flag, text, k + 1);
		if (len >= sizeof field)
			return gl_usage_error(ctx, self(), "%s '%s': dimension %d is too long", flag, text, k + 1);
		snprintf(field, sizeof field, "%.*s", (int)len, p);
		if (gl_parse_long(field, 1, 0x7fffffffL, flag, &v, &ctx->err))
			return ctx->err.status;
		out[k] = (unsigned)v;
		if (!comma)
			return GL_OK;
		p = comma + 1;
	}
}

/* {"source": SOURCE, "kernel": NAME, "args": [SPEC, ...]}: what the stored launch was. */
static void write_params(struct gl_json *j, const void *arg)
{
	const struct sim_opts *o = arg;
	gl_json_begin_object(j, NULL);
	gl_json_string(j, "source", o->source);
	gl_json_string(j, "kernel", o->kernel);
	gl_json_begin_array(j, "args");
	for (int i = 0; i < o->nargs; i++)
		gl_json_string(j, NULL, o->args[i]);
	gl_json_end_array(j);
	gl_json_end_object(j);
}

/* The launch stored as a run of its own through a session (guidance like any run): topic "sim", the
 * kernel's base name as the variant, the source, kernel and arguments as its parameters; verified when
 * the sanitizer found nothing, not checked for a shard (--cta-range: partial). */
static int store_run(struct gl_ctx *ctx, const struct sim_opts *o, const struct ptx_function *fn,
		     const struct gl_launch *l, const struct gl_sim_result *res)
{
	struct gl_launch_record rec;
	char base[256];
	gl_sim_record(fn, l, res, &rec);
	gl_simsrc_base_name(fn->name, base, sizeof base);
	snprintf(rec.topic, sizeof rec.topic, "sim");
	snprintf(rec.variant, sizeof rec.variant, "%.31s", base);
	rec.params_json = gl_json_to_string(write_params, o);
	rec.verified = res->nerrors == 0 && !res->aborted;
	if (res->cta_end > 0 && rec.verified) /* a shard: its counts are partial, the run is not checked whole */
		rec.verified = -1;
	struct gl_device_info dev;
	gl_session_sim_device(res->threads, &dev);
	struct gl_session_env env = gl_cli_session_env(ctx);
	struct gl_session *s = gl_session_new(&env, "sim", &dev);
	struct gl_store *store = NULL;
	long run_id = 0;
	gl_session_add(s, &rec);
	int rc = gl_store_open(ctx->db_path, 0, &store, &ctx->err);
	if (rc == GL_OK)
		rc = gl_session_store(s, store, &run_id, NULL);
	if (rc == GL_OK && ctx->format == GL_FMT_TABLE)
		printf("\nstored as run %ld in %s\n", run_id, gl_store_file(store));
	gl_store_close(store);
	gl_session_free(s);
	return rc;
}

static int write_dumps(struct gl_ctx *ctx, const struct sim_opts *o, const struct gl_launch *l)
{
	for (int i = 0; i < o->ndumps; i++) {
		int b;
		const char *path;
		if (gl_simarg_dump_target(l, o->dumps[i], &b, &path, &ctx->err) ||
		    gl_simarg_dump(l, b, path, &ctx->err))
			return ctx->err.status;
	}
	return GL_OK;
}

/* Everything that can be refused is checked before the kernel runs. */
static int prepare(struct gl_ctx *ctx, const struct sim_opts *o, struct ptx_module **m,
		   const struct ptx_function **fn, struct gl_launch *l)
{
	int rc;
	if ((rc = parse_dim(ctx, "--grid", o->grid, l->grid)) || (rc = parse_dim(ctx, "--block", o->block, l->block)))
		return rc;
	char *text = NULL;
	if ((rc = gl_simsrc_load(o->source, &o->nvcc, &text, &ctx->err)))
		return rc;
	l->module = text;
	l->module_name = o->source;
	/* lazily: an unsupported construct in another function of the file does not stop this kernel */
	size_t n = strlen(o->source);
	unsigned flags = PTX_PARSE_LAZY | (n > 3 && strcmp(o->source + n - 3, ".cu") == 0 ? PTX_PARSE_CUDA_LINES : 0);
	if ((rc = ptx_parse_ex(text, o->source, flags, m, &ctx->err)) ||
	    (rc = gl_simsrc_kernel(*m, o->kernel, fn, &ctx->err)) || (rc = ptx_check_function(*m, *fn, &ctx->err)))
		return rc;
	char why[160];
	char *sass = gl_simsrc_sass(text, why, sizeof why);
	gl_sim_apply_sass(*m, sass, why);
	free(sass);
	l->entry = (*fn)->name;
	l->dyn_smem = o->smem;
	if ((rc = gl_simarg_build(*fn, o->args, o->nargs, l, &ctx->err)))
		return rc;
	for (int i = 0; i < o->ndumps; i++) {
		int b;
		const char *path;
		if ((rc = gl_simarg_dump_target(l, o->dumps[i], &b, &path, &ctx->err)))
			return rc;
	}
	return GL_OK;
}

static int exec_sim(struct gl_ctx *ctx, int argc, char **argv)
{
	struct sim_opts o = {.print_limit = GL_PRINT_LIMIT_DEFAULT};
	int rc = parse(ctx, argc, argv, &o);
	if (rc)
		return rc;
	struct ptx_module *m = NULL;
	const struct ptx_function *fn = NULL;
	struct gl_launch l = {0};
	struct gl_sim_result res = {0};
	struct gl_metrics metrics = {0};
	bool ran = false;
	o.sim.progress = ctx->stderr_tty;
	rc = prepare(ctx, &o, &m, &fn, &l);
	if (rc == GL_OK && (ctx->db_path || o.sim.trace)) {
		/* a database the run could not be stored in is refused before the run, writing nothing */
		char path[PATH_MAX];
		rc = gl_store_check(ctx->db_path, path, sizeof path, &ctx->err);
	}
	if (rc == GL_OK)
		rc = gl_sim_run(m, &l, &o.sim, &res, &ctx->err);
	ran = rc == GL_OK;
	if (ran) {
		gl_sim_metrics(&res, &metrics);
		rc = write_dumps(ctx, &o, &l);
	}
	if (rc == GL_OK) {
		struct gl_sim_report r = {o.source, fn->name, &l, &res, &metrics, o.print_limit, m->counts_mode};
		if (ctx->format == GL_FMT_JSON) {
			gl_simprint_json(stdout, &r);
			gl_simprint_printf_notes(stderr, &res);
		}
		else
			gl_simprint_text(stdout, &r);
		if (ctx->db_path || o.sim.trace)
			rc = store_run(ctx, &o, fn, &l, &res);
	}
	if (rc == GL_OK && (res.nerrors > 0 || res.aborted))
		rc = GL_EVERIFY;
	if (ran)
		gl_sim_result_free(&res);
	gl_metrics_free(&metrics);
	gl_simarg_free(&l);
	gl_launch_free(&l);
	free((char *)l.module);
	ptx_module_free(m);
	return rc;
}

static const struct gl_opt sim_table[] = {
	GL_STR("kernel", "NAME", OPT_KERNEL, "the kernel: extern \"C\" name, mangled name, or a unique C++ base name"),
	GL_STR("grid", "X[,Y[,Z]]", OPT_GRID, "CTAs in the grid"),
	GL_STR("block", "X[,Y[,Z]]", OPT_BLOCK, "threads in a CTA"),
	GL_NUM("smem", "BYTES", 0, 227 * 1024, OPT_SMEM, "dynamic shared memory (extern __shared__)"),
	GL_STR("arg", "SPEC", OPT_ARG, "one per kernel parameter, in order (SPEC below)"),
	GL_STR("dump", "NAME=PATH", OPT_DUMP, "write buffer NAME's final contents (raw little-endian) to PATH"),
	GL_NUM("max-instructions", "N", 1, 1L << 62, OPT_MAXINST,
	       "budget of warp instructions per CTA (endless loops stop there)"),
	GL_NUM("threads", "N", 1, 256, OPT_THREADS, "CPU threads (default: all cores)"),
	GL_STR("cta-range", "A:B", OPT_CTA_RANGE, "simulate only CTAs A..B-1 in grid order (partial counts)"),
	GL_NUM("sample-ctas", "N", 1, 1L << 30, OPT_SAMPLE,
	       "simulate N CTAs spread over the grid and scale the counts to it (outputs are not checked)"),
	GL_NUM("printf-buffer", "BYTES", 1, (long)GL_SIM_PRINTF_BUFFER_MAX, OPT_PRINTF_BUFFER,
	       "device printf buffer (default 1048576, like the device's)"),
	GL_NUM("stack-size", "BYTES", 16, (long)GL_SIM_STACK_SIZE_MAX, OPT_STACK_SIZE,
	       "call stack per thread for calls that were not inlined (default 1024, CUDA's default)"),
	GL_STR("engine", "auto|interp|compiled", OPT_ENGINE, GL_ENGINE_HELP),
	GL_FLAG("trace", OPT_TRACE, "record warp-level memory events and store them (implies storing the run)"),
	GL_STR("arch", "sm_XX", OPT_ARCH, "nvcc's -arch for a .cu file (default sm_80)"),
	{.short_name = 'I', .kind = GL_OPT_STRING, .value = "DIR", .help = "passed to nvcc for a .cu file, in order",
	 .code = 'I'},
	{.short_name = 'D', .kind = GL_OPT_STRING, .value = "MACRO[=V]",
	 .help = "passed to nvcc for a .cu file, in order", .code = 'D'},
	GL_FLAG("no-cache", OPT_NO_CACHE, "run nvcc even when the PTX cache has this compile"),
	GL_STR("tool", "LIST", OPT_TOOL, "sanitizer checks, comma-separated (below); default all"),
	GL_STR("print-limit", "N", OPT_PRINT_LIMIT,
	       "distinct findings printed (default 100, 0 = all); the ERROR SUMMARY and --json count every one"),
	{0},
};

const struct gl_cmd gl_cmd_sim_entry = {
	.no_formats = GL_NO_CSV,
	.complete = "file",
	.name = "sim",
	.usage = "SOURCE.cu|SOURCE.ptx --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]] --arg SPEC... [options]",
	.summary = "run one kernel of a .cu or .ptx file in the simulator: counts, printf, sanitizer findings",
	.help = "--arg SPEC, one per kernel parameter, in order:\n"
		"  i32:V u32:V i64:V u64:V f32:V f64:V  a scalar\n"
		"  buf:NAME:DTYPE:COUNT[:INIT]          a buffer: DTYPE f16 bf16 f32 f64 i8 u8 i16 u16 i32 u32 i64 u64;\n"
		"                                       INIT zero (default), seq, rand[:SEED] (floats in [0,1), integers\n"
		"                                       in [0,100), splitmix64), const:V (must fit DTYPE: no truncation,\n"
		"                                       overflow or underflow), file:PATH (a regular file of raw\n"
		"                                       little-endian values, exactly COUNT of them)\n"
		"  tex:NAME:FORMAT:DIMS[:OPTIONS][:INIT]\n"
		"                                       a texture object (a cudaTextureObject_t parameter) over a\n"
		"                                       buffer NAME of texels: FORMAT u8 i8 u16 i16 u32 i32 f16 f32,\n"
		"                                       with x2 or x4 channels (f32x4); DIMS W, WxH or WxHxD; OPTIONS,\n"
		"                                       comma-separated: point linear, clamp wrap mirror border[=V],\n"
		"                                       norm (normalized coordinates), readnorm (8/16-bit integers read\n"
		"                                       as floats), layers=N, cube, mem (linear memory, tex1Dfetch),\n"
		"                                       pitch=BYTES (pitched 2D memory)\n"
		"  surf:NAME:FORMAT:DIMS[:OPTIONS][:INIT]\n"
		"                                       a surface object (cudaSurfaceObject_t), the same; OPTIONS\n"
		"                                       layers=N, cube, mem, pitch=BYTES\n"
		"printf records that do not fit the --printf-buffer are dropped and counted.\n"
		GL_SANITIZER_TOOLS_HELP
		"A .cu file is compiled with nvcc -ptx -arch=sm_80 -O3 -lineinfo ($GPULAB_NVCC picks the nvcc; it\n"
		"may run $GPULAB_NVCC_TIMEOUT seconds, default 300).  Its PTX is cached in $XDG_CACHE_HOME/gpulab/ptx\n"
		"(~/.cache/gpulab/ptx), keyed by the source, every file it includes, the flags and nvcc's version.\n"
		"The run is stored in the database only with --db or --trace.\n"
		"exit status: 0 clean, 1 sanitizer errors or an aborted kernel (budget, deadlock, unsupported\n"
		"instruction), 2 usage, source or argument errors, or a launch that needs more host memory than\n"
		"gpulab allows itself (half of this machine's), 3 environment (no nvcc, out of memory)\n",
	.opts = sim_table,
	.min_args = 1,
	.max_args = 1,
	.args_missing = "sim needs a SOURCE file (.cu or .ptx)",
	.args_name = "one SOURCE file",
	.exec = exec_sim,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_sim_entry;
}
