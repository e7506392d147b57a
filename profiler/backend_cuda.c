/* backend_cuda.c — the cuda backend: the same PTX on a real GPU through the driver API (dlopen'd
 * libcuda.so.1), metrics from CUPTI's Range Profiler, durations from Activity records.  Without
 * CUPTI or without profiling permission it still runs, timings only, and says why in the note. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "profiler/profiler.h"
#include "profiler/cuda_ctx.h"

static bool cuda_probe(char *why, size_t n) { return gl_cuda_probe(why, n); }

static void cuda_close(void *ctx)
{
	struct gl_cuda_ctx *c = ctx;
	if (!c)
		return;
	gl_cuda_profiling_close(c);
	if (c->have_cupti)
		gl_cupti_api_unload(&c->cupti);
	gl_cuda_dev_close(&c->dev);
	gl_metric_list_free(&c->metrics);
	gl_launch_record_free(&c->last);
	gl_cuda_first_free(c);
	free(c);
}

static int cuda_open(const struct gl_backend_opts *opts, void **ctx, struct gl_err *err)
{
	struct gl_cuda_ctx *c = gl_xcalloc(1, sizeof *c);
	*ctx = NULL;
	if (opts)
		c->opts = *opts;
	/* the --metrics spelling is checked before the GPU is touched */
	int rc = gl_metric_list_parse(c->opts.metrics, &c->metrics, err);
	if (rc == GL_OK)
		rc = gl_cuda_dev_open(&c->dev, c->opts.device, err);
	if (rc == GL_OK)
		rc = gl_cuda_describe(&c->dev.api, NULL, c->dev.ordinal, &c->info, err);
	if (rc == GL_OK)
		rc = gl_cuda_profiling_open(c, err);
	if (rc != GL_OK) {
		cuda_close(c);
		return rc;
	}
	*ctx = c;
	return GL_OK;
}

static int cuda_describe(void *ctx, struct gl_device_info *info, struct gl_err *err)
{
	struct gl_cuda_ctx *c = ctx;
	if (!c)
		return gl_errf(err, GL_EINTERNAL, "cuda backend used before open");
	*info = c->info;
	return GL_OK;
}

static int cuda_launch(void *ctx, struct gl_launch *l, struct gl_err *err)
{
	struct gl_cuda_ctx *c = ctx;
	if (!c)
		return gl_errf(err, GL_EINTERNAL, "cuda backend used before open");
	return gl_cuda_measure(c, l, err);
}

static int cuda_collect(void *ctx, struct gl_launch_record *rec, struct gl_err *err)
{
	struct gl_cuda_ctx *c = ctx;
	if (!c || !c->have_last)
		return gl_errf(err, GL_EINTERNAL, "cuda backend: collect without a successful launch");
	*rec = c->last; /* the caller owns it now */
	memset(&c->last, 0, sizeof c->last);
	c->have_last = false;
	return GL_OK;
}

static void cuda_first_outputs(void *ctx, void *out[GL_MAX_BUFFERS])
{
	struct gl_cuda_ctx *c = ctx;
	memcpy(out, c->first, sizeof c->first); /* moved: the caller frees them */
	memset(c->first, 0, sizeof c->first);
}

const struct gl_backend gl_backend_cuda = {
	.name = "cuda",
	.metric_source = "cupti",
	.probe = cuda_probe,
	.open = cuda_open,
	.describe = cuda_describe,
	.launch = cuda_launch,
	.collect = cuda_collect,
	.first_outputs = cuda_first_outputs,
	.close = cuda_close,
};
