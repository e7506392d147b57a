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

/* The table in pieces, for `run`, which prints each variant's row as soon as it has run (cli/run_stream.c):
 * the title line and the column header, one row per variant (with one indented row per launch of a
 * multi-launch variant), then what needs every row (derived values, notes, guidance, findings).  The
 * variant column is variant_w wide: gl_render_variant_width of the variant names, known before any runs. */
#define GL_RENDER_VARIANT_MIN 12
int gl_render_variant_width(const char *const *names, size_t n);
void gl_render_table_head(FILE *out, const char *title, int variant_w);
void gl_render_table_row(FILE *out, const struct gl_launch_record *l, int variant_w);
void gl_render_table_tail(FILE *out, const struct gl_run_record *r, int print_limit);

#endif
