/* sim_jit_cache.c — compile once: the generated C of a kernel (sim_jit_gen.c) is compiled with the
 * system C compiler into $XDG_CACHE_HOME/gpulab/jit/KEY.so and loaded with dlopen.  KEY is the SHA-256
 * of the generated source (which holds the decoded PTX: every opcode, operand, constant and SASS weight),
 * the compiler's path and `--version` text, the flags, and gpulab's version, so a new PTX, compiler or
 * gpulab never loads a stale object.  Files are written under a temporary name and renamed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/sha256.h"
#include "common/util.h"
#include "ptx.h"
#include "sim_jit.h"

#ifndef GPULAB_VERSION
#define GPULAB_VERSION "unknown"
#endif

int sim_jit_cache_dir(char *out, size_t n)
{
	return gl_cache_dir("jit", out, n);
}

/* Run argv with stdout+stderr into `out` (NUL-terminated, cut to n-1 bytes); the exit status, or -1
 * when it could not start. */
static int run_capture(char *const argv[], char *out, size_t n)
{
	int fd[2];
	if (pipe(fd) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	size_t len = 0;
	ssize_t k;
	char sink[4096];
	while ((k = read(fd[0], len + 1 < n ? out + len : sink, len + 1 < n ? n - 1 - len : sizeof sink)) > 0 ||
	       (k < 0 && errno == EINTR))
		if (k > 0 && len + 1 < n)
			len += (size_t)k;
	close(fd[0]);
	if (n)
		out[len < n ? len : n - 1] = 0;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The compiler: $GPULAB_CC, else cc. */
static const char *compiler(void)
{
	const char *cc = getenv("GPULAB_CC");
	return cc && *cc ? cc : "cc";
}

/* Flags: the optimisation level ($GPULAB_JIT_CFLAGS, default -O1: -O2 takes several times longer on a
 * kernel of a thousand instructions for little gain) and vector extensions when this CPU has them.  They
 * are part of the key. */
static const char *arch_flags(void)
{
	static char flags[256];
	const char *opt = getenv("GPULAB_JIT_CFLAGS");
	const char *isa = "";
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		isa = " -mavx2 -mfma";
#endif
	snprintf(flags, sizeof flags, "%s%s", opt && *opt ? opt : "-O1", isa);
	return flags;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	size_t n = strlen(text);
	int bad = fwrite(text, 1, n, f) != n;
	return (fclose(f) != 0 || bad) ? -1 : 0;
}

/* Compile `src` (a file) into `so`; on failure the compiler's last words go into why. */
static int compile(const char *src, const char *so, char *why, size_t whyn)
{
	char flags[256];
	snprintf(flags, sizeof flags, "%s", arch_flags());
	char *argv[24];
	int argc = 0;
	argv[argc++] = (char *)compiler();
	argv[argc++] = "-std=c11";
	argv[argc++] = "-ffp-contract=off"; /* a*b+c stays two roundings, as the interpreter computes it */
	argv[argc++] = "-fPIC";
	argv[argc++] = "-shared";
	char *save = NULL;
	for (char *t = strtok_r(flags, " ", &save); t && argc < 20; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc++] = "-o";
	argv[argc++] = (char *)so;
	argv[argc++] = (char *)src;
	argv[argc] = NULL;
	char out[2048];
	int rc = run_capture(argv, out, sizeof out);
	if (rc == 0)
		return 0;
	if (rc == 127 || rc < 0)
		snprintf(why, whyn, "no C compiler '%s' (set GPULAB_CC or install gcc)", compiler());
	else
		snprintf(why, whyn, "'%s' could not compile the generated C (exit %d): %.300s", compiler(), rc, out);
	return -1;
}

/* KEY from the source, the compiler and the flags; fails when the compiler does not run. */
static int cache_key(const char *source, char key[65], char *why, size_t whyn)
{
	char *argv[] = {(char *)compiler(), "--version", NULL};
	char ver[1024];
	if (run_capture(argv, ver, sizeof ver) != 0) {
		snprintf(why, whyn, "no C compiler '%s' (set GPULAB_CC or install gcc)", compiler());
		return -1;
	}
	struct gl_sha256 s;
	gl_sha256_init(&s);
	const char *parts[] = {"gpulab-jit-1", GPULAB_VERSION, compiler(), ver, arch_flags(), source};
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		gl_sha256_add(&s, parts[i], strlen(parts[i]) + 1);
	gl_sha256_hex(&s, key);
	return 0;
}

static int open_so(const char *so, struct sim_jit *j, char *why, size_t whyn)
{
	j->handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	if (!j->handle) {
		snprintf(why, whyn, "cannot load %s: %s", so, dlerror());
		return -1;
	}
	j->run = (sim_jit_fn)dlsym(j->handle, "gl_jit_run");
	if (!j->run) {
		snprintf(why, whyn, "%s has no gl_jit_run", so);
		dlclose(j->handle);
		j->handle = NULL;
		return -1;
	}
	return 0;
}

bool sim_jit_cached(const struct ptx_module *m, const struct ptx_function *fn)
{
	char why[512], dir[2200], so[2400], key[65];
	int native = 0;
	if (sim_jit_cache_dir(dir, sizeof dir) != 0)
		return false;
	char *source = sim_jit_source(m, fn, &native, why, sizeof why);
	if (!source)
		return false;
	int rc = cache_key(source, key, why, sizeof why);
	free(source);
	if (rc)
		return false;
	snprintf(so, sizeof so, "%s/%s.so", dir, key);
	return access(so, R_OK) == 0;
}

int sim_jit_load(const struct ptx_module *m, const struct ptx_function *fn, struct sim_jit **out, char *why, size_t whyn)
{
	*out = NULL;
	int native = 0;
	char *source = sim_jit_source(m, fn, &native, why, whyn);
	if (!source)
		return -1;
	struct sim_jit *j = gl_xcalloc(1, sizeof *j);
	j->native = native;
	j->ncode = fn->ncode;
	char dir[2200], so[2400], tmp_c[2400], tmp_so[2400];
	bool cached = sim_jit_cache_dir(dir, sizeof dir) == 0;
	if (!cached) { /* no cache directory: compile into a temporary one, used once */
		snprintf(dir, sizeof dir, "%s/gpulab-jit-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(dir)) {
			snprintf(why, whyn, "no directory to compile in (%s)", strerror(errno));
			goto fail;
		}
	}
	if (cache_key(source, j->key, why, whyn))
		goto fail;
	snprintf(so, sizeof so, "%s/%s.so", dir, j->key);
	if (cached && access(so, R_OK) == 0 && open_so(so, j, why, whyn) == 0)
		goto done;
	snprintf(tmp_c, sizeof tmp_c, "%s/%s.%ld.c", dir, j->key, (long)getpid());
	snprintf(tmp_so, sizeof tmp_so, "%s/%s.%ld.so", dir, j->key, (long)getpid());
	if (write_file(tmp_c, source)) {
		snprintf(why, whyn, "cannot write %s: %s", tmp_c, strerror(errno));
		goto fail;
	}
	double t0 = gl_now();
	int rc = compile(tmp_c, tmp_so, why, whyn);
	j->compile_seconds = gl_now() - t0;
	if (rc) {
		unlink(tmp_c);
		goto fail;
	}
	char src_path[2400];
	snprintf(src_path, sizeof src_path, "%s/%s.c", dir, j->key); /* kept beside the object, for reading */
	if (rename(tmp_c, src_path) != 0)
		unlink(tmp_c);
	if (rename(tmp_so, so) != 0) {
		unlink(tmp_so);
		snprintf(why, whyn, "cannot store %s: %s", so, strerror(errno));
		goto fail;
	}
	if (open_so(so, j, why, whyn))
		goto fail;
	if (!cached) { /* the object stays mapped after its files are gone */
		unlink(so);
		unlink(src_path);
		rmdir(dir);
	}
done:
	free(source);
	*out = j;
	return 0;
fail:
	free(source);
	free(j);
	return -1;
}

void sim_jit_free(struct sim_jit *j)
{
	if (!j)
		return;
	if (j->handle)
		dlclose(j->handle);
	free(j);
}
