/* view_compose.c — one screen as a canvas: the status row (step, play state, keys or the rows and columns
 * scrolled out of sight), the view's frame below it, and the help box over it; or a plain request for a
 * bigger terminal. */
#include <stdio.h>
#include <string.h>

#include "view.h"

/* "rows 1-23 of 46, PgDn for more" and "cols 1-80 of 88, > for more" for what the screen does not show
 * of the frame; `compact` drops the words ("rows 1-23/46 PgDn"). */
static void hidden_text(const struct view_player *p, bool compact, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	if (p->frame_h > p->page_h && p->page_h > 0) {
		int last = p->top + p->page_h;
		const char *keys = p->top == 0 ? "PgDn" : last >= p->frame_h ? "PgUp" : "PgUp/PgDn";
		len += (size_t)snprintf(buf, n, compact ? "rows %d-%d/%d %s" : "rows %d-%d of %d, %s for more",
					p->top + 1, last, p->frame_h, keys);
	}
	if (p->frame_w > p->page_w && p->page_w > 0 && len < n) {
		int last = p->left + p->page_w;
		const char *keys = p->left == 0 ? ">" : last >= p->frame_w ? "<" : "< >";
		snprintf(buf + len, n - len, compact ? "%scols %d-%d/%d %s" : "%scols %d-%d of %d, %s for more",
			 len ? "  " : "", p->left + 1, last, p->frame_w, keys);
	}
}

void view_status_line(const struct view_player *p, char *buf, size_t n)
{
	if (p->prompt) {
		snprintf(buf, n, "step %d/%d  go to step (1-%d, Enter; Esc cancels): %s_", p->step + 1, p->nsteps,
		         p->nsteps, p->input);
		return;
	}
	int len = snprintf(buf, n, "step %d/%d  %s %d/s", p->step + 1, p->nsteps, p->playing ? "[playing]" : "[paused]",
	                   view_player_steps_per_second(p));
	if (len < 0 || (size_t)len >= n)
		return;
	char hidden[128];
	hidden_text(p, false, hidden, sizeof hidden);
	if (p->page_w > 0 && len + 2 + (int)strlen(hidden) > p->page_w)
		hidden_text(p, true, hidden, sizeof hidden);
	if (p->message[0])
		snprintf(buf + len, n - (size_t)len, "  %s", p->message);
	else if (hidden[0])
		snprintf(buf + len, n - (size_t)len, "  %s", hidden);
	else
		snprintf(buf + len, n - (size_t)len, "  space play  n/p step  ] [ point  ? help  q quit");
}

static const char *const help_lines[] = {
    "controls",
    "",
    "space    play / pause",
    "n  ->    next step",
    "p  <-    previous step",
    "+  -     faster / slower",
    "g        go to a step (type it, Enter)",
    "Home End first / last step",
    "]  [     next / previous step that shows",
    "         the point (conflict, extra sectors,",
    "         new K step)",
    "}  {     next / previous warp",
    "PgDn PgUp scroll a page down / up, when",
    "         the frame does not fit the screen",
    "j  k     scroll a row down / up",
    "<  >     scroll left / right",
    "?        this help",
    "q  Esc   quit (Ctrl-C too)",
    "",
    "any key closes this box",
};

/* The player's keys, then the view's own (ops->help) above the closing line. */
static bool scroll_line(const char *line)
{
	return !strncmp(line, "PgDn", 4) || !strncmp(line, "         the frame", 18) || !strncmp(line, "j  k", 4) ||
	       !strncmp(line, "<  >", 4);
}

/* The lines of the help box: the player's (the scrolling keys only for a tall view: a view that fits
 * itself never scrolls), the view's own (ops->help) before the closing lines. */
static int help_box_lines(const struct view_ops *ops, const char **out, int max)
{
	int nbase = (int)(sizeof help_lines / sizeof help_lines[0]), n = 0;
	for (int i = 0; i < nbase && n < max; i++) {
		if (i == nbase - 2)
			for (int j = 0; ops->help && ops->help[j] && n < max; j++)
				out[n++] = ops->help[j];
		if (ops->tall || !scroll_line(help_lines[i]))
			out[n++] = help_lines[i];
	}
	return n;
}

