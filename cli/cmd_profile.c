/* cmd_profile.c — `gpulab profile [options] [--] APP [ARGS...]`: run an unmodified CUDA program on gpulab's
 * driver library (driver/, docs/driver.md), every kernel launch simulated, counted and sanitized, and store
 * the selected launches as one run of topic "program" (docs/driver.md, "gpulab profile").  The program's stdin, stdout and
 * stderr are its own; gpulab's table goes to stderr or --log FILE.  Exit status: the program's, unless
 * --error-exitcode N and a sanitizer error was found, or gpulab itself failed (cmd_profile.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_profile.h"
#include "common/launch_filter.h"
#include "common/safe_dir.h"
#include "common/sha256.h"
#include "common/spool.h"
#include "render/render.h"
#include "sanitizer_opts.h"
#include "session/session.h"
#include "store/store.h"

static const struct gl_cmd *self(void);

enum {
	OPT_KERNEL = 1, OPT_SKIP, OPT_COUNT, OPT_SAMPLE, OPT_TOOL, OPT_PRINT_LIMIT, OPT_PRINTF_BUFFER, OPT_MAXINST,
	OPT_ERROR_EXIT, OPT_LOG, OPT_GPU, OPT_TRACE, OPT_SPOOL, OPT_BACKEND, OPT_METRICS,
};

static int handle_option(struct gl_ctx *ctx, const struct gl_optval *a, struct profile_opts *o)
{
	const char *v = a->value;
	switch (a->opt->code) {
	case OPT_KERNEL: o->kernel = v; return GL_OK;
	case OPT_SKIP: o->skip = gl_optval_long(a); return GL_OK;
	case OPT_COUNT: o->count = gl_optval_long(a); return GL_OK;
	case OPT_SAMPLE: o->sample_ctas = gl_optval_long(a); return GL_OK;
	case OPT_TOOL:
		if (gl_parse_tools(ctx, self(), v, &o->tools))
			return ctx->err.status;
		o->memcheck_faults = o->tools == GL_TOOL_MEMCHECK;
		return GL_OK;
	case OPT_PRINT_LIMIT: return gl_parse_print_limit(ctx, self(), v, &o->print_limit);
	case OPT_PRINTF_BUFFER: o->printf_buffer = gl_optval_long(a); return GL_OK;
	case OPT_MAXINST: o->max_instructions = gl_optval_long(a); return GL_OK;
	case OPT_ERROR_EXIT: o->error_exitcode = (int)gl_optval_long(a); return GL_OK;
	case OPT_LOG: o->log = v; return GL_OK;
	case OPT_GPU: o->gpu = v; return GL_OK;
	case OPT_TRACE: o->trace = true; return GL_OK;
	case OPT_SPOOL: o->spool = v; return GL_OK;
	case OPT_BACKEND: o->backend = v; return GL_OK;
	case OPT_METRICS: o->metrics = v; return GL_OK;
	default: return gl_errf(&ctx->err, GL_EINTERNAL, "unhandled option --%s", a->opt->name);
	}
}

/* Where gpulab's options end: at "--" or at the first word that is not an option or an option's value, as
 * ncu and compute-sanitizer read their command line (the program's own options are the program's). */
static int app_index(const struct gl_cmd *cmd, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		if (strcmp(w, "--") == 0 || w[0] != '-' || !w[1])
			return i;
		if (strncmp(w, "--", 2) != 0 || strchr(w, '='))
			continue;
		const struct gl_opt *tables[] = {cmd->opts, gl_common_opts};
		for (int t = 0; t < 2; t++)
			for (const struct gl_opt *o = tables[t]; o->name || o->short_name; o++)
				if (o->name && strcmp(o->name, w + 2) == 0 && o->kind != GL_OPT_FLAG)
					i++; /* its value */
	}
	return argc;
}

int gl_cli_profile_app(int argc, char **argv)
{
	int app = app_index(self(), argc, argv);
	return app + (app < argc && strcmp(argv[app], "--") == 0);
}

