/* view_gemm_draw.c — the gemm view's picture: A, B and C scaled to small grids (what the CTA loads at
 * this K step, what it loaded before, the C tile it owns), the CTA's C tile zoomed with the warp owning
 * each part and thread 0's elements, then the counts so far. */
#include <inttypes.h>
#include <stdio.h>

#include "view_states.h"

void view_gemm_layout(int w, int h, struct view_gemm_layout *L)
{
	int gap = 2;
	L->gw = (w - 3 * gap) / 4;
	L->gw = L->gw > 32 ? 32 : L->gw < 4 ? 4 : L->gw;
	L->y = 5;
	L->gh = h - L->y - 1 - 3; /* titles above, counts (2) and legend below */
	L->gh = L->gh > 32 ? 32 : L->gh < 4 ? 4 : L->gh;
	for (int i = 0; i < 4; i++)
		L->x[i] = i * (L->gw + gap);
	L->counts = L->y + 1 + L->gh;
}

long view_grid_scale(long n, int cells)
{
	long per = 1;
	while (per < n && (n + per - 1) / per > cells)
		per *= 2;
	return per;
}

void view_grid_cell(long rows, long cols, long rpc, long cpc, int cy, int cx, struct view_box *out)
{
	out->r0 = cy * rpc;
	out->c0 = cx * cpc;
	out->r1 = out->r0 + rpc - 1 < rows - 1 ? out->r0 + rpc - 1 : rows - 1;
	out->c1 = out->c0 + cpc - 1 < cols - 1 ? out->c0 + cpc - 1 : cols - 1;
}

/* Cells of a rows x cols matrix in a gh x gw grid, each a power-of-two block of elements. */
struct grid {
	long rpc, cpc;
	int nh, nw;
};

static struct grid grid_for(long rows, long cols, int gh, int gw)
{
	struct grid g = {view_grid_scale(rows, gh), view_grid_scale(cols, gw), 0, 0};
	g.nh = (int)((rows + g.rpc - 1) / g.rpc);
	g.nw = (int)((cols + g.cpc - 1) / g.cpc);
	return g;
}

/* The strongest mark in a cell of a marks matrix. */
static int cell_mark(const uint8_t *marks, long cols, const struct view_box *c)
{
	int best = VG_NONE;
	for (long r = c->r0; r <= c->r1; r++)
		for (long k = c->c0; k <= c->c1; k++)
			if (marks[r * cols + k] > best)
				best = marks[r * cols + k];
	return best;
}

static void scale_note(struct view_canvas *cv, int y, int x, const struct grid *gr)
{
	if (gr->rpc > 1 || gr->cpc > 1)
		view_canvas_printf(cv, y + gr->nh, x, VS_DIM, "cell %ldx%ld", gr->rpc, gr->cpc);
}

static void draw_marks(struct view_canvas *cv, int y, int x, const struct view_gemm_layout *L, const uint8_t *marks,
                       long rows, long cols)
{
	struct grid gr = grid_for(rows, cols, L->gh, L->gw);
	scale_note(cv, y, x, &gr);
	for (int cy = 0; cy < gr.nh; cy++)
		for (int cx = 0; cx < gr.nw; cx++) {
			struct view_box c;
			view_grid_cell(rows, cols, gr.rpc, gr.cpc, cy, cx, &c);
			int m = cell_mark(marks, cols, &c);
			view_canvas_put(cv, y + cy, x + cx,
			                m == VG_NOW       ? '#'
			                : m == VG_EARLIER ? '+'
			                                  : '.',
			                m == VG_NOW       ? VS_NOW
			                : m == VG_EARLIER ? VS_EARLIER
			                                  : VS_DIM);
		}
}

/* C as the grid of CTA tiles over it: every CTA owns a tile the size of the traced CTA's (they are
 * uniform), drawn as a checkerboard of ':' and '.' so the tile edges show; the selected CTA's tile is 'o',
 * what it stores at this step '#'. */
static void draw_c(struct view_canvas *cv, int y, int x, const struct view_gemm_layout *L, const struct view_gemm *g,
                   const struct view_gemm_frame *f)
{
	struct grid gr = grid_for(g->m, g->n, L->gh, L->gw);
	scale_note(cv, y, x, &gr);
	const struct view_box *t = &g->c_tile;
	bool tiled = t->r1 >= t->r0;
	long th = tiled ? t->r1 - t->r0 + 1 : g->m, tw = tiled ? t->c1 - t->c0 + 1 : g->n;
	for (int cy = 0; cy < gr.nh; cy++)
		for (int cx = 0; cx < gr.nw; cx++) {
			struct view_box c;
			view_grid_cell(g->m, g->n, gr.rpc, gr.cpc, cy, cx, &c);
			int m = cell_mark(f->c, g->n, &c);
			bool mine = tiled && c.r0 >= t->r0 && c.r0 <= t->r1 && c.c0 >= t->c0 && c.c0 <= t->c1;
			bool odd = ((c.r0 / th) + (c.c0 / tw)) % 2 == 1;
			char ch = m == VG_NOW ? '#' : mine ? 'o' : odd ? ':' : '.';
			view_canvas_put(cv, y + cy, x + cx, ch, m == VG_NOW ? VS_NOW : mine ? VS_OWN : VS_DIM);
		}
}

