/* view_gemm_model.c — the CUTLASS hierarchy of the traced CTA, derived from its C stores (or, when a
 * kernel never stores C, its loads of C): the CTA tile over C, the grid of such tiles (the launch's
 * grid), the thread storing each C element, every warp's share, and a thread's register tile (the rows
 * and columns of the elements it stores: an outer product of them when it stores every pair). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "view_gemm_int.h"

/* The grid of CTA tiles over C: how many tiles of the shown CTA's size cover C, and where its tile lies
 * (a kernel may map blockIdx.x to rows, as naive does, so the launch grid's x is not always C's
 * columns).  Without C stores, the launch grid. */
static void tile_grid(struct view_gemm *g)
{
	const struct view_box *t = &g->tile;
	if (t->r1 < t->r0) {
		g->tiles_r = g->gy, g->tiles_c = g->gx;
		g->cta_r = g->block / g->gx % g->gy, g->cta_c = g->block % g->gx;
		return;
	}
	long th = t->r1 - t->r0 + 1, tw = t->c1 - t->c0 + 1;
	g->tiles_r = (g->m + th - 1) / th, g->tiles_c = (g->n + tw - 1) / tw;
	g->cta_r = t->r0 / th, g->cta_c = t->c0 / tw;
}

void view_gemm_model(struct view_gemm *g)
{
	const struct view_trace *tr = g->tr;
	g->gx = tr->grid[0] ? tr->grid[0] : 1;
	g->gy = tr->grid[1] ? tr->grid[1] : 1;
	g->nthreads = (int)(tr->block[0] * (tr->block[1] ? tr->block[1] : 1) * (tr->block[2] ? tr->block[2] : 1));
	g->nwarps = (g->nthreads + 31) / 32;
	g->owner = gl_xmalloc((size_t)g->m * (size_t)g->n * sizeof *g->owner);
	memset(g->owner, -1, (size_t)g->m * (size_t)g->n * sizeof *g->owner);
	g->warp_elems = gl_xcalloc((size_t)(g->nwarps ? g->nwarps : 1), sizeof *g->warp_elems);
	g->tile = VG_EMPTY_BOX;
	for (int pass = 0; pass < 2 && !g->tile_elems; pass++) /* stores, else loads of C */
		for (uint32_t i = 0; i < g->nidx; i++) {
			const struct gl_trace_event *e = &tr->ev[g->idx[i]];
			if (vg_global_buffer(g, e) != g->C || (pass == 0) != (e->op == GL_TRACE_ST))
				continue;
			struct view_loc loc;
			VG_FOR_ELEMENTS(g, e, g->C, loc, l)
			{
				if (loc.row >= g->m || loc.col >= g->n) /* C's map shape is the parameters' (view_source.c) */
					continue;
				int *o = &g->owner[loc.row * g->n + loc.col];
				if (*o < 0) {
					g->tile_elems++;
					if ((int)e->warp < g->nwarps)
						g->warp_elems[e->warp]++;
				}
				*o = (int)e->warp * 32 + l;
				vg_box_add(&g->tile, loc.row, loc.col);
			}
		}
	if (g->ui->thread >= g->nthreads)
		g->ui->thread = 0;
	tile_grid(g);
}

int view_gemm_warp_at(const struct view_gemm *g, long r, long c)
{
	if (r < 0 || c < 0 || r >= g->m || c >= g->n)
		return -1;
	int o = g->owner[r * g->n + c];
	return o < 0 ? -1 : o / 32;
}

static void add_sorted(long *v, int *n, long x)
{
	int i = *n;
	for (int k = 0; k < *n; k++)
		if (v[k] == x)
			return;
	if (*n >= VIEW_GEMM_TILE_MAX)
		return;
	while (i > 0 && v[i - 1] > x) {
		v[i] = v[i - 1];
		i--;
	}
	v[i] = x;
	(*n)++;
}

void view_gemm_thread_regs(const struct view_gemm *g, int thread, struct view_gemm_regs *out)
{
	memset(out, 0, sizeof *out);
	const struct view_box *t = &g->tile;
	for (long r = t->r0; r <= t->r1; r++)
		for (long c = t->c0; c <= t->c1; c++)
			if (g->owner[r * g->n + c] == thread) {
				add_sorted(out->rows, &out->nrows, r);
				add_sorted(out->cols, &out->ncols, c);
				out->elems++;
			}
	out->product = out->nrows > 0 && (long)out->nrows * out->ncols == out->elems;
}

/* The run of v starting at i with one step: its length (1 when v[i+1] - v[i] differs next). */
static int run_length(const long *v, int n, int i, long *step)
{
	if (i + 1 >= n) {
		*step = 1;
		return 1;
	}
	*step = v[i + 1] - v[i];
	int len = 2;
	while (i + len < n && v[i + len] - v[i + len - 1] == *step)
		len++;
	return len;
}

void view_ranges(const long *v, int n, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && len < size;) {
		long step;
		int run = run_length(v, n, i, &step);
		const char *sep = i ? "," : "";
		int w;
		if (run >= 3 && step == 1)
			w = snprintf(buf + len, size - len, "%s%ld-%ld", sep, v[i], v[i + run - 1]);
		else if (run >= 3)
			w = snprintf(buf + len, size - len, "%s%ld-%ld every %ld", sep, v[i], v[i + run - 1], step);
		else if (run == 2 && step == 1)
			w = snprintf(buf + len, size - len, "%s%ld-%ld", sep, v[i], v[i + 1]);
		else {
			run = 1;
			w = snprintf(buf + len, size - len, "%s%ld", sep, v[i]);
		}
		len += w > 0 ? (size_t)w : 0;
		i += run;
	}
}
