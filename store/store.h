/* store.h — the results database (SQLite): runs, launches, metrics, traces, lesson progress.
 * Owns the schema (data/schema.sql, PRAGMA user_version, forward migrations), the database path rules,
 * and the one-transaction-per-run discipline: a run is visible whole or not at all.  It persists and loads
 * the record model of common/record.h; runs reach it through the session (session/session.h). */
#ifndef GL_STORE_H
#define GL_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "common/record.h"

struct gl_store; /* opaque */

/* Where the database lives: `explicit_path` (--db) if given, else $GPULAB_DB, else
 * $XDG_DATA_HOME/gpulab/gpulab.db, else ~/.local/share/gpulab/gpulab.db. */
int gl_store_path(const char *explicit_path, char *buf, size_t n, struct gl_err *err);

/* Open read-write (creating the file, its directories and the schema as needed; GL_EENV when it cannot be
 * written, is locked past the busy timeout, or is not a gpulab database) or read-only (the file must
 * exist; writes through it fail). */
int gl_store_open(const char *path, int readonly, struct gl_store **out, struct gl_err *err);
void gl_store_close(struct gl_store *s);
/* The verdict gl_store_open(path, 0) would reach, without writing or creating anything: the path, the
 * file (a directory, a text file, a damaged, foreign or newer database are refused), whether a missing
 * one could be created, and write permission.  `resolved` receives the path used. */
int gl_store_check(const char *path, char *resolved, size_t n, struct gl_err *err);
/* (Additions.)  gl_store_open resolves `path` by gl_store_path's rules, so NULL means the default;
 * ":memory:" gives a private in-memory store (for tests).  How long to wait for another process's lock
 * (default 5000 ms; $GPULAB_BUSY_TIMEOUT_MS overrides it at open), and the path the store uses. */
void gl_store_set_busy_timeout(struct gl_store *s, int ms);
const char *gl_store_file(const struct gl_store *s);

/* A run is written in one transaction: begin, add launches, commit.  Nothing is visible before commit;
 * gl_store_abort_run (or closing without commit, or the process dying) leaves the database as it was. */
int gl_store_begin_run(struct gl_store *s, const struct gl_run_info *info, long *run_id, struct gl_err *err);
int gl_store_add_launch(struct gl_store *s, long run_id, const struct gl_launch_record *l, long *launch_id,
			struct gl_err *err);
int gl_store_commit_run(struct gl_store *s, long run_id, const char *status, struct gl_err *err);
void gl_store_abort_run(struct gl_store *s);

/* Store a computed run in one transaction (begin, add each launch, commit), waiting while other gpulab
 * commands hold the database's lock: up to $GPULAB_LOCK_WAIT_S seconds (default 600), with a line on
 * stderr every few seconds.  When the wait runs out the run is written to a spool file beside the
 * database and GL_EENV says where it is and how to import it: a computed run is never lost.
 * `launch_ids` (NULL or n entries) receives the stored launches' ids. */
int gl_store_save_run(struct gl_store *s, const struct gl_run_info *info, const struct gl_launch_record *recs,
		      size_t n, const char *status, long *run_id, long *launch_ids, struct gl_err *err);

/* Copy the finished runs of another gpulab database `file` (a spool file, a sweep's shard) into `s` in one
 * transaction, with new ids: their launches, metrics, traces, sanitizer findings and buffer maps, each run
 * keeping its UUID, sweep and Slurm ids and recording `file` as merged_from; runs whose UUID is present
 * already are skipped (so merging twice adds nothing).  `file` is only read, and must be a gpulab database
 * at this binary's schema version (GL_EENV for a foreign or newer one, before anything is written). */
int gl_store_import(struct gl_store *s, const char *file, int *imported, int *skipped, struct gl_err *err);
/* What gl_store_import checks before it locks anything, alone: `file` is a gpulab database at this
 * binary's schema version whose objects are gpulab's (real tables, gpulab's views, no triggers), within the
 * rows one merge copies, and every row it would copy passes the checks of the readers (GL_EUSAGE naming
 * the row, GL_EENV for a file that is not gpulab's). */
