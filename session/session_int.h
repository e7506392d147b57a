/* runner.h — one variant of a topic through a backend: build the launch, run it, collect the metrics,
 * verify the output against the CPU reference, and fill the record the store keeps.  Shared by
 * `gpulab run`, `gpulab validate` and view recording. */
#ifndef GL_RUNNER_H
#define GL_RUNNER_H

#include "kernels/registry.h"
#include "profiler/backend.h"
#include "store/store.h"

struct gl_variant_outcome {
	struct gl_verify verify;
	long sanitizer_errors;
	int passes;
};

/* The values are stored under the backend's metric source.  On success the caller owns rec
 * (gl_launch_record_free). */
int gl_run_variant(const struct gl_backend *b, void *bctx, const struct gl_device_info *dev, const struct gl_topic *t,
		   const struct gl_variant *v, const struct gl_problem *p, struct gl_launch_record *rec,
		   struct gl_variant_outcome *out, struct gl_err *err);

/* Parse "all" or "a,b,c" into variant pointers (at most max); unknown names get a suggestion. */
int gl_parse_variants(const struct gl_topic *t, const char *list, const struct gl_variant **out, int max, int *n,
		      struct gl_err *err);

#endif
