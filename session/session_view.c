/* view_record.c — a view's trace when the database has none: one simulator run with the trace on,
 * computed first and stored (in one transaction like any `gpulab run`) only once the view accepts it. */
#include <stdio.h>
#include <string.h>

#include "session/session.h"
#include "session/session_int.h"

int gl_run_compute_trace(const struct gl_run_env *env, const struct gl_topic *t, const struct gl_variant *v,
			 const struct gl_problem *p, struct gl_device_info *dev, struct gl_launch_record *rec)
{
	const struct gl_backend *b = &gl_backend_sim;
	struct gl_backend_opts opts = {.trace = true, .repeat = 1};
	struct gl_variant_outcome out;
	void *bctx = NULL;
	memset(dev, 0, sizeof *dev);
	memset(rec, 0, sizeof *rec);
	int rc = b->open(&opts, &bctx, env->err);
	if (rc == GL_OK)
		rc = b->describe(bctx, dev, env->err);
	if (rc == GL_OK)
		rc = gl_run_variant(b, bctx, dev, t, v, p, rec, &out, env->err);
	if (bctx)
		b->close(bctx);
	if (rc == GL_OK && !rec->verified)
		fprintf(stderr, "gpulab: %s %s failed on the simulator: %s\n", t->name, v->name, rec->note);
	return rc;
}

int gl_run_store_trace(const struct gl_run_env *env, struct gl_store *store, const struct gl_device_info *dev,
		       const struct gl_launch_record *rec, long *launch_id, long *run_id)
{
	struct gl_run_info info;
	gl_run_info_fill(&info, &gl_backend_sim, dev, env->argv);
	int rc = gl_store_save_run(store, &info, rec, 1, rec->verified ? "ok" : "failed", run_id, launch_id, env->err);
	/* a multi-launch variant's view shows its first traced launch, stored right after the total (the
	 * run's transaction gives its rows consecutive ids) */
	for (int k = 0; rc == GL_OK && !rec->ntrace && k < rec->nparts; k++)
		if (rec->parts[k].ntrace) {
			*launch_id += k + 1;
			break;
		}
	return rc;
}
