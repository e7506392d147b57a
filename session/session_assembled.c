/* session_assembled.c — the outputs of a launch assembled from CTA-range shards, checked against the
 * topic's CPU reference: the launch is made again as its shards made it (gl_topic_rebuild: the same
 * parameters and seed), the shards' joined writes are laid over its buffers, and the topic's verify runs
 * on them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/session_int.h"

static int lay_outputs(struct gl_launch *l, const struct gl_launch_record *rec)
{
	for (int k = 0; k < rec->noutputs; k++) {
		const struct gl_output_bytes *o = &rec->outputs[k];
		int found = 0;
		for (int i = 0; i < l->nbuffers && !found; i++) {
			size_t n = l->buffers[i].count * gl_dtype_size(l->buffers[i].dtype);
			if (strcmp(l->buffers[i].name, o->name) != 0)
				continue;
			if (n != o->bytes || gl_outputs_apply(l->buffers[i].host, n, o->segs, o->nsegs_bytes))
				return -1;
			found = 1;
		}
		if (!found)
			return -1;
	}
	return 0;
}

int gl_session_verify_assembled(struct gl_store *s, long launch_id, int *verdict, struct gl_err *err)
{
	struct gl_launch_record rec;
	struct gl_launch l;
	struct gl_verify ver = {0};
	*verdict = -1;
	int rc = gl_store_load_outputs(s, launch_id, &rec, err);
	const struct gl_topic *t = rc == GL_OK ? gl_topic_find(rec.topic) : NULL;
	const struct gl_variant *v = t ? gl_variant_find(t, rec.variant) : NULL;
	if (!v) { /* not one of this binary's topics (a `gpulab sim` kernel): nothing to check against */
		gl_launch_record_free(&rec);
		return rc;
	}
	struct gl_problem p;
	memset(&l, 0, sizeof l);
	if (gl_problem_from_json(t, rec.params_json, &p)) { /* not a problem this binary can make again */
		gl_launch_record_free(&rec);
		return GL_OK;
	}
	rc = gl_topic_rebuild(t, v, rec.params_json, &l, err);
	/* a multi-launch variant's buffers change between its launches: only the whole sequence is checked */
	if (rc == GL_OK && gl_launch_count(&l) == 1 && lay_outputs(&l, &rec) == 0) {
		rc = t->verify(v, &p, &l, t, &ver, err);
		if (rc == GL_OK) {
			*verdict = ver.ok;
			rc = gl_store_set_verified(s, launch_id, ver.ok, ver.max_abs_err, ver.max_rel_err,
						   ver.ok ? "outputs verified (joined from the shards' CTA-disjoint writes)"
							  : "outputs FAILED verification (joined from the shards' writes)",
						   err);
		}
	}
	gl_launch_free(&l);
	gl_launch_record_free(&rec);
	return rc;
}

int gl_session_finish_assembled(struct gl_store *s, const struct gl_assembly *a, struct gl_err *err)
{
	int rc = GL_OK;
	for (int i = 0; i < a->nwhole && rc == GL_OK; i++) {
		struct gl_run_record r;
		if ((rc = gl_store_load_run(s, a->runs[i], &r, err)) != GL_OK)
			break;
		if (r.nlaunches) { /* an assembled run holds its one whole launch */
			gl_session_finish_launch(&r.launches[0], gl_session_gpu_of(r.info.device));
			rc = gl_store_set_guidance(s, a->launches[i], &r.launches[0], err);
		}
		gl_run_record_free(&r);
	}
	return rc;
}
