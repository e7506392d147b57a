/* inject_opts.c — what the injection library is told (the environment `gpulab profile` sets) and
 * whether this CUPTI can work with this driver. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ptx_version.h"
#include "common/util.h"
#include "profiler/inject.h"

static int read_count(const char *var, long *out, struct gl_err *err)
{
	const char *v = getenv(var);
	if (!v || !*v)
		return GL_OK;
	return gl_parse_long(v, 0, LONG_MAX, var, out, err);
}

int gl_inject_opts_read(struct gl_inject_opts *o, struct gl_err *err)
{
	memset(o, 0, sizeof *o);
	o->count = -1;
	const char *k = getenv(GL_INJECT_ENV_KERNEL), *m = getenv(GL_INJECT_ENV_METRICS);
	const char *log = getenv(GL_INJECT_ENV_LOG);
	o->kernel_name = k && *k ? k : NULL;
	o->metrics = m && *m ? m : NULL;
	o->log = log && *log && strcmp(log, "0") != 0;
	int rc = read_count(GL_INJECT_ENV_SKIP, &o->skip, err);
	if (rc == GL_OK)
		rc = read_count(GL_INJECT_ENV_COUNT, &o->count, err);
	if (rc == GL_OK && o->count == 0)
		o->count = -1; /* as the driver library reads it: 0 is no limit */
	return rc;
}

int gl_inject_check_versions(int driver, uint32_t cupti_api, struct gl_err *err)
{
	/* CUPTI_API_VERSION 130001: CUDA 13.0, revision 1 */
	int cupti_cuda = (int)(cupti_api / 10000) * 1000 + (int)(cupti_api / 100 % 100) * 10;
	int need = cupti_cuda > 13000 ? cupti_cuda : 13000;
	if (driver >= need)
		return GL_OK;
	char have[16], want[16];
	const char *linux_min = gl_cuda_min_linux_driver(need);
	gl_cuda_version_text(driver, have, sizeof have);
	gl_cuda_version_text(need, want, sizeof want);
	return gl_errf(err, GL_EENV, "the NVIDIA driver (CUDA %s) is older than CUPTI %u.%u (API %u) needs: CUDA %s%s%s%s; "
		       "update the driver, or point GPULAB_CUPTI_LIB at the CUPTI of a toolkit no newer than the "
		       "driver", have, cupti_api / 10000, cupti_api / 100 % 100, cupti_api, want,
		       linux_min ? " (Linux driver " : "", linux_min ? linux_min : "", linux_min ? " or newer)" : "");
}
