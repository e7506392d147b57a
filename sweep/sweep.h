/* sweep.h — sweeps, the one public header of sweep/ (what `gpulab sweep` and `gpulab merge` run): a sweep
 * spec (command line or a TOML subset file: sweep_spec.c), its expansion into jobs (sweep_plan.c), the
 * sweep directory the jobs run in, locally (sweep_dir.c) or as a Slurm job array (sweep_slurm.c), and the
 * shards merged back into one database (sweep_merge.c).  docs/sweeps.md describes them for users. */
#ifndef GL_SWEEP_H
#define GL_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/err.h"

#define GL_SWEEP_MAX_PARAMS 8
#define GL_SWEEP_MAX_VALUES 64
#define GL_SWEEP_MAX_ARGS 24

/* What to sweep: a topic, its variants, each parameter's values, and where to run. */
struct gl_sweep_spec {
	char topic[32];
	char variants[256];  /* "a,b,c" or "all" ("" = all) */
	char backend[16];    /* "" = auto */
	char param_names[GL_SWEEP_MAX_PARAMS][32];
	char param_values[GL_SWEEP_MAX_PARAMS][GL_SWEEP_MAX_VALUES][24];
	int nvalues[GL_SWEEP_MAX_PARAMS];
	int nparams;
	long shard_ctas;     /* split each launch into this many CTA ranges; 0 = whole launches */
	char partition[64], gres[64], time[32];
	long array_limit;    /* Slurm's %K: at most K array tasks at once; 0 = no limit */
};

/* Read a spec file (the TOML subset of docs/sweeps.md) into `s`; GL_EUSAGE naming the line otherwise. */
int gl_sweep_spec_read(const char *path, struct gl_sweep_spec *s, struct gl_err *err);
/* Add "NAME=V1,V2,..." (--param) to `s`, replacing an earlier NAME. */
int gl_sweep_spec_param(struct gl_sweep_spec *s, const char *text, struct gl_err *err);

/* One job: the arguments of one `gpulab run` (without --db). */
struct gl_sweep_job {
	char *argv[GL_SWEEP_MAX_ARGS];
	int argc;
};

struct gl_sweep_plan {
	struct gl_sweep_job *jobs;
	int njobs;
	char **refused;      /* "size=130 variant vectorized: why", one per refused combination */
	int nrefused;
	int combinations;    /* of the parameters */
};

/* The cartesian product of the parameters, each combination checked by the topic's size rules and each
 * variant's (its launch is built once, as `run` would, and freed); a combination or variant refused is
 * listed, not an error.  One job per accepted combination (all its accepted variants in one run), or with
 * shard_ctas K one job per variant and CTA range. */
int gl_sweep_expand(const struct gl_sweep_spec *s, struct gl_sweep_plan *plan, struct gl_err *err);
void gl_sweep_plan_free(struct gl_sweep_plan *plan);
/* A job as one line: its arguments separated by single spaces (none contains white space). */
void gl_sweep_job_line(const struct gl_sweep_job *j, char *buf, size_t n);

/* ---- the sweep directory (sweep_dir.c): sweep.conf, jobs.txt, logs/, status/, shard-I.db */

/* Create DIR with the plan's jobs.txt and sweep.conf (a new sweep id); DIR must not hold a sweep yet. */
int gl_sweep_dir_create(const char *dir, const struct gl_sweep_plan *plan, char *sweep_id, size_t n,
			struct gl_err *err);
/* The last value of `key` in DIR/sweep.conf ("" when absent); GL_EUSAGE when DIR holds no sweep. */
int gl_sweep_conf(const char *dir, const char *key, char *out, size_t n, struct gl_err *err);
/* `gpulab sweep task DIR I`: run job I into DIR/shard-I.db, record its exit status in DIR/status/. */
int gl_sweep_task(const char *dir, long index, struct gl_err *err);
/* Run every job of DIR, at most `jobs` processes at once, each writing its own shard and log; `progress`:
 * count the finished tasks on stderr. */
int gl_sweep_run_local(const char *dir, int jobs, bool progress, struct gl_err *err);

/* ---- Slurm (sweep_slurm.c) */

/* Write DIR/sweep.sbatch (one array task per job) and submit it with sbatch. */
int gl_sweep_submit(const char *dir, const struct gl_sweep_spec *s, struct gl_err *err);
/* `gpulab sweep status DIR`: each task's state (status files, squeue, sacct). */
int gl_sweep_status(const char *dir, struct gl_err *err);
/* `gpulab sweep collect DIR`: wait (when asked) for the queued tasks, merge the finished shards into
 * `into`, list failed tasks with their logs, and resubmit them alone with `retry`. */
int gl_sweep_collect(const char *dir, const char *into, bool wait, bool retry, struct gl_err *err);

/* ---- merge (sweep_merge.c): check every shard, then merge them into `into` (saying so on `out`), then
 * assemble CTA ranges and verify the outputs joined from them */
int gl_merge_shards(const char *const *shards, int n, const char *into, FILE *out, struct gl_err *err);

#endif
