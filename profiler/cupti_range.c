/* cupti_range.c — the Range Profiler session for single-kernel ranges. */
#include "profiler/cupti_range.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/cupti_device.h"
#include "profiler/cupti_errors.h"

/* Run a CUPTI call, remember its result, and turn a failure into a message. */
#define RP_CALL(r, call, params, err) \
	gl_cupti_fail((r)->api, (r)->result = (r)->api->call(&(params)), #call, (err))

static int make_config(struct gl_cupti_range *r, const char *chip, struct gl_err *err)
{
	int rc = gl_cupti_host_open(&r->host, r->api, chip, r->avail_size ? r->avail : NULL, err);
	if (rc == GL_OK)
		rc = gl_cupti_host_config(&r->host, r->names, r->n, &r->config, &r->config_size, err);
	if (rc == GL_OK)
		rc = gl_cupti_image_passes(r->api, r->config, r->config_size, &r->passes, err);
	return rc;
}

/* Enable the range profiler on the context; the counter-data image is sized on the first call.
 * Each collect enables and disables again, so every launch is a fresh, self-contained session. */
static int enable(struct gl_cupti_range *r, struct gl_err *err)
{
	GL_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params, en);
	en.ctx = r->ctx;
	int rc = RP_CALL(r, cuptiRangeProfilerEnable, en, err);
	if (rc != GL_OK)
		return rc;
	r->obj = en.pRangeProfilerObject;
	if (r->data)
		return GL_OK;
	GL_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params, sz);
	sz.pRangeProfilerObject = r->obj;
	sz.pMetricNames = (const char **)r->names;
	sz.numMetrics = r->n;
	sz.maxNumOfRanges = 1;
	sz.maxNumRangeTreeNodes = 1;
	rc = RP_CALL(r, cuptiRangeProfilerGetCounterDataSize, sz, err);
	if (rc != GL_OK)
		return rc;
	r->data_size = sz.counterDataSize;
	r->data = gl_xcalloc(1, r->data_size);
	return GL_OK;
}

static void disable(struct gl_cupti_range *r)
{
	if (!r->obj)
		return;
	GL_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params, dp);
	dp.pRangeProfilerObject = r->obj;
	r->api->cuptiRangeProfilerDisable(&dp);
	r->obj = NULL;
}

int gl_cupti_range_open(struct gl_cupti_range *r, const struct gl_cuda_api *cu, struct gl_cupti_api *api,
			CUcontext ctx, const char *chip, const char *const *names, size_t n, struct gl_err *err)
{
	memset(r, 0, sizeof *r);
	r->api = api;
	r->names = names;
	r->n = n;
	r->ctx = ctx;
	r->result = CUPTI_SUCCESS;
	r->replay = CUPTI_UserReplay;
	int rc = gl_cupti_profiler_init(cu, api, err); /* checks the driver before any target call */
	if (rc == GL_OK && !ctx)
		rc = gl_errf(err, GL_EINTERNAL, "range profiler opened without a CUDA context");
	if (rc == GL_OK)
		rc = gl_cupti_counter_availability(cu, api, ctx, &r->avail, &r->avail_size, &r->result, err);
	if (rc == GL_OK)
		rc = make_config(r, chip, err);
	if (rc != GL_OK)
		gl_cupti_range_close(r);
	return rc;
}

static int set_config(struct gl_cupti_range *r, struct gl_err *err)
{
	GL_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, ini);
	ini.pRangeProfilerObject = r->obj;
	ini.counterDataSize = r->data_size;
	ini.pCounterData = r->data;
	int rc = RP_CALL(r, cuptiRangeProfilerCounterDataImageInitialize, ini, err);
	if (rc != GL_OK)
		return rc;
	GL_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params, sc);
	sc.pRangeProfilerObject = r->obj;
	sc.configSize = r->config_size;
	sc.pConfig = r->config;
	sc.counterDataImageSize = r->data_size;
	sc.pCounterDataImage = r->data;
	sc.range = CUPTI_AutoRange;       /* one range per kernel launch */
	/* User replay: gpulab launches the kernel once per pass, after restoring its inputs and flushing
	 * L2, so every pass starts cold like Nsight Compute's default --cache-control all (kernel replay
	 * restores memory but gives no point to flush between its passes).  A program's own launches can
	 * only be replayed by CUPTI (kernel replay). */
	sc.replayMode = r->replay;
	sc.maxRangesPerPass = 1;
	sc.numNestingLevels = 1;
	sc.minNestingLevel = 1;
	sc.passIndex = 0;
	sc.targetNestingLevel = 1;
	return RP_CALL(r, cuptiRangeProfilerSetConfig, sc, err);
}

