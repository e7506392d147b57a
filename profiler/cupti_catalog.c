/* cupti_catalog.c — listing, searching and checking metric names with CUPTI's host API. */
#define _GNU_SOURCE
#include "profiler/cupti_catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/cupti_errors.h"

const char *gl_cupti_type_name(CUpti_MetricType t)
{
	switch (t) {
	case CUPTI_METRIC_TYPE_COUNTER:
		return "counter";
	case CUPTI_METRIC_TYPE_RATIO:
		return "ratio";
	case CUPTI_METRIC_TYPE_THROUGHPUT:
		return "throughput";
	default:
		return "unknown";
	}
}

static char *dup_or_empty(const char *s) { return gl_xstrdup(s ? s : ""); }

static int add_type(struct gl_cupti_host *h, struct gl_cupti_catalog *c, CUpti_MetricType t, struct gl_err *err)
{
	GL_CUPTI_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params, bp);
	bp.pHostObject = h->obj;
	bp.metricType = t;
	int rc = gl_cupti_fail(h->api, h->api->cuptiProfilerHostGetBaseMetrics(&bp), "cuptiProfilerHostGetBaseMetrics",
			       err);
	if (rc != GL_OK)
		return rc;
	c->items = gl_xrealloc(c->items, (c->n + bp.numMetrics) * sizeof *c->items);
	for (size_t i = 0; i < bp.numMetrics; i++) {
		CUpti_Profiler_Host_GetMetricProperties_Params pp;
		struct gl_cupti_metric *m = &c->items[c->n++];
		memset(m, 0, sizeof *m);
		m->name = dup_or_empty(bp.ppMetricNames[i]);
		m->type = t;
		struct gl_err ignore = {0}; /* a metric without properties still gets listed */
		if (gl_cupti_host_props(h, bp.ppMetricNames[i], &pp, &ignore) == GL_OK) {
			m->description = dup_or_empty(pp.pDescription);
			m->unit = dup_or_empty(pp.pDimUnit);
			m->hw_unit = dup_or_empty(pp.pHwUnit);
		} else {
			m->description = dup_or_empty(NULL);
			m->unit = dup_or_empty(NULL);
			m->hw_unit = dup_or_empty(NULL);
		}
	}
	c->per_type[t] = bp.numMetrics;
	return GL_OK;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct gl_cupti_metric *)a)->name, ((const struct gl_cupti_metric *)b)->name);
}

int gl_cupti_catalog_load(struct gl_cupti_host *h, struct gl_cupti_catalog *c, struct gl_err *err)
{
	memset(c, 0, sizeof *c);
	snprintf(c->chip, sizeof c->chip, "%s", h->chip);
	for (int t = 0; t < CUPTI_METRIC_TYPE__COUNT; t++) {
		int rc = add_type(h, c, (CUpti_MetricType)t, err);
		if (rc != GL_OK) {
			gl_cupti_catalog_free(c);
			return rc;
		}
	}
	qsort(c->items, c->n, sizeof *c->items, by_name);
	return GL_OK;
}

void gl_cupti_catalog_free(struct gl_cupti_catalog *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->items[i].name);
		free(c->items[i].description);
		free(c->items[i].unit);
		free(c->items[i].hw_unit);
	}
	free(c->items);
	memset(c, 0, sizeof *c);
}

bool gl_cupti_metric_matches(const struct gl_cupti_metric *m, const char *word)
{
	if (!word || !*word)
		return true;
	return strcasestr(m->name, word) || strcasestr(m->description, word);
}

size_t gl_cupti_base_len(const char *name)
{
	const char *sep = strstr(name, "__");
	const char *dot = strchr(sep ? sep : name, '.');
	return dot ? (size_t)(dot - name) : strlen(name);
}

void gl_cupti_short_unit(const char *unit, char *buf, size_t n)
{
	/* CUPTI's dimension units carry the hardware unit ("l1tex_request", "l2_sector",
	 * "l1data_bank_conflict"); Nsight Compute shows the last word, and abbreviates a few. */
	static const struct {
		const char *cupti, *shown;
	} abbrev[] = {{"instruction", "inst"}, {"nanosecond", "nsecond"}, {"microsecond", "usecond"},
		      {"millisecond", "msecond"}, {"percent", "%"}};
	const char *u = unit ? unit : "";
	const char *last = strrchr(u, '_');
	if (last && last[1])
		u = last + 1;
	for (size_t i = 0; i < sizeof abbrev / sizeof abbrev[0]; i++)
		if (strcmp(u, abbrev[i].cupti) == 0)
			u = abbrev[i].shown;
	snprintf(buf, n, "%s", u);
}
