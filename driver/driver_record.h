/* driver_record.h — what gpulab's driver library keeps of each kernel launch: one record per launch that
 * ran, complete when the hook is called.  A launch `gpulab profile` selected is handed to it through the
 * spool (common/spool.h, driver_profile.c); nothing here writes a database. */
#ifndef GL_DRIVER_RECORD_H
#define GL_DRIVER_RECORD_H

#include "driver.h"
#include "common/record.h"

struct drv_launch_record {
	long seq;                        /* 1 for the process's first launch */
	const char *name;                /* the kernel's C++ name (demangled), or its PTX entry */
	const char *entry;               /* the PTX entry (mangled) */
	const char *module;              /* the module's name for messages ("compute_75 PTX #2") */
	const char *ptx;                 /* the module's PTX text */
	unsigned long long stream;       /* the stream's id (0: the default stream) */
	bool cooperative;
	bool profiled;                   /* outside cuProfilerStop..cuProfilerStart (what ncu's
					  * --profile-from-start off selects by) */
	const struct gl_gpu_model *gpu;  /* the GPU model the launch ran on */
	/* grid, block, dyn_smem, static_smem, regs (ptxas for the model, -1 unknown), metrics (source "sim",
	 * Nsight Compute's names, as gl_sim_record fills them), sanitizer counts and findings, note */
	struct gl_launch_record rec;
	double estimate_us;              /* the estimate model's time (insights/estimate.c); NAN when unknown */
	double start_us;                 /* when it starts on its stream's model clock */
	const struct gl_sim_result *res; /* everything the simulator returned (printf, trace, engine) */
};

/* Called once per launch that ran, after the record is complete; the record and what it points to are
 * valid only during the call. */
void drv_record_hook(const struct drv_launch_record *r);
/* Write a selected launch's record to the profile spool; `error` is the CUresult it raised (0 none). */
void drv_profile_record(const struct drv_launch_record *r, int error);

#endif
