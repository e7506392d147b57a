/* nvcc.c — running nvcc for `gpulab sim`: which nvcc, and one run of it under a time limit (its own
 * process group, so cicc and ptxas stop with it).  nvcc's messages go to stderr, whatever gpulab's
 * stdout is (a table, JSON, a pipe). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "common/util.h"
#include "toolchain/toolchain.h"

#define NVCC_TIMEOUT_DEFAULT 300

static bool executable(const char *path)
{
	return path && *path && access(path, X_OK) == 0;
}

const char *gl_nvcc_path(void)
{
	const char *env = getenv("GPULAB_NVCC");
	if (env && *env)
		return env;
#ifdef GPULAB_NVCC
	if (executable(GPULAB_NVCC))
		return GPULAB_NVCC;
#endif
	return "nvcc";
}

unsigned gl_nvcc_timeout(void)
{
	const char *env = getenv("GPULAB_NVCC_TIMEOUT");
	char *end;
	long v = env && *env ? strtol(env, &end, 10) : 0;
	return env && *env && *end == '\0' && v >= 1 && v <= 86400 ? (unsigned)v : NVCC_TIMEOUT_DEFAULT;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Wait for `pid` until the deadline; past it, kill its process group.  Returns 0 with *status set, 1 on
 * timeout, -1 when waiting failed. */
static int wait_limited(pid_t pid, unsigned timeout_s, int *status)
{
	double deadline = now() + timeout_s;
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		if (now() > deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return 1;
		}
		struct timespec nap = {0, 5 * 1000 * 1000};
		nanosleep(&nap, NULL);
	}
}

int gl_nvcc_run(char *const argv[], const char *stdout_path, const char *what, struct gl_err *err)
{
	const char *nvcc = argv[0];
	unsigned limit = gl_nvcc_timeout();
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return gl_errf(err, GL_EENV, "cannot start nvcc: %s", strerror(errno));
	if (pid == 0) {
		setpgid(0, 0); /* nvcc and the tools it starts: killed together on timeout */
		int fd = stdout_path ? open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0600) : -1;
		dup2(fd >= 0 ? fd : STDERR_FILENO, STDOUT_FILENO);
		execvp(nvcc, argv);
		fprintf(stderr, "gpulab: cannot run '%s': %s\n", nvcc, strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	int status = 0, w = wait_limited(pid, limit, &status);
	if (w < 0)
		return gl_errf(err, GL_EENV, "waiting for nvcc: %s", strerror(errno));
	if (w > 0)
		return gl_errf(err, GL_EENV, "nvcc did not finish within %u s and was stopped; set GPULAB_NVCC_TIMEOUT "
			       "(seconds) to allow longer", limit);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return gl_errf(err, GL_EENV, "nvcc not found (tried '%s'): install the CUDA toolkit, put nvcc on "
			       "PATH or set GPULAB_NVCC, or pass a .ptx file", nvcc);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return gl_errf(err, GL_EUSAGE, "nvcc could not compile '%s' (its messages are above)", what);
	return GL_OK;
}