static int parse(struct gl_ctx *ctx, int argc, char **argv, struct profile_opts *o)
{
	int app = app_index(self(), argc, argv);
	bool dashes = app < argc && strcmp(argv[app], "--") == 0;
	struct gl_args args;
	int rc = gl_cmd_parse(ctx, self(), app, argv, &args);
	if (rc)
		return rc;
	o->print_limit = GL_PRINT_LIMIT_DEFAULT;
	o->error_exitcode = -1;
	for (int i = 0; i < args.nopts; i++)
		if ((rc = handle_option(ctx, &args.opts[i], o)))
			return rc;
	o->app = argv + app + dashes;
	if (!o->app[0])
		return gl_usage_error(ctx, self(), "profile needs a program to run: gpulab profile [options] [--] APP [ARGS...]");
	const struct gl_gpu_model *g;
	if (o->gpu && gl_gpu_model_lookup(o->gpu, &g, &ctx->err))
		return ctx->err.status;
	struct gl_launch_filter f; /* a selection that cannot work is refused before the program runs */
	if (gl_launch_filter_init(&f, o->kernel, o->skip, o->count, &ctx->err))
		return ctx->err.status;
	gl_launch_filter_free(&f);
	return GL_OK;
}

/* ---- after the program: what it did, stored and shown */

/* The program's binary as run (PATH looked up as the shell does) and the SHA-256 of its bytes. */
static void program_identity(const char *app, char *path, size_t n, char sha[65])
{
	snprintf(path, n, "%s", app);
	const char *dirs = strchr(app, '/') ? NULL : getenv("PATH");
	for (const char *d = dirs; d && *d;) {
		size_t len = strcspn(d, ":");
		snprintf(path, n, "%.*s/%s", (int)len, d, app);
		if (access(path, X_OK) == 0)
			break;
		snprintf(path, n, "%s", app);
		d += len + (d[len] == ':');
	}
	char real[PATH_MAX];
	if (realpath(path, real))
		snprintf(path, n, "%s", real);
	if (gl_sha256_file(path, sha) != 0)
		sha[0] = '\0'; /* stored without a hash: the program ran, but its file cannot be read */
}

static void describe_outcome(const struct profile_opts *o, const struct profile_child *c, size_t stored, char *buf,
			     size_t n)
{
	if (o->spool)
		snprintf(buf, n, "profile: %s ran on gpulab's driver library without gpulab; %zu launch%s recorded",
			 o->app[0], stored, stored == 1 ? "" : "es");
	else if (c->signal)
		snprintf(buf, n, "profile: %s was killed by signal %d (%s) after %zu recorded launch%s: they are stored, "
			 "later ones never ran", o->app[0], c->signal, strsignal(c->signal), stored, stored == 1 ? "" : "es");
	else
		snprintf(buf, n, "profile: %s exited with status %d", o->app[0], c->status);
}

static long sanitizer_errors(const struct gl_spool_set *set)
{
	long n = 0;
	for (size_t i = 0; i < set->n; i++)
		n += set->launches[i].rec.sanitizer_errors;
	return n;
}

/* The table `report` prints, with the line that names the run. */
static void show_run(struct gl_ctx *ctx, const struct profile_opts *o, FILE *out, long run_id)
{
	struct gl_store *store;
	struct gl_run_record rec;
	struct gl_err err = {0};
	if (gl_store_open(ctx->db_path, 1, &store, &err) == GL_OK) {
		if (gl_store_load_run(store, run_id, &rec, &err) == GL_OK) {
			gl_render_run(out, &rec, GL_FMT_TABLE, o->print_limit);
			gl_run_record_free(&rec);
		}
		gl_store_close(store);
	}
	char args[64], hint[2048];
	snprintf(args, sizeof args, "report %ld --details", run_id);
	gl_cli_hint(ctx, args, hint, sizeof hint);
	fprintf(out, "stored as run %ld (%s)\n", run_id, hint);
}

/* The one line the library asks for when it ran without gpulab (--spool). */
static void say_stored(struct gl_ctx *ctx, const struct profile_opts *o, size_t n, long run_id)
{
	char db[PATH_MAX] = "", args[64], hint[2048];
	struct gl_err err = {0};
	gl_store_path(ctx->db_path, db, sizeof db, &err);
	snprintf(args, sizeof args, "report %ld", run_id);
	gl_cli_hint(ctx, args, hint, sizeof hint);
	fprintf(stderr, "gpulab: %zu kernel launch%s of %s stored as run %ld in %s; see them with: %s\n", n,
		n == 1 ? "" : "es", o->app[0], run_id, db, hint);
}

