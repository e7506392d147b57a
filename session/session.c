/* session.c — a run's launches gathered, finished the same way whoever made them, and stored as one run:
 * the only caller of the store's save (session.h says what finishing means). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "insights/guidance.h"
#include "session/session_int.h"

struct gl_session {
	struct gl_session_env env;
	char backend[16];
	char backend_note[256];
	struct gl_device_info dev;
	struct gl_launch_record *recs;
	size_t n, cap;
};

struct gl_session *gl_session_new(const struct gl_session_env *env, const char *backend,
				  const struct gl_device_info *dev)
{
	struct gl_session *s = gl_xcalloc(1, sizeof *s);
	s->env = *env;
	snprintf(s->backend, sizeof s->backend, "%s", backend);
	s->dev = *dev;
	return s;
}

void gl_session_set_backend_note(struct gl_session *s, const char *why)
{
	snprintf(s->backend_note, sizeof s->backend_note, "%.*s", (int)sizeof s->backend_note - 1, why);
}

void gl_session_add(struct gl_session *s, struct gl_launch_record *rec)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->recs = gl_xrealloc(s->recs, s->cap * sizeof *s->recs);
	}
	s->recs[s->n++] = *rec;
	gl_launch_record_init(rec);
}

int gl_session_run_variant(struct gl_session *s, const struct gl_backend *b, void *bctx, const struct gl_topic *t,
			   const struct gl_variant *v, const struct gl_problem *p, const struct gl_launch_record **rec)
{
	struct gl_launch_record made;
	struct gl_variant_outcome out;
	int rc = gl_session_variant(b, bctx, &s->dev, t, v, p, &made, &out, s->env.err);
	if (rc != GL_OK)
		return rc;
	gl_session_add(s, &made);
	if (rec)
		*rec = &s->recs[s->n - 1];
	return GL_OK;
}

/* Whether a launch failed verification: the run's status is "failed" then. */
static bool failed(const struct gl_session *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->recs[i].verified == 0)
			return true;
	return false;
}

void gl_session_sim_device(int threads, struct gl_device_info *dev)
{
	memset(dev, 0, sizeof *dev);
	snprintf(dev->name, sizeof dev->name, "gpulab PTX simulator (%d CPU thread%s)", threads, threads == 1 ? "" : "s");
	dev->cc_major = 8;
	dev->cc_minor = 0;
	snprintf(dev->arch, sizeof dev->arch, "sm_80");
}

/* The sweep (set by `gpulab sweep` for the runs it starts) and the Slurm job and array task, from the
 * environment Slurm gives a job step. */
static void provenance(struct gl_run_info *info)
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

/* The run row: the backend and the device it describes, this host, the command line, the provenance. */
static void run_info(const struct gl_session *s, struct gl_run_info *info)
{
	const struct gl_device_info *dev = &s->dev;
	memset(info, 0, sizeof *info);
	snprintf(info->backend, sizeof info->backend, "%s", s->backend);
	snprintf(info->device, sizeof info->device, "%s", dev->name);
	snprintf(info->chip, sizeof info->chip, "%s", dev->chip);
	info->sm_count = dev->sm_count;
	snprintf(info->cc, sizeof info->cc, "%d.%d", dev->cc_major, dev->cc_minor);
	snprintf(info->driver, sizeof info->driver, "%s", dev->driver);
	snprintf(info->cupti_version, sizeof info->cupti_version, "%s", dev->cupti_version);
	gethostname(info->host, sizeof info->host - 1);
	info->argv = s->env.argv;
	snprintf(info->backend_note, sizeof info->backend_note, "%s", s->backend_note);
	provenance(info);
}

void gl_session_finish_launch(struct gl_launch_record *rec, const struct gl_gpu_model *g)
{
	if (rec->sanitizer_errors > 0 && rec->verified > 0)
		rec->verified = 0;
	gl_guidance_apply(g, rec);
}

int gl_session_store(struct gl_session *s, struct gl_store *store, long *run_id, long *launch_ids)
{
	const struct gl_gpu_model *g = gl_session_gpu_of(s->dev.name);
	for (size_t i = 0; i < s->n; i++)
		gl_session_finish_launch(&s->recs[i], g);
	struct gl_run_info info;
	run_info(s, &info);
	struct gl_store *own = NULL;
	int rc = store ? GL_OK : gl_store_open(s->env.db_path, 0, &own, s->env.err);
	*run_id = 0;
	if (rc == GL_OK)
		rc = gl_store_save_run(store ? store : own, &info, s->recs, s->n, failed(s) ? "failed" : "ok",
				       run_id, launch_ids, s->env.err);
	gl_store_close(own);
	return rc;
}

void gl_session_free(struct gl_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		gl_launch_record_free(&s->recs[i]);
	free(s->recs);
	free(s);
}
