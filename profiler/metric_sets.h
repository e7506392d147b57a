/* metric_sets.h — what `--metrics memory|compute|all|sim|NAME,...` means: named sets of Nsight Compute
 * metric names (the simulator's counts plus DRAM, duration, SM throughput and achieved occupancy). */
#ifndef GL_METRIC_SETS_H
#define GL_METRIC_SETS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "profiler/profiler.h"

/* The public half (the sets' names, gl_metric_list, parsing it) is in profiler.h. */

void gl_metric_list_add(struct gl_metric_list *l, const char *name, bool named);
/* Remove entry i (keeping the order). */
void gl_metric_list_remove(struct gl_metric_list *l, size_t i);

#endif