int gl_store_check_import(const char *file, struct gl_err *err);

/* Partial launches (--cta-range) made whole (store_assemble.c): for each group of launches with the same
 * sweep, backend, topic, variant, parameters and geometry whose CTA ranges tile the grid, one new run with
 * one launch holding the summed counts (outputs not verified), once: its UUID derives from the parts'. */
#define GL_MAX_ASSEMBLED 256
struct gl_assembly {
	int assembled;  /* new whole launches */
	long runs[GL_MAX_ASSEMBLED], launches[GL_MAX_ASSEMBLED]; /* each in a run of its own: to finish */
	int nwhole;
	long verify[GL_MAX_ASSEMBLED]; /* those whose outputs were joined (CTA-disjoint writes): to verify */
	int nverify;
	int already;    /* groups assembled before */
	int incomplete; /* groups whose ranges leave gaps or overlap: left partial */
};
int gl_store_assemble(struct gl_store *s, struct gl_assembly *out, struct gl_err *err);
/* An assembled launch's topic, variant, parameters and joined outputs (into rec: topic, variant,
 * params_json, outputs), for verifying them; and recording the verdict (verified 1/0, errors, a note
 * appended). */
int gl_store_load_outputs(struct gl_store *s, long launch_id, struct gl_launch_record *rec, struct gl_err *err);
int gl_store_set_verified(struct gl_store *s, long launch_id, int verified, double max_abs, double max_rel,
			  const char *note, struct gl_err *err);
/* Replace the guidance stored with launch `launch_id` by l's (one transaction): for a launch the store
 * made itself (an assembled one), which the session finishes like any other. */
int gl_store_set_guidance(struct gl_store *s, long launch_id, const struct gl_launch_record *l, struct gl_err *err);

/* Load a stored run with its launches and metrics; run_id 0 means the latest run. */
int gl_store_load_run(struct gl_store *s, long run_id, struct gl_run_record *out, struct gl_err *err);

/* Run one SQL statement on a read-only store and print its rows as an aligned table, JSON (an array of
 * objects) or CSV.  Write statements are refused with a clear GL_EUSAGE message. */
enum gl_query_format { GL_QUERY_TABLE, GL_QUERY_JSON, GL_QUERY_CSV };
int gl_store_query(struct gl_store *s, const char *sql, enum gl_query_format fmt, FILE *out, struct gl_err *err);

/* The trace events of one launch, in recorded order; the caller frees *events. */
int gl_store_load_trace(struct gl_store *s, long launch_id, struct gl_trace_event **events, uint32_t *n,
			struct gl_err *err);

/* The latest launch of topic/variant (and params_json, when not NULL) that has a trace (of a multi-launch
 * variant, the first traced launch of the latest run that has one); 0 when none. */
int gl_store_find_traced_launch(struct gl_store *s, const char *topic, const char *variant, const char *params_json,
				long *launch_id, struct gl_err *err);

/* Launch `launch_id` of run `run_id` (0: the run's first launch that has a trace); GL_EUSAGE naming what
 * is missing when the run, the launch or a trace is not there. */
int gl_store_find_run_launch(struct gl_store *s, long run_id, long launch_id, long *id, struct gl_err *err);

/* A stored launch as a reader of its trace sees it: the launch row and its events, in one call. */
struct gl_traced_launch {
	long launch_id, run_id;
	char topic[32], variant[32];
	char params_json[256];
	unsigned grid[3], block[3], dyn_smem;
	struct gl_trace_event *ev; /* owned */
	uint32_t n;
	struct gl_buffer_desc *buffers; /* the stored buffer map, owned; none for launches stored before it */
	int nbuffers;
};
/* GL_EUSAGE when there is no such launch; a launch without a trace loads with n = 0. */
int gl_store_load_traced_launch(struct gl_store *s, long launch_id, struct gl_traced_launch *out, struct gl_err *err);
void gl_traced_launch_free(struct gl_traced_launch *l);

