/* cuda_doctor.h — the GPU-path checks behind `gpulab doctor`: libcuda (and where it was loaded from),
 * a device, a driver new enough for gpulab's PTX, whether CUPTI can profile with this driver, CUPTI
 * library and version, CUPTI's host API, profiling permission, nvcc.  Each gives ok/warn/fail and the fix. */
#ifndef GL_CUDA_DOCTOR_H
#define GL_CUDA_DOCTOR_H

#include <stddef.h>

#include "profiler/cuda_perm.h"

#define GL_DOCTOR_MAX 12

struct gl_doctor_check {
	const char *name;
	enum gl_check status;
	char detail[1024];
};

/* Run the checks into `out` (at most `max`); returns how many. */
size_t gl_cuda_doctor(struct gl_doctor_check *out, size_t max);

#endif
