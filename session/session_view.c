/* session_view.c — a view's trace when the database has none: one simulator run with the trace on,
 * computed first and stored (one run, finished like any other) only once the view accepts it. */
#include <stdio.h>
#include <string.h>

#include "session/session_int.h"

int gl_session_compute_trace(const struct gl_session_env *env, const struct gl_topic *t, const struct gl_variant *v,
			     const struct gl_problem *p, struct gl_device_info *dev, struct gl_launch_record *rec)
{
	const struct gl_backend *b = &gl_backend_sim;
	struct gl_backend_opts opts = {.trace = true, .repeat = 1};
	struct gl_variant_outcome out;
	void *bctx = NULL;
	memset(dev, 0, sizeof *dev);
	gl_launch_record_init(rec);
	int rc = b->open(&opts, &bctx, env->err);
	if (rc == GL_OK)
		rc = b->describe(bctx, dev, env->err);
	if (rc == GL_OK)
		rc = gl_session_variant(b, bctx, dev, t, v, p, rec, &out, env->err);
	if (bctx)
		b->close(bctx);
	if (rc == GL_OK && !rec->verified)
		fprintf(stderr, "gpulab: %s %s failed on the simulator: %s\n", t->name, v->name, rec->note);
	return rc;
}

int gl_session_store_trace(const struct gl_session_env *env, struct gl_store *store, const struct gl_device_info *dev,
			   struct gl_launch_record *rec, long *launch_id, long *run_id)
{
	/* a multi-launch variant's view shows its first traced launch, stored right after the total (the
	 * run's transaction gives its rows consecutive ids) */
	int traced = 0;
	for (int k = 0; !rec->ntrace && k < rec->nparts; k++)
		if (rec->parts[k].ntrace) {
			traced = k + 1;
			break;
		}
	struct gl_session *s = gl_session_new(env, gl_backend_sim.name, dev);
	gl_session_set_backend_note(s, "backend sim: a view records its trace on the simulator");
	gl_session_add(s, rec);
	int rc = gl_session_store(s, store, run_id, launch_id);
	gl_session_free(s);
	if (rc == GL_OK)
		*launch_id += traced;
	return rc;
}
