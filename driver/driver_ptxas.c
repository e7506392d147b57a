/* driver_ptxas.c — registers and local memory of a module's kernels on the modelled GPU, from the
 * toolkit's ptxas (`ptxas -arch=sm_XX -v`), asked once per module when a kernel's resources are first
 * needed (a launch's record, cuFuncGetAttribute, the occupancy calculator).  Without ptxas (or when it
 * refuses the PTX) the counts stay unknown (-1) and the occupancy calculator applies no register limit.
 *
 * ptxas's report is kept across processes in gpulab's cache folder "ptxas" (common/keyed_cache.h, the
 * rules of every gpulab cache), keyed by the PTX, ptxas's path and `--version` text, the target and the
 * flags: the second run of the same program reads the report back instead of running ptxas (which is
 * most of a small program's time under the library: a fraction of a second per module). */
#define _GNU_SOURCE
#include "driver.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/keyed_cache.h"
#include "common/ptxas.h"
#include "common/sha256.h"

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

static const struct gl_keyed_cache report_cache = {"ptxas", "ptxas", "gpulab-ptxas 1", "ptxas report cache"};

/* Run argv[0] (ptxas) with `out_fd` (stdout or stderr) into a malloc'd string and the other to /dev/null;
 * NULL when it did not run or did not exit 0 (traced). */
static char *run_ptxas(char *const argv[], int out_fd)
{
	int fds[2];
	if (pipe(fds) != 0)
		return NULL;
	int other_fd = out_fd == STDERR_FILENO ? STDOUT_FILENO : STDERR_FILENO;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_adddup2(&fa, fds[1], out_fd);
	posix_spawn_file_actions_addopen(&fa, other_fd, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
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
		drv_trace("ptxas %s refused the module: %.300s", argv[1], out);
		free(out);
		out = NULL;
	}
	if (out)
		out[n] = '\0';
	return out;
}

/* ptxas's `--version` text, asked once per process (part of the cache key: another ptxas, another report). */
static const char *ptxas_version(const char *ptxas)
{
	static char *version;
	static const char *asked;
	if (asked != ptxas) {
		free(version);
		char *argv[] = {(char *)ptxas, "--version", NULL};
		version = run_ptxas(argv, STDOUT_FILENO);
		asked = ptxas;
	}
	return version;
}

static void key_add(struct gl_sha256 *h, const char *s)
{
	gl_sha256_add(h, s, strlen(s) + 1); /* with the NUL: "ab"+"c" and "a"+"bc" differ */
}

/* The cache key of ptxas's report: everything it depends on. */
static void report_key(const char *ptxas, const char *version, const char *arch, const char *ptx, char key[65])
{
	struct gl_sha256 h;
	gl_sha256_init(&h);
	key_add(&h, report_cache.magic);
	key_add(&h, ptxas);
	key_add(&h, version);
	key_add(&h, arch);
	key_add(&h, "-v");
	key_add(&h, ptx);
	gl_sha256_hex(&h, key);
}

/* ptxas -v's report on the PTX through a private temporary file; NULL when it did not run. */
static char *report_of(const char *ptxas, const char *arch, const char *ptx)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/gpulab-driver-XXXXXX.ptx", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemps(path, 4);
	if (fd < 0)
		return NULL;
	size_t len = strlen(ptx);
	bool written = write(fd, ptx, len) == (ssize_t)len;
	close(fd);
	char *argv[] = {(char *)ptxas, (char *)arch, "-v", path, "-o", "/dev/null", NULL};
	char *report = written ? run_ptxas(argv, STDERR_FILENO) : NULL;
	unlink(path);
	return report;
}

/* The report: from the cache when an entry for this key is there, else ptxas's, then stored. */
static char *cached_report(const char *ptxas, int sm, const char *ptx)
{
	char arch[32], key[65];
	snprintf(arch, sizeof arch, "-arch=sm_%d", sm);
	const char *version = ptxas_version(ptxas);
	if (!version)
		return report_of(ptxas, arch, ptx);
	report_key(ptxas, version, arch, ptx, key);
	char *report = gl_keyed_cache_load(&report_cache, key, drv.trace);
	if (report) {
		drv_trace("ptxas %s: report reused from the cache (%.16s), ptxas not run", arch, key);
		return report;
	}
	report = report_of(ptxas, arch, ptx);
	drv_trace("ptxas %s: ran ptxas (cache miss %.16s)", arch, key);
	if (report)
		gl_keyed_cache_store(&report_cache, key, report, drv.trace);
	return report;
}

void drv_ptxas_resources(const char *ptx, const struct ptx_module *m, int sm, int *regs, int *spills)
{
	for (int i = 0; i < m->nfuncs; i++)
		regs[i] = spills[i] = -1;
	const char *ptxas = ptxas_path();
	char *report = ptxas ? cached_report(ptxas, sm, ptx) : NULL;
	if (!report)
		drv_trace("no ptxas report: registers of the module's kernels are unknown");
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
