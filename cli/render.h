/* render.h — printing a stored run (table, JSON, CSV), shared by run and report. */
#ifndef GL_RENDER_H
#define GL_RENDER_H

#include <stdio.h>

#include "cli.h"
#include "store/store.h"

/* print_limit: distinct sanitizer findings printed per launch in the table (0 = all); JSON has all. */
void gl_render_run(FILE *out, const struct gl_run_record *r, enum gl_format fmt, int print_limit);
/* The same, with the JSON's occupancy and estimate for GPU model g (NULL: the run's own, else H100). */
struct gl_gpu_model;
void gl_render_run_gpu(FILE *out, const struct gl_run_record *r, enum gl_format fmt, int print_limit,
		       const struct gl_gpu_model *g);

#endif
