/* run_session.c — one run of a topic's variants: pick the backend, run and verify each variant
 * (session/session_variant.c), and store them all in one transaction.  Shared by `gpulab run` and `gpulab compare`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "insights/guidance.h"
#include "session/session.h"
#include "session/session_int.h"

struct session_state {
	const struct gl_backend *backend;
	void *bctx;
	struct gl_device_info dev;
	struct gl_launch_record recs[GL_RUN_MAX_VARIANTS];
	int nrecs;
	char label[160]; /* the progress bar's "topic variant (i/n)" */
};

void gl_run_info_fill(struct gl_run_info *info, const struct gl_backend *b, const struct gl_device_info *dev,
		      const char *argv)
{
	memset(info, 0, sizeof *info);
	snprintf(info->backend, sizeof info->backend, "%s", b->name);
	snprintf(info->device, sizeof info->device, "%s", dev->name);
	snprintf(info->chip, sizeof info->chip, "%s", dev->chip);
	info->sm_count = dev->sm_count;
	snprintf(info->cc, sizeof info->cc, "%d.%d", dev->cc_major, dev->cc_minor);
	snprintf(info->driver, sizeof info->driver, "%s", dev->driver);
	snprintf(info->cupti_version, sizeof info->cupti_version, "%s", dev->cupti_version);
	gethostname(info->host, sizeof info->host - 1);
	info->argv = argv;
	gl_run_info_provenance(info);
}

/* The sweep (set by `gpulab sweep` for the runs it starts) and the Slurm job and array task, from the
 * environment Slurm gives a job step. */
void gl_run_info_provenance(struct gl_run_info *info)
{
	const char *sweep = getenv("GPULAB_SWEEP_ID");
	const char *job = getenv("SLURM_ARRAY_JOB_ID");
	const char *task = getenv("SLURM_ARRAY_TASK_ID");
	if (!job)
		job = getenv("SLURM_JOB_ID");
	snprintf(info->sweep_id, sizeof info->sweep_id, "%s", sweep ? sweep : "");
	snprintf(info->slurm_job_id, sizeof info->slurm_job_id, "%s", job ? job : "");
	snprintf(info->slurm_task_id, sizeof info->slurm_task_id, "%s", task ? task : "");
}

static int run_all(const struct gl_run_env *env, struct gl_run_session *s, struct session_state *st)
{
	for (int i = 0; i < s->nvariants; i++) {
		struct gl_variant_outcome out;
		double start = gl_now();
		/* the backend copied bo at open and reads the label through this pointer at each launch */
		snprintf(st->label, sizeof st->label, "%s %s (%d/%d)", s->topic->name, s->variants[i]->name, i + 1,
			 s->nvariants);
		struct gl_launch_record *rec = &st->recs[st->nrecs];
		int rc = gl_run_variant(st->backend, st->bctx, &st->dev, s->topic, s->variants[i], &s->problem, rec,
					&out, env->err);
		if (rc)
			return rc;
		if (rec->verified == 0) {
			s->failed = true;
			fprintf(stderr, "gpulab: %s %s failed: %s\n", s->topic->name, s->variants[i]->name, rec->note);
		} else if (env->progress && env->announce && !env->finished) {
			/* on a terminal, each variant's outcome as soon as it is known; the table follows */
			fprintf(stderr, "gpulab: %s  %s  %.1fs\n", st->label, rec->verified > 0 ? "verified" : "ran",
				gl_now() - start);
		}
		st->nrecs++;
		if (env->finished)
			env->finished(env->user, rec);
	}
	return GL_OK;
}

int gl_run_session_execute(const struct gl_run_env *env, const char *backend, struct gl_backend_opts *bo,
			   struct gl_run_session *s, struct gl_store **store)
{
	struct session_state st = {0};
	char why[512];
	int rc = gl_backend_select(backend, &st.backend, why, sizeof why, env->err);
	if (rc)
		return rc;
	/* once per process, and only when gpulab chose: an explicit --backend needs no announcement */
	static bool announced;
	bool chosen = !backend || strcmp(backend, "auto") == 0;
	if (env->announce && chosen && !announced) {
		fprintf(stderr, "gpulab: %s\n", why);
		announced = true;
	}
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
	if (rc == GL_OK)
		rc = run_all(env, s, &st);
	if (rc == GL_OK) { /* the guidance is for the GPU that ran it, or the default model on the simulator */
		const struct gl_gpu_model *g = gl_gpu_model_for_device(st.dev.name);
		for (int i = 0; i < st.nrecs; i++)
			gl_guidance_apply(g ? g : gl_gpu_model_default(), &st.recs[i]);
	}
	if (rc == GL_OK) {
		struct gl_run_info info;
		gl_run_info_fill(&info, st.backend, &st.dev, env->argv);
		rc = gl_store_save_run(*store, &info, st.recs, (size_t)st.nrecs, s->failed ? "failed" : "ok",
				       &s->run_id, NULL, env->err);
	}
	if (st.bctx)
		st.backend->close(st.bctx);
	for (int i = 0; i < st.nrecs; i++)
		gl_launch_record_free(&st.recs[i]);
	if (rc) {
		gl_store_close(*store);
		*store = NULL;
	}
	return rc;
}
