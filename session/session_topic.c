/* session_topic.c — one run of a topic's variants: pick the backend, run and verify each variant
 * (session_variant.c) into one session, and store it.  Shared by `gpulab run` and `gpulab compare`. */
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "session/session_int.h"

struct topic_state {
	const struct gl_backend *backend;
	void *bctx;
	struct gl_device_info dev;
	struct gl_session *session;
	char label[160]; /* the progress bar's "topic variant (i/n)" */
};

static int run_all(const struct gl_session_env *env, struct gl_topic_run *r, struct topic_state *st)
{
	for (int i = 0; i < r->nvariants; i++) {
		const struct gl_launch_record *rec;
		double start = gl_now();
		/* the backend copied bo at open and reads the label through this pointer at each launch */
		snprintf(st->label, sizeof st->label, "%s %s (%d/%d)", r->topic->name, r->variants[i]->name, i + 1,
			 r->nvariants);
		int rc = gl_session_run_variant(st->session, st->backend, st->bctx, r->topic, r->variants[i], &r->problem,
						&rec);
		if (rc)
			return rc;
		if (rec->verified == 0) {
			r->failed = true;
			fprintf(stderr, "gpulab: %s %s failed: %s\n", r->topic->name, r->variants[i]->name, rec->note);
		} else if (env->progress && env->announce && !env->finished) {
			/* on a terminal, each variant's outcome as soon as it is known; the table follows */
			fprintf(stderr, "gpulab: %s  %s  %.1fs\n", st->label, rec->verified > 0 ? "verified" : "ran",
				gl_now() - start);
		}
		if (env->finished)
			env->finished(env->user, rec);
	}
	return GL_OK;
}

/* The backend `backend` names, and why (`why`): offered to the command once per process, and only when
 * gpulab chose (an explicit --backend needs no announcement); the command decides whether to say it, and
 * the run stores it either way. */
static int pick(const struct gl_session_env *env, const char *backend, const struct gl_backend **out,
		char *why, size_t n)
{
	static bool announced;
	int rc = gl_backend_select(backend, out, why, n, env->err);
	bool chosen = !backend || strcmp(backend, "auto") == 0;
	if (rc == GL_OK && env->note_backend && chosen && !announced) {
		env->note_backend(env->note_user, why);
		announced = true;
	}
	return rc;
}

int gl_session_run_topic(const struct gl_session_env *env, const char *backend, struct gl_backend_opts *bo,
			 struct gl_topic_run *r, struct gl_store **store)
{
	struct topic_state st = {0};
	char why[512];
	int rc = pick(env, backend, &st.backend, why, sizeof why);
	if (rc)
		return rc;
	if (bo->cta_end && strcmp(st.backend->name, "sim") != 0)
		return gl_errf(env->err, GL_EUSAGE, "--cta-range simulates part of a grid: it needs --backend sim, "
			       "not %s", st.backend->name);
	/* the database is opened (and created) only once the request is known to be valid */
	*store = NULL;
	if ((rc = gl_store_open(env->db_path, 0, store, env->err)))
		return rc;
	bo->progress = env->progress;
	bo->progress_label = st.label;
	rc = st.backend->open(bo, &st.bctx, env->err);
	if (rc == GL_OK)
		rc = st.backend->describe(st.bctx, &st.dev, env->err);
	if (rc == GL_OK && env->started)
		env->started(env->user, st.backend->name, &st.dev);
	if (rc == GL_OK) {
		st.session = gl_session_new(env, st.backend->name, &st.dev);
		gl_session_set_backend_note(st.session, why);
		rc = run_all(env, r, &st);
	}
	if (rc == GL_OK) /* the guidance is for the GPU that ran it, or the default model on the simulator */
		rc = gl_session_store(st.session, *store, &r->run_id, NULL);
	if (st.bctx)
		st.backend->close(st.bctx);
	gl_session_free(st.session);
	if (rc) {
		gl_store_close(*store);
		*store = NULL;
	}
	return rc;
}
