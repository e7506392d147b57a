/* view_coalesce_draw.c — the coalesce view's picture: a warp's 32 lanes, the 32-byte sectors and the
 * 128-byte lines their addresses touch, one line per row with a character per 4-byte word. */
#include <inttypes.h>
#include <stdio.h>

#include "view_states.h"

static void draw_event(struct view_canvas *cv, int y, const struct view_coalesce_frame *f)
{
	const struct gl_trace_event *e = f->e;
	char lo[64], hi[64];
	view_loc_format(&f->lo, f->lo_addr, lo, sizeof lo);
	view_loc_format(&f->hi, f->hi_addr, hi, sizeof hi);
	view_canvas_printf(cv, y, 0, VS_PLAIN, "seq %u  block %u  warp %u  %s.global %u B x %d lanes  PTX line %u",
	                   e->seq, e->block, e->warp, gl_trace_op_name(e->op), e->bytes, __builtin_popcount(e->mask),
	                   e->line);
	if (e->strided)
		view_canvas_printf(cv, y + 1, 0, VS_PLAIN, "%s .. %s  addr_base 0x%" PRIx64 "  stride %" PRId64 " B", lo,
		                   hi, e->addr_base, e->addr_stride);
	else
		view_canvas_printf(cv, y + 1, 0, VS_PLAIN, "%s .. %s  addr_base 0x%" PRIx64 "  (not strided)", lo, hi,
		                   e->addr_base);
}

static void draw_counts(struct view_canvas *cv, int y, const struct view_coalesce_frame *f)
{
	unsigned used = (unsigned)__builtin_popcount(f->e->mask) * f->e->bytes;
	view_canvas_printf(cv, y, 0, f->nsectors > f->ideal ? VS_WARN : VS_GOOD,
	                   "this request: %u sector%s in %u line%s (ideal %u), %u of %u bytes used", f->nsectors,
	                   f->nsectors == 1 ? "" : "s", f->nlines, f->nlines == 1 ? "" : "s", f->ideal, used,
	                   32 * f->nsectors);
	view_canvas_printf(
	    cv, y + 1, 0, VS_PLAIN,
	    "so far: %" PRIu64 " request%s, %" PRIu64 " sector%s (ideal %" PRIu64 "), %.2f sectors/request",
	    f->req_so_far, view_s(f->req_so_far), f->sectors_so_far, view_s(f->sectors_so_far), f->ideal_so_far,
	    (double)f->sectors_so_far / (double)f->req_so_far);
}

static void draw_lanes(struct view_canvas *cv, int y, const struct view_coalesce_frame *f)
{
	int lanes[32], style[32];
	for (int l = 0; l < 32; l++) {
		lanes[l] = (f->e->mask >> l & 1) ? l : -1;
		style[l] = VS_TITLE;
	}
	view_draw_lane_row(cv, y, "lane", lanes, style);
	for (int l = 0; l < 32; l++)
		style[l] = view_wf_style(f->lane_line[l]);
	view_draw_lane_row(cv, y + 1, "line", f->lane_line, style);
	for (int l = 0; l < 32; l++)
		style[l] = view_wf_style(f->lane_sector[l]);
	view_draw_lane_row(cv, y + 2, "sector", f->lane_sector, style);
}

/* One 128-byte line: where it starts, then 4 sectors of 8 words. */
static void draw_line(struct view_canvas *cv, int y, const struct view_trace *tr, const struct view_coalesce_frame *f,
                      int i)
{
	uint64_t addr = f->lines[i] * 128;
	struct view_loc loc;
	char where[48];
	if (view_locate(tr, f->e, addr, &loc))
		view_loc_format(&loc, addr, where, sizeof where);
	else
		snprintf(where, sizeof where, "0x%" PRIx64, addr);
	view_canvas_put(cv, y, 1, view_digit(i), view_wf_style(i));
	view_canvas_printf(cv, y, 3, VS_PLAIN, "%.20s", where);
	for (int s = 0; s < 4; s++) {
		int x = 24 + 11 * s;
		view_canvas_put(cv, y, x, '[', VS_DIM);
		for (int w = 0; w < 8; w++) {
			int first, n = view_coalesce_word_lanes(f, f->lines[i], 8 * s + w, &first);
			char ch = n == 0 ? '.' : n > 1 ? '*' : view_digit(first);
			view_canvas_put(cv, y, x + 1 + w, ch, n ? view_wf_style(i) : VS_DIM);
		}
		view_canvas_put(cv, y, x + 9, ']', VS_DIM);
	}
}

void view_coalesce_draw(const struct view_coalesce *v, int step, struct view_canvas *cv)
{
	struct view_coalesce_frame f;
	view_coalesce_frame(v, step, &f);
	int y = view_draw_header(cv, v->tr, "coalesce");
	draw_event(cv, y, &f);
	draw_counts(cv, y + 2, &f);
	draw_lanes(cv, y + 5, &f);
	y += 9;
	view_canvas_text(cv, y, 0, VS_TITLE, "   line start");
	for (int s = 0; s < 4; s++)
		view_canvas_printf(cv, y, 25 + 11 * s, VS_TITLE, "sector %d", s);
	int rows = cv->h - y - 2, i = 0;
	for (; i < (int)f.nlines && i < rows; i++) {
		if (i == rows - 1 && (int)f.nlines > rows) {
			view_canvas_printf(cv, y + 1 + i, 3, VS_WARN, "... %d more lines", (int)f.nlines - i);
			i++;
			break;
		}
		draw_line(cv, y + 1 + i, v->tr, &f, i);
	}
	int end = y + 1 + i; /* the legend under the lines, after a blank row when there is room */
	view_canvas_text(cv, end + 1 < cv->h ? end + 1 : cv->h - 1, 0, VS_DIM,
	                 "lanes 0-9 a-v (a=10, v=31); * several lanes; . untouched word (4 bytes)");
}
