/* metric_sets.h — what `--metrics memory|compute|all|sim|NAME,...` means: named sets of Nsight Compute
 * metric names (the simulator's counts plus DRAM, duration, SM throughput and achieved occupancy). */
#ifndef GL_METRIC_SETS_H
#define GL_METRIC_SETS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"

#define GL_M_DRAM_RD "dram__bytes_read.sum"
#define GL_M_DRAM_WR "dram__bytes_write.sum"
#define GL_M_DURATION "gpu__time_duration.sum"
#define GL_M_SM_THROUGHPUT "sm__throughput.avg.pct_of_peak_sustained_elapsed"
#define GL_M_OCCUPANCY "sm__warps_active.avg.pct_of_peak_sustained_active" /* achieved occupancy */

struct gl_metric_list {
	char **names;
	bool *named;   /* typed by the user (true) or from a set (false): a set's metric may be dropped
			* where a chip lacks it, a typed one is an error there */
	size_t n;
};

/* Expand a --metrics value (NULL or "" means "all"); sets and names may be mixed, duplicates dropped.
 * Names are checked against a chip later (they need a CUPTI host object); unknown set words that
 * are not metric names (no "__") are refused here with a suggestion. */
int gl_metric_list_parse(const char *spec, struct gl_metric_list *out, struct gl_err *err);
void gl_metric_list_add(struct gl_metric_list *l, const char *name, bool named);
/* Remove entry i (keeping the order). */
void gl_metric_list_remove(struct gl_metric_list *l, size_t i);
void gl_metric_list_free(struct gl_metric_list *l);

/* The metrics the simulator reports (common/metrics.h), in a stable order. */
const char *const *gl_metric_set_sim(size_t *n);

/* "memory, compute, all, sim" for help texts. */
const char *gl_metric_set_help(void);
/* The i-th name over every set (a name in two sets comes twice); NULL past the last. */
const char *gl_metric_sets_name(size_t i);

#endif