/* "C 128x128, 4x4 CTA tiles": how many tiles of the traced CTA's size cover C. */
static void c_title(struct view_canvas *cv, int y, int x, const struct view_gemm *g)
{
	const struct view_box *t = &g->c_tile;
	if (t->r1 < t->r0) {
		view_canvas_printf(cv, y, x, VS_TITLE, "C %ldx%ld", g->m, g->n);
		return;
	}
	long th = t->r1 - t->r0 + 1, tw = t->c1 - t->c0 + 1;
	view_canvas_printf(cv, y, x, VS_TITLE, "C: %ldx%ld CTAs", (g->m + th - 1) / th, (g->n + tw - 1) / tw);
}

/* The CTA's C tile: which warp owns each part, thread 0's elements as '@'. */
static void draw_tile(struct view_canvas *cv, int y, int x, const struct view_gemm_layout *L, const struct view_gemm *g,
                      const struct view_gemm_frame *f)
{
	const struct view_box *t = &g->c_tile;
	if (t->r1 < t->r0) {
		view_canvas_text(cv, y, x, VS_WARN, "no C stores");
		view_canvas_text(cv, y + 1, x, VS_WARN, "in the trace");
		return;
	}
	long rows = t->r1 - t->r0 + 1, cols = t->c1 - t->c0 + 1;
	struct grid gr = grid_for(rows, cols, L->gh, L->gw);
	scale_note(cv, y, x, &gr);
	for (int cy = 0; cy < gr.nh; cy++)
		for (int cx = 0; cx < gr.nw; cx++) {
			struct view_box c;
			view_grid_cell(rows, cols, gr.rpc, gr.cpc, cy, cx, &c);
			int warp = -1;
			bool self = false, now = false;
			for (long r = c.r0; r <= c.r1; r++)
				for (long k = c.c0; k <= c.c1; k++) {
					long i = (t->r0 + r) * g->n + t->c0 + k;
					int o = g->owner[i];
					if (o >= 0 && warp < 0)
						warp = o / 32;
					self |= o >= 0 && o == g->first_warp * 32;
					now |= f->c[i] == VG_NOW;
				}
			char ch = self ? '@' : warp < 0 ? '.' : view_digit(warp);
			int style = self ? VS_SELF : now ? VS_NOW : warp < 0 ? VS_DIM : view_wf_style(warp);
			view_canvas_put(cv, y + cy, x + cx, ch, style);
		}
}

static void range_text(const struct view_box *b, const char *name, char *buf, size_t n)
{
	if (b->r1 < b->r0)
		snprintf(buf, n, "%s: none", name);
	else
		snprintf(buf, n, "%s[%ld..%ld][%ld..%ld]", name, b->r0, b->r1, b->c0, b->c1);
}

static void draw_step(struct view_canvas *cv, int y, const struct view_gemm *g, const struct view_gemm_frame *f)
{
	char a[64], b[64], c[64], w[64], t[64];
	range_text(&g->c_tile, "C", c, sizeof c);
	int x = view_canvas_printf(cv, y, 0, VS_TITLE, "CTA %ld owns %s (%d warps)", g->block, c, g->warps);
	range_text(&f->a_now, "A", a, sizeof a);
	range_text(&f->b_now, "B", b, sizeof b);
	if (f->epilogue) {
		view_canvas_printf(cv, y, x + 3, VS_NOW, "epilogue (step %d/%d)", f->step + 1, f->nsteps);
		view_canvas_printf(cv, y + 1, 0, VS_PLAIN, "writes %s = alpha*acc + beta*C, from registers", c);
	} else {
		if (f->k_lo == f->k_hi)
			view_canvas_printf(cv, y, x + 3, VS_NOW, "K step %d/%d: k %ld", f->step + 1, f->nsteps - 1,
			                   f->k_lo);
		else
			view_canvas_printf(cv, y, x + 3, VS_NOW, "K step %d/%d: k %ld..%ld", f->step + 1, f->nsteps - 1,
			                   f->k_lo, f->k_hi);
		view_canvas_printf(cv, y + 1, 0, VS_PLAIN, "loads %s, %s -> %s", a, b,
		                   g->staged ? (f->staged_into[0] ? f->staged_into : "shared memory") : "registers");
	}
	range_text(&g->warp_tile, "C", w, sizeof w);
	range_text(&g->thread_tile, "C", t, sizeof t);
	view_canvas_printf(cv, y + 2, 0, VS_PLAIN, "warp %d owns %ld of %s; thread %d owns %ld of %s", g->first_warp,
	                   g->warp_elems, w, g->first_warp * 32, g->thread_elems, t);
}

