/* view_tui.c — the thin ncurses layer: paint composed canvases, read keys, follow resizes.  One way out
 * (htop's rule): quitting, SIGINT, SIGTERM and errors all leave through tui_end(), which calls endwin()
 * before anything is printed; a crash signal restores the terminal before the default action. */
#include <curses.h>
#include <term.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "view.h"

static volatile sig_atomic_t quit_signal;
static volatile sig_atomic_t curses_on;

static void on_quit_signal(int sig)
{
	quit_signal = sig;
}

static void on_fatal_signal(int sig)
{
	if (curses_on)
		endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP};
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL};
#define NQUIT  ((int)(sizeof quit_signals / sizeof quit_signals[0]))
#define NFATAL ((int)(sizeof fatal_signals / sizeof fatal_signals[0]))

struct tui {
	SCREEN *screen;
	bool color;
	attr_t attrs[VIEW_STYLE_COUNT];
	struct sigaction old_quit[NQUIT], old_fatal[NFATAL];
};

static void install_signals(struct tui *t)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit_signal; /* no SA_RESTART: a signal wakes getch */
	for (int i = 0; i < NQUIT; i++)
		sigaction(quit_signals[i], &sa, &t->old_quit[i]);
	sa.sa_handler = on_fatal_signal;
	for (int i = 0; i < NFATAL; i++)
		sigaction(fatal_signals[i], &sa, &t->old_fatal[i]);
}

static void restore_signals(struct tui *t)
{
	for (int i = 0; i < NQUIT; i++)
		sigaction(quit_signals[i], &t->old_quit[i], NULL);
	for (int i = 0; i < NFATAL; i++)
		sigaction(fatal_signals[i], &t->old_fatal[i], NULL);
}

static int color_mode; /* 0 auto, 1 always, 2 never: gpulab's --color */

void view_tui_color(int mode)
{
	color_mode = mode;
}

/* Styles as colour pairs, or — without colours, with --color never, or with NO_COLOR set and not empty
 * unless --color always — as bold/reverse/underline. */
static void setup_styles(struct tui *t)
{
	const char *no_color = getenv("NO_COLOR");
	t->color = has_colors() && (color_mode == 1 || (color_mode == 0 && !(no_color && no_color[0])));
	static const attr_t mono[VIEW_STYLE_COUNT] = {
	    [VS_PLAIN] = A_NORMAL,
	    [VS_DIM] = A_DIM,
	    [VS_TITLE] = A_BOLD,
	    [VS_NOW] = A_REVERSE | A_BOLD,
	    [VS_EARLIER] = A_NORMAL,
	    [VS_OWN] = A_BOLD,
	    [VS_SELF] = A_REVERSE,
	    [VS_WARN] = A_BOLD,
	    [VS_GOOD] = A_NORMAL,
	    [VS_WF0] = A_NORMAL,
	    [VS_WF0 + 1] = A_BOLD,
	    [VS_WF0 + 2] = A_REVERSE,
	    [VS_WF0 + 3] = A_UNDERLINE,
	    [VS_WF0 + 4] = A_BOLD | A_UNDERLINE,
	    [VS_WF0 + 5] = A_REVERSE | A_BOLD,
	};
	memcpy(t->attrs, mono, sizeof mono);
	if (!t->color)
		return;
	start_color();
	use_default_colors();
	static const struct {
		short fg, bg;
		attr_t extra;
	} pairs[VIEW_STYLE_COUNT] = {
	    [VS_PLAIN] = {-1, -1, A_NORMAL},
	    [VS_DIM] = {-1, -1, A_DIM},
	    [VS_TITLE] = {COLOR_CYAN, -1, A_BOLD},
	    [VS_NOW] = {COLOR_BLACK, COLOR_YELLOW, A_BOLD},
	    [VS_EARLIER] = {COLOR_GREEN, -1, A_NORMAL},
	    [VS_OWN] = {COLOR_MAGENTA, -1, A_NORMAL},
	    [VS_SELF] = {COLOR_BLACK, COLOR_RED, A_BOLD},
	    [VS_WARN] = {COLOR_RED, -1, A_BOLD},
	    [VS_GOOD] = {COLOR_GREEN, -1, A_BOLD},
	    [VS_WF0] = {COLOR_GREEN, -1, A_BOLD},
	    [VS_WF0 + 1] = {COLOR_YELLOW, -1, A_BOLD},
	    [VS_WF0 + 2] = {COLOR_RED, -1, A_BOLD},
	    [VS_WF0 + 3] = {COLOR_MAGENTA, -1, A_BOLD},
	    [VS_WF0 + 4] = {COLOR_BLUE, -1, A_BOLD},
	    [VS_WF0 + 5] = {COLOR_CYAN, -1, A_BOLD},
	};
	for (int s = 0; s < VIEW_STYLE_COUNT; s++) {
		init_pair((short)(s + 1), pairs[s].fg, pairs[s].bg);
		t->attrs[s] = COLOR_PAIR(s + 1) | pairs[s].extra;
	}
}

static int no_terminal(struct gl_err *err)
{
	return gl_errf(err, GL_EUSAGE, "the view needs a terminal; use --frames N for plain-text frames");
}

