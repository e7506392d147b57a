/* cupti_check.c — checking a full metric name against the chip, with suggestions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/cupti_catalog.h"
#include "profiler/cupti_errors.h"
#include "profiler/metric_sets.h"

/* "'.sum', '.avg', '.max', ..." — the first few rollups CUPTI offers for a base metric. */
static void rollups(struct gl_cupti_host *h, const char *base, CUpti_MetricType t, char *buf, size_t n)
{
	GL_CUPTI_PARAMS(CUpti_Profiler_Host_GetSubMetrics_Params, sp);
	sp.pHostObject = h->obj;
	sp.metricType = t;
	sp.pMetricName = base;
	buf[0] = '\0';
	if (h->api->cuptiProfilerHostGetSubMetrics(&sp) != CUPTI_SUCCESS)
		return;
	size_t len = 0, shown = 0;
	for (int pass = 0; pass < 2 && shown == 0; pass++) /* plain rollups (.sum, .avg) first */
		for (size_t i = 0; i < sp.numOfSubmetrics && shown < 6 && len + 1 < n; i++) {
			const char *sub = sp.ppSubMetrics[i];
			if (pass == 0 && strchr(sub + 1, '.'))
				continue;
			len += (size_t)snprintf(buf + len, n - len, "%s%s%s", shown++ ? ", " : "", base, sub);
		}
}

static const char *nearest_base(const struct gl_cupti_catalog *c, const char *base)
{
	const char **names = gl_xcalloc(c->n, sizeof *names);
	for (size_t i = 0; i < c->n; i++)
		names[i] = c->items[i].name;
	const char *near = gl_suggest(base, names, c->n);
	free(names);
	return near;
}

static int explain_bad_name(struct gl_cupti_host *h, const char *name, struct gl_err *err)
{
	struct gl_cupti_catalog c;
	struct gl_err ignore = {0};
	if (gl_cupti_catalog_load(h, &c, &ignore) != GL_OK)
		return gl_errf(err, GL_EUSAGE, "unknown metric '%s' for %s", name, h->chip);
	char base[256], buf[512];
	snprintf(base, sizeof base, "%.*s", (int)gl_cupti_base_len(name), name);
	const struct gl_cupti_metric *hit = NULL;
	for (size_t i = 0; i < c.n && !hit; i++)
		if (strcmp(c.items[i].name, base) == 0)
			hit = &c.items[i];
	if (hit) {
		rollups(h, base, hit->type, buf, sizeof buf);
		gl_errf(err, GL_EUSAGE, "metric '%s' needs a valid rollup for %s, e.g. %s", name, h->chip, buf);
	} else {
		const char *near = nearest_base(&c, base);
		if (near)
			gl_errf(err, GL_EUSAGE, "unknown metric '%s' for %s (did you mean '%s'?); see 'gpulab metrics "
				"--chip %s --search WORD'", name, h->chip, near, h->chip);
		else
			gl_errf(err, GL_EUSAGE, "unknown metric '%s' for %s; see 'gpulab metrics --chip %s --search "
				"WORD'", name, h->chip, h->chip);
	}
	gl_cupti_catalog_free(&c);
	return GL_EUSAGE;
}

int gl_cupti_metric_check(struct gl_cupti_host *h, const char *name, struct gl_err *err)
{
	CUpti_Profiler_Host_GetMetricProperties_Params pp;
	struct gl_err tmp = {0};
	if (gl_cupti_base_len(name) == strlen(name))
		return explain_bad_name(h, name, err); /* properties accept a bare base name; a config does not */
	if (gl_cupti_host_props(h, name, &pp, &tmp) == GL_OK)
		return GL_OK;
	return explain_bad_name(h, name, err);
}

int gl_cupti_fit_metrics(struct gl_cupti_host *h, struct gl_metric_list *l, char *dropped, size_t n,
			 struct gl_err *err)
{
	size_t len = 0;
	if (n)
		dropped[0] = '\0';
	for (size_t i = 0; i < l->n;) {
		struct gl_err e = {0};
		if (gl_cupti_metric_check(h, l->names[i], &e) == GL_OK) {
			i++;
			continue;
		}
		if (l->named[i])
			return gl_errf(err, e.status, "%s", e.msg);
		if (len < n)
			len += (size_t)snprintf(dropped + len, n - len, "%s%s", len ? ", " : "", l->names[i]);
		gl_metric_list_remove(l, i);
	}
	if (l->n == 0)
		return gl_errf(err, GL_EUSAGE, "none of the requested metrics exists on %s (dropped: %s)", h->chip,
			       dropped);
	return GL_OK;
}
