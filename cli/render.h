/* render.h — printing a stored run (table, JSON, CSV), shared by run and report. */
#ifndef GL_RENDER_H
#define GL_RENDER_H

#include <stdio.h>

#include "cli.h"
#include "store/store.h"

/* print_limit: distinct sanitizer findings printed per launch in the table (0 = all); JSON has all. */
void gl_render_run(FILE *out, const struct gl_run_record *r, enum gl_format fmt, int print_limit);

#endif
