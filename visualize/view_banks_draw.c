/* view_banks_draw.c — the banks view's picture: the 32 banks across, one row per wavefront, each word
 * a lane reads or writes placed in its bank on the wavefront that serves it (lane numbers in base 32). */
#include <inttypes.h>
#include <stdio.h>

#include "view_states.h"

static void draw_event(struct view_canvas *cv, int y, const struct view_banks_frame *f)
{
	const struct gl_trace_event *e = f->e;
	char lo[64], hi[64];
	view_loc_format(&f->lo, f->lo.buf ? f->lo.buf->base + f->lo.offset : 0, lo, sizeof lo);
	view_loc_format(&f->hi, f->hi.buf ? f->hi.buf->base + f->hi.offset : 0, hi, sizeof hi);
	view_canvas_printf(cv, y, 0, VS_PLAIN, "seq %u  block %u  warp %u  %s.shared %u B x %d lanes  PTX line %u",
	                   e->seq, e->block, e->warp, gl_trace_op_name(e->op), e->bytes, __builtin_popcount(e->mask),
	                   e->line);
	view_canvas_printf(cv, y + 1, 0, VS_PLAIN, "%s .. %s  addr_base 0x%" PRIx64 "  stride %s%" PRId64, lo, hi,
	                   e->addr_base, e->strided ? "" : "none ", e->strided ? e->addr_stride : 0);
}

static void draw_counts(struct view_canvas *cv, int y, const struct view_banks_frame *f)
{
	if (f->conflicts)
		view_canvas_printf(cv, y, 0, VS_WARN,
		                   "this access: %u wavefront%s (ideal %u): %u bank conflict%s, "
		                   "bank %d serves %u words",
		                   f->wavefronts, f->wavefronts == 1 ? "" : "s", f->ideal, f->conflicts,
		                   f->conflicts == 1 ? "" : "s", f->worst_bank, f->worst_words);
	else
		view_canvas_printf(cv, y, 0, VS_GOOD, "this access: %u wavefront%s (ideal %u): no bank conflicts",
		                   f->wavefronts, f->wavefronts == 1 ? "" : "s", f->ideal);
	view_canvas_printf(cv, y + 1, 0, VS_PLAIN,
	                   "so far: %" PRIu64 " instruction%s, %" PRIu64 " wavefront%s, %" PRIu64 " conflict%s",
	                   f->inst_so_far, view_s(f->inst_so_far), f->wf_so_far, view_s(f->wf_so_far),
	                   f->conflicts_so_far, view_s(f->conflicts_so_far));
}

static void draw_lanes(struct view_canvas *cv, int y, const struct view_banks_frame *f)
{
	int lanes[32], style[32];
	for (int l = 0; l < 32; l++) {
		lanes[l] = (f->e->mask >> l & 1) ? l : -1;
		style[l] = view_wf_style(f->lane_wf[l]);
	}
	view_draw_lane_row(cv, y, "lane", lanes, style);
	view_draw_lane_row(cv, y + 1, "bank", f->lane_bank, style);
	view_draw_lane_row(cv, y + 2, "wave", f->lane_wf, style);
}

/* Returns the row after the grid. */
static int draw_grid(struct view_canvas *cv, int y, const struct view_banks_frame *f)
{
	view_canvas_text(cv, y, 0, VS_TITLE, "bank");
	for (int b = 0; b < 32; b++)
		view_canvas_put(cv, y, 7 + 2 * b, view_digit(b), VS_TITLE);
	int rows = cv->h - y - 2, w = 0;
	for (; w < (int)f->wavefronts && w < 32; w++) {
		int row = y + 1 + w;
		if (w == rows - 1 && (int)f->wavefronts > rows) {
			view_canvas_printf(cv, row, 0, VS_WARN, "... %d more wavefront%s", (int)f->wavefronts - w,
			                   (int)f->wavefronts - w == 1 ? "" : "s");
			return row + 1;
		}
		view_canvas_printf(cv, row, 0, VS_DIM, "wf %2d", w);
		for (int b = 0; b < 32; b++) {
			int lane = f->cell_lane[w][b];
			char ch = lane < 0 ? '.' : f->cell_lanes[w][b] > 1 ? '*' : view_digit(lane);
			view_canvas_put(cv, row, 7 + 2 * b, ch, lane < 0 ? VS_DIM : view_wf_style(w));
		}
	}
	return y + 1 + w;
}

void view_banks_draw(const struct view_banks *v, int step, struct view_canvas *cv)
{
	struct view_banks_frame f;
	view_banks_frame(v, step, &f);
	int y = view_draw_header(cv, v->tr, "banks");
	draw_event(cv, y, &f);
	draw_counts(cv, y + 2, &f);
	draw_lanes(cv, y + 4, &f);
	int end = draw_grid(cv, y + 8, &f);
	/* the legend under the grid, after a blank row when there is room */
	view_canvas_text(cv, end + 1 < cv->h ? end + 1 : cv->h - 1, 0, VS_DIM,
	                 "lanes/banks 0-9 a-v (a=10, v=31); * lanes sharing a word (broadcast); . idle");
}
