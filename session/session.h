/* session.h — the one way a run gets into the store, the public header of session/.  A session gathers the
 * launch records (common/record.h) of one run, however they were made — a topic's variants through a
 * backend (`run`, `compare`, a sweep's shards), one variant at a time on each backend (`validate`), a
 * view's trace (`view`), a kernel of the user's own file (`sim --db`, `exercise check`), or every kernel
 * launch of a program on gpulab's own driver — finishes every record the same way and stores them as one
 * run, in one transaction:
 *   - guidance: the rules of insights/guidance.h on the record's counts, its occupancy and its estimate
 *     for the run's GPU model (the model of the device that ran it, else the default, H100), stored with
 *     the launch (a multi-launch variant's with its total);
 *   - estimate and occupancy: pure functions of what the record holds (block, registers, shared memory,
 *     counts), which every reader computes again (`report --details`, JSON), so the session keeps the
 *     record's inputs to them whole;
 *   - notes and sanitizer findings: the backend's note and findings as it made them (gl_sim_record words
 *     the simulator's, once), and a launch with sanitizer errors is never stored as verified;
 *   - the run row: backend, device, host, the command line, the sweep and Slurm ids of the environment,
 *     and its status: "failed" when a launch failed verification, else "ok".
 * Nothing else in gpulab writes a run (tools/check_layers.sh checks that no other folder calls the
 * store's save).  Commands hand in what they parsed (struct gl_session_env); nothing here parses options
 * or prints results, beyond notes on stderr that the env asks for. */
#ifndef GL_SESSION_H
#define GL_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "common/record.h"
#include "common/spool.h"
#include "insights/gpu_models.h"
#include "insights/occupancy.h"
#include "kernels/registry.h"
#include "profiler/profiler.h"
#include "store/store.h"

/* What a session needs from the command that asks for it. */
struct gl_session_env {
	const char *db_path; /* --db, else NULL: the store resolves $GPULAB_DB / XDG */
	const char *argv;    /* the command line, stored with the run */
	bool announce;       /* say on stderr how each variant went (on a terminal) */
	/* Called with the backend choice ("backend sim: no usable GPU here (...)") when gpulab chose it, once per
	 * process; the command says it or not (it is stored with the run, runs.backend_note).  NULL: never. */
	void (*note_backend)(void *note_user, const char *why);
	void *note_user;
	bool progress;       /* progress bars on stderr */
	struct gl_err *err;
	/* Optional (NULL: none), for a command that shows each variant of a topic run as soon as it has run:
	 * `started` once the backend has described its device, before the first variant; `finished` after
	 * each variant, with its record as it will be stored (guidance not yet applied).  A progress bar is
	 * never on screen when they are called: the simulator clears its bar when a launch ends and draws it
	 * again at the next. */
	void (*started)(void *user, const char *backend, const struct gl_device_info *dev);
	void (*finished)(void *user, const struct gl_launch_record *rec);
	void *user;
};

/* ---- a session: any caller with launch records
 *
 *	struct gl_session *s = gl_session_new(&env, "sim", &dev);
 *	for each launch: fill a record (gl_sim_record for a simulated launch; topic, variant, params_json,
 *	                 registers and the verdict are the caller's), then gl_session_add(s, &rec);
 *	rc = gl_session_store(s, NULL, &run_id, NULL);
 *	gl_session_free(s);
 *
 * A caller that is not a topic (no harness, no CPU reference: a kernel of a .cu file, a program's launches)
 * names its launches itself: topic "sim", "exercise" or "program", variant the kernel's name, params_json
 * what identifies the launch (its source, arguments), verified -1 (not checked) unless it knows better. */
struct gl_session;

/* A run made on `backend` ("sim" or "cuda": the launches' metric source) on the device `dev` describes
 * (name, chip, SMs, compute capability, driver; its name picks the GPU model of the guidance).  env and
 * dev are copied; the error channel env->err points to must outlive the session. */
struct gl_session *gl_session_new(const struct gl_session_env *env, const char *backend,
				  const struct gl_device_info *dev);
/* Why the launches ran on this backend, stored with the run (runs.backend_note; `report` shows it). */
void gl_session_set_backend_note(struct gl_session *s, const char *why);
/* Add one launch: moved into the session, *rec is left empty (gl_launch_record_init). */
void gl_session_add(struct gl_session *s, struct gl_launch_record *rec);
/* Run variant v of topic t on problem p on the open backend b (bctx; the device the session was made with)
 * as `gpulab run` does — launch, collect, verify against the CPU reference — and add its record; *rec
 * (may be NULL) points to it until the next launch is added.  A failed verification is a result, not an
 * error (the record says it). */
int gl_session_run_variant(struct gl_session *s, const struct gl_backend *b, void *bctx, const struct gl_topic *t,
			   const struct gl_variant *v, const struct gl_problem *p,
			   const struct gl_launch_record **rec);
