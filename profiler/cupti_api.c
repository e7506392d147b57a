/* cupti_api.c — finding and opening libcupti at run time. */
#define _GNU_SOURCE
#include "profiler/cupti_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define GL_CUPTI_SONAME "libcupti.so.13"

size_t gl_cupti_lib_candidates(char paths[][512], size_t max)
{
	size_t n = 0;
	const char *env = getenv("GPULAB_CUPTI_LIB");
	const char *home = getenv("CUDA_HOME");
	if (!home || !*home)
		home = GPULAB_CUDA_HOME;
	if (env && *env && n < max)
		snprintf(paths[n++], 512, "%s", env);
	if (n < max)
		snprintf(paths[n++], 512, "%s/extras/CUPTI/lib64/%s", home, GL_CUPTI_SONAME);
	if (n < max)
		snprintf(paths[n++], 512, "%s/lib64/%s", home, GL_CUPTI_SONAME);
	if (n < max)
		snprintf(paths[n++], 512, "%s", GL_CUPTI_SONAME);
	return n;
}

static const char *resolve_all(struct gl_cupti_api *api)
{
	const char *missing = NULL;
#define GL_CUPTI_RESOLVE(f)                                  \
	api->f = (typeof(&f))dlsym(api->lib, #f);            \
	if (!api->f && !missing)                             \
		missing = #f;
	GL_CUPTI_HOST_FUNCS(GL_CUPTI_RESOLVE)
	GL_CUPTI_TARGET_FUNCS(GL_CUPTI_RESOLVE)
	GL_CUPTI_CALLBACK_FUNCS(GL_CUPTI_RESOLVE)
#undef GL_CUPTI_RESOLVE
	return missing;
}

int gl_cupti_api_load(struct gl_cupti_api *api, struct gl_err *err)
{
	char paths[4][512];
	size_t n = gl_cupti_lib_candidates(paths, GL_ARRAY_LEN(paths));
	struct gl_str tried = {0};
	memset(api, 0, sizeof *api);
	for (size_t i = 0; i < n && !api->lib; i++) {
		api->lib = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE); /* CUPTI keeps threads */
		if (api->lib)
			snprintf(api->path, sizeof api->path, "%s", paths[i]);
		else
			gl_str_addf(&tried, "%s%s", tried.len ? ", " : "", paths[i]);
	}
	if (!api->lib) {
		gl_errf(err, GL_EENV,
			"CUPTI not found (tried %s); install the CUDA 13 toolkit, set CUDA_HOME, or point "
			"GPULAB_CUPTI_LIB at libcupti.so.13",
			tried.buf);
		gl_str_free(&tried);
		return GL_EENV;
	}
	gl_str_free(&tried);
	const char *missing = resolve_all(api);
	if (missing) {
		char where[512];
		snprintf(where, sizeof where, "%s", api->path);
		gl_cupti_api_unload(api);
		return gl_errf(err, GL_EENV, "%s lacks %s: gpulab needs CUPTI from CUDA 13 (the Range Profiler API)",
			       where, missing);
	}
	return GL_OK;
}

void gl_cupti_api_unload(struct gl_cupti_api *api)
{
	if (api->profiler_initialized && api->cuptiProfilerDeInitialize) {
		GL_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params, p);
		api->cuptiProfilerDeInitialize(&p);
	}
	if (api->lib)
		dlclose(api->lib);
	memset(api, 0, sizeof *api);
}

void gl_cupti_version_text(const struct gl_cupti_api *api, char *buf, size_t n)
{
	uint32_t v = 0;
	if (!api->cuptiGetVersion || api->cuptiGetVersion(&v) != CUPTI_SUCCESS) {
		snprintf(buf, n, "unknown");
		return;
	}
	/* CUPTI_API_VERSION 130001 = CUDA 13.0, revision 1 */
	snprintf(buf, n, "%u.%u (API %u)", v / 10000, v / 100 % 100, v);
}
