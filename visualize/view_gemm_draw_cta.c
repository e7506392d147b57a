/* view_gemm_draw_cta.c — the CTA page of the gemm view: the CTA tile with the warp storing each C element
 * (every warp; a cell covering elements of several warps is '*', and z zooms to one element per cell),
 * then the selected thread's register tile and the outer product it computes at this k. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_gemm_int.h"

/* One cell of the warp panel over tile elements c (tile coordinates). */
static void warp_cell(struct view_canvas *cv, int y, int x, const struct view_gemm *g, const struct view_gemm_frame *f,
                      const struct view_box *c)
{
	int warp = -2; /* -2 none seen, -1 several */
	bool self = false, now = false;
	for (long r = c->r0; r <= c->r1; r++)
		for (long k = c->c0; k <= c->c1; k++) {
			long i = (g->tile.r0 + r) * g->n + g->tile.c0 + k;
			int o = g->owner[i];
			if (o < 0)
				continue;
			warp = warp == -2 ? o / 32 : warp == o / 32 ? warp : -1;
			self |= o == g->ui->thread;
			now |= f->c[i] == VG_NOW;
		}
	char ch = self ? '@' : warp == -2 ? '.' : warp == -1 ? '*' : view_digit(warp);
	int st = self ? VS_SELF : now ? VS_NOW : warp < 0 ? VS_DIM : view_wf_style(warp);
	view_canvas_put(cv, y, x, ch, st);
}

/* Which warps the zoom window shows, and the keys for the rest. */
static void window_note(struct view_canvas *cv, int y, int x, const struct view_gemm *g, long r0, long c0, int nh,
                        int nw)
{
	int shown = 0;
	uint64_t seen[4] = {0};
	for (long r = r0; r < r0 + nh; r++)
		for (long c = c0; c < c0 + nw; c++) {
			int w = view_gemm_warp_at(g, g->tile.r0 + r, g->tile.c0 + c);
			if (w >= 0 && w < 256 && !(seen[w / 64] >> (w % 64) & 1)) {
				seen[w / 64] |= 1ull << (w % 64);
				shown++;
			}
		}
	if (shown < g->nwarps)
		view_canvas_printf(cv, y, x, VS_WARN, "%d of %d warps: HJKL pan, z back", shown, g->nwarps);
	else
		view_canvas_printf(cv, y, x, VS_DIM, "all %d warps; HJKL pan, z back", g->nwarps);
}

/* The CTA tile in at most h x w cells; zoomed, the window of ui->zr/zc one element per cell.  Returns
 * the rows used (with the note line). */
static int warp_panel(struct view_canvas *cv, int y, int x, int h, int w, const struct view_gemm *g,
                      const struct view_gemm_frame *f)
{
	struct view_gemm_ui *ui = g->ui;
	long rows = g->tile.r1 - g->tile.r0 + 1, cols = g->tile.c1 - g->tile.c0 + 1;
	long rpc = 1, cpc = 1, r0 = 0, c0 = 0;
	int nh, nw;
	if (ui->zoom) {
		nh = (int)(rows < h ? rows : h);
		nw = (int)(cols < w ? cols : w);
		ui->zh = nh, ui->zw = nw;
		ui->zr = ui->zr > rows - nh ? rows - nh : ui->zr < 0 ? 0 : ui->zr;
		ui->zc = ui->zc > cols - nw ? cols - nw : ui->zc < 0 ? 0 : ui->zc;
		r0 = ui->zr, c0 = ui->zc;
		view_canvas_printf(cv, y - 1, x, VS_TITLE, "zoom C[%ld-%ld][%ld-%ld]", g->tile.r0 + r0,
		                   g->tile.r0 + r0 + nh - 1, g->tile.c0 + c0, g->tile.c0 + c0 + nw - 1);
	} else {
		rpc = view_grid_scale(rows, h), cpc = view_grid_scale(cols, w);
		nh = (int)((rows + rpc - 1) / rpc), nw = (int)((cols + cpc - 1) / cpc);
		view_canvas_printf(cv, y - 1, x, VS_TITLE, "warps over the CTA tile, cell %ldx%ld", rpc, cpc);
	}
	for (int cy = 0; cy < nh; cy++)
		for (int cx = 0; cx < nw; cx++) {
			struct view_box c;
			view_grid_cell(rows, cols, rpc, cpc, cy, cx, &c);
			c.r0 += r0, c.r1 += r0, c.c0 += c0, c.c1 += c0;
			warp_cell(cv, y + cy, x + cx, g, f, &c);
		}
	if (ui->zoom)
		window_note(cv, y + nh, x, g, r0, c0, nh, nw);
	else
		view_canvas_text(cv, y + nh, x, VS_DIM,
		                 rpc * cpc > 1 ? "z: one element per cell" : "one element per cell");
	return nh + 1;
}

