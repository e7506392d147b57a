/* view_gemm_draw_slabs.c — the CTA's A and B tiles moving along K: A as the CTA tile's rows by one column
 * per K slab, B as one row per K slab by the tile's columns, so every K step moves by a cell whatever
 * the matrix size (a window of slabs around the current one when they do not all fit, and the panel
 * says which it shows).  '#' this slab, '+' loaded before, '.' not yet. */
#include <stdio.h>

#include "view_states.h"

/* The strongest mark over rows r0..r1 x columns c0..c1 of a marks matrix with `cols` columns. */
static int mark_in(const uint8_t *marks, long cols, long r0, long r1, long c0, long c1)
{
	int best = VG_NONE;
	for (long r = r0; r <= r1; r++)
		for (long c = c0; c <= c1; c++)
			if (marks[r * cols + c] > best)
				best = marks[r * cols + c];
	return best;
}

/* The first slab of a window of n slabs around the current one. */
static int window_start(const struct view_gemm *g, const struct view_gemm_frame *f, int n)
{
	int cur = f->slab >= 0 ? f->slab : g->nslabs - 1;
	int s0 = cur - n / 2;
	s0 = s0 > g->nslabs - n ? g->nslabs - n : s0;
	return s0 < 0 ? 0 : s0;
}

static void put_mark(struct view_canvas *cv, int y, int x, int m)
{
	view_canvas_put(cv, y, x,
	                m == VG_NOW       ? '#'
	                : m == VG_EARLIER ? '+'
	                                  : '.',
	                m == VG_NOW       ? VS_NOW
	                : m == VG_EARLIER ? VS_EARLIER
	                                  : VS_DIM);
}

/* The tile's rows (A) or columns (B), or the whole matrix's without C stores. */
static void extent(const struct view_gemm *g, bool b_side, long *lo, long *hi)
{
	bool tiled = g->tile.r1 >= g->tile.r0;
	*lo = !tiled ? 0 : b_side ? g->tile.c0 : g->tile.r0;
	*hi = !tiled ? (b_side ? g->n : g->m) - 1 : b_side ? g->tile.c1 : g->tile.r1;
}

int view_gemm_draw_slabs(struct view_canvas *cv, const struct view_gemm_panel *P, const struct view_gemm *g,
                         const struct view_gemm_frame *f, bool b_side)
{
	long lo, hi;
	extent(g, b_side, &lo, &hi);
	long span = hi - lo + 1;
	/* A: tile rows down, slabs across; B: slabs down, tile columns across */
	int nslab_cells = b_side ? P->h - 1 : P->w;
	nslab_cells = nslab_cells < g->nslabs ? nslab_cells : g->nslabs;
	long per = view_grid_scale(span, b_side ? P->w : P->h - 1);
	int ncells = (int)((span + per - 1) / per);
	int s0 = window_start(g, f, nslab_cells);
	for (int j = 0; j < nslab_cells; j++) {
		int s = s0 + j;
		for (int i = 0; i < ncells; i++) {
			long a = lo + i * per, b = a + per - 1 < hi ? a + per - 1 : hi;
			int m = VG_NONE;
			if (g->slab_k0[s] >= 0)
				m = b_side ? mark_in(f->b, g->n, g->slab_k0[s], g->slab_k1[s], a, b)
				           : mark_in(f->a, g->k, a, b, g->slab_k0[s], g->slab_k1[s]);
			put_mark(cv, P->y + (b_side ? j : i), P->x + (b_side ? i : j), m);
		}
	}
	int rows = b_side ? nslab_cells : ncells;
	view_canvas_printf(cv, P->y + rows, P->x, VS_DIM, "slab%s %d-%d/%d", nslab_cells > 1 ? "s" : "", s0 + 1,
	                   s0 + nslab_cells, g->nslabs);
	return rows + 1;
}

void view_gemm_slab_title(struct view_canvas *cv, int y, int x, const struct view_gemm *g, bool b_side)
{
	long lo, hi;
	extent(g, b_side, &lo, &hi);
	if (b_side)
		view_canvas_printf(cv, y, x, VS_TITLE, "B[k][%ld-%ld]", lo, hi);
	else
		view_canvas_printf(cv, y, x, VS_TITLE, "A[%ld-%ld][k]", lo, hi);
}
