/* cupti_activity.h — kernel durations from CUPTI Activity records (CUpti_ActivityKernel10: start,
 * end, registers, shared memory).  CUPTI hands finished buffers to a callback that carries no user
 * pointer, so one collector at a time is registered process-wide (the module's only static state,
 * guarded by a mutex). */
#ifndef GL_CUPTI_ACTIVITY_H
#define GL_CUPTI_ACTIVITY_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "profiler/cupti_api.h"

#define GL_ACTIVITY_MAX 4096

struct gl_kernel_record {
	char name[64];
	uint64_t start, end; /* ns */
	int regs, static_smem, dyn_smem;
	uint32_t correlation;
};

struct gl_cupti_activity {
	const struct gl_cupti_api *api;
	pthread_mutex_t lock;
	struct gl_kernel_record *records;
	size_t n, dropped;
	int enabled;
};

/* Register the buffer callbacks and enable CONCURRENT_KERNEL records. */
int gl_cupti_activity_start(struct gl_cupti_activity *a, const struct gl_cupti_api *api, struct gl_err *err);
/* Deliver every finished record into a->records. */
int gl_cupti_activity_flush(struct gl_cupti_activity *a, struct gl_err *err);
/* Forget the records collected so far. */
void gl_cupti_activity_clear(struct gl_cupti_activity *a);
/* Median end-start of the records named `entry`, in ns; NAN when there are none. */
double gl_cupti_activity_median_ns(struct gl_cupti_activity *a, const char *entry, size_t *count);
/* Median end-start of the records of the launch with CUPTI correlation id `correlation` (kernel replay
 * may run it more than once), in ns; NAN when there are none. */
double gl_cupti_activity_launch_ns(struct gl_cupti_activity *a, uint32_t correlation, size_t *count);
void gl_cupti_activity_stop(struct gl_cupti_activity *a);

#endif
