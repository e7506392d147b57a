/* view_mma_draw.c — the mma view's pictures: the fragment map with one lane selected, an ldmatrix
 * beside its swizzled counterpart, and a K step of the CTA with its warps' mma tiles. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "view_states.h"

static const char *const frag_title[3] = {"A 16x16 (a0..a7)", "B 16x8 (b0..b3)", "C/D 16x8 (c0..c3)"};
static const int frag_x[3] = {3, 40, 60};

static void draw_matrix(struct view_canvas *cv, int y, int o, const struct view_mma_matrix *m, int lane)
{
	int x0 = frag_x[o];
	view_canvas_text(cv, y, x0, VS_TITLE, frag_title[o]);
	for (int c = 0; c < m->cols; c++)
		view_canvas_put(cv, y + 1, x0 + 2 * c, view_digit(c), VS_DIM);
	for (int r = 0; r < m->rows; r++) {
		if (o == 0)
			view_canvas_printf(cv, y + 2 + r, 0, VS_DIM, "%2d", r);
		for (int c = 0; c < m->cols; c++) {
			bool mine = m->lane[r][c] == lane;
			view_canvas_put(cv, y + 2 + r, x0 + 2 * c, mine ? (char)('0' + m->elem[r][c]) : view_digit(m->lane[r][c]),
			                mine ? VS_SELF : VS_PLAIN);
			if (mine) /* the gap after the cell marks it: plain text tells lane 3 from element 3 */
				view_canvas_put(cv, y + 2 + r, x0 + 2 * c + 1, '*', VS_SELF);
		}
	}
}

/* "a0(1,2) a1(1,3) ..." for the selected lane's elements of one operand, in register order. */
static int lane_list(struct view_canvas *cv, int y, int x, int o, const struct view_mma_matrix *m, int lane)
{
	static const char names[3] = {'a', 'b', 'c'};
	int rc[8][2], n = 0;
	for (int r = 0; r < m->rows; r++)
		for (int c = 0; c < m->cols; c++)
			if (m->lane[r][c] == lane && m->elem[r][c] < 8) {
				rc[m->elem[r][c]][0] = r, rc[m->elem[r][c]][1] = c;
				n = m->elem[r][c] + 1 > n ? m->elem[r][c] + 1 : n;
			}
	x = view_canvas_printf(cv, y, x, VS_TITLE, "%c:", names[o] - 'a' + 'A');
	for (int i = 0; i < n; i++)
		x = view_canvas_printf(cv, y, x + 1, VS_SELF, "%c%d(%d,%d)", names[o], i, rc[i][0], rc[i][1]);
	return x;
}

static void draw_fragments(const struct view_mma *v, int lane, struct view_canvas *cv, int y)
{
	view_canvas_printf(cv, y, 0, VS_PLAIN, "m16n8k16 lanes 0-9a-v; lane %d (g=%d, t=%d) selected: N* its element N "
	                   "(n/p: lanes)", lane, lane / 4, lane % 4);
	for (int o = 0; o < 3; o++)
		draw_matrix(cv, y + 1, o, &v->frag[o], lane);
	lane_list(cv, y + 19, 0, 0, &v->frag[0], lane);
	int x = lane_list(cv, y + 20, 0, 1, &v->frag[1], lane);
	lane_list(cv, y + 20, x + 2, 2, &v->frag[2], lane);
}

/* ---- ldmatrix */

static void draw_ldm_rows(struct view_canvas *cv, int y, const struct view_mma_ldm *f)
{
	view_canvas_text(cv, y + 1, 0, VS_DIM, "row");
	for (unsigned m = 0; m < f->nmat; m++) {
		int x = 4 + 18 * (int)m;
		view_canvas_printf(cv, y, x, VS_TITLE, "matrix %u rec swz", m);
		view_canvas_text(cv, y + 1, x, VS_DIM, "ln +off    gw gw");
	}
	for (int r = 0; r < 8; r++) {
		int row = y + 2 + r;
		view_canvas_printf(cv, row, 0, VS_DIM, "%d", r);
		for (unsigned m = 0; m < f->nmat; m++) {
			int l = 8 * (int)m + r, x = 4 + 18 * (int)m;
			view_canvas_printf(cv, row, x, VS_PLAIN, "%2d +%-5" PRIu64, l, f->offset[l]);
			view_canvas_put(cv, row, x + 10, view_digit(f->group[l]), view_wf_style(f->wf_rec[l][0]));
			view_canvas_put(cv, row, x + 11, view_digit(f->wf_rec[l][0]), view_wf_style(f->wf_rec[l][0]));
			view_canvas_put(cv, row, x + 13, view_digit(f->group_swz[l]), view_wf_style(f->wf_alt[l][0]));
			view_canvas_put(cv, row, x + 14, view_digit(f->wf_alt[l][0]), view_wf_style(f->wf_alt[l][0]));
		}
	}
}

