/* driver_profile.c — which launches are profiled and where their records go (docs/driver.md, "Profiling").
 *
 * Selection follows Nsight Compute through common/launch_filter.h, the rule the CUPTI injection library
 * uses too: a launch is selected when its kernel matches GPULAB_PROFILE_KERNEL (ncu's -k), it is not
 * among the first GPULAB_PROFILE_SKIP matching launches, and fewer than GPULAB_PROFILE_COUNT were
 * selected before it.  A selected launch runs with the sanitizer tools asked for (GPULAB_PROFILE_TOOLS),
 * CTA sampling, the instruction budget and the trace, and its record goes to the spool (common/spool.h).
 * A launch not selected runs with memcheck alone and no trace (its results are the same), and is not
 * recorded.  Every launch faults as on a GPU, or as under compute-sanitizer's memcheck when
 * GPULAB_PROFILE_FAULTS=memcheck (`gpulab profile --tool memcheck`).
 *
 * Under `gpulab profile` the spool is the directory GPULAB_PROFILE_SPOOL names.  Without it (the library
 * alone on LD_LIBRARY_PATH) the library makes its own spool at the first recorded launch and, when the
 * program exits, hands it to `gpulab profile --spool DIR` (found beside the library, or on PATH), which
 * stores the launches as one run in gpulab's usual database and says so in one line.  GPULAB_PROFILE=0
 * turns recording off (gpulab's own cuda backend sets it: its launches are stored by its own run). */
#define _GNU_SOURCE
#include "driver.h"

#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/launch_filter.h"
#include "common/spool.h"
#include "driver_record.h"

extern char **environ;

static struct {
	bool off;                 /* GPULAB_PROFILE=0 */
	bool own_spool;           /* no GPULAB_PROFILE_SPOOL: the library made its spool */
	char spool[PATH_MAX];     /* "" until a launch is recorded (own spool) */
	struct gl_launch_filter filter; /* which launches are selected */
	long recorded;
	struct gl_sim_opts sim;   /* what a selected launch runs with */
	int faults;
	bool failed;              /* a spool write failed (said once) */
} prof;

static long env_num(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? strtol(v, NULL, 10) : 0;
}

void drv_profile_configure(void)
{
	const char *on = getenv("GPULAB_PROFILE");
	prof.off = on && strcmp(on, "0") == 0;
	const char *spool = getenv(GL_SPOOL_ENV);
	prof.own_spool = !spool || !*spool;
	if (!prof.own_spool)
		snprintf(prof.spool, sizeof prof.spool, "%s", spool);
	long count = env_num("GPULAB_PROFILE_COUNT"); /* 0: no limit */
	struct gl_err err = {0};
	if (gl_launch_filter_init(&prof.filter, getenv("GPULAB_PROFILE_KERNEL"), env_num("GPULAB_PROFILE_SKIP"),
				  count > 0 ? count : -1, &err) != GL_OK) {
		drv_say("%s: no launch is profiled", err.msg);
		gl_launch_filter_init(&prof.filter, NULL, 0, 0, &err); /* selects nothing */
	}
	prof.sim.sample_ctas = env_num("GPULAB_PROFILE_SAMPLE_CTAS");
	prof.sim.tools = (int)env_num("GPULAB_PROFILE_TOOLS") & GL_TOOL_ALL;
	prof.sim.max_instructions = (uint64_t)env_num("GPULAB_PROFILE_MAX_INSTRUCTIONS");
	prof.sim.printf_buffer = (uint64_t)env_num("GPULAB_PROFILE_PRINTF_BUFFER");
	prof.sim.trace = env_num("GPULAB_PROFILE_TRACE") != 0;
	const char *faults = getenv("GPULAB_PROFILE_FAULTS");
	prof.faults = faults && strcmp(faults, "memcheck") == 0 ? GL_SIM_FAULTS_MEMCHECK : GL_SIM_FAULTS_GPU;
}

void drv_function_name(const char *demangled, char *out, size_t n)
{
	static const char anon[] = "(anonymous namespace)";
	size_t k = 0;
	int depth = 0;
	for (const char *p = demangled; *p && k + 1 < n; p++) {
		if (depth == 0 && strncmp(p, anon, sizeof anon - 1) == 0) { /* a namespace, not a parameter list */
			k += (size_t)snprintf(out + k, n - k, "%s", anon);
			k = k < n ? k : n - 1;
			p += sizeof anon - 2;
		} else if (*p == '<') {
			depth++;
		} else if (*p == '>' && depth > 0) {
			depth--;
		} else if (depth == 0 && *p == '(') {
			break;
		} else if (depth == 0 && *p == ' ') {
			k = 0; /* what came before a space at the top level is the return type */
		} else if (depth == 0) {
			out[k++] = *p;
		}
	}
	out[k] = 0;
}

