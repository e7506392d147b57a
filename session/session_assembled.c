/* run_assembled.c — the outputs of a launch assembled from CTA-range shards, checked against the topic's
 * CPU reference: the launch is set up again as its shards were (same parameters, the default seed), the
 * shards' joined writes are laid over its buffers, and the topic's verify runs on them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"

/* The topic's parameters from the stored {"rows":1024,"layout":"nhwc"} (gl_problem_json: numbers, and
 * choices by name); -1 when one is missing or unknown, so the launch is not rebuilt differently. */
static int problem_of(const struct gl_topic *t, const char *json, struct gl_problem *p)
{
	gl_problem_defaults(t, p);
	for (int i = 0; i < t->nparams; i++) {
		char key[48], name[48];
		snprintf(key, sizeof key, "\"%s\":", t->params[i].name);
		const char *at = strstr(json, key);
		if (!at)
			return -1;
		at += strlen(key);
		if (*at != '"') {
			p->v[i] = strtol(at, NULL, 10);
			continue;
		}
		snprintf(name, sizeof name, "%.*s", (int)strcspn(at + 1, "\""), at + 1);
		if (!t->params[i].choices || (p->v[i] = gl_param_choice(&t->params[i], name)) < 0)
			return -1;
	}
	return 0;
}

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
	if (problem_of(t, rec.params_json, &p)) {
		gl_launch_record_free(&rec);
		return GL_OK;
	}
	l.module = t->ptx;
	l.module_name = t->name;
	rc = t->setup(v, &p, &l, err);
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
