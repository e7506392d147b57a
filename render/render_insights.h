/* render_insights.h — what render.c, report --details and compare print of the insights library:
 * stored guidance lines, and a launch's shared memory, occupancy and estimate in JSON. */
#ifndef GL_RENDER_INSIGHTS_H
#define GL_RENDER_INSIGHTS_H

#include <stdio.h>

#include "common/json.h"
#include "insights/estimate.h"
#include "store/store.h"

/* The GPU model of a stored run: its device's model, else the default (H100). */
const struct gl_gpu_model *gl_render_gpu_of(const struct gl_run_record *r);
/* "  OPT naive: message (est. speedup up to 87%)" per stored rule. */
void gl_render_guidance(FILE *out, const struct gl_launch_record *l);
/* "guidance": [...], "shared_bytes", "occupancy": {...}, "estimate": {...} of one launch. */
void gl_render_json_insights(struct gl_json *j, const struct gl_launch_record *l, const struct gl_gpu_model *g);

/* `report --details`: per launch, Nsight Compute-like sections, estimates for g (render_details.c). */
void gl_render_details(FILE *out, const struct gl_run_record *r, const struct gl_gpu_model *g);
/* `report --details --csv`: one row per launch (JSON: the run's JSON carries every section). */
void gl_render_details_csv(FILE *out, const struct gl_run_record *r, const struct gl_gpu_model *g);

#endif
