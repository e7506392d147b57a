/* test_profiler_inject_load.c — the injection library as NVIDIA's driver loads it, here under gpulab's
 * own driver library (libcuda.so.1 first on LD_LIBRARY_PATH): it dlopens with every symbol resolved (RTLD_NOW),
 * exports InitializeInjection and nothing else of gpulab's, and InitializeInjection returns success
 * while saying on stderr why nothing is profiled: gpulab's library is not NVIDIA's driver, a process the
 * profiled program started is not the one gpulab profiles, an option is malformed.  Skips (77) when
 * the library or CUPTI is not there. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "profiler/inject.h"

typedef int (*init_fn)(void);

/* Call InitializeInjection with stderr captured into `out`. */
static int call_captured(init_fn init, char *out, size_t n)
{
	char path[] = "/tmp/gl_inject_XXXXXX";
	int fd = mkstemp(path);
	int saved = dup(2);
	fflush(stderr);
	dup2(fd, 2);
	int rc = init();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ssize_t got = pread(fd, out, n - 1, 0);
	out[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(path);
	fprintf(stderr, "InitializeInjection said: %s", out);
	return rc;
}

int main(void)
{
	const char *lib = getenv("GPULAB_INJECT_LIB");
	char cupti[4][512], out[4096];
	if (!lib || access(lib, R_OK) != 0) {
		fprintf(stderr, "skip: GPULAB_INJECT_LIB does not name the built injection library\n");
		return 77;
	}
	void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
	if (!driver || !dlsym(driver, "gpulab_driver")) {
		fprintf(stderr, "skip: no gpulab libcuda.so.1 on LD_LIBRARY_PATH\n");
		return 77;
	}
	size_t ncand = gl_cupti_lib_candidates(cupti, 4), have = 0;
	for (size_t i = 0; i < ncand; i++)
		have += access(cupti[i], R_OK) == 0;
	if (!have) {
		fprintf(stderr, "skip: no libcupti.so.13 (%s)\n", cupti[0]);
		return 77;
	}
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	CHECK(h != NULL);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		CHECK_DONE();
	}
	init_fn init = (init_fn)dlsym(h, "InitializeInjection");
	CHECK(init != NULL);
	CHECK(dlsym(h, "gl_inject_on_launch") == NULL && dlsym(h, "gl_errf") == NULL); /* nothing else leaks out */
	unsetenv(GL_INJECT_ENV_ROOT);
	CHECK_EQ(call_captured(init, out, sizeof out), 1);
	CHECK(strstr(out, "gpulab: ") && strstr(out, "gpulab's own driver library") && strstr(out, "not NVIDIA's") &&
	      strstr(out, "runs unprofiled"));
	char pid[32];
	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	CHECK_STR(getenv(GL_INJECT_ENV_ROOT), pid); /* the process that initialised first is the profiled one */

	setenv(GL_INJECT_ENV_ROOT, "1", 1); /* as if the profiled program had started this process */
	CHECK_EQ(call_captured(init, out, sizeof out), 1);
	CHECK(strstr(out, "started by the profiled program (process 1)") && strstr(out, "runs unprofiled"));

	setenv(GL_INJECT_ENV_ROOT, pid, 1);
	setenv(GL_INJECT_ENV_KERNEL, "regex:(add", 1);
	CHECK_EQ(call_captured(init, out, sizeof out), 1);
	CHECK(strstr(out, "regex:(add") && strstr(out, "does not compile"));
	unsetenv(GL_INJECT_ENV_KERNEL);
	CHECK_DONE();
}
