/* session_int.h — what the files of session/ share and nothing outside includes (SQLite's *Int.h
 * convention): one variant of a topic through a backend (session_variant.c), and finishing one launch
 * (session.c). */
#ifndef GL_SESSION_INT_H
#define GL_SESSION_INT_H

#include "session/session.h"

struct gl_variant_outcome {
	struct gl_verify verify;
	long sanitizer_errors;
};

/* Set up variant v of topic t for problem p, run its launches on backend b, collect each launch's record,
 * verify the outputs against the CPU reference and fill rec (the values under the backend's metric
 * source).  On success the caller owns rec (gl_launch_record_free). */
int gl_session_variant(const struct gl_backend *b, void *bctx, const struct gl_device_info *dev,
		       const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p,
		       struct gl_launch_record *rec, struct gl_variant_outcome *out, struct gl_err *err);

/* One launch finished for the store: never verified with sanitizer errors, and the guidance for the run's
 * GPU model g (a multi-launch variant's on its total, which is what readers judge). */
void gl_session_finish_launch(struct gl_launch_record *rec, const struct gl_gpu_model *g);

#endif
