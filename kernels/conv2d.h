/* conv2d.h — the conv2d topic's geometry, for its harness and for the view that maps im2col/implicit
 * GEMM coordinates back to input pixels and filter taps (kernels/conv2d.cu documents the layouts). */
#ifndef GL_CONV2D_H
#define GL_CONV2D_H

#include <stdbool.h>

#include "registry.h"

struct gl_conv_dims {
	long n, c, h, w, k, r, s, stride, pad, dil, p, q;
	bool nhwc;
};

/* The dimensions of a conv2d problem, with the output's P x Q (0 when the filter does not fit). */
struct gl_conv_dims gl_conv_dims_of(const struct gl_problem *pb);
/* Element `i` of x -> (image, channel, row, column) in the problem's layout. */
void gl_conv_x_coords(const struct gl_conv_dims *d, long i, long *n, long *c, long *h, long *w);
/* Element `i` of y -> (image, output channel, output row, output column) in the problem's layout. */
void gl_conv_y_coords(const struct gl_conv_dims *d, long i, long *n, long *k, long *p, long *q);
/* The GEMM's K index (the filter-row position) of tap (c, r, s): (c, r, s) order in nchw, (r, s, c) in nhwc. */
long gl_conv_tap_index(const struct gl_conv_dims *d, long c, long r, long s);

#endif
