/* profiler.h — the backends and the GPU, the one public header of profiler/.  A backend runs one launch and
 * fills its record with metrics under Nsight Compute's names (nvtop's gpu_vendor pattern: a table of
 * function pointers); two exist: "sim" (the PTX simulator on the CPU) and "cuda" (driver API + CUPTI,
 * libraries opened at run time).  Beside them: the metric sets --metrics names, the GPUs the driver sees
 * (`gpulab devices`), CUPTI's metric catalog of a chip (`gpulab metrics`), the checks of `gpulab doctor`
 * and the cuBLAS baseline.  Nothing here exposes a CUDA or CUPTI type: cuda.h and CUPTI's headers stay
 * inside profiler/ (cuda_*.h, cupti_*.h: the profiler's own). */
#ifndef GL_PROFILER_H
#define GL_PROFILER_H

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

/* Is there a GPU a program can be profiled on (gpulab profile --backend cuda): a usable driver that is
 * NVIDIA's, not gpulab's own driver library (cuda_injectable.c)?  `why` says why not, or what was found. */
bool gl_cuda_injectable(char *why, size_t n);

/* Resolve --backend auto|sim|cuda.  `why` gets one line saying which was picked and why. */
int gl_backend_select(const char *name, const struct gl_backend **out, char *why, size_t n, struct gl_err *err);

/* ---- metric sets (metric_sets.c): what `--metrics memory|compute|all|sim|NAME,...` means, named sets of
 * Nsight Compute metric names (the simulator's counts plus DRAM, duration, SM throughput and achieved
 * occupancy) */

#define GL_M_DRAM_RD "dram__bytes_read.sum"
#define GL_M_DRAM_WR "dram__bytes_write.sum"
#define GL_M_DURATION "gpu__time_duration.sum"
#define GL_M_SM_THROUGHPUT "sm__throughput.avg.pct_of_peak_sustained_elapsed"
#define GL_M_OCCUPANCY "sm__warps_active.avg.pct_of_peak_sustained_active" /* achieved occupancy */

struct gl_metric_list {
	char **names;
	bool *named;   /* typed by the user (true) or from a set (false): a set's metric may be dropped
			* where a chip lacks it, a typed one is an error there */
	size_t n;
};

/* Expand a --metrics value (NULL or "" means "all"); sets and names may be mixed, duplicates dropped.
 * Names are checked against a chip later (they need a CUPTI host object); unknown set words that
 * are not metric names (no "__") are refused here with a suggestion. */
int gl_metric_list_parse(const char *spec, struct gl_metric_list *out, struct gl_err *err);
void gl_metric_list_free(struct gl_metric_list *l);
/* The metrics the simulator reports (common/metrics.h), in a stable order. */
const char *const *gl_metric_set_sim(size_t *n);
/* "memory, compute, all, sim" for help texts. */
const char *gl_metric_set_help(void);
/* The i-th name over every set (a name in two sets comes twice); NULL past the last. */
const char *gl_metric_sets_name(size_t i);

/* ---- the GPUs the CUDA driver sees (profiler_gpus.c): `gpulab devices` */

#define GL_MAX_GPUS 64

struct gl_gpus {
	int n;
	struct gl_device_info dev[GL_MAX_GPUS]; /* chip and CUPTI version empty when CUPTI was not found */
	bool ptx_ok;     /* the driver can JIT gpulab's PTX */
	char ptx[1100];  /* the PTX's ISA and the driver it needs, and whether this one can run it (or why not) */
	char cupti[512]; /* the CUPTI library loaded; "" when none was found (metrics unavailable) */
};

/* Every device described.  GL_EENV when there is no usable driver (the message says what to install or
 * fix) or it sees no device ("no CUDA device: why"). */
int gl_profiler_gpus(struct gl_gpus *out, struct gl_err *err);

/* ---- CUPTI's host side (profiler_catalog.c): `gpulab metrics`, no GPU needed */

struct gl_cupti_tools; /* CUPTI's library, opened */

