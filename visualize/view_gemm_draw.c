/* view_gemm_draw.c — the gemm view's screen: what the CTA is and which k this is, then two pages —
 * the tiles (the grid of CTA tiles over C, A and B with this K slab, the shared arrays as filled) and
 * the CTA (every warp's C elements, the selected thread's register tile and outer product: the other
 * file) — side by side in height when the terminal allows, else one at a time (v shows the other). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "view_states.h"

#define GAP 2

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

int view_gemm_wrap(struct view_canvas *cv, int y, int x, int w, int h, int style, const char *text)
{
	int rows = 0;
	const char *p = text;
	while (*p && rows < h) {
		int indent = rows ? 4 : 0; /* continuation lines stand in */
		int room = w - indent, len = (int)strlen(p), take = len;
		if (len > room) { /* break after the last space or comma that fits */
			take = room;
			for (int i = room; i > room / 3; i--)
				if (p[i - 1] == ' ' || p[i - 1] == ',') {
					take = i;
					break;
				}
		}
		char line[512];
		snprintf(line, sizeof line, "%.*s", take, p);
		view_canvas_text(cv, y + rows++, x + indent, style, line);
		p += take;
		while (*p == ' ')
			p++;
	}
	return rows;
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

/* A marks matrix in a panel, power-of-two cells; `hit` (may be NULL) marks cells to draw as '@'.
 * Returns the rows drawn, with the scale note under them. */
static int draw_marks(struct view_canvas *cv, const struct view_gemm_panel *P, const uint8_t *marks, long rows,
                      long cols, bool (*hit)(const void *, const struct view_box *), const void *ctx)
{
	long rpc = view_grid_scale(rows, P->h - 1), cpc = view_grid_scale(cols, P->w);
	int nh = (int)((rows + rpc - 1) / rpc), nw = (int)((cols + cpc - 1) / cpc);
	for (int cy = 0; cy < nh; cy++)
		for (int cx = 0; cx < nw; cx++) {
			struct view_box c;
			view_grid_cell(rows, cols, rpc, cpc, cy, cx, &c);
			int m = cell_mark(marks, cols, &c);
			bool at = hit && hit(ctx, &c);
			char ch = at ? '@' : m == VG_NOW ? '#' : m == VG_EARLIER ? '+' : '.';
			int st = at ? VS_SELF : m == VG_NOW ? VS_NOW : m == VG_EARLIER ? VS_EARLIER : VS_DIM;
			view_canvas_put(cv, P->y + cy, P->x + cx, ch, st);
		}
	view_canvas_printf(cv, P->y + nh, P->x, VS_DIM, "cell %ldx%ld", rpc, cpc);
	return nh + 1;
}

/* C as the grid of CTA tiles: one cell per CTA when they fit; the shown CTA 'o', others ':' and '.'. */
static int draw_grid(struct view_canvas *cv, const struct view_gemm_panel *P, const struct view_gemm *g)
{
	long per_y = view_grid_scale(g->tiles_r, P->h - 1), per_x = view_grid_scale(g->tiles_c, P->w);
	int nh = (int)((g->tiles_r + per_y - 1) / per_y), nw = (int)((g->tiles_c + per_x - 1) / per_x);
	long bx = g->cta_c, by = g->cta_r;
	for (int cy = 0; cy < nh; cy++)
		for (int cx = 0; cx < nw; cx++) {
			bool mine = by / per_y == cy && bx / per_x == cx;
			view_canvas_put(cv, P->y + cy, P->x + cx,
			                mine            ? 'o'
			                : (cy + cx) % 2 ? ':'
			                                : '.',
			                mine ? VS_OWN : VS_DIM);
		}
	view_canvas_printf(cv, P->y + nh, P->x, VS_DIM, "cell %ldx%ld CTA", per_y, per_x);
	return nh + 1;
}

/* The selected thread's reads at this k, as cells of a shared array's region. */
struct reads {
	const struct view_gemm_frame *f;
	const struct view_gemm_smem *s;
	int src;
};

static bool read_hit(const void *ctx, const struct view_box *c)
{
	const struct reads *rd = ctx;
	const long *v = rd->src == 0 ? rd->f->arow : rd->f->bcol;
	int n = rd->src == 0 ? rd->f->narow : rd->f->nbcol;
	long k = rd->f->kk - (rd->src == 0 ? rd->s->c0 : rd->s->r0);
	long kc0 = rd->src == 0 ? c->c0 : c->r0, kc1 = rd->src == 0 ? c->c1 : c->r1;
	if (k < kc0 || k > kc1)
		return false;
	for (int i = 0; i < n; i++) {
		long x = v[i] - (rd->src == 0 ? rd->s->r0 : rd->s->c0);
		if (rd->src == 0 ? x >= c->r0 && x <= c->r1 : x >= c->c0 && x <= c->c1)
			return true;
	}
	return false;
}

