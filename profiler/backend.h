/* backend.h — a backend runs one launch and reports metrics under Nsight Compute's names (nvtop's
 * gpu_vendor pattern: a table of function pointers).  Two exist: "sim" (the PTX simulator on the CPU)
 * and "cuda" (driver API + CUPTI, libraries opened at run time). */
#ifndef GL_BACKEND_H
#define GL_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "common/findings.h"
#include "common/launch.h"
#include "common/metrics.h"
#include "common/outputs.h"
#include "common/trace.h"

struct gl_device_info {
	char name[128];
	char chip[32];       /* "GH100"; empty on the simulator */
	int sm_count;
	int cc_major, cc_minor;
	size_t memory_bytes;
	int clock_mhz, memory_clock_mhz;
	char driver[32];
	char cupti_version[32];
	char arch[16];       /* ptxas arch whose resource usage applies: "sm_80", "sm_90" */
};

struct gl_backend_opts {
	int device;          /* --device N */
	const char *metrics; /* --metrics SET|NAMES (cuda) */
	int repeat;          /* --repeat N timed launches (cuda) */
	bool trace;          /* --trace (sim) */
	long sample_ctas;    /* --sample-ctas N, 0 = all (sim) */
	long cta_first, cta_end; /* --cta-range A:B, cta_end 0 = all (sim) */
	int threads;         /* worker threads, 0 = all cores (sim) */
	uint64_t max_instructions; /* per-CTA budget, 0 = default (sim) */
	bool progress;       /* progress bar on stderr */
	const char *progress_label; /* what the bar says runs ("gemm naive (2/3)"); read at each launch */
	int sanitizer_tools; /* --tool: GL_TOOL_* checks that run, 0 = all (sim) */
	uint64_t printf_buffer; /* device printf buffer in bytes, 0 = the default (sim) */
	int engine;          /* --engine: enum gl_sim_engine (sim) */
};

struct gl_launch_result {
	struct gl_metrics metrics;
	double duration_ns;  /* NAN when not measured */
	int passes;          /* CUPTI replay passes, 0 on the simulator */
	char note[256];      /* shown beside the results: fallbacks, sampling, sanitizer findings */
	long sanitizer_errors; /* simulator only: out-of-bounds, races, barrier divergence, aborts */
	bool sanitized;        /* the simulator's sanitizer ran: the counts and findings apply */
	long sanitizer_warnings; /* simulator only: occurrences of warnings (uninitialised reads) */
	struct gl_finding *findings; /* simulator only: the distinct findings, errors first; the caller frees */
	int nfindings;
	long findings_dropped; /* occurrences beyond GL_FINDINGS_MAX distinct findings */
	bool outputs_partial;  /* simulator with --sample-ctas: only the sampled CTAs wrote their outputs */
	long cta_first, cta_end; /* simulator with --cta-range: the CTAs run (partial counts); cta_end 0: all */
	struct gl_output_bytes *outputs; /* with --cta-range: what the range wrote to each output buffer, owned */
	int noutputs;
	struct gl_trace_event *trace; /* --trace events (simulator), owned by the caller; NULL when none */
	uint32_t ntrace;
	struct gl_buffer_desc *buffers; /* with a trace: the buffer map (simulator), owned by the caller */
	int nbuffers;
	/* cuda: the output buffers of the first (correctness) run, by buffer index, when the last run's
	 * differ from them bytewise; the caller verifies them too (float atomics may reorder within
	 * tolerance, a real fault shows as a failed verification).  NULL entries otherwise. */
	void *first_outputs[GL_MAX_BUFFERS];
};

/* Free what a collected result owns (metrics, first_outputs). */
void gl_launch_result_free(struct gl_launch_result *res);

struct gl_backend {
	const char *name;
	const char *metric_source; /* stored with each metric value: "sim" or "cupti" */
	/* Is this backend usable here?  Writes why (or why not) to `why`. */
	bool (*probe)(char *why, size_t n);
	int (*open)(const struct gl_backend_opts *opts, void **ctx, struct gl_err *err);
	int (*describe)(void *ctx, struct gl_device_info *info, struct gl_err *err);
	/* Run the kernel; output buffers are copied back into l->buffers[i].host. */
	int (*launch)(void *ctx, struct gl_launch *l, struct gl_err *err);
	/* Metrics, time and trace of the last launch; the caller frees res->metrics and res->trace. */
	int (*collect)(void *ctx, struct gl_launch_result *res, struct gl_err *err);
	void (*close)(void *ctx);
};

extern const struct gl_backend gl_backend_sim;
extern const struct gl_backend gl_backend_cuda;

/* Resolve --backend auto|sim|cuda.  `why` gets one line saying which was picked and why. */
int gl_backend_select(const char *name, const struct gl_backend **out, char *why, size_t n, struct gl_err *err);

#endif
