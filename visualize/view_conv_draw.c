/* view_conv_draw.c — the conv view's picture: the lane's load, the input channel around its pixel with
 * how often each pixel was loaded so far, and the elements of the im2col matrix that are this pixel. */
#include <stdio.h>

#include "view_states.h"

/* "k 0-63" or "k 5" for a range of y coordinates. */
static void range_text(char *buf, size_t n, const char *name, const long r[2])
{
	if (r[0] < 0)
		snprintf(buf, n, "%s -", name);
	else if (r[0] == r[1])
		snprintf(buf, n, "%s %ld", name, r[0]);
	else
		snprintf(buf, n, "%s %ld-%ld", name, r[0], r[1]);
}

static void draw_event(struct view_canvas *cv, int y, const struct view_conv *v, const struct view_conv_frame *f)
{
	const struct view_conv_tile *t = &v->tiles[f->tile];
	int last = f->tile + 1 < v->ntiles ? (int)v->tiles[f->tile + 1].first : v->nsteps;
	char k[32], p[32], q[32];
	range_text(k, sizeof k, "k", t->k);
	range_text(p, sizeof p, "p", t->p);
	range_text(q, sizeof q, "q", t->q);
	view_canvas_printf(cv, y, 0, VS_TITLE, "output tile %d/%d: CTA %u, %ld y store%s (%s, %s, %s); load %d/%d of it",
			   f->tile + 1, v->ntiles, t->block, t->stores, t->stores == 1 ? "" : "s", k, p, q,
			   f->step - (int)t->first + 1, last - (int)t->first);
	const struct gl_trace_event *e = f->e;
	view_canvas_printf(cv, y + 1, 0, VS_PLAIN, "seq %u  block %u  warp %u  %s.global %u B x %d lanes  %u sector%s  PTX line %u",
			   e->seq, e->block, e->warp, gl_trace_op_name(e->op), e->bytes, __builtin_popcount(e->mask),
			   e->cost, e->cost == 1 ? "" : "s", e->line);
	int lanes = __builtin_popcount(e->mask);
	if (f->reread)
		view_canvas_printf(cv, y + 2, 0, VS_WARN, "%d of %d lane%s re-read pixels of this tile: the copies an "
				   "im2col matrix stores", f->reread, lanes, lanes == 1 ? "" : "s");
	else
		view_canvas_printf(cv, y + 2, 0, VS_PLAIN, "%d lane%s, each reading a pixel new to this tile", lanes,
				   lanes == 1 ? "" : "s");
	unsigned loads = f->plane[f->h * v->d.w + f->w];
	view_canvas_printf(cv, y + 3, 0, VS_SELF, "lane %d reads x[n=%ld][c=%ld][h=%ld][w=%ld] (%s, element %ld), loaded %u time%s so far",
			   f->lane, f->n, f->c, f->h, f->w, v->d.nhwc ? "nhwc" : "nchw", f->elem, loads, loads == 1 ? "" : "s");
}

/* First row/column of a window of `cells` over `n`, keeping `at` inside. */
static long window_start(long at, long n, int cells)
{
	long start = at - cells / 2;
	if (start + cells > n)
		start = n - cells;
	return start < 0 ? 0 : start;
}

/* Whether a lane of the frame's warp load reads pixel (h, w) of its image and channel. */
static bool read_now(const struct view_conv *v, const struct view_conv_frame *f, long h, long w)
{
	for (int l = 0; l < 32; l++) {
		if (!(f->e->mask >> l & 1))
			continue;
		long n, c, hh, ww, el = (long)((f->e->addrs[l] - v->x->base) / v->x->elem);
		gl_conv_x_coords(&v->d, el, &n, &c, &hh, &ww);
		if (n == f->n && c == f->c && hh == h && ww == w)
			return true;
	}
	return false;
}

#define PLANE_WINDOW 17 /* rows and columns of the plane shown around the lane's pixel */