/* "8 warps: 2048 C elements each" or each warp's count. */
static void warp_counts(const struct view_gemm *g, char *buf, size_t n)
{
	bool same = true;
	for (int w = 1; w < g->nwarps; w++)
		same &= g->warp_elems[w] == g->warp_elems[0];
	if (same && g->nwarps) {
		snprintf(buf, n, "%d warp%s, %ld C elements each", g->nwarps, g->nwarps == 1 ? "" : "s",
		         g->warp_elems[0]);
		return;
	}
	size_t len = (size_t)snprintf(buf, n, "C elements per warp:");
	for (int w = 0; w < g->nwarps && len < n; w++)
		len += (size_t)snprintf(buf + len, n - len, " %d:%ld", w, g->warp_elems[w]);
}

/* Add v to the set set[0..*n) unless it is there (or the set is full). */
static void add_distinct(long *set, int *n, long v)
{
	int k = 0;
	while (k < *n && set[k] != v)
		k++;
	if (k == *n && *n < VIEW_GEMM_TILE_MAX)
		set[(*n)++] = v;
}

/* The rows and columns a warp stores, as the thread's. */
static void warp_regs(const struct view_gemm *g, int warp, struct view_gemm_regs *out)
{
	memset(out, 0, sizeof *out);
	struct view_gemm_regs one;
	for (int l = 0; l < 32 && warp * 32 + l < g->nthreads; l++) {
		view_gemm_thread_regs(g, warp * 32 + l, &one);
		for (int i = 0; i < one.nrows; i++)
			add_distinct(out->rows, &out->nrows, one.rows[i]);
		for (int i = 0; i < one.ncols; i++)
			add_distinct(out->cols, &out->ncols, one.cols[i]);
		out->elems += one.elems;
	}
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* How many of v are in w (both sorted). */
static int common(const long *v, int nv, const long *w, int nw)
{
	int n = 0;
	for (int i = 0, j = 0; i < nv && j < nw;)
		if (v[i] == w[j])
			n++, i++, j++;
		else if (v[i] < w[j])
			i++;
		else
			j++;
	return n;
}

/* One fact per line (wrapped in the column): the warp's elements, the thread's register tile, what it
 * reads at this k and the accumulators that updates. */
int view_gemm_thread_text(struct view_canvas *cv, int y, int x, int h, int w, const struct view_gemm *g,
                          const struct view_gemm_frame *f)
{
	int t = g->ui->thread, used = 0;
	char text[1024], list[400];
#define LINE(style, ...)                                                                                               \
	do {                                                                                                           \
		snprintf(text, sizeof text, __VA_ARGS__);                                                              \
		used += view_gemm_wrap(cv, y + used, x, w, h - used, style, text);                                     \
	} while (0)
	struct view_gemm_regs wr, r;
	warp_regs(g, t / 32, &wr);
	qsort(wr.rows, (size_t)wr.nrows, sizeof *wr.rows, cmp_long);
	qsort(wr.cols, (size_t)wr.ncols, sizeof *wr.cols, cmp_long);
	LINE(VS_PLAIN, "warp %d stores %ld C elements:", t / 32, wr.elems);
	view_ranges(wr.rows, wr.nrows, list, sizeof list);
	LINE(VS_PLAIN, "  rows %s", list);
	view_ranges(wr.cols, wr.ncols, list, sizeof list);
	LINE(VS_PLAIN, "  cols %s", list);
	view_gemm_thread_regs(g, t, &r);
	LINE(VS_SELF, "thread %d (warp %d lane %d): acc %dx%d%s", t, t / 32, t % 32, r.nrows, r.ncols,
	     r.product ? "" : " (not all pairs)");
	view_ranges(r.rows, r.nrows, list, sizeof list);
	LINE(VS_PLAIN, "  rows %s", list);
	view_ranges(r.cols, r.ncols, list, sizeof list);
	LINE(VS_PLAIN, "  cols %s", list);
	if (f->epilogue) {
		LINE(VS_NOW, "epilogue: stores its %ld accumulators to C", r.elems);
		return used;
	}
	view_ranges(f->arow, f->narow, list, sizeof list);
	LINE(VS_NOW, "k %ld: a = A[%s][%ld] (%d) from %s", f->kk, f->narow ? list : "-", f->kk, f->narow,
	     f->a_from_shared && f->sm[0].buf ? f->sm[0].buf->name : "global");
	int pad = snprintf(NULL, 0, "k %ld:", f->kk);
	if (f->naoff) {
		view_ranges(f->aoff, f->naoff, list, sizeof list);
		LINE(VS_NOW, "%*s   = %s[%s]", pad, "", f->sm[0].buf ? f->sm[0].buf->name : "shared", list);
	}
	view_ranges(f->bcol, f->nbcol, list, sizeof list);
	LINE(VS_NOW, "%*s b = B[%ld][%s] (%d) from %s", pad, "", f->kk, f->nbcol ? list : "-", f->nbcol,
	     f->b_from_shared && f->sm[1].buf ? f->sm[1].buf->name : "global");
	if (f->nboff) {
		view_ranges(f->boff, f->nboff, list, sizeof list);
		LINE(VS_NOW, "%*s   = %s[%s]", pad, "", f->sm[1].buf ? f->sm[1].buf->name : "shared", list);
	}
	int ur = common(f->arow, f->narow, r.rows, r.nrows), uc = common(f->bcol, f->nbcol, r.cols, r.ncols);
	LINE(VS_PLAIN, "acc[i][j] += a[i]*b[j]: %d FMA%s", ur * uc, ur * uc == 1 ? "" : "s");
	LINE(VS_PLAIN, "  update %dx%d accumulators", ur, uc);
#undef LINE
	return used;
}

void view_gemm_draw_cta(struct view_canvas *cv, int y, int h, const struct view_gemm *g,
                        const struct view_gemm_frame *f)
{
	char text[256];
	if (g->tile.r1 < g->tile.r0) {
		view_canvas_text(cv, y, 0, VS_WARN, "no C stores in the trace: no warp or thread tiles to show");
		return;
	}
	int pw = cv->w - 46; /* the thread panel keeps 44 columns */
	pw = pw > 64 ? 64 : pw < 32 ? 32 : pw;
	int ph = h - 1 - 4; /* title; note, counts (2), legend */
	int used = warp_panel(cv, y + 1, 0, ph, pw, g, f);
	warp_counts(g, text, sizeof text);
	view_gemm_wrap(cv, y + 1 + used, 0, pw, 2, VS_PLAIN, text);
	view_canvas_text(cv, y + 3 + used, 0, VS_DIM, "0-9a-v warp * mixed @ thread");
	int tx = pw + 2;
	view_canvas_text(cv, y, tx, VS_TITLE, "selected thread (t/T, warp }/{)");
	view_gemm_thread_text(cv, y + 1, tx, h - 1, cv->w - tx, g, f);
}
