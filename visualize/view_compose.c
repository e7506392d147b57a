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

/* The help box's lines, before wrapping: the player's keys (the ] [ and } { lines naming what this view
 * jumps to; the scrolling keys only for a tall view, as a view that fits itself never scrolls), then the
 * view's own keys (ops->help, which may take over } {), then the closing lines. */
#define HELP_MAX 48
#define HELP_LINE 160

static bool view_has_key(const struct view_ops *ops, const char *prefix)
{
	for (int j = 0; ops->help && ops->help[j]; j++)
		if (!strncmp(ops->help[j], prefix, strlen(prefix)))
			return true;
	return false;
}

static int help_box_lines(const struct view_ops *ops, char out[][HELP_LINE], int max)
{
	int n = 0;
#define ADD(...) (n < max ? (void)snprintf(out[n++], HELP_LINE, __VA_ARGS__) : (void)0)
	ADD("controls");
	ADD("%s", "");
	ADD("space    play / pause");
	ADD("n  ->    next step");
	ADD("p  <-    previous step");
	ADD("+  -     faster / slower");
	ADD("g        go to a step (type it, Enter)");
	ADD("Home End first / last step");
	ADD("]  [     next / previous %s", ops->point ? ops->point : "step that shows the point");
	if (ops->group && !view_has_key(ops, "}  {"))
		ADD("}  {     next / previous %s", ops->group);
	if (ops->tall) {
		ADD("PgDn PgUp scroll a page down / up, when the frame does not fit the screen");
		ADD("j  k     scroll a row down / up");
		ADD("<  >     scroll left / right");
	}
	for (int j = 0; ops->help && ops->help[j]; j++)
		ADD("%s", ops->help[j]);
	ADD("?        this help");
	ADD("q  Esc   quit (Ctrl-C too)");
	ADD("%s", "");
	ADD("any key closes this box");
#undef ADD
	return n;
}

/* Lines of at most `w` columns: a longer line breaks between words, going on under its text (column 9,
 * after the keys). */
static int wrap_lines(char in[][HELP_LINE], int n, char out[][HELP_LINE], int max, int w)
{
	int m = 0;
	for (int i = 0; i < n && m < max; i++) {
		const char *p = in[i];
		int indent = 0;
		do {
			int room = w - indent, len = (int)strlen(p);
			int cut = len <= room ? len : room;
			while (cut < len && cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = len < room ? len : room;
			snprintf(out[m++], HELP_LINE, "%*s%.*s", indent, "", cut, p);
			p += cut;
			p += strspn(p, " ");
			indent = 9;
		} while (*p && m < max);
	}
	return m;
}

/* The box in the middle of the screen, as wide as its longest line (at most the screen): one column of
 * lines, or two side by side when one is taller than the screen. */
static void draw_help(struct view_canvas *cv, const struct view_ops *ops)
{
	char raw[HELP_MAX][HELP_LINE], lines[2 * HELP_MAX][HELP_LINE];
	int nraw = help_box_lines(ops, raw, HELP_MAX);
	int inner = 40; /* as wide as the longest line, from 40 to 60 columns */
	for (int i = 0; i < nraw; i++)
		inner = (int)strlen(raw[i]) > inner ? (int)strlen(raw[i]) : inner;
	inner = inner > 60 ? 60 : inner;
	int cols = 1, n;
	for (;;) {
		int room = cols == 1 ? cv->w - 4 : (cv->w - 7) / 2;
		inner = inner > room ? room : inner;
		n = wrap_lines(raw, nraw, lines, 2 * HELP_MAX, inner);
		if (n + 2 <= cv->h || cols == 2)
			break;
		cols = 2;
		inner = 40;
	}
	int per_col = cols == 1 ? n : (n + 1) / 2;
	int bw = cols * (inner + 3) + 1, bh = per_col + 2;
	int x0 = (cv->w - bw) / 2, y0 = (cv->h - bh) / 2;
	x0 = x0 < 0 ? 0 : x0;
	y0 = y0 < 0 ? 0 : y0;
	for (int y = 0; y < bh; y++)
		for (int x = 0; x < bw; x++) {
			bool edge_y = y == 0 || y == bh - 1, edge_x = x == 0 || x == bw - 1;
			char ch = edge_y && edge_x ? '+' : edge_y ? '-' : edge_x ? '|' : ' ';
			view_canvas_put(cv, y0 + y, x0 + x, ch, VS_TITLE);
		}
	for (int i = 0; i < n; i++)
		view_canvas_printf(cv, y0 + 1 + i % per_col, x0 + 2 + (i / per_col) * (inner + 3), i == 0 ? VS_TITLE : VS_PLAIN,
				   "%.*s", inner, lines[i]);
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
