/* cupti_golden.h — counter-data images saved from a real GPU (file.counterdata plus file.txt naming
 * the chip, the metrics and the values the GPU run evaluated), so the decoding path can be tested on
 * machines without one. */
#ifndef GL_CUPTI_GOLDEN_H
#define GL_CUPTI_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

#define GL_GOLDEN_MAX_METRICS 64

struct gl_cupti_golden {
	char chip[32];
	char kernel[64];
	size_t ranges, n;
	char names[GL_GOLDEN_MAX_METRICS][96];
	double values[GL_GOLDEN_MAX_METRICS];
	uint8_t *image;
	size_t size;
};

/* Write DIR/LABEL.counterdata and DIR/LABEL.txt. */
int gl_cupti_golden_save(const char *dir, const char *label, const struct gl_cupti_golden *g, struct gl_err *err);
/* Read PATH.counterdata and PATH.txt (PATH without extension). */
int gl_cupti_golden_load(const char *path, struct gl_cupti_golden *g, struct gl_err *err);
void gl_cupti_golden_free(struct gl_cupti_golden *g);

#endif
