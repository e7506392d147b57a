/* cuda_profiling.c — setting up CUPTI for the cuda backend, or saying why it runs timings only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/cuda_ctx.h"
#include "profiler/cupti_catalog.h"
#include "profiler/cupti_errors.h"

static void fallback(struct gl_cuda_ctx *c, const char *why)
{
	c->profiling = false;
	snprintf(c->note, sizeof c->note, "timings only, no CUPTI metrics: %.200s", why);
}

static void load_units(struct gl_cuda_ctx *c)
{
	c->units = gl_xcalloc(c->metrics.n ? c->metrics.n : 1, sizeof *c->units);
	for (size_t i = 0; i < c->metrics.n; i++) {
		CUpti_Profiler_Host_GetMetricProperties_Params pp;
		struct gl_err ignore = {0};
		if (gl_cupti_host_props(&c->range.host, c->metrics.names[i], &pp, &ignore) == GL_OK)
			gl_cupti_short_unit(pp.pDimUnit, c->units[i], sizeof c->units[i]);
	}
}

/* Drop the set metrics this chip lacks (typed names it lacks are the user's error). */
static int fit_metrics(struct gl_cuda_ctx *c, struct gl_err *err)
{
	struct gl_cupti_host h;
	int rc = gl_cupti_host_open(&h, &c->cupti, c->info.chip, NULL, err);
	if (rc != GL_OK)
		return rc;
	rc = gl_cupti_fit_metrics(&h, &c->metrics, c->dropped, sizeof c->dropped, err);
	gl_cupti_host_close(&h);
	return rc;
}

static int open_range(struct gl_cuda_ctx *c, struct gl_err *err)
{
	struct gl_err rerr = {0};
	int rc = fit_metrics(c, &rerr);
	if (rc == GL_EUSAGE)
		return gl_errf(err, rc, "%s", rerr.msg);
	if (rc != GL_OK) {
		fallback(c, rerr.msg);
		return GL_OK;
	}
	rc = gl_cupti_range_open(&c->range, &c->dev.api, &c->cupti, c->dev.ctx, c->info.chip,
				     (const char *const *)c->metrics.names, c->metrics.n, &rerr);
	if (rc == GL_OK) {
		c->profiling = true;
		load_units(c);
		return GL_OK;
	}
	if (rc == GL_EUSAGE) /* a bad --metrics name: the user's to fix, not a reason to fall back */
		return gl_errf(err, rc, "%s", rerr.msg);
	if (gl_cupti_is_permission(c->range.result))
		fallback(c, GL_CUPTI_PERMISSION_SHORT);
	else
		fallback(c, rerr.msg);
	return GL_OK;
}

int gl_cuda_profiling_open(struct gl_cuda_ctx *c, struct gl_err *err)
{
	struct gl_err lerr = {0};
	if (gl_cupti_api_load(&c->cupti, &lerr) != GL_OK) {
		fallback(c, lerr.msg);
		return GL_OK;
	}
	c->have_cupti = true;
	gl_cuda_describe(&c->dev.api, &c->cupti, c->dev.ordinal, &c->info, &lerr);
	char why[512];
	if (!gl_cuda_profilable(&c->dev.api, why, sizeof why)) { /* no CUPTI target call at all */
		fallback(c, why);
		return GL_OK;
	}
	struct gl_err aerr = {0};
	c->have_activity = gl_cupti_activity_start(&c->activity, &c->cupti, &aerr) == GL_OK;
	if (!c->info.chip[0]) {
		fallback(c, "CUPTI cannot name this GPU's chip (is it older than Volta?)");
		return GL_OK;
	}
	return open_range(c, err);
}

void gl_cuda_profiling_close(struct gl_cuda_ctx *c)
{
	if (c->profiling || c->range.obj || c->range.host.obj)
		gl_cupti_range_close(&c->range);
	if (c->have_activity)
		gl_cupti_activity_stop(&c->activity);
	free(c->units);
	c->units = NULL;
	c->profiling = c->have_activity = false;
}