/* Finish every launch (guidance, the verdict) and store them as one run into `store` (an open store; NULL:
 * env->db_path is opened for it and closed again): *run_id, and launch_ids (NULL, or one per launch
 * added).  Nothing touches the database before this call, so a command refused earlier writes nothing. */
int gl_session_store(struct gl_session *s, struct gl_store *store, long *run_id, long *launch_ids);
void gl_session_free(struct gl_session *s);

/* The simulator's device as a run names it: "gpulab PTX simulator (N CPU threads)", compute 8.0, sm_80. */
void gl_session_sim_device(int threads, struct gl_device_info *dev);

/* ---- a program's launches (session_program.c): `gpulab profile` */

struct gl_program_info {
	const char *path;                /* the program as run (absolute when found on PATH) */
	char sha256[65];                 /* of its binary */
	const struct gl_gpu_model *gpu;  /* the model the driver library simulated */
	const char *outcome;             /* how it ended, stored as the run's note: "program ./va exited 0" */
	const struct gl_device_info *device; /* the GPU it ran on (gpulab profile --backend cuda); NULL: the
					      * driver library simulated `gpu` */
};

/* Store the launches gl_spool_load found (moved out of *set) as one run of topic "program": *run_id.  env->argv
 * is the command line stored with the run. */
int gl_session_store_program(const struct gl_session_env *env, const struct gl_program_info *prog,
			     struct gl_spool_set *set, long *run_id);

/* ---- a run of a topic's variants (session_topic.c): `run`, `compare`, and the sweep jobs that are runs */

#define GL_RUN_MAX_VARIANTS 32

/* One run of a topic's variants: what to run, and what came of it. */
struct gl_topic_run {
	const struct gl_topic *topic;
	const struct gl_variant *variants[GL_RUN_MAX_VARIANTS];
	int nvariants;
	struct gl_problem problem;
	bool failed;  /* a variant failed verification or the sanitizer found errors */
	long run_id;  /* the stored run, once gl_session_run_topic succeeded */
};

/* Pick the backend `backend` (auto|sim|cuda), open the store, run every variant, verify it and store them
 * all as one run (r->run_id).  Failed verifications are reported on stderr and set r->failed; they are
 * stored, not errors.  On success the caller owns *store (gl_store_close). */
int gl_session_run_topic(const struct gl_session_env *env, const char *backend, struct gl_backend_opts *bo,
			 struct gl_topic_run *r, struct gl_store **store);

/* ---- a view's trace (session_view.c) */

/* Run variant v of topic t on problem p on the simulator with the trace on, in memory only (on success the
 * caller owns rec: gl_launch_record_free, and dev describes the simulator); then, once the view accepts
 * it, store it as one run as `gpulab run --trace` would and return the run's id and the id of its (first)
 * traced launch. */
int gl_session_compute_trace(const struct gl_session_env *env, const struct gl_topic *t, const struct gl_variant *v,
			     const struct gl_problem *p, struct gl_device_info *dev, struct gl_launch_record *rec);
int gl_session_store_trace(const struct gl_session_env *env, struct gl_store *store, const struct gl_device_info *dev,
			   struct gl_launch_record *rec, long *launch_id, long *run_id);

/* ---- launches assembled from CTA-range shards (session_assembled.c) */

/* Verify the outputs of a launch that `gpulab merge` assembled from CTA-range shards (gl_store_assemble's
 * `verify` list) against the topic's CPU reference, and record the verdict: *verdict 1 passed, 0 failed,
 * -1 not checked (not a topic of this binary, a multi-launch variant, outputs that do not fit). */
int gl_session_verify_assembled(struct gl_store *s, long launch_id, int *verdict, struct gl_err *err);
/* The whole launches gl_store_assemble just made (a run each, written by the store from the shards' rows)
 * finished like any run's: the guidance on their summed counts, stored with them. */
int gl_session_finish_assembled(struct gl_store *s, const struct gl_assembly *a, struct gl_err *err);

/* ---- the GPU model a run is judged on (session_gpu.c) */

/* The model of `device` (a device name as the backend describes it), else the default (H100). */
const struct gl_gpu_model *gl_session_gpu_of(const char *device);
/* For a command that reasons about a GPU without a run: --gpu G when given, else the model of the GPU
 * present, else the default. */
int gl_session_gpu(const char *flag, const struct gl_gpu_model **out, struct gl_err *err);
/* The occupancy input of a variant at the topic's default problem: its block size and dynamic shared
 * memory from the topic's launch geometry, registers and static shared memory from ptxas -v for the
 * model's arch. */
int gl_session_variant_occ_input(const struct gl_topic *t, const struct gl_variant *v, const struct gl_gpu_model *g,
				 struct gl_occ_input *in, struct gl_err *err);

#endif
