/* validate_rows.h — how `gpulab validate` judges one metric row, the simulator's count beside the
 * GPU's: exact rows agree or differ, a row the GPU did not collect (no CUPTI metrics, a metric the
 * chip lacks) is "not collected" and never a difference, conflict and instruction-total rows are
 * shown for information.  Pure functions, unit-tested without a GPU. */
#ifndef GL_VALIDATE_ROWS_H
#define GL_VALIDATE_ROWS_H

#include "common/metrics.h"

enum gl_vkind { GL_VKIND_EXACT, GL_VKIND_CONFLICT, GL_VKIND_INFO };
enum gl_vrow { GL_VROW_AGREE, GL_VROW_DIFFERS, GL_VROW_NOT_COLLECTED, GL_VROW_SHOWN };

struct gl_vcount {
	int differs;       /* exact rows whose counts differ */
	int not_collected; /* rows with no value from the GPU */
	int agree;         /* exact rows that agree */
};

enum gl_vkind gl_validate_kind(const char *name);
/* NAN when the metric is absent. */
double gl_validate_value(const struct gl_metrics *m, const char *name);
enum gl_vrow gl_validate_row(const char *name, double sim, double gpu);
/* "agree", "DIFFERS", "not collected", "shown" */
const char *gl_validate_row_word(enum gl_vrow row);
/* The remark of an instruction-total row: an estimate of the SASS when the simulator's run was
 * SASS-mapped (its note says "counts: SASS-mapped", docs/sim.md), else PTX beside SASS. */
const char *gl_validate_info_remark(const char *sim_note);
/* Judge every name of the simulator's metric set; adds to *count. */
void gl_validate_count(const struct gl_metrics *sim, const struct gl_metrics *gpu, struct gl_vcount *count);

#endif