/* GL_EENV naming the paths tried when no CUPTI library loads. */
int gl_cupti_tools_open(struct gl_cupti_tools **out, struct gl_err *err);
void gl_cupti_tools_close(struct gl_cupti_tools *t);
/* Where the library was found. */
const char *gl_cupti_tools_path(const struct gl_cupti_tools *t);
/* The chip of GPU 0 ("GH100") when a driver and device are present; "" otherwise (never touches CUPTI's
 * target side without a driver). */
void gl_cupti_tools_device_chip(struct gl_cupti_tools *t, char *chip, size_t n);
/* The chips CUPTI can describe; the names belong to t. */
int gl_cupti_tools_chips(const struct gl_cupti_tools *t, const char *const **names, size_t *n, struct gl_err *err);
/* The same as one line, for messages: "GA100, GH100, ..." (caller frees). */
char *gl_cupti_tools_chips_text(const char *const *names, size_t n);

/* One base metric of a chip's catalog. */
struct gl_metric_info {
	const char *name;        /* without rollup: "dram__bytes_read" */
	const char *type;        /* "counter", "ratio", "throughput" */
	const char *unit;        /* CUPTI's dimension unit: "byte", "l1tex_wavefront", "" for plain ratios */
	const char *hw_unit;     /* "dram", "l1tex", ... */
	const char *description;
};
struct gl_metric_catalog {
	char chip[32];
	struct gl_metric_info *items; /* sorted by name */
	size_t n;
	void *cupti;                  /* CUPTI's catalog, which the strings belong to */
};
int gl_cupti_tools_catalog(struct gl_cupti_tools *t, const char *chip, struct gl_metric_catalog *c,
			   struct gl_err *err);
void gl_metric_catalog_free(struct gl_metric_catalog *c);
/* Case-insensitive substring of the name or the description; NULL or "" matches all. */
bool gl_metric_info_matches(const struct gl_metric_info *m, const char *word);
/* The replay passes collecting `list` on `chip` needs, and CUPTI's config image for it (*config, caller
 * frees; NULL when config is NULL): a metric a set brought in but the chip lacks is dropped from the list
 * and named in `dropped`; a typed name the chip lacks is a GL_EUSAGE error with a suggestion. */
int gl_cupti_tools_passes(struct gl_cupti_tools *t, const char *chip, struct gl_metric_list *list, size_t *passes,
			  char *dropped, size_t n, uint8_t **config, size_t *config_size, struct gl_err *err);

/* ---- the GPU path's checks (cuda_doctor.c): `gpulab doctor` — libcuda (and where it was loaded from), a
 * device, a driver new enough for gpulab's PTX, whether CUPTI can profile with this driver, CUPTI library
 * and version, CUPTI's host API, profiling permission, nvcc.  Each gives ok/warn/fail and the fix. */

enum gl_check { GL_CHECK_OK, GL_CHECK_WARN, GL_CHECK_FAIL };

#define GL_DOCTOR_MAX 12

struct gl_doctor_check {
	const char *name;
	enum gl_check status;
	char detail[1024];
};

/* Run the checks into `out` (at most `max`); returns how many. */
size_t gl_cuda_doctor(struct gl_doctor_check *out, size_t max);

/* ---- the vendor baseline of the hgemm topic (cublas_ref.c): cuBLAS's cublasGemmEx with fp16 A and B,
 * fp32 C and CUBLAS_COMPUTE_32F, on the same row-major problem, timed with CUDA events.  libcublas is
 * dlopen'd at run time like libcuda and libcupti: gpulab links no CUDA library. */

struct gl_cublas_timing {
	double ms;       /* mean time of one call over `repeat` calls, after one warm-up call */
	double tflops;   /* 2 m n k / time */
	char device[128];
	char library[512]; /* the libcublas path that was opened */
};

/* Time C (m x n, fp32) = A (m x k, fp16) * B (k x n, fp16), row-major, on GPU 0.  GL_EENV when there
 * is no usable GPU or no libcublas (naming what was tried), or when a CUDA or cuBLAS call fails. */
int gl_cublas_hgemm_time(long m, long n, long k, int repeat, struct gl_cublas_timing *out, struct gl_err *err);

#endif
