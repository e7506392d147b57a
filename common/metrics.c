/* metrics.c — the metric list. */
#include "metrics.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void gl_metrics_set(struct gl_metrics *m, const char *name, double value, const char *unit)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->items[i].name, name) == 0) {
			m->items[i].value = value;
			return;
		}
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 16;
		m->items = gl_xrealloc(m->items, m->cap * sizeof *m->items);
	}
	struct gl_metric *it = &m->items[m->n++];
	snprintf(it->name, sizeof it->name, "%s", name);
	snprintf(it->unit, sizeof it->unit, "%s", unit ? unit : "");
	it->value = value;
}

const double *gl_metrics_get(const struct gl_metrics *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->items[i].name, name) == 0)
			return &m->items[i].value;
	return NULL;
}

void gl_metrics_free(struct gl_metrics *m)
{
	free(m->items);
	m->items = NULL;
	m->n = m->cap = 0;
}

enum rollup { ROLLUP_SUM, ROLLUP_MAX, ROLLUP_MIN, ROLLUP_WEIGHTED };

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static enum rollup rollup_of(const char *name)
{
	if (ends_with(name, ".sum"))
		return ROLLUP_SUM;
	if (ends_with(name, ".max"))
		return ROLLUP_MAX;
	if (ends_with(name, ".min"))
		return ROLLUP_MIN;
	return ROLLUP_WEIGHTED;
}

void gl_metrics_total_add(struct gl_metrics *total, const struct gl_metrics *launch, int launch_index,
			  double weight_ns)
{
	for (size_t i = 0; i < launch->n; i++) {
		const struct gl_metric *m = &launch->items[i];
		const double *cur = gl_metrics_get(total, m->name);
		double v = m->value;
		switch (rollup_of(m->name)) {
		case ROLLUP_SUM: v = cur ? *cur + v : v; break;
		case ROLLUP_MAX: v = cur && *cur > v ? *cur : v; break;
		case ROLLUP_MIN: v = cur && *cur < v ? *cur : v; break;
		case ROLLUP_WEIGHTED: /* NAN marks a value that cannot be weighted: finish drops it */
			v = !isfinite(weight_ns) || (launch_index > 0 && !cur) ? NAN : (cur ? *cur : 0.0) + v * weight_ns;
			break;
		}
		gl_metrics_set(total, m->name, v, m->unit);
	}
	for (size_t i = 0; i < total->n; i++) /* weighted values this launch lacks */
		if (rollup_of(total->items[i].name) == ROLLUP_WEIGHTED && !gl_metrics_get(launch, total->items[i].name))
			total->items[i].value = NAN;
}

void gl_metrics_total_finish(struct gl_metrics *total, double total_weight_ns)
{
	size_t kept = 0;
	for (size_t i = 0; i < total->n; i++) {
		struct gl_metric *m = &total->items[i];
		if (rollup_of(m->name) == ROLLUP_WEIGHTED) {
			if (isnan(m->value) || !(total_weight_ns > 0))
				continue;
			m->value /= total_weight_ns;
		}
		total->items[kept++] = *m;
	}
	total->n = kept;
}

double gl_metrics_shared_ld_requests(const struct gl_metrics *m)
{
	const double *lds = gl_metrics_get(m, GL_M_SLD_INST), *ldsm = gl_metrics_get(m, GL_M_LDSM_INST);
	if (!lds && !ldsm)
		return NAN;
	return (lds ? *lds : 0) + (ldsm ? *ldsm : 0);
}

double gl_metrics_value_or(const struct gl_metrics *m, const char *name, double fallback)
{
	const double *v = gl_metrics_get(m, name);
	return v ? *v : fallback;
}

double gl_metrics_fp32_flops(const struct gl_metrics *m)
{
	return 2.0 * gl_metrics_value_or(m, GL_M_FFMA, 0) + gl_metrics_value_or(m, GL_M_FADD, 0) +
	       gl_metrics_value_or(m, GL_M_FMUL, 0);
}