int view_tui_check(struct gl_err *err)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return no_terminal(err);
	int found = 0;
	TERMINAL *saved = cur_term;
	const char *term = getenv("TERM");
	if (setupterm(NULL, STDOUT_FILENO, &found) != OK || found != 1)
		return gl_errf(err, GL_EENV, "cannot drive terminal type '%s' (set TERM, or use --frames N)",
		               term ? term : "");
	/* a terminal without cursor addressing (TERM=dumb, emacs shell buffers) cannot show a full screen */
	bool addressable = cursor_address != NULL && cursor_address != (char *)-1;
	del_curterm(cur_term);
	set_curterm(saved);
	if (!addressable)
		return gl_errf(err, GL_EUSAGE, "terminal type '%s' cannot move the cursor, so the view cannot draw "
		               "on it; use --frames N for plain-text frames", term ? term : "");
	return GL_OK;
}

static int tui_begin(struct tui *t, struct gl_err *err)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return no_terminal(err);
	quit_signal = 0;
	install_signals(t);
	/* Esc acts at once: curses waits ESCDELAY ms (1000 by default) for an escape sequence to follow; a
	 * terminal sends a sequence's bytes together, so 25 ms tells them apart.  The user's value wins. */
	setenv("ESCDELAY", "25", 0);
	t->screen = newterm(NULL, stdout, stdin);
	if (!t->screen) {
		restore_signals(t);
		const char *term = getenv("TERM");
		return gl_errf(err, GL_EENV, "cannot drive terminal type '%s' (set TERM, or use --frames N)",
		               term ? term : "");
	}
	curses_on = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	setup_styles(t);
	return GL_OK;
}

/* The one way out of curses mode. */
static void tui_end(struct tui *t)
{
	if (curses_on) {
		curs_set(1);
		endwin();
		curses_on = 0;
	}
	if (t->screen)
		delscreen(t->screen);
	t->screen = NULL;
	restore_signals(t);
}

static void paint(const struct tui *t, const struct view_canvas *cv)
{
	erase();
	for (int y = 0; y < cv->h && y < LINES; y++)
		for (int x = 0; x < cv->w && x < COLS; x++) {
			const struct view_cell *c = view_canvas_at(cv, y, x);
			if (c->ch != ' ' || c->style != VS_PLAIN)
				mvaddch(y, x,
				        (chtype)(unsigned char)c->ch |
				            t->attrs[c->style < VIEW_STYLE_COUNT ? c->style : 0]);
		}
	refresh();
}

/* Curses keys to the player's keys. */
static int map_key(int ch)
{
	switch (ch) {
	case KEY_RIGHT:
	case KEY_DOWN: return 'n';
	case KEY_LEFT:
	case KEY_UP: return 'p';
	case KEY_NPAGE: return VIEW_KEY_PGDN; /* scrolling a frame taller than the screen */
	case KEY_PPAGE: return VIEW_KEY_PGUP;
	case KEY_SF: return 'j'; /* Shift+Down */
	case KEY_SR: return 'k'; /* Shift+Up */
	case KEY_SRIGHT: return '>';
	case KEY_SLEFT: return '<';
	case KEY_ENTER: return '\n';
	case KEY_HOME: return VIEW_KEY_HOME;
	case KEY_END: return VIEW_KEY_END;
	case KEY_BACKSPACE:
	case KEY_DC: return VIEW_KEY_BACKSPACE;
	default: return ch;
	}
}

static void redraw(const struct tui *t, const struct view_ops *ops, const void *state, struct view_player *p,
                   struct view_canvas *cv)
{
	if (cv->w != COLS || cv->h != LINES) {
		view_canvas_free(cv);
		view_canvas_init(cv, COLS, LINES);
	}
	view_compose(ops, state, p, cv);
	paint(t, cv);
}

static void loop(const struct tui *t, const struct view_ops *ops, const void *state, struct view_player *p)
{
	struct view_canvas cv;
	view_canvas_init(&cv, COLS, LINES);
	redraw(t, ops, state, p, &cv);
	double next_tick = gl_now() + 1.0 / view_player_steps_per_second(p);
	while (!quit_signal && !p->quit) {
		double now = gl_now();
		if (p->playing && now >= next_tick) {
			view_player_tick(p);
			next_tick = now + 1.0 / view_player_steps_per_second(p);
			redraw(t, ops, state, p, &cv);
			continue;
		}
		int wait_ms = p->playing ? (int)((next_tick - now) * 1000.0) + 1 : 250;
		timeout(wait_ms < 250 ? wait_ms : 250);
		int ch = getch();
		if (ch == ERR)
			continue;
		bool was_playing = p->playing;
		if (ch == KEY_RESIZE || view_player_key(p, map_key(ch)))
			redraw(t, ops, state, p, &cv);
		if (p->playing && !was_playing)
			next_tick = gl_now() + 1.0 / view_player_steps_per_second(p);
	}
	view_canvas_free(&cv);
}

int view_tui_run(const struct view_ops *ops, const void *state, bool play, struct gl_err *err)
{
	return view_tui_run_at(ops, state, play, -1, err);
}

int view_tui_run_at(const struct view_ops *ops, const void *state, bool play, int start, struct gl_err *err)
{
	struct tui t;
	memset(&t, 0, sizeof t);
	int rc = tui_begin(&t, err);
	if (rc)
		return rc;
	struct view_player p;
	view_player_init(&p, ops->nsteps(state), play);
	view_player_marks(&p, ops, state);
	if (start >= 0)
		p.step = start < p.nsteps ? start : p.nsteps - 1;
	loop(&t, ops, state, &p);
	tui_end(&t);
	return GL_OK;
}
