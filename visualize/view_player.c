/* view_player.c — the controls as a pure state machine: step, play/pause, speed, help, go-to prompt,
 * scrolling a frame that does not fit the screen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

static const int speeds[] = {1, 2, 4, 8, 16, 32};
#define NSPEEDS ((int)(sizeof speeds / sizeof speeds[0]))

void view_player_init(struct view_player *p, int nsteps, bool play)
{
	memset(p, 0, sizeof *p);
	p->nsteps = nsteps > 0 ? nsteps : 1;
	p->playing = play && p->nsteps > 1;
	p->speed = 1;
}

int view_player_steps_per_second(const struct view_player *p)
{
	return speeds[p->speed];
}

static void go(struct view_player *p, int step)
{
	p->step = step < 0 ? 0 : step >= p->nsteps ? p->nsteps - 1 : step;
}

int view_first_point(const struct view_ops *ops, const void *state)
{
	int n = ops->nsteps(state);
	for (int k = 0; ops->marks && k < n; k++)
		if (ops->marks(state, k) & VIEW_MARK_POINT)
			return k;
	return 0;
}

int view_open_step(const struct view_ops *ops, const void *state)
{
	return ops->opens_at_start ? 0 : view_first_point(ops, state);
}

void view_player_marks(struct view_player *p, const struct view_ops *ops, const void *state)
{
	p->ops = ops;
	p->state = state;
	go(p, view_open_step(ops, state));
}

/* To the next (dir 1) or previous (-1) step carrying `mark`; a message when there is none. */
static void jump(struct view_player *p, int dir, unsigned mark)
{
	p->playing = false;
	for (int k = p->step + dir; p->ops && p->ops->marks && k >= 0 && k < p->nsteps; k += dir)
		if (p->ops->marks(p->state, k) & mark) {
			p->step = k;
			return;
		}
	if (mark == VIEW_MARK_NEW_WARP && (!p->ops || !p->ops->group)) {
		snprintf(p->message, sizeof p->message, "} { jump between groups of steps; the %s view has none",
			 p->ops ? p->ops->name : "");
		return;
	}
	const char *what = mark == VIEW_MARK_NEW_WARP	  ? p->ops->group
			   : p->ops && p->ops->point ? p->ops->point
						     : "step that shows the point";
	snprintf(p->message, sizeof p->message, "no %s %s", dir > 0 ? "later" : "earlier", what);
}

static bool prompt_key(struct view_player *p, int key)
{
	size_t len = strlen(p->input);
	if (key >= '0' && key <= '9' && len + 1 < sizeof p->input) {
		p->input[len] = (char)key;
		p->input[len + 1] = '\0';
	} else if ((key == VIEW_KEY_BACKSPACE || key == '\b') && len) {
		p->input[len - 1] = '\0';
	} else if (key == '\n' || key == '\r') {
		long want = strtol(p->input, NULL, 10);
		p->prompt = false;
		if (p->input[0] && want >= 1 && want <= p->nsteps)
			go(p, (int)want - 1);
		else if (p->input[0])
			snprintf(p->message, sizeof p->message, "no step %.10s: 1 to %d", p->input, p->nsteps);
	} else if (key == VIEW_KEY_ESC || key == 'q') {
		p->prompt = false;
	}
	return true;
}

/* Move the frame on screen by (dy, dx), within what view_compose last found; a message when it cannot. */
static bool scroll(struct view_player *p, int dy, int dx)
{
	int max_top = p->frame_h > p->page_h ? p->frame_h - p->page_h : 0;
	int max_left = p->frame_w > p->page_w ? p->frame_w - p->page_w : 0;
	int top = p->top + dy, left = p->left + dx;
	top = top < 0 ? 0 : top > max_top ? max_top : top;
	left = left < 0 ? 0 : left > max_left ? max_left : left;
	if (top == p->top && left == p->left) {
		const char *where = dy > 0 ? "below" : dy < 0 ? "above" : dx > 0 ? "to the right" : "to the left";
		snprintf(p->message, sizeof p->message, "nothing more %s: %s", where,
			 max_top || max_left ? "that is the frame's edge" : "the frame fits the screen");
		return true;
	}
	p->top = top;
	p->left = left;
	return true;
}

bool view_player_key(struct view_player *p, int key)
{
	p->message[0] = '\0';
	if (p->prompt)
		return prompt_key(p, key);
	if (p->help && key != 'q') {
		p->help = false;
		return true;
	}
	if (p->ops && p->ops->key && p->ops->key(p->state, key))
		return true;
	switch (key) {
	case 'q':
	case 'Q': p->quit = true; return false;
	case ' ':
		if (!p->playing && p->step == p->nsteps - 1)
			p->step = 0; /* play again from the start */
		p->playing = !p->playing && p->nsteps > 1;
		return true;
	case 'n':
	case 'l':
	case '.':
		p->playing = false;
		go(p, p->step + 1);
		return true;
	case 'p':
	case 'h':
	case ',':
		p->playing = false;
		go(p, p->step - 1);
		return true;
	case '+':
	case '=': p->speed = p->speed + 1 < NSPEEDS ? p->speed + 1 : p->speed; return true;
	case '-':
	case '_': p->speed = p->speed > 0 ? p->speed - 1 : 0; return true;
	case 'g':
		p->playing = false;
		p->prompt = true;
		p->input[0] = '\0';
		return true;
	case VIEW_KEY_HOME:
		p->playing = false;
		go(p, 0);
		return true;
	case VIEW_KEY_END:
		p->playing = false;
		go(p, p->nsteps - 1);
		return true;
	case ']': jump(p, 1, VIEW_MARK_POINT); return true;
	case '[': jump(p, -1, VIEW_MARK_POINT); return true;
	case '}': jump(p, 1, VIEW_MARK_NEW_WARP); return true;
	case '{': jump(p, -1, VIEW_MARK_NEW_WARP); return true;
	case VIEW_KEY_ESC:
		if (p->help) /* closes the help box (handled above); otherwise Esc quits at once */
			return true;
		p->quit = true;
		return false;
	case VIEW_KEY_PGDN: return scroll(p, p->page_h > 1 ? p->page_h - 1 : 1, 0); /* a row of context */
	case VIEW_KEY_PGUP: return scroll(p, -(p->page_h > 1 ? p->page_h - 1 : 1), 0);
	case 'j': return scroll(p, 1, 0);
	case 'k': return scroll(p, -1, 0);
	case '>': return scroll(p, 0, p->page_w > 1 ? p->page_w / 2 : 1);
	case '<': return scroll(p, 0, -(p->page_w > 1 ? p->page_w / 2 : 1));
	case '?': p->help = true; return true;
	default: return false;
	}
}

bool view_player_tick(struct view_player *p)
{
	if (!p->playing)
		return false;
	if (p->step + 1 >= p->nsteps) {
		p->playing = false;
		return true;
	}
	p->step++;
	if (p->step + 1 >= p->nsteps)
		p->playing = false;
	return true;
}
