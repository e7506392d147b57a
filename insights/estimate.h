/* estimate.h — the time estimate of a stored launch on a GPU model, through the one model (model.h):
 * a variant of several kernel launches takes the sum of its launches' times.  Always shown as
 * "estimate (model)"; docs/insights.md says what the model ignores and how it was checked. */
#ifndef GL_ESTIMATE_H
#define GL_ESTIMATE_H

#include "common/record.h"
#include "insights/gpu_models.h"
#include "insights/model.h"
#include "insights/occupancy.h"

/* The launch's occupancy input (block size, registers, shared memory) from its record. */
void gl_estimate_occ_input(const struct gl_launch_record *l, struct gl_occ_input *in);
void gl_estimate_launch(const struct gl_gpu_model *g, const struct gl_launch_record *l, struct gl_estimate *out);

/* A change to the counts the model reads (a guidance rule's fix); `arg` is the rule's own. */
typedef void (*gl_model_fix)(struct gl_model_in *in, const struct gl_estimate *now, const void *arg);
/* The launch's estimated time with `fix` applied to each of its kernel launches' counts, in us. */
double gl_estimate_fixed_us(const struct gl_gpu_model *g, const struct gl_launch_record *l, gl_model_fix fix,
			    const void *arg);

#endif
