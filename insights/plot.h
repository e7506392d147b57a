/* plot.h — the roofline (every launch as a point against a GPU model's ceilings) and bars per metric
 * per variant, as terminal text and as a self-contained SVG.  Pure: they write to a FILE. */
#ifndef GL_PLOT_H
#define GL_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "insights/gpu_models.h"

/* The memory levels of the hierarchical roofline, as Nsight Compute draws it: a launch's FLOPs against
 * the bytes it moves through L1, L2 and DRAM give three intensities at one performance. */
enum gl_roof_level { GL_ROOF_L1, GL_ROOF_L2, GL_ROOF_DRAM, GL_ROOF_LEVELS };

struct gl_plot_point {
	char label[72];
	double intensity[GL_ROOF_LEVELS]; /* FLOP per L1, L2 and DRAM byte */
	double gflops;      /* FLOPs / time */
	bool measured;      /* time measured on a GPU; else the estimate (model) */
};

/* The ceilings drawn for a GPU model: memory levels' bandwidths (GB/s) and compute peaks (GFLOP/s, INT8
 * in GOP/s), 0 where the model has no rate. */
enum gl_roof_compute { GL_ROOF_FP32, GL_ROOF_TC_FP16, GL_ROOF_TC_TF32, GL_ROOF_TC_INT8, GL_ROOF_COMPUTES };
struct gl_roof_ceilings {
	double bw[GL_ROOF_LEVELS];
	double peak[GL_ROOF_COMPUTES];
	bool l2_assumed;
};
void gl_roof_ceilings_of(const struct gl_gpu_model *g, struct gl_roof_ceilings *c);
const char *gl_roof_level_name(enum gl_roof_level l);     /* "L1", "L2", "DRAM" */
const char *gl_roof_compute_name(enum gl_roof_compute k); /* "FP32", "FP16/BF16 tensor", ... */

/* Text: every point drawn (a point whose cell is taken moves to the nearest free cell), with a legend.
 * Marks: launch k at its L1 intensity is the k-th lowercase letter, at L2 the digit k (1-9, then
 * uppercase from the end of the alphabet), at DRAM the k-th uppercase letter. */
void gl_plot_roofline_text(FILE *out, const struct gl_gpu_model *g, const struct gl_plot_point *p, int n);

/* SVG: the layout (every text item's box, placed so that none overlaps another or a marker) computed
 * first, then drawn; the layout is also what the tests check. */
struct gl_plot_text {
	double x, y, w, h;   /* the box, top-left origin */
	char text[160];
	double size;         /* font size; monospace, so the box is exact to the font's advance */
	const char *color;
	bool in_plot;        /* inside the plot area (points, ceilings) rather than the legend or axes */
};
struct gl_plot_mark {
	double x, y;         /* centre */
	int launch;          /* index into the points */
	enum gl_roof_level level;
};
#define GL_PLOT_MAX_TEXT 512
#define GL_PLOT_MAX_MARKS 384
#define GL_PLOT_MAX_LINES 16
struct gl_plot_line {
	double x1, y1, x2, y2;
};
struct gl_roofline_layout {
	double width, height, px0, px1, py0, py1; /* the document and the plot area */
	struct gl_plot_line lines[GL_PLOT_MAX_LINES]; /* roofs, then ceilings: no label crosses one */
	int line_kind[GL_PLOT_MAX_LINES]; /* the roof's gl_roof_level or the ceiling's gl_roof_compute */
	int nlines, nroofs;
	double legend_y[GL_PLOT_MAX_LINES]; /* each line's sample in the legend (same order), and the shapes' */
	double legend_shape_y[GL_ROOF_LEVELS];
	struct gl_plot_text text[GL_PLOT_MAX_TEXT];
	int ntext;
	struct gl_plot_mark marks[GL_PLOT_MAX_MARKS];
	int nmarks;
};
void gl_roofline_layout(const struct gl_gpu_model *g, const struct gl_plot_point *p, int n, const char *title,
			struct gl_roofline_layout *out);
void gl_plot_roofline_svg(FILE *out, const struct gl_gpu_model *g, const struct gl_plot_point *p, int n,
			  const char *title);
/* Whether two boxes overlap (touching edges do not); whether a line segment crosses a box. */
bool gl_plot_boxes_overlap(const struct gl_plot_text *a, const struct gl_plot_text *b);
bool gl_plot_line_crosses(const struct gl_plot_line *s, const struct gl_plot_text *b);

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
