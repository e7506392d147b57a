/* view_cmd.h — what `gpulab view` needs beyond the command file: recording a trace when the database
 * has none (the variant on the simulator with --trace, stored as `gpulab run` stores it). */
#ifndef GL_VIEW_CMD_H
#define GL_VIEW_CMD_H

#include "cli.h"
#include "kernels/registry.h"
#include "profiler/backend.h"
#include "store/store.h"

/* Run variant v of topic t on problem p on the simulator with the trace on, in memory only; on success the
 * caller owns rec (gl_launch_record_free). */
int gl_view_compute(struct gl_ctx *ctx, const struct gl_topic *t, const struct gl_variant *v,
                    const struct gl_problem *p, struct gl_device_info *dev, struct gl_launch_record *rec);
/* Store a computed launch as one run, as `gpulab run` stores it; returns the launch's and run's ids. */
int gl_view_store(struct gl_ctx *ctx, struct gl_store *store, const struct gl_device_info *dev,
                  const struct gl_launch_record *rec, long *launch_id, long *run_id);

#endif
