/* test_visualize_conv.c — the conv view's state on hand-built traces of the conv2d topic: a step per warp
 * load, grouped into output tiles, the re-reads that are its point, the im2col elements of a pixel under
 * stride, padding and dilation in both layouts, and the loads counted so far. */
#include "check.h"
#include "view_fixture.h"
#include "visualize/view.h"
#include "visualize/view_states.h"

#define X0 0x7f0000100000ull

/* A trace of the conv2d topic with problem values by name, x as its only buffer. */
static void conv_trace(struct view_trace *tr, long c, long h, long w, long r, long stride, long pad, long dil,
		       long nhwc)
{
	memset(tr, 0, sizeof *tr);
	tr->t = gl_topic_find("conv2d");
	snprintf(tr->topic, sizeof tr->topic, "conv2d");
	snprintf(tr->variant, sizeof tr->variant, "implicit_gemm");
	gl_problem_defaults(tr->t, &tr->problem);
	const char *names[] = {"n", "c", "h", "w", "k", "r", "s", "stride", "pad", "dilation", "layout"};
	long values[] = {1, c, h, w, 8, r, r, stride, pad, dil, nhwc};
	for (int i = 0; i < 11; i++)
		tr->problem.v[gl_param_index(tr->t, names[i])] = values[i];
	fx_buffer(tr, "x", false, X0, 1, c * h * w);
}

static void uses_under_stride_and_dilation(void)
{
	/* 1 channel, 9x9, 3x3 taps, stride 2, pad 1, dilation 2: P = (9 + 2 - 4 - 1) / 2 + 1 = 4 */
	struct view_trace tr;
	conv_trace(&tr, 1, 9, 9, 3, 2, 1, 2, 0);
	uint64_t a[32] = {0};
	a[3] = X0 + 4 * (3 * 9 + 5); /* lane 3 reads x[0][0][3][5] */
	a[7] = X0 + 4 * (3 * 9 + 5); /* lane 7 the same pixel */
	a[9] = X0 + 4 * 80;          /* lane 9 the last pixel */
	fx_event(&tr, 0, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 1u << 3 | 1u << 7 | 1u << 9, "x", a);
	fx_event(&tr, 0, 0, GL_TRACE_GLOBAL, GL_TRACE_ST, 4, 1u << 3, "x", a); /* a store: not a step */
	uint64_t b[32] = {X0 + 4 * 80}; /* warp 1, lane 0: the last pixel */
	fx_event(&tr, 0, 1, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 1u << 0, "x", b);
	view_fill_costs(tr.ev, tr.n);
	struct view_conv v;
	struct gl_err err = {0};
	CHECK_EQ(view_conv_build(&tr, -1, &v, &err), GL_OK);
	CHECK_EQ(v.nsteps, 2); /* one step per warp load of x; the store is none */
	CHECK_EQ(v.ntiles, 1);
	struct view_conv_frame f;
	view_conv_frame(&v, 0, &f);
	/* lanes 3 and 7 read one pixel in one load: a broadcast, not a re-read; the step is about lane 3 */
	CHECK_EQ(f.reread, 0);
	CHECK_EQ(f.lane, 3);
	CHECK_EQ(f.h, 3);
	CHECK_EQ(f.w, 5);
	/* h = 2p - 1 + 2r = 3: (p, r) = (2, 0), (1, 1), (0, 2); w = 2q - 1 + 2s = 5: (q, s) = (3, 0), (2, 1), (1, 2) */
	CHECK_EQ(f.nuses, 9);
	CHECK_EQ(f.use[0].p, 2);
	CHECK_EQ(f.use[0].q, 3);
	CHECK_EQ(f.use[0].m, 2 * 4 + 3);
	CHECK_EQ(f.use[0].kk, 0);
	CHECK_EQ(f.use[8].m, 0 * 4 + 1);
	CHECK_EQ(f.use[8].kk, 8); /* (c, r, s) = (0, 2, 2) in nchw */
	CHECK_EQ(f.lane_loads, 3);
	CHECK_EQ(f.distinct, 2);
	CHECK_EQ(f.plane[3 * 9 + 5], 2);
	view_conv_frame_free(&f);
	/* warp 1's load re-reads the last pixel, which lane 9 loaded: the point, about its lane 0 */
	view_conv_frame(&v, 1, &f);
	CHECK_EQ(f.reread, 1);
	CHECK_EQ(f.lane, 0);
	CHECK_EQ(f.h, 8);
	CHECK_EQ(f.w, 8);
	CHECK_EQ(f.nuses, 0); /* x[8][8]: 2p - 1 + 2r = 8 has no solution with p < 4 */
	CHECK_EQ(f.lane_loads, 4);
	CHECK_EQ(f.plane[3 * 9 + 5], 2);
	CHECK_EQ(f.plane[8 * 9 + 8], 2);
	view_conv_frame_free(&f);
	CHECK_EQ(view_conv_ops.marks(&v, 0), VIEW_MARK_NEW_WARP);
	CHECK_EQ(view_conv_ops.marks(&v, 1), VIEW_MARK_POINT);
	view_conv_free(&v);
	free(tr.ev);
}

