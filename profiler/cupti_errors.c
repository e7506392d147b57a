/* cupti_errors.c — the table from CUPTI results to statuses and fixes. */
#include "profiler/cupti_errors.h"

#include <stdio.h>

#include "common/util.h"

static const struct {
	CUptiResult result;
	int status;
	bool fallback;
	const char *hint;
} table[] = {
	{CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, GL_EENV, true, GL_CUPTI_PERMISSION_FIX},
	{CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES, GL_EENV, true,
	 "profiling is disabled for this vGPU; ask the host administrator to enable it for the VM"},
	{CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED, GL_EENV, true, "this virtual GPU cannot be profiled"},
	{CUPTI_ERROR_NOT_SUPPORTED, GL_EENV, true, "this GPU or configuration cannot be profiled (CUPTI needs compute "
						   "capability 7.0 or newer)"},
	{CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED, GL_EENV, true, "crypto-mining GPUs cannot be profiled"},
	{CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED, GL_EENV, true, "profile a whole GPU, not a MIG instance"},
	{CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED, GL_EENV, true, "disable SLI to profile"},
	{CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED, GL_EENV, true, "profiling under WSL needs a newer driver"},
	{CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED, GL_EENV, true,
	 "GPUs in confidential-computing mode cannot be profiled"},
	{CUPTI_ERROR_HARDWARE_BUSY, GL_EENV, true, "another profiler (ncu, nsys, DCGM) holds the counters; stop it"},
	{CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, GL_EENV, true,
	 "another CUPTI client is attached to this process (e.g. under ncu); run gpulab alone"},
	{CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED, GL_EENV, true, "the legacy event/metric API is active"},
	{CUPTI_ERROR_INVALID_CHIP_NAME, GL_EUSAGE, false, "chip names are exact upper case, e.g. GH100"},
	{CUPTI_ERROR_INVALID_METRIC_NAME, GL_EUSAGE, false,
	 "see 'gpulab metrics --search WORD'; a metric needs its rollup, e.g. dram__bytes_read.sum"},
	{CUPTI_ERROR_NOT_INITIALIZED, GL_EENV, false, "CUPTI could not reach the CUDA driver; run 'gpulab doctor'"},
	{CUPTI_ERROR_OUT_OF_MEMORY, GL_EENV, false, "ask for fewer metrics (--metrics memory or compute)"},
};

static int find(CUptiResult r)
{
	for (size_t i = 0; i < GL_ARRAY_LEN(table); i++)
		if (table[i].result == r)
			return (int)i;
	return -1;
}

bool gl_cupti_is_permission(CUptiResult r)
{
	return r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES;
}

bool gl_cupti_is_fallback(CUptiResult r)
{
	int i = find(r);
	return i >= 0 && table[i].fallback;
}

int gl_cupti_status(CUptiResult r)
{
	if (r == CUPTI_SUCCESS)
		return GL_OK;
	int i = find(r);
	return i >= 0 ? table[i].status : GL_EENV;
}

const char *gl_cupti_hint(CUptiResult r)
{
	int i = find(r);
	return i >= 0 ? table[i].hint : NULL;
}

const char *gl_cupti_result_name(const struct gl_cupti_api *api, CUptiResult r, char *buf, size_t n)
{
	const char *s = NULL;
	if (api && api->cuptiGetResultString && api->cuptiGetResultString(r, &s) == CUPTI_SUCCESS && s)
		snprintf(buf, n, "%s", s);
	else
		snprintf(buf, n, "CUPTI error %d", (int)r);
	return buf;
}

int gl_cupti_fail(const struct gl_cupti_api *api, CUptiResult r, const char *call, struct gl_err *err)
{
	if (r == CUPTI_SUCCESS)
		return GL_OK;
	char name[96];
	gl_cupti_result_name(api, r, name, sizeof name);
	const char *hint = gl_cupti_hint(r);
	if (hint)
		return gl_errf(err, gl_cupti_status(r), "%s failed: %s; %s", call, name, hint);
	return gl_errf(err, gl_cupti_status(r), "%s failed: %s", call, name);
}
