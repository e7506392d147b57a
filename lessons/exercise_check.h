/* exercise_check.h — `gpulab exercise check`: the learner's file compiled, run at every size in the
 * simulator under the sanitizer, compared with the reference, then measured against the goals. */
#ifndef GL_EXERCISE_CHECK_H
#define GL_EXERCISE_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"
#include "lessons/exercise.h"

struct ex_check_opts {
	const char *file;          /* the learner's .cu */
	uint64_t max_instructions; /* warp instructions per CTA; 0: the simulator's default */
	int threads;               /* CPU threads; 0: all cores */
};

/* Prints the verdict of every size and goal to `out`.  GL_OK: correct and every goal met (*passed set);
 * GL_EVERIFY: a size failed, the sanitizer found errors or a goal was missed; GL_EUSAGE: the file does
 * not compile or has no kernel of the expected signature.  *run_id: the run stored for the measured size
 * (0 when none was stored). */
int ex_check(struct gl_ctx *ctx, const struct exercise *e, const struct ex_check_opts *o, FILE *out,
	     long *run_id);

#endif
