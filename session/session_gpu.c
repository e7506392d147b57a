/* insights_cli.c — the GPU model a command reasons about, and a variant's occupancy input. */
#include "insights_cli.h"

#include <string.h>

#include "profiler/backend.h"

int gl_cli_gpu(struct gl_ctx *ctx, const char *flag, const struct gl_gpu_model **out)
{
	if (flag)
		return gl_gpu_model_lookup(flag, out, &ctx->err);
	*out = gl_gpu_model_default();
	char why[512];
	if (!gl_backend_cuda.probe(why, sizeof why))
		return GL_OK;
	struct gl_backend_opts bo = {0};
	struct gl_device_info dev = {0};
	struct gl_err quiet = {0}; /* a GPU that cannot be described leaves the default */
	void *bctx = NULL;
	if (gl_backend_cuda.open(&bo, &bctx, &quiet) == GL_OK && gl_backend_cuda.describe(bctx, &dev, &quiet) == GL_OK) {
		const struct gl_gpu_model *g = gl_gpu_model_for_device(dev.name);
		if (g)
			*out = g;
	}
	if (bctx)
		gl_backend_cuda.close(bctx);
	return GL_OK;
}

int gl_cli_variant_occ_input(const struct gl_topic *t, const struct gl_variant *v, const struct gl_gpu_model *g,
			     struct gl_occ_input *in, struct gl_err *err)
{
	struct gl_problem p;
	struct gl_launch l;
	memset(&l, 0, sizeof l);
	gl_problem_defaults(t, &p);
	int rc = t->setup(v, &p, &l, err);
	if (rc == GL_OK) {
		struct gl_resources res;
		gl_topic_resources(t, v->entry, g->arch, &res);
		in->threads_per_block = (int)(l.block[0] * l.block[1] * l.block[2]);
		in->dyn_smem = (int)l.dyn_smem;
		in->regs_per_thread = res.regs > 0 ? res.regs : 0;
		in->static_smem = res.static_smem > 0 ? res.static_smem : 0;
	}
	gl_launch_free(&l);
	return rc;
}
