/* view_cmd.h — what `gpulab view` needs beyond the command file: recording a trace when the database
 * has none (the variant on the simulator with --trace, stored as `gpulab run` stores it). */
#ifndef GL_VIEW_CMD_H
#define GL_VIEW_CMD_H

#include "cli.h"
#include "kernels/registry.h"
#include "store/store.h"

/* Run variant v of topic t on problem p on the simulator with the trace on, store it as one run, and
 * return the new launch's id. */
int gl_view_record(struct gl_ctx *ctx, struct gl_store *store, const struct gl_topic *t, const struct gl_variant *v,
                   const struct gl_problem *p, long *launch_id, long *run_id);

#endif
