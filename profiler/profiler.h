/* backend.h — a backend runs one launch and reports metrics under Nsight Compute's names (nvtop's
 * gpu_vendor pattern: a table of function pointers).  Two exist: "sim" (the PTX simulator on the CPU)
 * and "cuda" (driver API + CUPTI, libraries opened at run time). */
#ifndef GL_BACKEND_H
#define GL_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "common/launch.h"
#include "common/record.h"

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

struct gl_backend {
	const char *name;
	const char *metric_source; /* stored with each metric value: "sim" or "cupti" */
	/* Is this backend usable here?  Writes why (or why not) to `why`. */
	bool (*probe)(char *why, size_t n);
	int (*open)(const struct gl_backend_opts *opts, void **ctx, struct gl_err *err);
	int (*describe)(void *ctx, struct gl_device_info *info, struct gl_err *err);
	/* Run the kernel; output buffers are copied back into l->buffers[i].host. */
	int (*launch)(void *ctx, struct gl_launch *l, struct gl_err *err);
	/* The last launch as its record (common/record.h), filled directly: geometry, entry, metrics under
	 * this backend's metric source, time, sanitizer counts and findings, trace and buffer map, which CTAs
	 * ran, the note.  What the backend cannot know stays as gl_launch_record_init leaves it (registers,
	 * the verdict); the caller owns rec (gl_launch_record_free). */
	int (*collect)(void *ctx, struct gl_launch_record *rec, struct gl_err *err);
	/* Where the backend ran the kernel more than once (cuda: a correctness run, then timed runs): the
	 * first run's output buffers of the last launch, by buffer index, where they differ bytewise from the
	 * last run's (float atomics may reorder within tolerance; a real fault shows as a failed
	 * verification), else NULL entries; the caller frees them and verifies them too.  NULL when the
	 * backend runs a kernel once. */
	void (*first_outputs)(void *ctx, void *out[GL_MAX_BUFFERS]);
	void (*close)(void *ctx);
};

extern const struct gl_backend gl_backend_sim;
extern const struct gl_backend gl_backend_cuda;

/* Resolve --backend auto|sim|cuda.  `why` gets one line saying which was picked and why. */
int gl_backend_select(const char *name, const struct gl_backend **out, char *why, size_t n, struct gl_err *err);

#endif
