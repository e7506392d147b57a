/* plot_roofline_int.h — what the roofline's text and SVG halves share: the axes and the points' tests. */
#ifndef GL_PLOT_ROOFLINE_INT_H
#define GL_PLOT_ROOFLINE_INT_H

#include "plot.h"

struct roof_axes {
	double x0, x1, y0, y1; /* log10 bounds */
};

bool roof_placed(const struct gl_plot_point *p, int level);
double roof_top(const struct gl_roof_ceilings *c);
struct roof_axes roof_pick_axes(const struct gl_roof_ceilings *c, const struct gl_plot_point *p, int n);

#endif