bool drv_profile_select(const struct CUfunc_st *f, struct gl_sim_opts *opts)
{
	opts->faults = prof.faults;
	char fn[512];
	drv_function_name(f->demangled, fn, sizeof fn);
	if (prof.off || !gl_launch_filter_take(&prof.filter, fn, f->fn->name)) {
		opts->tools = GL_TOOL_MEMCHECK;
		return false;
	}
	opts->tools = prof.sim.tools;
	opts->sample_ctas = prof.sim.sample_ctas;
	opts->max_instructions = prof.sim.max_instructions;
	opts->trace = prof.sim.trace;
	if (prof.sim.printf_buffer)
		opts->printf_buffer = prof.sim.printf_buffer;
	return true;
}

/* The spool the library makes for itself when no gpulab started the program. */
static bool own_spool_ready(void)
{
	if (prof.spool[0])
		return true;
	struct gl_err err = {0};
	if (gl_spool_create(prof.spool, sizeof prof.spool, &err) != GL_OK) {
		drv_say("%s; this program's launches are not recorded", err.msg);
		prof.failed = true;
		prof.spool[0] = 0;
		return false;
	}
	return true;
}

void drv_profile_record(const struct drv_launch_record *r, int error)
{
	if (prof.failed || (prof.own_spool && !own_spool_ready()))
		return;
	struct gl_spool_launch l = {.seq = r->seq, .stream = r->stream, .estimate_us = r->estimate_us, .error = error,
				    .rec = r->rec};
	snprintf(l.kernel, sizeof l.kernel, "%s", r->name);
	snprintf(l.gpu, sizeof l.gpu, "%s", r->gpu->name);
	struct gl_err err = {0};
	if (gl_spool_write(prof.spool, &l, &err) != GL_OK) {
		drv_say("%s; later launches are not recorded", err.msg);
		prof.failed = true;
		return;
	}
	prof.recorded++;
}

/* ---- the library alone: at exit, gpulab stores what was recorded */

/* gpulab's binary: $GPULAB_BIN, beside the library in a build tree (build/driver/.. ), or an installation's
 * bin/ (PREFIX/lib/gpulab/../../bin); NULL: look it up on PATH. */
static const char *find_gpulab(char *buf, size_t n)
{
	const char *env = getenv("GPULAB_BIN");
	if (env && *env)
		return env;
	Dl_info info;
	if (!dladdr((void *)find_gpulab, &info) || !info.dli_fname)
		return NULL;
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", info.dli_fname);
	char *slash = strrchr(dir, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	const char *tries[] = {"%s/../gpulab", "%s/../../bin/gpulab"};
	for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
		char path[PATH_MAX * 2];
		snprintf(path, sizeof path, tries[i], dir);
		if (access(path, X_OK) == 0 && n >= PATH_MAX && realpath(path, buf))
			return buf;
	}
	return NULL;
}

/* The program's own command line, from /proc/self/cmdline: argv[0] and its arguments (at most 62). */
static int program_argv(char *buf, size_t n, char **argv, int max)
{
	FILE *f = fopen("/proc/self/cmdline", "r");
	size_t len = f ? fread(buf, 1, n - 1, f) : 0;
	if (f)
		fclose(f);
	buf[len] = 0;
	int k = 0;
	for (size_t i = 0; i < len && k < max; i += strlen(buf + i) + 1)
		argv[k++] = buf + i;
	return k;
}

static void store_own_spool(void)
{
	if (!prof.own_spool || !prof.spool[0] || prof.off)
		return;
	char bin[PATH_MAX], cmdline[8192];
	const char *gpulab = find_gpulab(bin, sizeof bin);
	char *argv[72] = {(char *)(gpulab ? gpulab : "gpulab"), "profile", "--spool", prof.spool, "--"};
	int k = 5;
	k += program_argv(cmdline, sizeof cmdline, argv + k, 62);
	argv[k] = NULL;
	unsetenv("LD_LIBRARY_PATH"); /* gpulab itself does not run on this library */
	pid_t pid;
	int status = 0;
	int rc = gpulab ? posix_spawn(&pid, gpulab, NULL, NULL, argv, environ)
			: posix_spawnp(&pid, "gpulab", NULL, NULL, argv, environ);
	if (rc == 0)
		waitpid(pid, &status, 0);
	if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fprintf(stderr, "gpulab driver: %ld kernel launch%s recorded in %s but not stored (%s); store them with: "
			"gpulab profile --spool %s -- %s\n", prof.recorded, prof.recorded == 1 ? "" : "es", prof.spool,
			rc != 0 ? "gpulab was not found beside this library or on PATH" : "gpulab failed", prof.spool,
			k > 5 ? argv[5] : "PROGRAM");
}

__attribute__((destructor)) static void profile_at_exit(void)
{
	store_own_spool();
}
