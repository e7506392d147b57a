/* cmd_profile_backend.c — where `gpulab profile` runs the program (--backend): on the GPU, with gpulab's
 * CUPTI injection library named in CUDA_INJECTION64_PATH (profiler/inject.h), or on gpulab's driver
 * library over the simulator; and, there, what a Python program needs (common/python_env.h). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_profile.h"
#include "common/python_env.h"

/* A file of gpulab's beside its binary in a build tree (`build_rel`) or in an installation
 * (`install_rel`, under PREFIX/lib/gpulab): its directory into `out`. */
static bool find_beside(const char *build_rel, const char *install_rel, const char *file, char *out, size_t n)
{
	char exe[PATH_MAX], path[PATH_MAX * 2 + 64];
	ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (k <= 0)
		return false;
	exe[k] = 0;
	*strrchr(exe, '/') = 0;
	const char *rel[] = {build_rel, install_rel};
	for (int i = 0; i < 2; i++) {
		if ((size_t)snprintf(out, n, "%s/%s", exe, rel[i]) >= n)
			continue;
		snprintf(path, sizeof path, "%s/%s", out, file);
		if (access(path, R_OK) == 0)
			return true;
	}
	return false;
}

static int find_inject(struct profile_opts *o, struct gl_err *err)
{
	const char *env = getenv("GPULAB_INJECT_LIB");
	char dir[PATH_MAX - 32];
	if (env && *env)
		snprintf(o->inject, sizeof o->inject, "%s", env);
	else if (find_beside("inject", "../lib/gpulab", "libgpulab_inject.so", dir, sizeof dir))
		snprintf(o->inject, sizeof o->inject, "%s/libgpulab_inject.so", dir);
	else
		return gl_errf(err, GL_EENV, "gpulab's CUPTI injection library (libgpulab_inject.so) is neither in "
			       "inject/ beside the gpulab binary nor in its installation's lib/gpulab: build it with 'make "
			       "build', or set GPULAB_INJECT_LIB");
	char real[PATH_MAX]; /* NVIDIA's driver wants an absolute path */
	if (!realpath(o->inject, real))
		return gl_errf(err, GL_EENV, "the injection library %s cannot be found", o->inject);
	snprintf(o->inject, sizeof o->inject, "%s", real);
	return GL_OK;
}

/* Options only the simulator has: refused on the GPU rather than silently ignored. */
static int sim_only(struct gl_ctx *ctx, const struct profile_opts *o)
{
	const char *opt = o->gpu ? "--gpu" : o->sample_ctas ? "--sample-ctas" : o->trace ? "--trace"
			: o->tools ? "--tool" : o->max_instructions ? "--max-instructions" : NULL;
	if (opt)
		return gl_errf(&ctx->err, GL_EUSAGE, "%s applies to the simulator; with --backend cuda the program runs "
			       "on the GPU (use --backend sim for it)", opt);
	return GL_OK;
}

/* GPU 0 as the run stores it (gpulab profiles device 0). */
static int describe_gpu(struct profile_opts *o, struct gl_err *err)
{
	struct gl_gpus *gpus = gl_xcalloc(1, sizeof *gpus);
	int rc = gl_profiler_gpus(gpus, err);
	if (rc == GL_OK)
		o->device = gpus->dev[0];
	free(gpus);
	return rc;
}

static int prepare_sim(struct gl_ctx *ctx, struct profile_opts *o, char *driver_dir, size_t n)
{
	char stub[PATH_MAX];
	int rc = gl_profile_driver_dir(driver_dir, n, &ctx->err);
	if (rc != GL_OK || !gl_python_program(o->app[0]))
		return rc;
	if (!find_beside("python", "../lib/gpulab/python", "libnvJitLink.so.13", stub, sizeof stub))
		return gl_errf(&ctx->err, GL_EENV, "gpulab's nvJitLink stub for Python programs (libnvJitLink.so.13) is "
			       "neither in python/ beside the gpulab binary nor in lib/gpulab/python: rebuild or reinstall "
			       "gpulab");
	return gl_python_env_apply(stub, &ctx->err);
}

int gl_profile_prepare(struct gl_ctx *ctx, struct profile_opts *o, char *driver_dir, size_t n)
{
	const char *b = o->backend ? o->backend : "auto";
	char why[512];
	if (strcmp(b, "auto") != 0 && strcmp(b, "cuda") != 0 && strcmp(b, "sim") != 0)
		return gl_errf(&ctx->err, GL_EUSAGE, "--backend %s: give auto, cuda or sim", b);
	o->cuda = strcmp(b, "cuda") == 0 || (strcmp(b, "auto") == 0 && !o->gpu && gl_cuda_injectable(why, sizeof why));
	if (!o->cuda)
		return prepare_sim(ctx, o, driver_dir, n);
	if (strcmp(b, "cuda") == 0 && !gl_cuda_injectable(why, sizeof why))
		return gl_errf(&ctx->err, GL_EENV, "--backend cuda needs a GPU and NVIDIA's driver: %s; use --backend sim "
			       "to run the program on gpulab's simulator", why);
	int rc = sim_only(ctx, o);
	if (rc == GL_OK)
		rc = find_inject(o, &ctx->err);
	if (rc == GL_OK)
		rc = describe_gpu(o, &ctx->err);
	return rc;
}
