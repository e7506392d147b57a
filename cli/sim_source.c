/* sim_source.c — `gpulab sim`'s input: a .ptx file as is or a .cu compiled by nvcc to PTX (the kernel
 * named on the command line is found in sim_names.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"
#include "sim_cmd.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int read_file(const char *path, char **text, struct gl_err *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return gl_errf(err, GL_EUSAGE, "cannot read '%s': %s", path, strerror(errno));
	struct gl_str s = {0};
	char buf[65536];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0)
		gl_str_addf(&s, "%.*s", (int)got, buf);
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		gl_str_free(&s);
		return gl_errf(err, GL_EUSAGE, "error reading '%s'", path);
	}
	if (s.buf && strlen(s.buf) != s.len) {
		gl_str_free(&s);
		return gl_errf(err, GL_EUSAGE, "'%s' contains NUL bytes: it is not PTX text", path);
	}
	*text = s.buf ? s.buf : gl_xstrdup("");
	return GL_OK;
}

static bool executable(const char *path)
{
	return path && *path && access(path, X_OK) == 0;
}

/* $GPULAB_NVCC, else the nvcc found at build time, else `nvcc` on PATH (execvp searches it). */
static const char *nvcc_path(void)
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

static int run_nvcc(const char *nvcc, const char *src, const char *out, struct gl_err *err)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return gl_errf(err, GL_EENV, "cannot start nvcc: %s", strerror(errno));
	if (pid == 0) {
		/* nvcc's diagnostics belong on stderr, whatever gpulab's stdout is (JSON, a pipe) */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execlp(nvcc, nvcc, "-ptx", "-arch=sm_80", "-O3", "-lineinfo", src, "-o", out, (char *)NULL);
		fprintf(stderr, "gpulab: cannot run '%s': %s\n", nvcc, strerror(errno));
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return gl_errf(err, GL_EENV, "waiting for nvcc: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return gl_errf(err, GL_EENV, "nvcc not found (tried '%s'): install the CUDA toolkit, put nvcc on "
			       "PATH or set GPULAB_NVCC, or pass a .ptx file", nvcc);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return gl_errf(err, GL_EUSAGE, "nvcc could not compile '%s' (its messages are above)", src);
	return GL_OK;
}

static int compile_cu(const char *path, char **text, struct gl_err *err)
{
	if (access(path, R_OK) != 0)
		return gl_errf(err, GL_EUSAGE, "cannot read '%s': %s", path, strerror(errno));
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/gpulab-sim-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return gl_errf(err, GL_EENV, "cannot make a temporary directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
			       strerror(errno));
	char out[4200];
	snprintf(out, sizeof out, "%s/kernel.ptx", dir);
	int rc = run_nvcc(nvcc_path(), path, out, err);
	if (rc == GL_OK)
		rc = read_file(out, text, err);
	unlink(out);
	rmdir(dir);
	return rc;
}

int gl_simsrc_load(const char *path, char **text, struct gl_err *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return gl_errf(err, GL_EUSAGE, "cannot read '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return gl_errf(err, GL_EUSAGE, "'%s' is a directory; give a .cu or .ptx file", path);
	if (ends_with(path, ".cu"))
		return compile_cu(path, text, err);
	if (ends_with(path, ".ptx"))
		return read_file(path, text, err);
	return gl_errf(err, GL_EUSAGE, "'%s': SOURCE must be a .cu file (compiled with nvcc) or a .ptx file", path);
}