static int store_launches(struct gl_ctx *ctx, const struct profile_opts *o, const struct profile_child *c,
			  const char *spool, FILE *out, long *errors)
{
	struct gl_spool_set set;
	int rc = gl_spool_load(spool, &set, &ctx->err);
	if (rc)
		return rc;
	if (set.rejected)
		fprintf(out, "gpulab: %d launch file%s of the spool rejected (first: %s): not stored\n", set.rejected,
			set.rejected == 1 ? "" : "s", set.first_rejected);
	*errors = sanitizer_errors(&set);
	if (!set.n) {
		fprintf(out, "gpulab: %s made no kernel launch%s: nothing stored\n", o->app[0],
			o->kernel || o->skip || o->count ? " that the selection (--kernel-name, --launch-skip, "
			"--launch-count) picked" : "");
		gl_spool_set_free(&set);
		return GL_OK;
	}
	struct gl_program_info prog = {0};
	char path[PATH_MAX], outcome[512];
	program_identity(o->app[0], path, sizeof path, prog.sha256);
	prog.path = path;
	struct gl_err quiet = {0}; /* a model name the spool gave that this build lacks: the default */
	if (gl_gpu_model_lookup(o->gpu ? o->gpu : set.launches[0].gpu, &prog.gpu, &quiet) != GL_OK)
		prog.gpu = gl_gpu_model_default();
	describe_outcome(o, c, set.n, outcome, sizeof outcome);
	prog.outcome = outcome;
	prog.device = o->cuda ? &o->device : NULL;
	struct gl_session_env env = {.db_path = ctx->db_path, .argv = ctx->argv_joined, .err = &ctx->err};
	long run_id = 0;
	size_t n = set.n;
	rc = gl_session_store_program(&env, &prog, &set, &run_id);
	gl_spool_set_free(&set);
	if (rc == GL_OK && o->spool)
		say_stored(ctx, o, n, run_id);
	else if (rc == GL_OK)
		show_run(ctx, o, out, run_id);
	return rc;
}

/* --spool DIR comes from the library's own exit hook: a directory that passes common/safe_dir.h's check (this
 * user's, not a link, that no one else may write).  Anything else is a usage error and nothing is read. */
static int check_spool_dir(struct gl_ctx *ctx, const char *dir)
{
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return gl_errf(&ctx->err, GL_EUSAGE, "--spool %s: not a directory", dir);
	struct gl_safe_dir d;
	struct gl_err why = {0};
	int rc = gl_safe_dir_open(&d, dir, 0, "the spool directory", &why);
	gl_safe_dir_close(&d);
	if (rc != GL_OK)
		return gl_errf(&ctx->err, GL_EUSAGE, "--spool %s: not a private directory of this user, and gpulab reads "
			       "launches only from a spool it or its library made: %s", dir, why.msg);
	return GL_OK;
}

static int exec_profile(struct gl_ctx *ctx, int argc, char **argv)
{
	struct profile_opts o = {0};
	int rc = parse(ctx, argc, argv, &o);
	if (rc)
		return rc;
	char driver[PATH_MAX], spool[PATH_MAX];
	struct profile_child child = {0};
	if (o.spool) {
		if ((rc = check_spool_dir(ctx, o.spool)))
			return rc;
		snprintf(spool, sizeof spool, "%s", o.spool);
	} else if ((rc = gl_profile_prepare(ctx, &o, driver, sizeof driver)) ||
		   (rc = gl_spool_create(spool, sizeof spool, &ctx->err))) {
		return rc;
	}
	FILE *out = o.log ? fopen(o.log, "w") : stderr;
	if (!out) {
		rc = gl_errf(&ctx->err, GL_EENV, "--log %s: cannot write it (%s)", o.log, strerror(errno));
		gl_spool_remove(spool);
		return rc;
	}
	if (!o.spool)
		gl_profile_run_child(&o, driver, spool, &child);
	if (child.spawn_errno)
		fprintf(stderr, "gpulab: cannot run %s: %s\n", o.app[0], strerror(child.spawn_errno));
	long errors = 0;
	rc = child.spawn_errno ? GL_OK : store_launches(ctx, &o, &child, spool, out, &errors);
	if (child.signal && rc == GL_OK)
		fprintf(out, "gpulab: %s was killed by signal %d (%s)\n", o.app[0], child.signal, strsignal(child.signal));
	gl_spool_remove(spool);
	if (out != stderr)
		fclose(out);
	if (rc != GL_OK)
		return GL_PROFILE_EXIT_FAILED; /* main prints ctx->err */
	if (o.error_exitcode >= 0 && errors > 0)
		return o.error_exitcode;
	return child.status;
}

