/* cupti_catalog.h — the metric catalog of a chip as CUPTI describes it: every base metric (counter,
 * ratio, throughput) with description and units, searching it, and checking a full metric name with
 * a "did you mean" for typos and missing rollups. */
#ifndef GL_CUPTI_CATALOG_H
#define GL_CUPTI_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "profiler/cupti_host.h"

struct gl_cupti_metric {
	char *name;        /* base name, without rollup: "dram__bytes_read" */
	char *description;
	char *unit;        /* CUPTI's dimension unit: "byte", "l1tex_wavefront", "" for plain ratios */
	char *hw_unit;     /* "dram", "l1tex", ... */
	CUpti_MetricType type;
};

struct gl_cupti_catalog {
	char chip[32];
	struct gl_cupti_metric *items; /* sorted by name */
	size_t n;
	size_t per_type[CUPTI_METRIC_TYPE__COUNT];
};

int gl_cupti_catalog_load(struct gl_cupti_host *h, struct gl_cupti_catalog *c, struct gl_err *err);
void gl_cupti_catalog_free(struct gl_cupti_catalog *c);

/* "counter", "ratio", "throughput". */
const char *gl_cupti_type_name(CUpti_MetricType t);
/* Case-insensitive substring of the name or the description; NULL or "" matches all. */
bool gl_cupti_metric_matches(const struct gl_cupti_metric *m, const char *word);

/* Split "sm__throughput.avg.pct_of_peak_sustained_elapsed" at its rollup: base length, or strlen. */
size_t gl_cupti_base_len(const char *name);

/* GL_OK when `name` (with its rollup) is a metric of the host's chip; else GL_EUSAGE with a suggestion:
 * the nearest base metric, or the valid rollups when only the rollup is missing or wrong. */
int gl_cupti_metric_check(struct gl_cupti_host *h, const char *name, struct gl_err *err);

struct gl_metric_list;
/* Check a --metrics list against the host's chip: a metric a set brought in but the chip lacks
 * (GB202 has no dram__bytes_read) is dropped and named in `dropped`; a typed name the chip lacks
 * is a GL_EUSAGE error with a suggestion. */
int gl_cupti_fit_metrics(struct gl_cupti_host *h, struct gl_metric_list *l, char *dropped, size_t n,
			 struct gl_err *err);

/* Nsight Compute's spelling of a CUPTI dimension unit, the one both backends store (the simulator
 * spells its units the same way): the hardware prefix goes ("l1tex_request" -> "request",
 * "l1data_bank_conflict" -> "conflict"), "instruction" -> "inst", "nanosecond" -> "nsecond",
 * "percent" -> "%". */
void gl_cupti_short_unit(const char *unit, char *buf, size_t n);

#endif