/* Returns the rows drawn under the title. */
static int draw_plane(struct view_canvas *cv, int y, int rows, const struct view_conv *v, const struct view_conv_frame *f)
{
	int cols = (int)(v->d.w < PLANE_WINDOW ? v->d.w : PLANE_WINDOW);
	rows = rows < PLANE_WINDOW ? rows : PLANE_WINDOW;
	rows = (int)(v->d.h < rows ? v->d.h : rows);
	long h0 = window_start(f->h, v->d.h, rows), w0 = window_start(f->w, v->d.w, cols);
	view_canvas_printf(cv, y, 0, VS_TITLE, "x[%ld][%ld] rows %ld-%ld cols %ld-%ld", f->n, f->c, h0, h0 + rows - 1,
			   w0, w0 + cols - 1);
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++) {
			long h = h0 + i, w = w0 + j;
			unsigned loads = f->plane[h * v->d.w + w];
			bool self = h == f->h && w == f->w;
			char ch = self ? '@' : loads == 0 ? '.' : loads > 9 ? '+' : (char)('0' + loads);
			int style = self ? VS_SELF : read_now(v, f, h, w) ? VS_NOW : loads ? VS_EARLIER : VS_DIM;
			view_canvas_put(cv, y + 1 + i, 2 * j, ch, style);
		}
	return rows;
}

/* Returns the rows drawn under the title. */
static int draw_uses(struct view_canvas *cv, int y, int rows, int x, const struct view_conv_frame *f)
{
	view_canvas_printf(cv, y, x, VS_TITLE, "im2col: this pixel is A(m, kk) %d time%s", f->nuses,
			   f->nuses == 1 ? "" : "s");
	int listed = f->nuses < VIEW_CONV_MAX_USES ? f->nuses : VIEW_CONV_MAX_USES, i = 0;
	for (; i < listed && i < rows; i++) {
		const struct view_conv_use *u = &f->use[i];
		if (i == rows - 1 && listed > rows) {
			view_canvas_printf(cv, y + 1 + i, x, VS_DIM, "... %d more", f->nuses - i);
			return i + 1;
		}
		view_canvas_printf(cv, y + 1 + i, x, VS_PLAIN, "m %-5ld (p %ld, q %ld)  kk %-4ld (r %ld, s %ld)", u->m, u->p,
				   u->q, u->kk, u->r, u->s);
	}
	return i;
}

static void draw_counts(struct view_canvas *cv, int y, const struct view_conv *v, const struct view_conv_frame *f)
{
	const struct gl_conv_dims *d = &v->d;
	double pixels = (double)d->n * d->c * d->h * d->w;
	double a_elems = (double)d->n * d->p * d->q * d->c * d->r * d->s;
	view_canvas_printf(cv, y, 0, VS_PLAIN, "x loads so far: %llu by lanes, %llu distinct elements (%.2f each)",
			   (unsigned long long)f->lane_loads, (unsigned long long)f->distinct,
			   f->distinct ? (double)f->lane_loads / (double)f->distinct : 0.0);
	view_canvas_printf(cv, y + 1, 0, VS_PLAIN, "im2col matrix: %.0f x %ld = %.0f elements for %.0f pixels (%.2f copies)",
			   (double)d->n * d->p * d->q, d->c * d->r * d->s, a_elems, pixels, a_elems / pixels);
}

void view_conv_draw(const struct view_conv *v, int step, struct view_canvas *cv)
{
	struct view_conv_frame f;
	view_conv_frame(v, step, &f);
	int y = view_draw_header(cv, v->tr, "conv");
	draw_event(cv, y, v, &f);
	int rows = cv->h - y - 9; /* what a screen of cv->h rows holds; a tall canvas shows every use */
	int plane = draw_plane(cv, y + 5, rows, v, &f), uses = draw_uses(cv, y + 5, rows, 38, &f);
	int end = y + 6 + (plane > uses ? plane : uses);
	int counts = end + 1 < cv->h - 3 ? end + 1 : cv->h - 3; /* after a blank row when there is room */
	draw_counts(cv, counts, v, &f);
	view_canvas_text(cv, counts + 2, 0, VS_DIM, "digits: loads of a pixel so far (+ ten or more); @ the lane's pixel; lit: this warp load");
	view_canvas_text(cv, counts + 3, 0, VS_DIM, "] [ the next/previous load that re-reads a pixel; } { the next/previous output tile");
	view_conv_frame_free(&f);
}