static void smem_title(struct view_canvas *cv, int y, int x, const struct view_gemm_smem *s, const char *src)
{
	if (!s->buf)
		view_canvas_printf(cv, y, x, VS_TITLE, "(no %s tile)", src);
	else
		view_canvas_printf(cv, y, x, VS_TITLE, "%s %ldx%ld", s->buf->name, s->rows, s->cols);
}

/* "As = A[0-127][8-15]: A[0+i][8+j] at As[8*i + j], 1024 of 1024 held". */
static void smem_text(const struct view_gemm_smem *s, const char *src, char *buf, size_t n)
{
	if (!s->buf) {
		snprintf(buf, n, "no shared array holds %s: every k is read from global memory", src);
		return;
	}
	char at[96] = "no single stride";
	if (s->affine) { /* "As[8*i + j]", "As[i + 128*j]" */
		char ti[32] = "", tj[32] = "";
		if (s->sr)
			snprintf(ti, sizeof ti, s->sr == 1 ? "i" : "%ld*i", s->sr);
		if (s->sc)
			snprintf(tj, sizeof tj, s->sc == 1 ? "j" : "%ld*j", s->sc);
		char off[32] = "";
		if (s->off0)
			snprintf(off, sizeof off, " + %ld", s->off0);
		snprintf(at, sizeof at, "at %s[%s%s%s%s]", s->buf->name, ti, ti[0] && tj[0] ? " + " : "", tj, off);
	}
	snprintf(buf, n, "%s = %s[%ld-%ld][%ld-%ld]: %s[%ld+i][%ld+j] %s, %ld of %ld held%s", s->buf->name, src, s->r0,
	         s->r0 + s->rows - 1, s->c0, s->c0 + s->cols - 1, src, s->r0, s->c0, at, s->nheld, s->rows * s->cols,
	         s->outside ? " (more outside)" : "");
}

/* A shared-array panel without an array: why, in lines that fit 14 columns. */
static int no_tile(struct view_canvas *cv, const struct view_gemm_panel *P, bool epilogue)
{
	static const char *const none[] = {"none: k is", "read from", "global"}, *const epi[] = {
	                                                                             "epilogue:", "no loads", ""};
	for (int i = 0; i < 3; i++)
		view_canvas_text(cv, P->y + i, P->x, VS_DIM, epilogue ? epi[i] : none[i]);
	return 3;
}

/* Page 1: CTA grid, A, B, As, Bs side by side, then what the shared arrays hold and the counts. */
void view_gemm_draw_tiles(struct view_canvas *cv, int y, int h, const struct view_gemm *g,
                          const struct view_gemm_frame *f)
{
	int pw = (cv->w - 4 * GAP) / 5;
	int gh = h - 1 - 6; /* title above; smem text (2, a third if one wraps), counts (2), legend */
	gh = gh > 17 ? 17 : gh;
	struct view_gemm_panel P[5];
	for (int i = 0; i < 5; i++)
		P[i] = (struct view_gemm_panel){y + 1, i * (pw + GAP), gh, pw};
	view_canvas_printf(cv, y, P[0].x, VS_TITLE, "C %ldx%ld CTAs", g->tiles_r, g->tiles_c);
	view_gemm_slab_title(cv, y, P[1].x, g, false);
	view_gemm_slab_title(cv, y, P[2].x, g, true);
	smem_title(cv, y, P[3].x, &f->sm[0], "As");
	smem_title(cv, y, P[4].x, &f->sm[1], "Bs");
	int used = draw_grid(cv, &P[0], g);
	int r = view_gemm_draw_slabs(cv, &P[1], g, f, false);
	used = r > used ? r : used;
	r = view_gemm_draw_slabs(cv, &P[2], g, f, true);
	used = r > used ? r : used;
	for (int s = 0; s < 2; s++) {
		const struct view_gemm_smem *sm = &f->sm[s];
		struct reads rd = {f, sm, s};
		if (sm->buf && sm->held)
			r = draw_marks(cv, &P[3 + s], sm->held, sm->rows, sm->cols, read_hit, &rd);
		else
			r = no_tile(cv, &P[3 + s], f->epilogue);
		used = r > used ? r : used;
	}
	int ty = y + 1 + used;
	char text[256];
	for (int s = 0; s < 2 && !f->epilogue; s++) {
		smem_text(&f->sm[s], s ? "B" : "A", text, sizeof text);
		ty += view_gemm_wrap(cv, ty, 0, cv->w, 2, VS_PLAIN, text);
	}
	view_canvas_printf(cv, ty++, 0, VS_PLAIN,
	                   "so far: global sectors/requests A %" PRIu64 "/%" PRIu64 "  B %" PRIu64 "/%" PRIu64
	                   "  C %" PRIu64 "/%" PRIu64,
	                   f->a_sect, f->a_req, f->b_sect, f->b_req, f->c_sect, f->c_req);
	view_canvas_printf(cv, ty++, 0, VS_PLAIN,
	                   "shared wavefronts st %" PRIu64 " ld %" PRIu64 ", %" PRIu64 " conflict%s", f->sst_wf,
	                   f->sld_wf, f->s_conflicts, view_s(f->s_conflicts));
	view_canvas_text(cv, ty, 0, VS_DIM, "# this K slab  + earlier  @ what the thread reads at k  o this CTA");
}

