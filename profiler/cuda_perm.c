/* cuda_perm.c — the RmProfilingAdminOnly check. */
#include "profiler/cuda_perm.h"

#include <stdio.h>
#include <string.h>

#include "profiler/cupti_errors.h"

/* 1 or 0 from the "RmProfilingAdminOnly: N" line, -1 when absent. */
static int read_admin_only(FILE *f)
{
	char line[256];
	int v = -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, " RmProfilingAdminOnly : %d", &v) == 1)
			return v != 0;
	return -1;
}

enum gl_check gl_cuda_profiling_permission(const char *params_path, unsigned uid, char *msg, size_t n)
{
	FILE *f = fopen(params_path, "r");
	if (!f) {
		snprintf(msg, n, "%s is missing: no NVIDIA kernel driver here, so the profiling restriction "
			 "cannot be checked", params_path);
		return GL_CHECK_WARN;
	}
	int admin_only = read_admin_only(f);
	fclose(f);
	if (admin_only < 0) {
		snprintf(msg, n, "%s has no RmProfilingAdminOnly line; CUPTI will tell at the first run", params_path);
		return GL_CHECK_WARN;
	}
	if (!admin_only) {
		snprintf(msg, n, "RmProfilingAdminOnly=0: every user may read the GPU counters");
		return GL_CHECK_OK;
	}
	if (uid == 0) {
		snprintf(msg, n, "RmProfilingAdminOnly=1, and gpulab runs as root");
		return GL_CHECK_OK;
	}
	snprintf(msg, n, "RmProfilingAdminOnly=1 and you are not root: CUPTI metrics will fail with "
		 "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (runs fall back to timings only). Fix: %s",
		 GL_CUPTI_PERMISSION_FIX);
	return GL_CHECK_FAIL;
}
