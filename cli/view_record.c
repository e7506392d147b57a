/* view_record.c — a view's trace when the database has none: one simulator run with the trace on,
 * computed first and stored (in one transaction like any `gpulab run`) only once the view accepts it. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "profiler/backend.h"
#include "runner.h"
#include "view_cmd.h"

static void sim_run_info(struct gl_run_info *info, const struct gl_device_info *dev, const char *argv)
{
	memset(info, 0, sizeof *info);
	snprintf(info->backend, sizeof info->backend, "%s", gl_backend_sim.name);
	snprintf(info->device, sizeof info->device, "%s", dev->name);
	snprintf(info->chip, sizeof info->chip, "%s", dev->chip);
	info->sm_count = dev->sm_count;
	snprintf(info->cc, sizeof info->cc, "%d.%d", dev->cc_major, dev->cc_minor);
	gethostname(info->host, sizeof info->host - 1);
	info->argv = argv;
}

int gl_view_store(struct gl_ctx *ctx, struct gl_store *store, const struct gl_device_info *dev,
                  const struct gl_launch_record *rec, long *launch_id, long *run_id)
{
	struct gl_run_info info;
	sim_run_info(&info, dev, ctx->argv_joined);
	return gl_store_save_run(store, &info, rec, 1, rec->verified ? "ok" : "failed", run_id, launch_id,
				 &ctx->err);
}

int gl_view_compute(struct gl_ctx *ctx, const struct gl_topic *t, const struct gl_variant *v,
                    const struct gl_problem *p, struct gl_device_info *dev, struct gl_launch_record *rec)
{
	const struct gl_backend *b = &gl_backend_sim;
	struct gl_backend_opts opts = {.trace = true, .repeat = 1};
	struct gl_variant_outcome out;
	void *bctx = NULL;
	memset(dev, 0, sizeof *dev);
	memset(rec, 0, sizeof *rec);
	int rc = b->open(&opts, &bctx, &ctx->err);
	if (rc == GL_OK)
		rc = b->describe(bctx, dev, &ctx->err);
	if (rc == GL_OK)
		rc = gl_run_variant(b, bctx, dev, t, v, p, "sim", rec, &out, &ctx->err);
	if (bctx)
		b->close(bctx);
	if (rc == GL_OK && !rec->verified)
		fprintf(stderr, "gpulab: %s %s failed on the simulator: %s\n", t->name, v->name, rec->note);
	return rc;
}
