/* view_flash_draw.c — the flash view's picture: the S block grid (Q blocks down, K/V blocks across) with
 * the pair combined now, those done, skipped (causal) and another CTA's; Q, K, V and O as block strips;
 * the global traffic so far; and for the first rows of the Q block, m and l before and after the step, the
 * rescale factor exp(m - m') and what multiplies O, with a few of the step's scores. */
#include <math.h>
#include <stdio.h>

#include "view_states.h"

#define GRID_ROWS 12
#define GRID_COLS 24

static int cell_style(char c)
{
	return c == 'N' ? VS_NOW : c == 'D' ? VS_EARLIER : c == 'x' ? VS_WARN : VS_DIM;
}

static char cell_char(char c)
{
	return c == 'N' ? '#' : c == 'D' ? '+' : c == 'x' ? 'x' : c == 'o' ? '~' : '.';
}

static void draw_grid(const struct view_flash *f, int step, struct view_canvas *cv, int y, int x)
{
	view_canvas_printf(cv, y, x, VS_TITLE, "S blocks %ldx%ld", f->br, f->bc);
	int rows = f->nqb < GRID_ROWS ? f->nqb : GRID_ROWS, cols = f->nkb < GRID_COLS ? f->nkb : GRID_COLS;
	for (int qb = 0; qb < rows; qb++) {
		view_canvas_printf(cv, y + 1 + qb, x, VS_DIM, "q%-2d", qb);
		for (int kb = 0; kb < cols; kb++) {
			char c = view_flash_cell(f, step, qb, kb);
			view_canvas_put(cv, y + 1 + qb, x + 4 + kb, cell_char(c), cell_style(c));
		}
	}
	if (rows < f->nqb || cols < f->nkb)
		view_canvas_printf(cv, y + 1 + rows, x, VS_DIM, "(first %dx%d blocks)", rows, cols);
}

/* One matrix as a strip of blocks: '#' the block used now, '+' used before. */
static void draw_strip(const struct view_flash *f, int step, struct view_canvas *cv, int y, int x, const char *name,
		       int nblocks, bool by_q, const char *note)
{
	const struct view_flash_step *now = &f->steps[step];
	int x0 = view_canvas_printf(cv, y, x, VS_TITLE, "%s ", name);
	int n = nblocks < GRID_COLS ? nblocks : GRID_COLS;
	for (int b = 0; b < n; b++) {
		bool cur = by_q ? now->qb == b : now->kb == b, before = false;
		for (int k = 0; k < step && !before; k++)
			before = by_q ? f->steps[k].qb == b : f->steps[k].kb == b;
		view_canvas_put(cv, y, x0 + b, cur ? '#' : before ? '+' : '.', cur ? VS_NOW : before ? VS_EARLIER : VS_DIM);
	}
	if (note)
		view_canvas_printf(cv, y, x0 + n + 1, VS_PLAIN, "%s", note);
}

static void draw_traffic(const struct view_flash *f, int step, struct view_canvas *cv, int y, int x)
{
	static const char *const names[VIEW_FLASH_BUFS] = {"Q", "K", "V", "O", "m", "l"};
	view_canvas_printf(cv, y, x, VS_TITLE, "global sectors so far");
	view_canvas_printf(cv, y + 1, x, VS_DIM, "     loaded  stored");
	uint64_t total = 0;
	int row = y + 2;
	for (int b = 0; b < VIEW_FLASH_BUFS; b++) {
		if (!f->buf[b])
			continue;
		view_canvas_printf(cv, row++, x, VS_PLAIN, "%-2s %8llu %7llu", names[b], (unsigned long long)f->ld[step][b],
				   (unsigned long long)f->st[step][b]);
		total += f->ld[step][b] + f->st[step][b];
	}
	view_canvas_printf(cv, row, x, VS_PLAIN, "bytes %llu", (unsigned long long)(32 * total));
}

