/* sass.c — `gpulab sim`: the sm_80 SASS of the input PTX with PTX line info (ptxas -lineinfo, then
 * nvdisasm -gp), so its memory counts follow what ptxas emits, as the embedded topics' do.  Without
 * ptxas or nvdisasm the counts stay PTX-level and the reason says so. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* "release 13.0" in `ptxas --version`'s output. */
static void ptxas_release(const char *ptxas, const char *dir, char *out, size_t n)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/version.txt", dir);
	char *argv[] = {(char *)ptxas, "--version", NULL};
	snprintf(out, n, "?");
	if (run_tool(argv, path) == 0) {
		char *text = slurp(path);
		const char *r = text ? strstr(text, "release ") : NULL;
		if (r)
			snprintf(out, n, "%.*s", (int)strcspn(r + 8, ", \n"), r + 8);
		free(text);
	}
	unlink(path);
}

static char *disassemble(const char *dir, const char *ptx, char *why, size_t n)
{
	char ptx_path[4200], cubin[4200], sass[4200];
	snprintf(ptx_path, sizeof ptx_path, "%s/kernel.ptx", dir);
	snprintf(cubin, sizeof cubin, "%s/kernel.cubin", dir);
	snprintf(sass, sizeof sass, "%s/kernel.sass", dir);
	FILE *f = fopen(ptx_path, "wb");
	if (!f || fputs(ptx, f) < 0 || fclose(f) != 0) {
		snprintf(why, n, "cannot write a temporary PTX file");
		return NULL;
	}
	const char *ptxas = tool_path("GPULAB_PTXAS", GPULAB_PTXAS, "ptxas");
	const char *nvdisasm = tool_path("GPULAB_NVDISASM", GPULAB_NVDISASM, "nvdisasm");
	char *as[] = {(char *)ptxas, "-arch=sm_80", "-lineinfo", ptx_path, "-o", cubin, NULL};
	char *dis[] = {(char *)nvdisasm, "-gp", "-c", cubin, NULL};
	char *text = NULL;
	int rc = run_tool(as, NULL);
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
		ptxas_release(ptxas, dir, release, sizeof release);
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

char *gl_simsrc_sass(const char *ptx, char *why, size_t n)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/gpulab-sass-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		snprintf(why, n, "cannot make a temporary directory: %s", strerror(errno));
		return NULL;
	}
	char *text = disassemble(dir, ptx, why, n);
	rmdir(dir);
	return text;
}