/* Output tiles: the loads of each CTA, its y stores' extent; a pixel loaded by another tile is new to this
 * one. */
static void tiles(void)
{
	struct view_trace tr;
	conv_trace(&tr, 1, 4, 4, 3, 1, 1, 1, 0); /* P = Q = 4, k = 8 */
	fx_buffer(&tr, "y", false, X0 + 0x10000, 1, 8 * 16);
	uint64_t a[32] = {X0 + 4 * 5};
	fx_event(&tr, 0, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 1u, "x", a);
	uint64_t y[32] = {X0 + 0x10000 + 4 * (16 * 2 + 4 * 1 + 3), X0 + 0x10000 + 4 * (16 * 2 + 4 * 2 + 0)};
	fx_event(&tr, 0, 0, GL_TRACE_GLOBAL, GL_TRACE_ST, 4, 3u, "y", y); /* k 2: (p 1, q 3), (p 2, q 0) */
	fx_event(&tr, 1, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 1u, "x", a); /* CTA 1 reads the same pixel */
	fx_event(&tr, 1, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 1u, "x", a); /* and again */
	view_fill_costs(tr.ev, tr.n);
	struct view_conv v;
	struct gl_err err = {0};
	CHECK_EQ(view_conv_build(&tr, -1, &v, &err), GL_OK);
	CHECK_EQ(v.nsteps, 3);
	CHECK_EQ(v.ntiles, 2);
	CHECK_EQ(v.tiles[0].stores, 2);
	CHECK_EQ(v.tiles[0].k[0], 2);
	CHECK_EQ(v.tiles[0].k[1], 2);
	CHECK_EQ(v.tiles[0].p[0], 1);
	CHECK_EQ(v.tiles[0].p[1], 2);
	CHECK_EQ(v.tiles[0].q[0], 0);
	CHECK_EQ(v.tiles[0].q[1], 3);
	CHECK_EQ(v.tiles[1].first, 1);
	CHECK_EQ(v.tiles[1].stores, 0);
	CHECK_EQ(view_conv_tile_of(&v, 2), 1);
	CHECK_EQ(view_conv_ops.marks(&v, 1), VIEW_MARK_NEW_WARP); /* new to tile 1, though tile 0 read it */
	CHECK_EQ(view_conv_ops.marks(&v, 2), VIEW_MARK_POINT);
	view_conv_free(&v);
	free(tr.ev);
}

static void nhwc_taps(void)
{
	/* 4 channels, 5x5, 3x3 taps, stride 1, pad 1: element ((h * 5) + w) * 4 + c */
	struct view_trace tr;
	conv_trace(&tr, 4, 5, 5, 3, 1, 1, 1, 1);
	uint64_t a[32] = {X0 + 4 * ((0 * 5 + 2) * 4 + 3)}; /* x[h 0][w 2][c 3] */
	fx_event(&tr, 0, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 1u, "x", a);
	view_fill_costs(tr.ev, tr.n);
	struct view_conv v;
	struct gl_err err = {0};
	CHECK_EQ(view_conv_build(&tr, -1, &v, &err), GL_OK);
	struct view_conv_frame f;
	view_conv_frame(&v, 0, &f);
	CHECK_EQ(f.c, 3);
	CHECK_EQ(f.h, 0);
	CHECK_EQ(f.w, 2);
	/* h = p - 1 + r = 0: (p, r) = (1, 0), (0, 1); w = q - 1 + s = 2: (q, s) = (3, 0), (2, 1), (1, 2) */
	CHECK_EQ(f.nuses, 6);
	CHECK_EQ(f.use[0].r, 0);
	CHECK_EQ(f.use[0].s, 0);
	CHECK_EQ(f.use[0].m, 1 * 5 + 3);
	CHECK_EQ(f.use[0].kk, (0 * 3 + 0) * 4 + 3); /* (r, s, c) order */
	CHECK_EQ(f.use[5].m, 0 * 5 + 1);
	CHECK_EQ(f.use[5].kk, (1 * 3 + 2) * 4 + 3);
	view_conv_frame_free(&f);
	view_conv_free(&v);
	free(tr.ev);
}

static void refusals(void)
{
	struct view_trace tr;
	conv_trace(&tr, 1, 4, 4, 3, 1, 1, 1, 0);
	struct view_conv v;
	struct gl_err err = {0};
	CHECK_EQ(view_conv_build(&tr, -1, &v, &err), GL_EUSAGE); /* no loads of x */
	CHECK(strstr(err.msg, "no global loads of x") != NULL);
	tr.t = gl_topic_find("gemm");
	snprintf(tr.topic, sizeof tr.topic, "gemm");
	err = (struct gl_err){0};
	CHECK_EQ(view_conv_build(&tr, -1, &v, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "shows the conv2d topic, not gemm") != NULL);
}

int main(void)
{
	uses_under_stride_and_dilation();
	tiles();
	nhwc_taps();
	refusals();
	CHECK_DONE();
}
