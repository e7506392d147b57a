/* view_gemm_draw_thread.c — the selected thread's register tile drawn as the outer product it computes
 * at this k: one cell per accumulator acc[r][c] (its C element's row r down, column c across), '#'
 * where a[r] = A[r][k] times b[c] = B[k][c] is added at this k, '.' for an accumulator that k leaves
 * alone, blank where the thread stores no such C element; beside it, the same in words. */
#include <stdio.h>

#include "view_gemm_int.h"

#define CELL  4 /* columns per accumulator: labels up to 3 digits and a space */
#define LABEL 6 /* "r 112 " */

static bool has(const long *v, int n, long x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* The grid in at most h rows and w columns; what does not fit is counted on the last row. */
static void draw_grid(struct view_canvas *cv, int y, int x, int h, int w, const struct view_gemm *g,
                      const struct view_gemm_frame *f, const struct view_gemm_regs *r)
{
	int ncols = (w - LABEL) / CELL, nrows = h - 1; /* the column labels above */
	ncols = ncols < r->ncols ? ncols : r->ncols;
	if (nrows < r->nrows)
		nrows--; /* and a note of what is left out */
	nrows = nrows < r->nrows ? nrows : r->nrows;
	view_canvas_text(cv, y, x, VS_DIM, "    c");
	for (int j = 0; j < ncols; j++)
		view_canvas_printf(cv, y, x + LABEL + j * CELL - 1, VS_DIM, "%*ld", CELL, r->cols[j]);
	for (int i = 0; i < nrows; i++) {
		long row = r->rows[i];
		view_canvas_printf(cv, y + 1 + i, x, VS_DIM, "r%4ld", row);
		for (int j = 0; j < ncols; j++) {
			long col = r->cols[j];
			bool mine = g->owner[row * g->n + col] == g->ui->thread;
			bool now =
			    mine && (f->epilogue || (has(f->arow, f->narow, row) && has(f->bcol, f->nbcol, col)));
			view_canvas_put(cv, y + 1 + i, x + LABEL + j * CELL + 2,
			                !mine ? ' '
			                : now ? '#'
			                      : '.',
			                now ? VS_NOW : VS_DIM);
		}
	}
	if (nrows < r->nrows || ncols < r->ncols)
		view_canvas_printf(cv, y + 1 + nrows, x, VS_WARN, "%d of %d rows, %d of %d cols: all listed at right",
		                   nrows, r->nrows, ncols, r->ncols);
}

void view_gemm_draw_thread(struct view_canvas *cv, int y, int h, const struct view_gemm *g,
                           const struct view_gemm_frame *f)
{
	int t = g->ui->thread;
	struct view_gemm_regs r;
	view_gemm_thread_regs(g, t, &r);
	if (!r.nrows) {
		view_canvas_printf(cv, y, 0, VS_WARN, "thread %d stores no C element in the trace: no register tile",
		                   t);
		return;
	}
	if (f->epilogue)
		view_canvas_printf(cv, y, 0, VS_TITLE,
		                   "thread %d's %dx%d accumulators acc[r][c]: # stored to C[r][c] now", t, r.nrows,
		                   r.ncols);
	else
		view_canvas_printf(cv, y, 0, VS_TITLE,
		                   "thread %d's %dx%d accumulators at k %ld: # acc[r][c] += A[r][k] * B[k][c]", t,
		                   r.nrows, r.ncols, f->kk);
	int gw = LABEL + CELL * r.ncols + 1, tw = 40;
	gw = gw > cv->w - tw - 2 ? cv->w - tw - 2 : gw;
	draw_grid(cv, y + 1, 0, h - 1, gw, g, f, &r);
	view_gemm_thread_text(cv, y + 1, gw + 2, h - 1, cv->w - gw - 2, g, f);
}
