/* session_gpu.c — which GPU model a run is judged on (guidance, occupancy, the estimate): the model of the
 * device that ran it, else the default (the simulator's runs); and for a command that reasons about a
 * variant without a run, --gpu, else the GPU present, else the default.  A variant's occupancy input. */
#include <string.h>

#include "session/session.h"

const struct gl_gpu_model *gl_session_gpu_of(const char *device)
{
	const struct gl_gpu_model *g = gl_gpu_model_for_device(device);
	return g ? g : gl_gpu_model_default();
}

int gl_session_gpu(const char *flag, const struct gl_gpu_model **out, struct gl_err *err)
{
	if (flag)
		return gl_gpu_model_lookup(flag, out, err);
	*out = gl_gpu_model_default();
	char why[512];
	if (!gl_backend_cuda.probe(why, sizeof why))
		return GL_OK;
	struct gl_backend_opts bo = {0};
	struct gl_device_info dev = {0};
	struct gl_err quiet = {0}; /* a GPU that cannot be described leaves the default */
	void *bctx = NULL;
	if (gl_backend_cuda.open(&bo, &bctx, &quiet) == GL_OK &&
	    gl_backend_cuda.describe(bctx, &dev, &quiet) == GL_OK) {
		const struct gl_gpu_model *g = gl_gpu_model_for_device(dev.name);
		if (g)
			*out = g;
	}
	if (bctx)
		gl_backend_cuda.close(bctx);
	return GL_OK;
}

int gl_session_variant_occ_input(const struct gl_topic *t, const struct gl_variant *v, const struct gl_gpu_model *g,
                                 struct gl_occ_input *in, struct gl_err *err)
{
	struct gl_problem p;
	struct gl_geometry geo;
	gl_problem_defaults(t, &p);
	int rc = gl_topic_geometry(t, v, &p, &geo, err);
	if (rc == GL_OK) {
		const struct gl_geometry_launch *l = &geo.launch[0];
		struct gl_resources res;
		gl_topic_resources(t, v->entry, g->arch, &res);
		in->threads_per_block = (int)(l->block[0] * l->block[1] * l->block[2]);
		in->dyn_smem = (int)l->dyn_smem;
		in->regs_per_thread = res.regs > 0 ? res.regs : 0;
		in->static_smem = res.static_smem > 0 ? res.static_smem : 0;
	}
	return rc;
}
