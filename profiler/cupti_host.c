/* cupti_host.c — chips, host objects, config images and pass counts through CUPTI's host API. */
#include "profiler/cupti_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profiler/cupti_catalog.h"
#include "profiler/cupti_errors.h"

int gl_cupti_chips(const struct gl_cupti_api *api, const char *const **names, size_t *n, struct gl_err *err)
{
	GL_CUPTI_PARAMS(CUpti_Profiler_Host_GetSupportedChips_Params, p);
	CUptiResult r = api->cuptiProfilerHostGetSupportedChips(&p);
	if (r != CUPTI_SUCCESS)
		return gl_cupti_fail(api, r, "cuptiProfilerHostGetSupportedChips", err);
	*names = p.ppChipNames;
	*n = p.numChips;
	return GL_OK;
}

void gl_cupti_chips_text(const char *const *names, size_t n, struct gl_str *out)
{
	for (size_t i = 0; i < n; i++)
		gl_str_addf(out, "%s%s", i ? " " : "", names[i]);
}

static const char *case_match(const char *chip, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(chip, names[i]) == 0)
			return names[i];
	return gl_suggest(chip, names, n);
}

int gl_cupti_chip_check(const struct gl_cupti_api *api, const char *chip, struct gl_err *err)
{
	const char *const *names = NULL;
	size_t n = 0;
	int rc = gl_cupti_chips(api, &names, &n, err);
	if (rc != GL_OK)
		return rc;
	for (size_t i = 0; i < n; i++)
		if (strcmp(chip, names[i]) == 0)
			return GL_OK;
	struct gl_str list = {0};
	gl_cupti_chips_text(names, n, &list);
	const char *near = case_match(chip, names, n);
	char hint[96] = "";
	if (near)
		snprintf(hint, sizeof hint, " (did you mean '%s'? names are exact upper case)", near);
	gl_errf(err, GL_EUSAGE, "unknown chip '%s'%s; valid chips: %s", chip, hint, list.buf ? list.buf : "");
	gl_str_free(&list);
	return GL_EUSAGE;
}

int gl_cupti_host_open(struct gl_cupti_host *h, const struct gl_cupti_api *api, const char *chip,
		       const uint8_t *avail, struct gl_err *err)
{
	memset(h, 0, sizeof *h);
	int rc = gl_cupti_chip_check(api, chip, err);
	if (rc != GL_OK)
		return rc;
	GL_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params, p);
	p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
	p.pChipName = chip;
	p.pCounterAvailabilityImage = avail;
	CUptiResult r = api->cuptiProfilerHostInitialize(&p);
	if (r != CUPTI_SUCCESS)
		return gl_cupti_fail(api, r, "cuptiProfilerHostInitialize", err);
	h->api = api;
	h->obj = p.pHostObject;
	snprintf(h->chip, sizeof h->chip, "%s", chip);
	return GL_OK;
}

void gl_cupti_host_close(struct gl_cupti_host *h)
{
	if (h->obj) {
		GL_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, p);
		p.pHostObject = h->obj;
		h->api->cuptiProfilerHostDeinitialize(&p);
	}
	h->obj = NULL;
}

int gl_cupti_host_props(struct gl_cupti_host *h, const char *name, CUpti_Profiler_Host_GetMetricProperties_Params *out,
			struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	out->structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
	out->pHostObject = h->obj;
	out->pMetricName = name;
	CUptiResult r = h->api->cuptiProfilerHostGetMetricProperties(out);
	if (r != CUPTI_SUCCESS)
		return gl_cupti_fail(h->api, r, "cuptiProfilerHostGetMetricProperties", err);
	return GL_OK;
}

static int add_metrics(struct gl_cupti_host *h, const char *const *names, size_t n, struct gl_err *err)
{
	for (size_t i = 0; i < n; i++) {
		int rc = gl_cupti_metric_check(h, names[i], err);
		if (rc != GL_OK)
			return rc;
	}
	GL_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, p);
	p.pHostObject = h->obj;
	p.ppMetricNames = (const char **)names;
	p.numMetrics = n;
	return gl_cupti_fail(h->api, h->api->cuptiProfilerHostConfigAddMetrics(&p), "cuptiProfilerHostConfigAddMetrics",
			     err);
}

int gl_cupti_host_config(struct gl_cupti_host *h, const char *const *names, size_t n, uint8_t **image,
			 size_t *size, struct gl_err *err)
{
	*image = NULL;
	*size = 0;
	if (n == 0)
		return gl_errf(err, GL_EUSAGE, "no metrics to configure (name at least one)");
	int rc = add_metrics(h, names, n, err);
	if (rc != GL_OK)
		return rc;
	GL_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, sp);
	sp.pHostObject = h->obj;
	rc = gl_cupti_fail(h->api, h->api->cuptiProfilerHostGetConfigImageSize(&sp), "cuptiProfilerHostGetConfigImageSize",
			   err);
	if (rc != GL_OK)
		return rc;
	uint8_t *img = gl_xcalloc(1, sp.configImageSize);
	GL_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, gp);
	gp.pHostObject = h->obj;
	gp.configImageSize = sp.configImageSize;
	gp.pConfigImage = img;
	rc = gl_cupti_fail(h->api, h->api->cuptiProfilerHostGetConfigImage(&gp), "cuptiProfilerHostGetConfigImage", err);
	if (rc != GL_OK) {
		free(img);
		return rc;
	}
	*image = img;
	*size = sp.configImageSize;
	return GL_OK;
}

int gl_cupti_image_passes(const struct gl_cupti_api *api, uint8_t *image, size_t size, size_t *passes,
			  struct gl_err *err)
{
	GL_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params, p);
	p.configImageSize = size;
	p.pConfigImage = image;
	int rc = gl_cupti_fail(api, api->cuptiProfilerHostGetNumOfPasses(&p), "cuptiProfilerHostGetNumOfPasses", err);
	*passes = rc == GL_OK ? p.numOfPasses : 0;
	return rc;
}

int gl_cupti_passes(const struct gl_cupti_api *api, const char *chip, const char *const *names, size_t n,
		    size_t *passes, struct gl_err *err)
{
	struct gl_cupti_host h;
	uint8_t *img = NULL;
	size_t size = 0;
	int rc = gl_cupti_host_open(&h, api, chip, NULL, err);
	if (rc != GL_OK)
		return rc;
	rc = gl_cupti_host_config(&h, names, n, &img, &size, err);
	if (rc == GL_OK)
		rc = gl_cupti_image_passes(api, img, size, passes, err);
	free(img);
	gl_cupti_host_close(&h);
	return rc;
}

int gl_cupti_host_evaluate(struct gl_cupti_host *h, const uint8_t *image, size_t size, size_t range,
			   const char *const *names, size_t n, double *values, struct gl_err *err)
{
	GL_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params, p);
	p.pHostObject = h->obj;
	p.pCounterDataImage = image;
	p.counterDataImageSize = size;
	p.rangeIndex = range;
	p.ppMetricNames = (const char **)names;
	p.numMetrics = n;
	p.pMetricValues = values;
	return gl_cupti_fail(h->api, h->api->cuptiProfilerHostEvaluateToGpuValues(&p),
			     "cuptiProfilerHostEvaluateToGpuValues", err);
}