/* m, l before and after combining K/V block kb for the block's first rows. */
static void draw_rows(const struct view_flash *f, const struct view_flash_step *s, struct view_canvas *cv, int y)
{
	long r0 = (long)s->qb * f->br;
	if (s->epilogue) {
		view_canvas_printf(cv, y, 0, VS_TITLE, "row    m final     l final     O = O~ / l  (one division, one write)");
		for (long i = r0; i < r0 + VIEW_FLASH_ROWS && i < f->nq; i++)
			view_canvas_printf(cv, y + 1 + (int)(i - r0), 0, VS_PLAIN, "%-5ld %8.4f %11.4f     x %.6f", i,
					   f->m[i * (f->nkb + 1) + f->nkb], f->l[i * (f->nkb + 1) + f->nkb],
					   1.0 / f->l[i * (f->nkb + 1) + f->nkb]);
		return;
	}
	view_canvas_printf(cv, y, 0, VS_TITLE, "row   m before  m after   l before  l after   e^(m-m')  O scale: %s",
			   f->v1 ? "l e^(m-m')/l'" : "e^(m-m')");
	for (long i = r0; i < r0 + VIEW_FLASH_ROWS && i < f->nq; i++) {
		const double *m = &f->m[i * (f->nkb + 1)], *l = &f->l[i * (f->nkb + 1)];
		double mb = m[s->kb], ma = m[s->kb + 1], lb = l[s->kb], la = l[s->kb + 1];
		double alpha = isinf(mb) ? 0.0 : exp(mb - ma), scale = f->v1 ? (la > 0 ? lb * alpha / la : 0) : alpha;
		char before[16];
		snprintf(before, sizeof before, isinf(mb) ? "-inf" : "%.4f", mb);
		view_canvas_printf(cv, y + 1 + (int)(i - r0), 0, VS_PLAIN, "%-5ld %8s %8.4f %9.4f %8.4f %10.4f %10.4f", i,
				   before, ma, lb, la, alpha, scale);
	}
	long k0 = (long)s->kb * f->bc;
	int x = view_canvas_printf(cv, y + 1 + VIEW_FLASH_ROWS, 0, VS_DIM, "S[%ld][%ld..]/sqrt(d):", r0, k0);
	for (long j = k0; j < k0 + 6 && j < f->nk; j++) {
		double v = f->s[r0 * f->nk + j];
		x = isinf(v) ? view_canvas_printf(cv, y + 1 + VIEW_FLASH_ROWS, x + 1, VS_WARN, "-inf")
			     : view_canvas_printf(cv, y + 1 + VIEW_FLASH_ROWS, x + 1, VS_PLAIN, "%.3f", v);
	}
}

void view_flash_draw(const struct view_flash *f, int step, struct view_canvas *cv)
{
	const struct view_flash_step *s = &f->steps[step];
	int y = view_draw_header(cv, f->tr, "flash");
	if (f->v1)
		view_canvas_printf(cv, y, 0, VS_PLAIN, "FA1 (CTA %ld, head %ld): K/V blocks outer, Q inner; O, m, l via "
				   "global", f->block, f->head);
	else
		view_canvas_printf(cv, y, 0, VS_PLAIN, "FA2 order (CTA %ld owns Q block %d): K/V blocks in a loop; m, l, "
				   "O in registers", f->block, f->steps[0].qb);
	if (s->epilogue)
		view_canvas_printf(cv, y + 1, 0, VS_NOW, "step %d/%d: epilogue: O divided by l once, written once", step + 1,
				   f->nsteps);
	else {
		long r1 = (s->qb + 1) * f->br < f->nq ? (s->qb + 1) * f->br : f->nq;
		long k1 = (s->kb + 1) * f->bc < f->nk ? (s->kb + 1) * f->bc : f->nk;
		view_canvas_printf(cv, y + 1, 0, VS_NOW, "step %d/%d: Q block %d (rows %ld-%ld) x K/V block %d (keys %ld-%ld)",
				   step + 1, f->nsteps, s->qb, (long)s->qb * f->br, r1 - 1, s->kb, (long)s->kb * f->bc, k1 - 1);
	}
	int top = y + 3;
	draw_grid(f, step, cv, top, 0);
	draw_strip(f, step, cv, top, 30, "Q", f->nqb, true, NULL);
	draw_strip(f, step, cv, top + 1, 30, "K", f->nkb, false, NULL);
	draw_strip(f, step, cv, top + 2, 30, "V", f->nkb, false, NULL);
	draw_strip(f, step, cv, top + 3, 30, "O", f->nqb, true,
		   f->v1 ? "read+written" : s->epilogue ? "written" : "in registers");
	draw_traffic(f, step, cv, top, 58);
	int rows = f->nqb < GRID_ROWS ? f->nqb : GRID_ROWS;
	int below = top + 2 + (rows > 8 ? rows : 8);
	draw_rows(f, s, cv, below);
	int end = below + VIEW_FLASH_ROWS + 2; /* the rows' title, the rows, the S line */
	view_canvas_printf(cv, end + 1 < cv->h ? end + 1 : cv->h - 1, 0, VS_DIM, "# now  + done  x causal-skipped  ~ other CTAs  . later  (m, l from the inputs)");
}