static const struct gl_opt profile_table[] = {
	GL_STR("kernel-name", "NAME|regex:RE", OPT_KERNEL,
	       "profile only launches of this kernel (its function name or mangled name; regex: a regular expression)"),
	GL_NUM("launch-skip", "N", 0, 1L << 40, OPT_SKIP, "skip the first N launches that match --kernel-name"),
	GL_NUM("launch-count", "N", 1, 1L << 40, OPT_COUNT, "profile at most N launches (after the skipped ones)"),
	GL_NUM("sample-ctas", "N", 1, 1L << 30, OPT_SAMPLE,
	       "simulate N CTAs of each profiled launch spread over its grid, counts scaled (outputs then wrong)"),
	GL_STR("tool", "LIST", OPT_TOOL, "sanitizer checks (below); default all; memcheck alone stops a kernel at "
	       "its first error, as compute-sanitizer does"),
	GL_STR("print-limit", "N", OPT_PRINT_LIMIT, "distinct sanitizer findings printed per launch (default 100, 0 = all)"),
	GL_NUM("printf-buffer", "BYTES", 1, (long)GL_SIM_PRINTF_BUFFER_MAX, OPT_PRINTF_BUFFER,
	       "device printf buffer of profiled launches (default: the program's cudaLimitPrintfFifoSize)"),
	GL_NUM("max-instructions", "N", 1, 1L << 62, OPT_MAXINST,
	       "budget of warp instructions per CTA of a profiled launch (endless loops stop there)"),
	GL_FLAG("trace", OPT_TRACE, "record warp-level memory events of profiled launches (for gpulab view)"),
	GL_NUM("error-exitcode", "N", 0, 255, OPT_ERROR_EXIT, "exit with N when the sanitizer found an error"),
	GL_STR("log", "FILE", OPT_LOG, "write gpulab's table to FILE instead of stderr"),
	GL_STR("gpu", "MODEL", OPT_GPU, "the GPU the program sees: A100, H100 (default), H200, L4, RTX4090, RTX3090"),
	GL_STR("backend", "NAME", OPT_BACKEND, "auto (default: cuda when a GPU is usable, else sim), cuda (CUPTI "
	       "injection, kernel replay) or sim"),
	GL_STR("metrics", "SET", OPT_METRICS, "memory, compute, all (default), sim, or metric names (cuda)"),
	GL_STR("spool", "DIR", OPT_SPOOL,
	       "run nothing: store the launches gpulab's driver library recorded in DIR when it ran without gpulab"),
	{0},
};

const struct gl_cmd gl_cmd_profile_entry = {
	.no_formats = GL_TEXT_ONLY,
	.complete = "file",
	.name = "profile",
	.usage = "[options] [--] APP [ARGS...]",
	.summary = "run a CUDA program on gpulab's driver library: every kernel simulated, sanitized and stored",
	.help = "APP runs unmodified with gpulab's driver library (libcuda.so.1) in place of NVIDIA's: every kernel\n"
		"launch runs on the simulator; the selected ones (all by default) are counted, sanitized and stored as\n"
		"one run of topic 'program' (report, runs, compare --runs, query and view read it).  gpulab's options\n"
		"end at the first word that is not one, or at --.  The program's stdin, stdout and stderr are its\n"
		"own; gpulab prints the run's table on stderr (or --log FILE) when the program has exited.\n"
		"With a GPU (--backend cuda, or auto when one is usable) the program runs on it instead, and gpulab's\n"
		"CUPTI injection library profiles the selected launches with kernel replay (docs/profile.md).\n"
		"A Python program (python3 script.py: Numba, CuPy) gets what its kernels need on the simulator.\n"
		"A fault is the program's error as on a GPU: the launch stops and the next synchronising call returns\n"
		"cudaErrorIllegalAddress (cudaErrorLaunchFailure with --tool memcheck, as compute-sanitizer).\n"
		GL_SANITIZER_TOOLS_HELP
		"exit status: the program's (128 + N when signal N killed it; its completed launches are stored),\n"
		"else --error-exitcode N when the sanitizer found an error; gpulab's own failures: 2 usage, 3 no\n"
		"driver library or spool directory (nothing ran), 125 the program ran but its launches could not be\n"
		"stored, 126 the program cannot be executed, 127 no such program\n",
	.opts = profile_table,
	.min_args = 0,
	.max_args = -1,
	.args_name = "APP [ARGS...]",
	.exec = exec_profile,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_profile_entry;
}
