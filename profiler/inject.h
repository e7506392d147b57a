/* inject.h — gpulab's CUPTI injection library (libgpulab_inject.so), the GPU path of `gpulab profile`:
 * NVIDIA's driver loads it into an unmodified program when CUDA_INJECTION64_PATH names it and calls
 * InitializeInjection inside cuInit.  It subscribes to the program's kernel launches (cuLaunchKernel,
 * cuLaunchKernelEx, cuLaunchCooperativeKernel and their _ptsz forms), selects them as ncu does
 * (common/launch_filter.h), profiles each selected launch with the range profiler in kernel replay (the
 * metric set `run --backend cuda` collects, through the cuda backend's own CUPTI code: cuda_ctx.h,
 * cupti_range.h), times it from its activity record, and hands on one struct gl_launch_record per launch.
 * Launches not selected run at full speed.  The profiler's own header: nothing outside profiler/ sees it. */
#ifndef GL_INJECT_H
#define GL_INJECT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/launch_filter.h"
#include "common/record.h"
#include "profiler/cuda_ctx.h"

/* What `gpulab profile --backend cuda` tells the library, through the program's environment. */
/* The selection's variables are the ones gpulab's driver library reads (driver/driver_profile.c). */
#define GL_INJECT_ENV_KERNEL "GPULAB_PROFILE_KERNEL"       /* --kernel-name NAME or regex:EXPR */
#define GL_INJECT_ENV_SKIP "GPULAB_PROFILE_SKIP"           /* --launch-skip N */
#define GL_INJECT_ENV_COUNT "GPULAB_PROFILE_COUNT"         /* --launch-count N; 0 or unset: no limit */
#define GL_INJECT_ENV_METRICS "GPULAB_PROFILE_METRICS"     /* --metrics SET|NAMES, as for run */
#define GL_INJECT_ENV_LOG "GPULAB_PROFILE_LOG"             /* 1: a line on stderr per profiled launch */
/* The process being profiled: set by the first process the library initialises in, so that programs it
 * starts in turn (which inherit CUDA_INJECTION64_PATH) run unprofiled and say so. */
#define GL_INJECT_ENV_ROOT "GPULAB_PROFILE_ROOT_PID"

struct gl_inject_opts {
	const char *kernel_name; /* NULL: every kernel */
	long skip, count;        /* count -1: no limit */
	const char *metrics;     /* NULL: "all", as run --backend cuda */
	bool log;
};

/* The options from the environment; GL_EUSAGE naming the variable for a malformed number or regex
 * (then nothing is profiled and the program still runs). */
int gl_inject_opts_read(struct gl_inject_opts *o, struct gl_err *err);

/* CUPTI of API version `cupti_api` (130001 = CUDA 13.0) against a driver of CUDA version `driver`
 * (cuDriverGetVersion: 13000): GL_EENV naming both and the fix when the driver is older than the CUPTI
 * or than CUDA 13, as `gpulab doctor` says it. */
int gl_inject_check_versions(int driver, uint32_t cupti_api, struct gl_err *err);

/* One launch as the callback saw it. */
struct gl_inject_launch {
	long seq;                 /* 1 for the program's first launch (selected or not) */
	const char *symbol;       /* the kernel's (mangled) symbol name */
	char name[512];           /* its function name, what --kernel-name matches ("lab::reduce") */
	unsigned grid[3], block[3];
	unsigned dyn_smem;
	int regs, static_smem;    /* cuFuncGetAttribute; -1 when unknown */
	uint32_t correlation;     /* CUPTI's id, which its activity record carries too */
	int error;                /* what the launch returned to the program (CUresult; at API exit) */
	CUcontext ctx;
	CUfunction func;
};

/* Fill `l` from a launch callback's data (any of the six launch entry points; GL_EUSAGE for another
 * callback id).  Registers and shared sizes are left -1: the caller asks the driver. */
int gl_inject_launch_from_cb(uint32_t cbid, const CUpti_CallbackData *cb, struct gl_inject_launch *l,
			     struct gl_err *err);

/* What CUPTI gave for one launch: metric values (names[i], values[i], units[i]), its replay passes
 * (0: not profiled, `note` says why) and duration (NAN when no activity record came). */
struct gl_inject_result {
	const char *const *names;
	const double *values;
	const char (*units)[16];
	size_t n;
	int passes;
	double duration_ns;
	const char *note;
};

/* The launch record of a profiled launch (topic "program", variant its function name, the kernel's
 * symbol as entry, metric source "cupti", verdict -1: a program checks its own results).  The caller
 * frees it. */
void gl_inject_record(const struct gl_inject_launch *l, const struct gl_inject_result *res,
		      struct gl_launch_record *rec);

/* The library's state in one process. */
struct gl_inject {
	struct gl_inject_opts opts;
	struct gl_launch_filter filter;
	struct gl_cupti_api cb_api;   /* CUPTI for the callback API, loaded by InitializeInjection */
	CUpti_SubscriberHandle sub;   /* NULL until subscribed */
	struct gl_cuda_ctx c;         /* the cuda backend's context over the program's context */
	bool opened;                  /* c set up (at the first selected launch) */
	bool off;                     /* nothing more is profiled (an error said why) */
	bool said_device, said_ctx, said_fork;
	bool forked;                  /* this is a child the program forked */
	long seq;
	pthread_mutex_t lock;         /* callbacks come on every thread that launches */
	struct gl_inject_launch pending; /* the selected launch between its enter and exit callbacks */
	bool have_pending, began;
	long emitted;
};

/* Selected launches: called by the CUPTI callback at API enter and exit. */
void gl_inject_on_launch(struct gl_inject *s, uint32_t cbid, const CUpti_CallbackData *cb);
/* Close CUPTI (at exit). */
void gl_inject_close(struct gl_inject *s);

/* Where a finished record goes (inject_emit.c): the launch's record, with the device it ran on. */
void gl_inject_emit(struct gl_inject *s, const struct gl_inject_launch *l, struct gl_launch_record *rec);

/* A line on stderr, "gpulab: ..." (the program's own output is untouched). */
void gl_inject_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