/* Prepare (outside the session, so its copies and memset are not profiled), start, launch, stop —
 * once per pass, until CUPTI says every pass was submitted. */
static int start(struct gl_cupti_range *r, struct gl_err *err)
{
	GL_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params, st);
	st.pRangeProfilerObject = r->obj;
	return RP_CALL(r, cuptiRangeProfilerStart, st, err); /* r->result keeps the cause (e.g. INSUFFICIENT_PRIVILEGES) */
}

/* Stop the session; *all: CUPTI has every pass it needs. */
static int stop(struct gl_cupti_range *r, bool *all, struct gl_err *err)
{
	GL_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params, sp);
	sp.pRangeProfilerObject = r->obj;
	int rc = RP_CALL(r, cuptiRangeProfilerStop, sp, err);
	*all = sp.isAllPassSubmitted;
	return rc;
}

static int run_passes(struct gl_cupti_range *r, gl_cupti_kernel_fn prepare, gl_cupti_kernel_fn launch, void *arg,
		      struct gl_err *err)
{
	for (size_t round = 0; round <= r->passes; round++) {
		int prc = prepare ? prepare(arg, err) : GL_OK;
		if (prc != GL_OK)
			return prc;
		int rc = start(r, err);
		if (rc != GL_OK)
			return rc;
		rc = launch(arg, err);
		bool all = false;
		int src = stop(r, &all, err);
		if (rc != GL_OK || src != GL_OK)
			return rc != GL_OK ? rc : src;
		if (all)
			return GL_OK;
	}
	return gl_errf(err, GL_EINTERNAL, "CUPTI still wanted passes after %zu launches of a %zu-pass config",
		       r->passes + 1, r->passes);
}

static int decode(struct gl_cupti_range *r, double *values, struct gl_err *err)
{
	GL_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params, dp);
	dp.pRangeProfilerObject = r->obj;
	int rc = RP_CALL(r, cuptiRangeProfilerDecodeData, dp, err);
	if (rc != GL_OK)
		return rc;
	GL_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params, ip);
	ip.pCounterDataImage = r->data;
	ip.counterDataImageSize = r->data_size;
	rc = RP_CALL(r, cuptiRangeProfilerGetCounterDataInfo, ip, err);
	if (rc != GL_OK)
		return rc;
	r->ranges = ip.numTotalRanges;
	if (r->ranges < 1)
		return gl_errf(err, GL_EENV, "CUPTI recorded no range for the kernel (%zu dropped); was it launched?",
			       dp.numOfRangeDropped);
	return gl_cupti_host_evaluate(&r->host, r->data, r->data_size, 0, r->names, r->n, values, err);
}

int gl_cupti_range_collect(struct gl_cupti_range *r, gl_cupti_kernel_fn prepare, gl_cupti_kernel_fn launch,
			   void *arg, double *values, struct gl_err *err)
{
	int rc = enable(r, err);
	if (rc == GL_OK)
		rc = set_config(r, err);
	if (rc == GL_OK)
		rc = run_passes(r, prepare, launch, arg, err);
	if (rc == GL_OK)
		rc = decode(r, values, err);
	disable(r);
	return rc;
}

int gl_cupti_range_begin(struct gl_cupti_range *r, struct gl_err *err)
{
	int rc = enable(r, err);
	if (rc == GL_OK)
		rc = set_config(r, err);
	if (rc == GL_OK)
		rc = start(r, err);
	if (rc != GL_OK)
		disable(r);
	return rc;
}

int gl_cupti_range_end(struct gl_cupti_range *r, double *values, struct gl_err *err)
{
	if (!r->obj)
		return gl_errf(err, GL_EINTERNAL, "range profiler ended without a session begun");
	bool all = false; /* kernel replay runs every pass inside the one launch: decoding judges the data */
	int rc = stop(r, &all, err);
	if (rc == GL_OK)
		rc = decode(r, values, err);
	disable(r);
	return rc;
}

void gl_cupti_range_close(struct gl_cupti_range *r)
{
	disable(r);
	if (r->host.obj)
		gl_cupti_host_close(&r->host);
	free(r->avail);
	free(r->config);
	free(r->data);
	r->avail = r->config = r->data = NULL;
}
