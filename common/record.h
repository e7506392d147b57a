/* record.h — the record model: one kernel launch as everything after the backend sees it, from the backend
 * that fills it (profiler/) through the session that finishes it (session/: guidance, the run's verdict)
 * to the store that persists and loads it (store/) and the readers that print and judge it (render/,
 * insights/, lessons/).  One struct from the launch to the database, so no field is lost on the way.
 * A run is its row (gl_run_info) and its launches; gl_run_record is a run as loaded back. */
#ifndef GL_RECORD_H
#define GL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buffers.h"
#include "common/findings.h"
#include "common/metrics.h"
#include "common/outputs.h"
#include "common/trace.h"

struct gl_run_info {
	char backend[16];      /* "sim" or "cuda" */
	char device[128];      /* "PTX simulator (2 CPU threads)" or the GPU's name */
	char chip[32];         /* "GH100"; empty on the simulator */
	int sm_count;
	char cc[8];            /* "9.0"; for the simulator the PTX target, "8.0" */
	char driver[32];
	char cupti_version[32];
	char host[64];
	const char *argv;      /* the command line */
	char sweep_id[64];     /* the sweep this run belongs to ($GPULAB_SWEEP_ID), "" when none */
	char slurm_job_id[32]; /* the Slurm job (the array's job id) and array task, "" outside Slurm */
	char slurm_task_id[16];
	char backend_note[256]; /* why this backend: "backend sim: no usable GPU here (...)"; "" when unknown */
};

/* One guidance rule that fired on a launch (insights/guidance.h applies them; stored in launch_guidance). */
struct gl_guidance {
	char rule[40];
	char severity[4];        /* "OPT", "WRN" or "INF" */
	char message[384];
	char metric[96];
	double value;
	double estimated_speedup; /* NAN where the rule cannot bound one */
};

struct gl_launch_record {
	char topic[32];
	char variant[32];
	char *params_json;     /* {"rows":1024,"cols":1024} */
	unsigned grid[3], block[3];
	unsigned dyn_smem;
	int regs;              /* from ptxas -v for the device's arch, -1 when unknown */
	int static_smem;       /* bytes, -1 when unknown */
	int verified;          /* 1 passed, 0 failed, -1 not checked (sampled CTAs: outputs are partial) */
	double max_abs_err, max_rel_err;
	double duration_ns;    /* NAN when not measured (simulator) */
	char metric_source[8]; /* "sim" or "cupti" */
	struct gl_metrics metrics;
	char note[256];        /* e.g. "sampled 64 of 1024 CTAs, counts scaled" */
	struct gl_trace_event *trace; /* simulator --trace events, owned; NULL when none */
	struct gl_buffer_desc *buffers; /* the buffer map (with a trace), owned; NULL when none */
	int nbuffers;
	uint32_t ntrace;
	bool sanitized;        /* the simulator's sanitizer ran: the counts and findings below apply */
	long sanitizer_errors, sanitizer_warnings; /* occurrences, every one counted */
	long sanitizer_dropped; /* occurrences of distinct findings beyond GL_FINDINGS_MAX */
	struct gl_finding *findings; /* distinct findings, errors first, owned; NULL when none */
	int nfindings;
	/* A variant that is several kernel launches (naive attention: scores, softmax, PV) is one record
	 * holding the variant's total (part 0: metrics rolled up by gl_metrics_total_add, verification after
	 * the last launch) and one record per launch in `parts` (part 1, 2, ..., owned), each with its own
	 * metrics, trace and findings.  A single-launch variant has nparts = 0. */
	int part;              /* 0: the variant; k >= 1: its k-th launch */
	char entry[64];        /* the PTX entry launched; empty for a multi-launch total */
	struct gl_launch_record *parts;
	int nparts;
	struct gl_guidance *guidance; /* the rules that fired, owned; NULL when none (or stored before them) */
	int nguidance;
	long cta_first, cta_end; /* --cta-range: only CTAs cta_first..cta_end-1 ran (partial counts); 0, 0: all */
	struct gl_output_bytes *outputs; /* --cta-range: the bytes the range wrote per output buffer, owned */
	int noutputs;
	bool outputs_partial;  /* not stored: only some CTAs ran (--sample-ctas, --cta-range), so the outputs
				* cannot be verified (the verdict stored is -1 then) */
};

struct gl_run_record {
	long id;
	char started_at[32], finished_at[32], status[16];
	struct gl_run_info info;
	char argv[512];
	struct gl_launch_record *launches;
	size_t nlaunches;
};

/* A record with nothing measured yet: no metrics, verdict -1 (not checked), errors and time NAN (not
 * measured), registers and static shared memory -1 (unknown). */
void gl_launch_record_init(struct gl_launch_record *l);
/* Free what a record owns (its parts too), leaving it empty. */
void gl_launch_record_free(struct gl_launch_record *l);
void gl_run_record_free(struct gl_run_record *r);

#endif
