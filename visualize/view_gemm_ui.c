/* view_gemm_ui.c — the gemm view's own keys: the selected thread and warp, the zoom of the warp panel
 * (one C element per cell) and its panning, and the page shown when the terminal is too small for
 * both.  The player tries these before its own keys. */
#include "view_states.h"

/* Rows a body needs to show the tiles and the CTA at once (tiles above, warps and thread below). */
#define BOTH_PAGES_H 38

/* Pages: tiles, CTA (warps and thread), the thread's outer product; from 38 rows the first two share a
 * screen. */
int view_gemm_pages(const struct view_gemm *g, int w, int h)
{
	(void)g;
	(void)w;
	return h >= BOTH_PAGES_H ? 2 : 3;
}

void view_gemm_set_page(const struct view_gemm *g, int page)
{
	g->ui->page = page;
}

/* Zooming in: the window starts at the selected thread's first C element. */
static void zoom_in(const struct view_gemm *g)
{
	struct view_gemm_ui *ui = g->ui;
	ui->zoom = true;
	ui->zr = ui->zc = 0;
	for (long r = g->tile.r0; r <= g->tile.r1; r++)
		for (long c = g->tile.c0; c <= g->tile.c1; c++)
			if (g->owner[r * g->n + c] == ui->thread) {
				ui->zr = r - g->tile.r0;
				ui->zc = c - g->tile.c0;
				return;
			}
}

/* A zoomed window follows the selected thread. */
static void select_thread(const struct view_gemm *g, int t)
{
	int n = g->nthreads > 0 ? g->nthreads : 1;
	g->ui->thread = ((t % n) + n) % n;
	if (g->ui->zoom)
		zoom_in(g);
}

static bool pan(const struct view_gemm *g, long dr, long dc)
{
	struct view_gemm_ui *ui = g->ui;
	if (!ui->zoom)
		return false;
	long rows = g->tile.r1 - g->tile.r0 + 1, cols = g->tile.c1 - g->tile.c0 + 1;
	long half_h = ui->zh > 1 ? ui->zh / 2 : 1, half_w = ui->zw > 1 ? ui->zw / 2 : 1;
	long r = ui->zr + dr * half_h, c = ui->zc + dc * half_w;
	r = r > rows - ui->zh ? rows - ui->zh : r;
	c = c > cols - ui->zw ? cols - ui->zw : c;
	ui->zr = r < 0 ? 0 : r;
	ui->zc = c < 0 ? 0 : c;
	return true;
}

bool view_gemm_key(const struct view_gemm *g, int key)
{
	struct view_gemm_ui *ui = g->ui;
	switch (key) {
	case 'z':
		if (ui->zoom)
			ui->zoom = false;
		else
			zoom_in(g);
		return true;
	case 'H': return pan(g, 0, -1);
	case 'L': return pan(g, 0, 1);
	case 'K': return pan(g, -1, 0);
	case 'J': return pan(g, 1, 0);
	case 't': select_thread(g, ui->thread + 1); return true;
	case 'T': select_thread(g, ui->thread - 1); return true;
	case '}': select_thread(g, ui->thread + 32); return true;
	case '{': select_thread(g, ui->thread - 32); return true;
	case 'v':
	case '\t': ui->page++; return true; /* modulo the pages when drawn */
	default: return false;
	}
}