static void draw_help(struct view_canvas *cv, const struct view_ops *ops)
{
	const char *lines[48];
	int n = help_box_lines(ops, lines, (int)(sizeof lines / sizeof lines[0]));
	int bw = 44, bh = n + 2;
	int x0 = (cv->w - bw) / 2, y0 = (cv->h - bh) / 2;
	y0 = y0 < 0 ? 0 : y0;
	for (int y = 0; y < bh; y++)
		for (int x = 0; x < bw; x++) {
			bool edge_y = y == 0 || y == bh - 1, edge_x = x == 0 || x == bw - 1;
			char ch = edge_y && edge_x ? '+' : edge_y ? '-' : edge_x ? '|' : ' ';
			view_canvas_put(cv, y0 + y, x0 + x, ch, VS_TITLE);
		}
	for (int i = 0; i < n; i++)
		view_canvas_text(cv, y0 + 1 + i, x0 + 2, i == 0 ? VS_TITLE : VS_PLAIN, lines[i]);
}

/* A tall view's whole frame, then the part of it the screen shows from p->top, p->left. */
static void draw_scrolled(const struct view_ops *ops, const void *state, struct view_player *p,
			  struct view_canvas *body)
{
	struct view_canvas frame;
	view_canvas_init_wide(&frame, body->w, VIEW_TALL, VIEW_WIDE);
	ops->draw(state, p->step, &frame);
	view_canvas_extent(&frame, &p->frame_w, &p->frame_h);
	p->page_h = body->h;
	p->page_w = body->w;
	int max_top = p->frame_h > p->page_h ? p->frame_h - p->page_h : 0;
	int max_left = p->frame_w > p->page_w ? p->frame_w - p->page_w : 0;
	p->top = p->top < 0 ? 0 : p->top > max_top ? max_top : p->top; /* the new step's frame may be smaller */
	p->left = p->left < 0 ? 0 : p->left > max_left ? max_left : p->left;
	for (int y = 0; y < body->h; y++)
		for (int x = 0; x < body->w; x++) {
			const struct view_cell *c = view_canvas_at(&frame, p->top + y, p->left + x);
			view_canvas_put(body, y, x, c->ch, c->style);
		}
	view_canvas_free(&frame);
}

void view_compose(const struct view_ops *ops, const void *state, struct view_player *p, struct view_canvas *cv)
{
	view_canvas_clear(cv);
	if (cv->w < VIEW_MIN_W || cv->h < VIEW_MIN_H) {
		view_canvas_printf(cv, 0, 0, VS_WARN, "terminal %dx%d: the view needs %dx%d", cv->w, cv->h, VIEW_MIN_W,
		                   VIEW_MIN_H);
		view_canvas_text(cv, 1, 0, VS_PLAIN, "enlarge it, or q to quit");
		return;
	}
	struct view_canvas body;
	view_canvas_init(&body, cv->w, cv->h - 1);
	if (ops->tall) {
		draw_scrolled(ops, state, p, &body);
	} else {
		ops->draw(state, p->step, &body);
		p->frame_w = p->page_w = body.w; /* the view fits itself: nothing to scroll */
		p->frame_h = p->page_h = body.h;
		p->top = p->left = 0;
	}
	char status[256];
	view_status_line(p, status, sizeof status);
	view_canvas_text(cv, 0, 0, p->prompt || p->message[0] ? VS_WARN : VS_TITLE, status);
	for (int y = 0; y < body.h; y++)
		for (int x = 0; x < body.w; x++) {
			const struct view_cell *c = view_canvas_at(&body, y, x);
			view_canvas_put(cv, y + 1, x, c->ch, c->style);
		}
	view_canvas_free(&body);
	if (p->help)
		draw_help(cv, ops);
}
