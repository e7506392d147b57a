/* run.h — run orchestration below the commands: a session runs a topic's chosen variants on one backend
 * and stores them as one run; a view's trace is recorded the same way.  Commands hand in what they
 * parsed (struct gl_run_env); nothing here parses options or prints results. */
#ifndef GL_RUN_H
#define GL_RUN_H

#include <stdbool.h>

#include "insights/gpu_models.h"
#include "insights/occupancy.h"
#include "kernels/registry.h"
#include "profiler/backend.h"
#include "store/store.h"

#define GL_RUN_MAX_VARIANTS 32

/* What a run needs from the command that asks for it. */
struct gl_run_env {
	const char *db_path; /* --db, else NULL: the store resolves $GPULAB_DB / XDG */
	const char *argv;    /* the command line, stored with the run */
	bool announce;       /* say on stderr which backend was picked and why */
	bool progress;       /* progress bars on stderr */
	struct gl_err *err;
	/* Optional (NULL: none), for a command that shows each variant as soon as it has run: `started` once
	 * the backend has described its device, before the first variant; `finished` after each variant, with
	 * its record as it will be stored (guidance not yet applied).  A progress bar is never on screen when
	 * they are called: the simulator clears its bar when a launch ends and draws it again at the next. */
	void (*started)(void *user, const char *backend, const struct gl_device_info *dev);
	void (*finished)(void *user, const struct gl_launch_record *rec);
	void *user;
};

/* One run of a topic's variants: what to run, and what came of it. */
struct gl_run_session {
	const struct gl_topic *topic;
	const struct gl_variant *variants[GL_RUN_MAX_VARIANTS];
	int nvariants;
	struct gl_problem problem;
	bool failed;  /* a variant failed verification or the sanitizer found errors */
	long run_id;  /* the stored run, once gl_run_session_execute succeeded */
};

/* Pick the backend `backend` (auto|sim|cuda), open the store, run every variant, verify it and store them
 * all as one run (s->run_id).  Failed verifications are reported on stderr and set s->failed; they are
 * stored, not errors.  On success the caller owns *store (gl_store_close). */
int gl_run_session_execute(const struct gl_run_env *env, const char *backend, struct gl_backend_opts *bo,
			   struct gl_run_session *s, struct gl_store **store);

/* A view's trace: run variant v of topic t on problem p on the simulator with the trace on, in memory
 * only (on success the caller owns rec: gl_launch_record_free); then, once the view accepts it, store it
 * as one run as `gpulab run` would and return the launch's and run's ids. */
int gl_run_compute_trace(const struct gl_run_env *env, const struct gl_topic *t, const struct gl_variant *v,
			 const struct gl_problem *p, struct gl_device_info *dev, struct gl_launch_record *rec);
int gl_run_store_trace(const struct gl_run_env *env, struct gl_store *store, const struct gl_device_info *dev,
		       const struct gl_launch_record *rec, long *launch_id, long *run_id);

/* Verify the outputs of a launch that `gpulab merge` assembled from CTA-range shards (gl_store_assemble's
 * `verify` list) against the topic's CPU reference, and record the verdict: *verdict 1 passed, 0 failed,
 * -1 not checked (not a topic of this binary, a multi-launch variant, outputs that do not fit). */
int gl_run_verify_assembled(struct gl_store *s, long launch_id, int *verdict, struct gl_err *err);

/* The run's sweep id ($GPULAB_SWEEP_ID) and Slurm job and array task ids ($SLURM_ARRAY_JOB_ID or
 * $SLURM_JOB_ID, $SLURM_ARRAY_TASK_ID); gl_run_info_fill calls it. */
void gl_run_info_provenance(struct gl_run_info *info);

/* The run row for a backend and the device it describes (with its provenance). */
void gl_run_info_fill(struct gl_run_info *info, const struct gl_backend *b, const struct gl_device_info *dev,
		      const char *argv);

/* ---- the GPU model a run is judged on (session_gpu.c) */

/* The model of `device` (a device name as the backend describes it), else the default (H100). */
const struct gl_gpu_model *gl_session_gpu_of(const char *device);
/* For a command that reasons about a GPU without a run: --gpu G when given, else the model of the GPU
 * present, else the default. */
int gl_session_gpu(const char *flag, const struct gl_gpu_model **out, struct gl_err *err);
/* The occupancy input of a variant at the topic's default problem: its block size and dynamic shared
 * memory from the topic's setup, registers and static shared memory from ptxas -v for the model's arch. */
int gl_session_variant_occ_input(const struct gl_topic *t, const struct gl_variant *v, const struct gl_gpu_model *g,
				 struct gl_occ_input *in, struct gl_err *err);

#endif
