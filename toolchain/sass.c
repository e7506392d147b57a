/* sass.c — `gpulab sim`: the sm_80 SASS of the input PTX with PTX line info (ptxas -lineinfo, then
 * nvdisasm -gp), so its memory counts follow what ptxas emits, as the embedded topics' do.  Without
 * ptxas or nvdisasm the counts stay PTX-level and the reason says so.  The text is cached by the PTX and
 * the tools' versions (sass_cache.c), so the tools run once per PTX. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/sha256.h"
#include "common/safe_dir.h"
#include "common/util.h"
#include "sim/sim.h"
#include "toolchain/toolchain.h"

/* $ENV, else the path found at build time when it is executable, else the bare name (PATH). */
static const char *tool_path(const char *env, const char *built, const char *name)
{
	const char *e = getenv(env);
	if (e && *e)
		return e;
	if (built && *built && access(built, X_OK) == 0)
		return built;
	return name;
}

/* Run argv with stdout to `out` (NULL: /dev/null) and stderr to /dev/null; the exit status, 127 when
 * the program could not be started, -1 when it did not exit normally. */
static int run_tool(char *const argv[], const char *out)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		int fd = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600) : null;
		if (fd < 0 || null < 0)
			_exit(126);
		dup2(fd, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *slurp(const char *path)
{
	char *text;
	return gl_read_file(path, &text, NULL) ? NULL : text;
}

/* A tool's `--version` output (NULL when it cannot be run), through a file in `dir`. */
static char *tool_version(const char *tool, const char *dir)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/version.txt", dir);
	char *argv[] = {(char *)tool, "--version", NULL};
	char *text = run_tool(argv, path) == 0 ? slurp(path) : NULL;
	unlink(path);
	return text;
}

/* "release 13.0" in `ptxas --version`'s output. */
static void ptxas_release(const char *version, char *out, size_t n)
{
	const char *r = version ? strstr(version, "release ") : NULL;
	snprintf(out, n, "?");
	if (r)
		snprintf(out, n, "%.*s", (int)strcspn(r + 8, ", \n"), r + 8);
}

static char *disassemble(const char *dir, const char *ptx, const char *ptxas, const char *nvdisasm,
			 const char *ptxas_version, char *why, size_t n)
{
	char ptx_path[4200], cubin[4200], sass[4200];
	snprintf(ptx_path, sizeof ptx_path, "%s/kernel.ptx", dir);
	snprintf(cubin, sizeof cubin, "%s/kernel.cubin", dir);
	snprintf(sass, sizeof sass, "%s/kernel.sass", dir);
	struct gl_safe_dir d;
	struct gl_err err = {0};
	int rc = gl_safe_dir_open(&d, dir, 0, "the temporary directory", &err);
	if (rc == GL_OK)
		rc = gl_safe_dir_write(&d, "kernel.ptx", ptx, strlen(ptx), &err);
	gl_safe_dir_close(&d);
	if (rc != GL_OK) {
		snprintf(why, n, "cannot write a temporary PTX file");
		return NULL;
	}
	char *as[] = {(char *)ptxas, "-arch=sm_80", "-lineinfo", ptx_path, "-o", cubin, NULL};
	char *dis[] = {(char *)nvdisasm, "-gp", "-c", cubin, NULL};
	char *text = NULL;
	rc = run_tool(as, NULL);
	if (rc == 127)
		snprintf(why, n, "ptxas not found");
	else if (rc != 0)
		snprintf(why, n, "ptxas could not compile the PTX for sm_80");
	else if ((rc = run_tool(dis, sass)) == 127)
		snprintf(why, n, "nvdisasm not found; make deps installs it");
	else if (rc != 0)
		snprintf(why, n, "nvdisasm failed");
	else if ((text = slurp(sass)) != NULL) {
		char release[32];
		ptxas_release(ptxas_version, release, sizeof release);
		struct gl_str s = {0};
		gl_str_addf(&s, "%sptxas %s sm_80\n%s", SASS_HEADER, release, text);
		free(text);
		text = s.buf;
	}
	unlink(ptx_path);
	unlink(cubin);
	unlink(sass);
	return text;
}

/* The cache key of the SASS of `ptx` (sass_cache.c): the PTX, both tools with their versions, the
 * target and the flags. */
static void sass_key(const char *ptx, const char *ptxas, const char *ptxas_version, const char *nvdisasm,
		     const char *nvdisasm_version, char key[65])
{
	const char *parts[] = {"gpulab sass cache 1", ptxas, ptxas_version, nvdisasm, nvdisasm_version,
			       "-arch=sm_80 -lineinfo", "-gp -c", SASS_HEADER};
	struct gl_sha256 h;
	gl_sha256_init(&h);
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		gl_sha256_add(&h, parts[i], strlen(parts[i]) + 1);
	gl_sha256_add(&h, ptx, strlen(ptx));
	gl_sha256_hex(&h, key);
}

static char *sass_in(const char *dir, const char *ptx, const struct gl_nvcc_opts *nv, char *why, size_t n)
{
	const char *ptxas = tool_path("GPULAB_PTXAS", GPULAB_PTXAS, "ptxas");
	const char *nvdisasm = tool_path("GPULAB_NVDISASM", GPULAB_NVDISASM, "nvdisasm");
	bool verbose = nv && nv->verbose, use_cache = !(nv && nv->no_cache);
	char *pv = tool_version(ptxas, dir), *dv = pv ? tool_version(nvdisasm, dir) : NULL;
	char key[65] = "";
	char *text = NULL;
	if (pv && dv && use_cache) { /* without both tools there is nothing to cache: disassemble says why */
		sass_key(ptx, ptxas, pv, nvdisasm, dv, key);
		text = gl_sasscache_load(key, verbose);
	}
	if (!text) {
		text = disassemble(dir, ptx, ptxas, nvdisasm, pv, why, n);
		if (text && key[0])
			gl_sasscache_store(key, text, verbose);
	}
	free(pv);
	free(dv);
	return text;
}

char *gl_simsrc_sass(const char *ptx, const struct gl_nvcc_opts *nv, char *why, size_t n)
{
	struct gl_safe_dir tmp; /* ptxas and nvdisasm write here: a private directory (common/safe_dir.h) */
	struct gl_err err = {0};
	if (gl_safe_dir_temp(&tmp, "gpulab-sass", &err) != GL_OK) {
		snprintf(why, n, "%.200s", err.msg);
		return NULL;
	}
	char *text = sass_in(tmp.path, ptx, nv, why, n);
	gl_safe_dir_remove_temp(&tmp);
	return text;
}