/* ---- stored runs, newest first (store_runs.c): run_summary's rows */
struct gl_run_row {
	long id;
	char started_at[32], status[16], backend[16], device[128];
	char topic[32];
	char variants[256];    /* "naive,padded" */
	char params_json[128];
	long launches, failed;
};
/* Runs newest first, of `topic` only when not NULL, at most `limit` (0: all); the caller frees *rows. */
int gl_store_list_runs(struct gl_store *s, const char *topic, long limit, struct gl_run_row **rows, size_t *n,
		       struct gl_err *err);

/* ---- values of a launch (store_values.c): what lesson checks read */

/* The numeric columns a reader may ask of a launch (launch_summary's, then launches' own), by name;
 * metric names are the other values (gl_store_launch_value). */
const char *const *gl_store_value_columns(size_t *n);
/* The id of the latest launch of topic.variant, 0 when there is none. */
int gl_store_latest_launch(struct gl_store *s, const char *topic, const char *variant, long *id, struct gl_err *err);
/* The same among the launches made with exactly these parameters (params_json as gl_problem_json writes
 * it; NULL: any), and the latest launch's parameters whatever they were (params may be NULL; the caller
 * frees *params, NULL when there is no launch). */
int gl_store_latest_launch_with(struct gl_store *s, const char *topic, const char *variant, const char *params_json,
				long *id, struct gl_err *err);
int gl_store_launch_params(struct gl_store *s, long id, char **params, struct gl_err *err);
/* The id of the latest launch of kernel `variant` that `gpulab profile` stored for the program at `path`
 * (the "program" of its params_json: the binary's real path), 0 when there is none. */
int gl_store_latest_program_launch(struct gl_store *s, const char *variant, const char *path, long *id,
				   struct gl_err *err);
/* `name` of launch `id`: a column of gl_store_value_columns, else a metric (the CUPTI value before the
 * simulator's when both exist).  *have is false when it is NULL or absent. */
int gl_store_launch_value(struct gl_store *s, long id, const char *name, double *v, bool *have, struct gl_err *err);

/* ---- lesson progress (store_lesson.c): rows of lesson_progress
 * (LESSON, N, 'seen'|'passed'|'failed', at) per step N >= 1, and one bookmark row (LESSON, 0,
 * 'current N'|'paused N', at): the step the learner is at; 'current' marks the current lesson. */
enum gl_lesson_status { GL_LESSON_UNSEEN, GL_LESSON_SEEN, GL_LESSON_PASSED, GL_LESSON_FAILED };

/* The current lesson and its step; lesson = "" when none. */
int gl_store_lesson_current(struct gl_store *s, char *lesson, size_t n, int *step, struct gl_err *err);
/* The step the learner is at in `lesson` (0 when not started). */
int gl_store_lesson_bookmark(struct gl_store *s, const char *lesson, int *step, bool *current, struct gl_err *err);
/* Make `lesson` the current lesson, at `step`, and mark that step seen (unless already checked). */
int gl_store_lesson_goto(struct gl_store *s, const char *lesson, int step, struct gl_err *err);
int gl_store_lesson_mark(struct gl_store *s, const char *lesson, int step, enum gl_lesson_status st,
			 struct gl_err *err);
/* Status of steps 1..n into out[0..n-1]. */
int gl_store_lesson_steps(struct gl_store *s, const char *lesson, enum gl_lesson_status *out, int n,
			  struct gl_err *err);
int gl_store_lesson_reset(struct gl_store *s, const char *lesson, struct gl_err *err);

/* ---- exercise progress (store_exercise.c): rows of exercise_progress */
enum gl_exercise_event { GL_EXERCISE_STARTED, GL_EXERCISE_FAILED, GL_EXERCISE_PASSED };

struct gl_exercise_progress {
	char status[16]; /* "" (never started), "started", "failed", "passed" */
	int checks;
	bool passed;     /* a check passed once */
	long last_run;   /* the run the latest check stored; 0 = none */
};

/* Started (kept as it was when already there), or a check's verdict with the run it stored (0: none). */
int gl_store_exercise_record(struct gl_store *s, const char *exercise, enum gl_exercise_event ev, long run_id,
			     struct gl_err *err);
int gl_store_exercise_progress(struct gl_store *s, const char *exercise, struct gl_exercise_progress *out,
			       struct gl_err *err);

#endif
