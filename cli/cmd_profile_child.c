/* cmd_profile_child.c — the program `gpulab profile` runs: found, started with gpulab's driver library
 * first on LD_LIBRARY_PATH and the profile's settings in its environment (driver/driver_profile.c reads
 * them), and waited for, however it ends. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd_profile.h"
#include "common/spool.h"

extern char **environ;

static bool has_library(const char *dir)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/libcuda.so.1", dir);
	return access(path, R_OK) == 0;
}

int gl_profile_driver_dir(char *out, size_t n, struct gl_err *err)
{
	const char *env = getenv("GPULAB_DRIVER_DIR");
	if (env && *env) {
		snprintf(out, n, "%s", env);
		return has_library(out) ? GL_OK
					: gl_errf(err, GL_EENV, "GPULAB_DRIVER_DIR=%s holds no libcuda.so.1 (gpulab's driver "
						  "library): unset it or point it at build/driver", env);
	}
	char exe[PATH_MAX];
	ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (k > 0) {
		exe[k] = 0;
		char *slash = strrchr(exe, '/');
		*slash = 0;
		const char *tries[] = {"%s/driver", "%s/../lib/gpulab"};
		for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
			snprintf(out, n, tries[i], exe);
			if (has_library(out))
				return GL_OK;
		}
	}
	return gl_errf(err, GL_EENV, "gpulab's driver library (libcuda.so.1) is neither in driver/ beside the gpulab "
		       "binary nor in its installation's lib/gpulab: build it with 'make build' or install with 'make "
		       "install', or set GPULAB_DRIVER_DIR");
}

/* NAME=VALUE into the environment being built (a copy of gpulab's, without the profile's own settings). */
static void env_add(char **envp, int *n, const char *name, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void env_add(char **envp, int *n, const char *name, const char *fmt, ...)
{
	char value[PATH_MAX * 2];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(value, sizeof value, fmt, ap);
	va_end(ap);
	if (asprintf(&envp[*n], "%s=%s", name, value) >= 0)
		(*n)++;
}

static bool ours(const char *var)
{
	return strncmp(var, "GPULAB_PROFILE", 14) == 0 || strncmp(var, "LD_LIBRARY_PATH=", 16) == 0 ||
	       strncmp(var, "GPULAB_GPU=", 11) == 0 || strncmp(var, "CUDA_INJECTION64_PATH=", 22) == 0;
}

static char **child_env(const struct profile_opts *o, const char *driver_dir, const char *spool)
{
	int total = 0;
	while (environ[total])
		total++;
	char **envp = calloc((size_t)total + 16, sizeof *envp);
	int n = 0;
	for (int i = 0; i < total; i++)
		if (!ours(environ[i]))
			envp[n++] = strdup(environ[i]);
	const char *ld = getenv("LD_LIBRARY_PATH");
	if (o->cuda) { /* NVIDIA's driver loads the injection library inside cuInit */
		env_add(envp, &n, "CUDA_INJECTION64_PATH", "%s", o->inject);
		if (o->metrics)
			env_add(envp, &n, "GPULAB_PROFILE_METRICS", "%s", o->metrics);
		if (ld && *ld)
			env_add(envp, &n, "LD_LIBRARY_PATH", "%s", ld);
	} else {
		env_add(envp, &n, "LD_LIBRARY_PATH", "%s%s%s", driver_dir, ld && *ld ? ":" : "", ld && *ld ? ld : "");
	}
	env_add(envp, &n, GL_SPOOL_ENV, "%s", spool);
	if (o->gpu)
		env_add(envp, &n, "GPULAB_GPU", "%s", o->gpu);
	if (o->kernel)
		env_add(envp, &n, "GPULAB_PROFILE_KERNEL", "%s", o->kernel);
	env_add(envp, &n, "GPULAB_PROFILE_SKIP", "%ld", o->skip);
	env_add(envp, &n, "GPULAB_PROFILE_COUNT", "%ld", o->count);
	env_add(envp, &n, "GPULAB_PROFILE_SAMPLE_CTAS", "%ld", o->sample_ctas);
	env_add(envp, &n, "GPULAB_PROFILE_TOOLS", "%d", o->tools);
	env_add(envp, &n, "GPULAB_PROFILE_MAX_INSTRUCTIONS", "%ld", o->max_instructions);
	env_add(envp, &n, "GPULAB_PROFILE_PRINTF_BUFFER", "%ld", o->printf_buffer);
	env_add(envp, &n, "GPULAB_PROFILE_TRACE", "%d", o->trace);
	env_add(envp, &n, "GPULAB_PROFILE_FAULTS", "%s", o->memcheck_faults ? "memcheck" : "gpu");
	return envp;
}

void gl_profile_run_child(const struct profile_opts *o, const char *driver_dir, const char *spool,
			  struct profile_child *out)
{
	memset(out, 0, sizeof *out);
	char **envp = child_env(o, driver_dir, spool);
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	sigset_t dfl;
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGQUIT);
	posix_spawnattr_setsigdefault(&attr, &dfl); /* the program gets ^C as it would without gpulab */
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	pid_t pid;
	int rc = posix_spawnp(&pid, o->app[0], NULL, &attr, o->app, envp);
	posix_spawnattr_destroy(&attr);
	if (rc != 0) {
		out->spawn_errno = rc;
		out->status = rc == ENOENT ? GL_PROFILE_EXIT_NOTFOUND : GL_PROFILE_EXIT_NOEXEC;
	} else {
		int st = 0;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		out->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
		out->status = out->signal ? 128 + out->signal : WEXITSTATUS(st);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	for (char **e = envp; *e; e++)
		free(*e);
	free(envp);
}
