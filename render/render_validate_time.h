/* validate_estimate.h — validate's estimate (model) beside the GPU's measured time. */
#ifndef GL_VALIDATE_ESTIMATE_H
#define GL_VALIDATE_ESTIMATE_H

#include <stdio.h>

#include "common/json.h"
#include "store/store.h"

/* The estimate is computed from the simulator's record for the model of `device` (else H100, said). */
void gl_validate_time_line(FILE *out, const struct gl_launch_record *sim, const struct gl_launch_record *gpu,
			   const char *device);
void gl_validate_time_json(struct gl_json *j, const struct gl_launch_record *sim, const struct gl_launch_record *gpu,
			   const char *device);

#endif