static void draw_ldmatrix(const struct view_mma *v, int k, struct view_canvas *cv, int y)
{
	struct view_mma_ldm f;
	view_mma_ldmatrix_frame(v, k, &f);
	const struct gl_trace_event *e = f.e;
	view_canvas_printf(cv, y, 0, VS_PLAIN, "ldmatrix %d/%u of warp %d: seq %u, %u matrices, PTX line %u, shared %s",
	                   k + 1, v->nldm, v->warp, e->seq, f.nmat, e->line, f.buf ? f.buf->name : "?");
	int x = view_canvas_printf(cv, y + 1, 0, f.wf > f.nmat ? VS_WARN : VS_GOOD,
	                           "recorded: %u wavefront%s (ideal %u), %u conflict%s", f.wf, view_s(f.wf), f.nmat,
	                           f.wf - f.nmat, view_s(f.wf - f.nmat));
	view_canvas_printf(cv, y + 1, x, f.wf_swz > f.nmat ? VS_WARN : VS_GOOD, " | swizzled: %u, %u conflict%s",
	                   f.wf_swz, f.wf_swz - f.nmat, view_s(f.wf_swz - f.nmat));
	view_canvas_printf(cv, y + 2, 0, VS_PLAIN,
	                   "so far (warp %d): %" PRIu64 " ldmatrix, %" PRIu64 " wavefront%s, %" PRIu64 " conflict%s",
	                   v->warp, f.inst_so_far, f.wf_so_far, view_s(f.wf_so_far), f.conf_so_far, view_s(f.conf_so_far));
	draw_ldm_rows(cv, y + 4, &f);
	view_canvas_text(cv, y + 15, 0, VS_DIM, "ln: the lane giving the 16-byte row, +off: its offset in the array,");
	view_canvas_text(cv, y + 16, 0, VS_DIM, "g: its bank group (addr/16)%8 = banks 4g..4g+3, w: the wavefront reading it;");
	view_canvas_text(cv, y + 17, 0, VS_DIM, "swz: after off ^ ((off>>7)&7)<<4, mma_swizzle's layout (on it: the plain one)");
}

/* ---- K loop */

static int box_text(char *buf, size_t n, const char *name, const struct view_box *b)
{
	if (b->r1 < b->r0)
		return snprintf(buf, n, "%s: none", name);
	return snprintf(buf, n, "%s[%ld..%ld][%ld..%ld]", name, b->r0, b->r1, b->c0, b->c1);
}

static void draw_owners(struct view_canvas *cv, int y, const struct view_mma *v, const struct view_mma_kstep *f)
{
	view_canvas_text(cv, y, 0, VS_TITLE, "CTA -> warp -> mma: a cell per 16x8 mma tile of C, the warp storing it");
	long rows = (f->c_tile.r1 - f->c_tile.r0) / 16 + 1, cols = (f->c_tile.c1 - f->c_tile.c0) / 8 + 1;
	for (long r = 0; r < rows && r < VIEW_MMA_BLOCKS && y + 1 + r < cv->h; r++)
		for (long c = 0; c < cols && c < VIEW_MMA_BLOCKS; c++) {
			int w = f->owner[r][c];
			view_canvas_put(cv, y + 1 + (int)r, 2 + 2 * (int)c, w < 0 ? '.' : view_digit(w),
			                w == v->warp ? VS_SELF : w < 0 ? VS_DIM : VS_PLAIN);
		}
}

static void draw_kstep(const struct view_mma *v, int k, struct view_canvas *cv, int y)
{
	struct view_mma_kstep f;
	view_mma_kstep_frame(v, k, &f);
	char c[64], a[64], b[64];
	box_text(c, sizeof c, "C", &f.c_tile);
	box_text(a, sizeof a, "A", &f.a_now);
	box_text(b, sizeof b, "B", &f.b_now);
	view_canvas_printf(cv, y, 0, VS_PLAIN, "K loop step %d/%d of CTA %ld: it owns %s", k + 1, v->nk, v->block, c);
	view_canvas_printf(cv, y + 1, 0, VS_NOW, "global -> %s  %s", a, b);
	view_canvas_printf(cv, y + 2, 0, VS_PLAIN, "shared written: %s;  warp %d: %" PRIu64 " ldmatrix at this step",
	                   f.staged_into[0] ? f.staged_into : "none", v->warp, f.warp_ldsm_now);
	view_canvas_printf(cv, y + 3, 0, VS_PLAIN,
	                   "so far: LDG %" PRIu64 " req %" PRIu64 " sectors, LDGSTS (cp.async) %" PRIu64 " req %" PRIu64
	                   " sectors", f.gld_req, f.gld_sect, f.ldgsts_req, f.ldgsts_sect);
	view_canvas_printf(cv, y + 4, 0, f.sld_conf ? VS_WARN : VS_PLAIN,
	                   "  LDS %" PRIu64 ", LDSM %" PRIu64 ": %" PRIu64 " load wavefronts (%" PRIu64
	                   " conflicts); %" PRIu64 " store wavefronts",
	                   f.lds, f.ldsm, f.sld_wf, f.sld_conf, f.sst_wf);
	draw_owners(cv, y + 6, v, &f);
}

void view_mma_draw(const struct view_mma *v, int step, struct view_canvas *cv)
{
	int y = view_draw_header(cv, v->tr, "mma");
	if (step < 32)
		draw_fragments(v, step, cv, y);
	else if (step < 32 + (int)v->nldm)
		draw_ldmatrix(v, step - 32, cv, y);
	else
		draw_kstep(v, step - 32 - (int)v->nldm, cv, y);
}
