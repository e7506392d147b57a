/* metrics.c — the metric list. */
#include "metrics.h"

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
