/* driver_ptxas.c — registers and local memory of a module's kernels on the modelled GPU, from the
 * toolkit's ptxas (`ptxas -arch=sm_XX -v`), run once per module when a kernel's resources are first
 * needed (a launch's record, cuFuncGetAttribute, the occupancy calculator).  Without ptxas (or when it
 * refuses the PTX) the counts stay unknown (-1) and the occupancy calculator applies no register limit. */
#define _GNU_SOURCE
#include "driver.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/ptxas.h"

extern char **environ;

/* The ptxas gpulab was built with, else the one on PATH, else the toolkit's default place. */
static const char *ptxas_path(void)
{
#ifdef GPULAB_PTXAS
	if (access(GPULAB_PTXAS, X_OK) == 0)
		return GPULAB_PTXAS;
#endif
	static char found[4096];
	const char *path = getenv("PATH");
	for (const char *p = path; p && *p;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		snprintf(found, sizeof found, "%.*s/ptxas", (int)n, p);
		if (n && access(found, X_OK) == 0)
			return found;
		p = end ? end + 1 : NULL;
	}
	return access("/usr/local/cuda/bin/ptxas", X_OK) == 0 ? "/usr/local/cuda/bin/ptxas" : NULL;
}

/* Run ptxas on the file, its stderr (the -v report) into a malloc'd string; NULL when it did not run. */
static char *run_ptxas(const char *ptxas, const char *file, int sm)
{
	int fds[2];
	if (pipe(fds) != 0)
		return NULL;
	char arch[32];
	snprintf(arch, sizeof arch, "-arch=sm_%d", sm);
	char *argv[] = {(char *)ptxas, arch, "-v", (char *)file, "-o", "/dev/null", NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawn(&pid, ptxas, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	size_t cap = 4096, n = 0;
	char *out = rc == 0 ? malloc(cap) : NULL;
	ssize_t got;
	while (out && (got = read(fds[0], out + n, cap - n - 1)) > 0) {
		n += (size_t)got;
		if (n + 1 == cap) {
			char *more = realloc(out, cap *= 2);
			if (!more) {
				free(out);
				out = NULL;
			}
			out = more;
		}
	}
	close(fds[0]);
	int status = 0;
	if (rc == 0)
		waitpid(pid, &status, 0);
	if (out && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		drv_trace("ptxas %s refused the module: %.300s", arch, out);
		free(out);
		out = NULL;
	}
	if (out)
		out[n] = '\0';
	return out;
}

void drv_ptxas_resources(const char *ptx, const struct ptx_module *m, int sm, int *regs, int *spills)
{
	for (int i = 0; i < m->nfuncs; i++)
		regs[i] = spills[i] = -1;
	const char *ptxas = ptxas_path();
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/gpulab-driver-XXXXXX.ptx", tmp && *tmp ? tmp : "/tmp");
	int fd = ptxas ? mkstemps(path, 4) : -1;
	if (fd < 0) {
		drv_trace("no ptxas (or no temporary file): registers of the module's kernels are unknown");
		return;
	}
	size_t len = strlen(ptx);
	bool written = write(fd, ptx, len) == (ssize_t)len;
	close(fd);
	char *report = written ? run_ptxas(ptxas, path, sm) : NULL;
	unlink(path);
	for (int i = 0; report && i < m->nfuncs; i++) {
		if (!m->funcs[i].is_entry)
			continue;
		struct gl_ptxas_usage u;
		gl_ptxas_usage(report, m->funcs[i].name, &u);
		regs[i] = u.regs;
		spills[i] = u.stack;
	}
	free(report);
}