static void draw_top(struct view_canvas *cv, int y, const struct view_gemm *g, const struct view_gemm_frame *f)
{
	const struct view_box *t = &g->tile;
	long bx = g->cta_c, by = g->cta_r;
	if (t->r1 < t->r0)
		view_canvas_printf(cv, y, 0, VS_TITLE, "CTA %ld (row %ld col %ld of %ldx%ld) stores no C; %d warp%s",
		                   g->block, by, bx, g->tiles_r, g->tiles_c, g->nwarps, g->nwarps == 1 ? "" : "s");
	else
		view_canvas_printf(
		    cv, y, 0, VS_TITLE,
		    "CTA %ld (row %ld col %ld of %ldx%ld): tile %ldx%ld = C[%ld-%ld][%ld-%ld], %d warp%s", g->block, by,
		    bx, g->tiles_r, g->tiles_c, t->r1 - t->r0 + 1, t->c1 - t->c0 + 1, t->r0, t->r1, t->c0, t->c1,
		    g->nwarps, g->nwarps == 1 ? "" : "s");
	if (f->epilogue)
		view_canvas_printf(cv, y + 1, 0, VS_NOW, "epilogue: C = alpha*acc + beta*C from registers, %ld stores",
		                   g->tile_elems);
	else if (f->slab < 0)
		view_canvas_printf(cv, y + 1, 0, VS_WARN, "k %ld: no load of the CTA has this k", f->kk);
	else
		view_canvas_printf(cv, y + 1, 0, VS_NOW,
		                   "k %ld  K step %d/%d: slab A[%ld-%ld][%ld-%ld], B[%ld-%ld][%ld-%ld]", f->kk,
		                   f->slab + 1, g->nslabs, f->a_now.r0, f->a_now.r1, f->k0, f->k1, f->k0, f->k1,
		                   f->b_now.c0, f->b_now.c1);
}

/* The page shown, and which the next v shows. */
static void draw_footer(struct view_canvas *cv, int pages, int page)
{
	static const char *const next3[] = {"warps and thread", "outer product", "tiles A B As Bs"},
	                         *const next2[] = {"outer product", "tiles and warps"};
	int x = view_canvas_printf(cv, cv->h - 1, 0, VS_WARN, "page %d/%d, v: %s ", page + 1, pages,
	                           pages == 3 ? next3[page] : next2[page]) +
	        1;
	view_canvas_text(cv, cv->h - 1, x, VS_DIM, "z zoom  t T thread  } { warp  ? keys");
}

void view_gemm_draw(const struct view_gemm *g, int step, struct view_canvas *cv)
{
	struct view_gemm_frame f;
	view_gemm_frame(g, step, &f);
	view_draw_header(cv, g->tr, "gemm");
	draw_top(cv, 2, g, &f);
	int pages = view_gemm_pages(g, cv->w, cv->h);
	g->ui->page %= pages;
	int page = g->ui->page;
	int y = 4, h = cv->h - 1 - y;
	if (page == pages - 1) {
		view_gemm_draw_thread(cv, y, h, g, &f);
	} else if (pages == 2) {
		int th = h * 4 / 9 + 1; /* the tiles need fewer rows than the warp panel */
		view_gemm_draw_tiles(cv, y, th, g, &f);
		view_gemm_draw_cta(cv, y + th, h - th, g, &f);
	} else if (page == 0) {
		view_gemm_draw_tiles(cv, y, h, g, &f);
	} else {
		view_gemm_draw_cta(cv, y, h, g, &f);
	}
	draw_footer(cv, pages, page);
	view_gemm_frame_free(&f);
}
