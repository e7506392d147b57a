/* exercise_ref.h — the CPU references of the exercises (each exercise file names one with `reference:`).  A
 * reference gets the kernel's parameters in order (buffers as host memory, scalars as numbers) and the
 * launch's block, and writes the expected values into the output buffers. */
#ifndef GL_EXERCISE_REF_H
#define GL_EXERCISE_REF_H

#include <stddef.h>

#include "common/err.h"

#define GL_EXREF_MAX 10

struct gl_exref_io {
	int n;                      /* parameters */
	void *ptr[GL_EXREF_MAX];    /* a buffer's host memory; NULL for a scalar */
	size_t count[GL_EXREF_MAX]; /* a buffer's elements */
	double num[GL_EXREF_MAX];   /* a scalar's value */
	unsigned block[3];          /* the launch's block (segmented references read it) */
};

struct gl_exref {
	const char *name;
	const char *shape; /* one letter per parameter: p (pointer) or s (scalar), e.g. "ppss" */
	const char *what;  /* one line, for docs and messages */
	void (*fn)(struct gl_exref_io *io);
};

/* NULL when there is none by that name. */
const struct gl_exref *gl_exref_find(const char *name);
/* The i-th reference (NULL past the last). */
const struct gl_exref *gl_exref_at(size_t i);

#endif
