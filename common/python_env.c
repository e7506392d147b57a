/* python_env.c — the environment of a Python program on gpulab's driver library. */
#include "common/python_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GL_NVJITLINK_STUB "libnvJitLink.so.13"
/* numba-cuda's and cuda.core's RuntimeWarning when nvJitLink is "too old": the stub's purpose */
#define GL_NVJITLINK_WARNING "ignore:libnvJitLink:RuntimeWarning"

bool gl_python_program(const char *app)
{
	if (!app)
		return false;
	const char *base = strrchr(app, '/');
	base = base ? base + 1 : app;
	return strncmp(base, "python", 6) == 0;
}

/* VAR=value, or VAR=old<sep>value when VAR is set and does not hold value yet. */
static void add_to(const char *var, const char *value, const char *sep)
{
	const char *old = getenv(var);
	if (!old || !*old) {
		setenv(var, value, 1);
		return;
	}
	if (strstr(old, value))
		return;
	size_t n = strlen(old) + strlen(sep) + strlen(value) + 1;
	char *both = malloc(n);
	if (!both)
		return;
	snprintf(both, n, "%s%s%s", value, sep, old); /* ours first: a preloaded soname wins */
	setenv(var, both, 1);
	free(both);
}

int gl_python_env_apply(const char *stub_dir, struct gl_err *err)
{
	char stub[4096];
	snprintf(stub, sizeof stub, "%s/%s", stub_dir, GL_NVJITLINK_STUB);
	if (access(stub, R_OK) != 0)
		return gl_errf(err, GL_EENV, "%s is missing: gpulab's nvJitLink stub for Python programs (built with "
			       "gpulab, installed in lib/gpulab/python); rebuild or reinstall gpulab", stub);
	add_to("LD_PRELOAD", stub, ":");
	add_to("PYTHONWARNINGS", GL_NVJITLINK_WARNING, ",");
	setenv("CUPY_COMPILE_WITH_PTX", "1", 0);
	setenv("CUPY_ACCELERATORS", "", 0);
	setenv("CUPY_CACHE_IN_MEMORY", "1", 0);
	return GL_OK;
}
