/* plot.h — the roofline (every launch as a point against a GPU model's ceilings) and bars per metric
 * per variant, as terminal text and as a self-contained SVG.  Pure: they write to a FILE. */
#ifndef GL_PLOT_H
#define GL_PLOT_H

#include <stdio.h>

#include "insights/gpu_models.h"

struct gl_plot_point {
	char label[72];
	double intensity;   /* FLOP per DRAM byte */
	double gflops;      /* FLOPs / time */
	bool measured;      /* time measured on a GPU; else the estimate (model) */
};

void gl_plot_roofline_text(FILE *out, const struct gl_gpu_model *g, const struct gl_plot_point *p, int n);
void gl_plot_roofline_svg(FILE *out, const struct gl_gpu_model *g, const struct gl_plot_point *p, int n,
			  const char *title);

/* values[m * nseries + s]: metric m of series (variant) s; NAN where unknown. */
struct gl_plot_bars {
	const char *title;
	const char *const *series;
	int nseries;
	const char *const *metrics;
	int nmetrics;
	const double *values;
};

void gl_plot_bars_text(FILE *out, const struct gl_plot_bars *b);
void gl_plot_bars_svg(FILE *out, const struct gl_plot_bars *b);

#endif
