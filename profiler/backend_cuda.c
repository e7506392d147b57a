/* backend_cuda.c — the cuda backend: driver API launch + CUPTI metrics (being written). */
#include <stdio.h>

#include "profiler/backend.h"

static bool cuda_probe(char *why, size_t n)
{
	snprintf(why, n, "the cuda backend is not built yet");
	return false;
}

static int cuda_open(const struct gl_backend_opts *opts, void **ctx, struct gl_err *err)
{
	(void)opts;
	*ctx = NULL;
	return gl_errf(err, GL_EENV, "the cuda backend is not available in this build");
}

static int cuda_describe(void *ctx, struct gl_device_info *info, struct gl_err *err)
{
	(void)ctx;
	(void)info;
	return gl_errf(err, GL_EENV, "the cuda backend is not available in this build");
}

static int cuda_launch(void *ctx, struct gl_launch *l, struct gl_err *err)
{
	(void)ctx;
	(void)l;
	return gl_errf(err, GL_EENV, "the cuda backend is not available in this build");
}

static int cuda_collect(void *ctx, struct gl_launch_result *res, struct gl_err *err)
{
	(void)ctx;
	(void)res;
	return gl_errf(err, GL_EENV, "the cuda backend is not available in this build");
}

static void cuda_close(void *ctx) { (void)ctx; }

const struct gl_backend gl_backend_cuda = {
	.name = "cuda",
	.probe = cuda_probe,
	.open = cuda_open,
	.describe = cuda_describe,
	.launch = cuda_launch,
	.collect = cuda_collect,
	.close = cuda_close,
};