static void draw_counts(struct view_canvas *cv, int y, const struct view_gemm *g, const struct view_gemm_frame *f)
{
	view_canvas_printf(cv, y, 0, VS_PLAIN,
	                   "so far: global sectors/requests A %" PRIu64 "/%" PRIu64 "  B %" PRIu64 "/%" PRIu64
	                   "  C %" PRIu64 "/%" PRIu64,
	                   f->a_sect, f->a_req, f->b_sect, f->b_req, f->c_sect, f->c_req);
	int x = view_canvas_printf(cv, y + 1, 0, VS_PLAIN,
	                           "shared wavefronts st %" PRIu64 " ld %" PRIu64 ", %" PRIu64 " conflicts;", f->sst_wf,
	                           f->sld_wf, f->s_conflicts);
	view_canvas_printf(cv, y + 1, x + 1, f->k_done == g->k ? VS_GOOD : VS_PLAIN, "acc k %ld/%ld", f->k_done, g->k);
}

/* The thread's register tile and this step's outer products, where the rows below the panels allow. */
static void draw_thread(struct view_canvas *cv, int y, const struct view_gemm *g, const struct view_gemm_frame *f)
{
	if (!g->ntrows)
		return;
	char rows[96], cols[96];
	view_ranges(g->trows, g->ntrows, rows, sizeof rows);
	view_ranges(g->tcols, g->ntcols, cols, sizeof cols);
	view_canvas_printf(cv, y, 0, VS_TITLE, "thread %d: acc %dx%d%s in registers = C rows %s x cols %s",
	                   g->first_warp * 32, g->ntrows, g->ntcols, g->thread_outer ? "" : " (part)", rows, cols);
	if (f->epilogue || f->k_lo < 0)
		view_canvas_printf(cv, y + 1, 0, VS_PLAIN, "epilogue: C[r][c] = alpha*acc[r][c] + beta*C[r][c] for those %ld",
		                   g->thread_elems);
	else
		view_canvas_printf(cv, y + 1, 0, VS_PLAIN,
		                   "per k: acc += A[rows][k] (%d) x B[k][cols] (%d): %d FMA%s; now k %ld..%ld",
		                   g->ntrows, g->ntcols, g->ntrows * g->ntcols, g->ntrows * g->ntcols == 1 ? "" : "s",
		                   f->k_lo, f->k_hi);
}

void view_gemm_draw(const struct view_gemm *g, int step, struct view_canvas *cv)
{
	struct view_gemm_frame f;
	struct view_gemm_layout L;
	view_gemm_frame(g, step, &f);
	view_gemm_layout(cv->w, cv->h, &L);
	view_draw_header(cv, g->tr, "gemm");
	draw_step(cv, 2, g, &f);
	view_canvas_printf(cv, L.y, L.x[0], VS_TITLE, "A %ldx%ld", g->m, g->k);
	view_canvas_printf(cv, L.y, L.x[1], VS_TITLE, "B %ldx%ld", g->k, g->n);
	c_title(cv, L.y, L.x[2], g);
	view_canvas_printf(cv, L.y, L.x[3], VS_TITLE, "CTA tile, warps");
	draw_marks(cv, L.y + 1, L.x[0], &L, f.a, g->m, g->k);
	draw_marks(cv, L.y + 1, L.x[1], &L, f.b, g->k, g->n);
	draw_c(cv, L.y + 1, L.x[2], &L, g, &f);
	draw_tile(cv, L.y + 1, L.x[3], &L, g, &f);
	struct grid tallest = grid_for(g->m > g->k ? g->m : g->k, 1, L.gh, L.gw); /* A, B or C: the most rows */
	int below = L.y + 1 + tallest.nh + 1;                                    /* and the scale note */
	if (below + 2 <= L.counts)
		draw_thread(cv, L.counts - 2, g, &f);
	draw_counts(cv, L.counts, g, &f);
	view_canvas_text(cv, cv->h - 1, 0, VS_DIM,
	                 "# this step  + earlier  o this CTA's tile  : . other CTAs  0-9a-v warp  @ thread");
	view_gemm_frame_free(&f);
}
