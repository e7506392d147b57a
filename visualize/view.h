/* view.h — the view engine: a view is a table of two functions over its pure state (how many steps,
 * draw step k onto a canvas).  The player (step, play/pause, speed, prompts) is a pure state machine
 * driven by keys; view_print_frames writes plain-text frames and view_tui_run is the thin ncurses
 * layer that paints the same canvases and always restores the terminal. */
#ifndef GL_VIEW_H
#define GL_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "common/err.h"
#include "kernels/registry.h"
#include "view_canvas.h"

/* What makes a step worth a jump (the player's [ ] and { } keys, and the step a view opens on): POINT, the
 * view's point (ops->point says what it is); NEW_WARP, the first step of a group (ops->group: a warp's
 * access, an output tile, a phase). */
enum view_mark { VIEW_MARK_POINT = 1, VIEW_MARK_NEW_WARP = 2 };

struct view_ops {
	const char *name;
	int (*nsteps)(const void *state);
	void (*draw)(const void *state, int step, struct view_canvas *cv);
	/* VIEW_MARK_* bits of step k: POINT when it shows the view's point (a bank conflict, an access with
	 * more sectors than ideal, a new K step), NEW_WARP when another group (ops->group) begins.  May be NULL. */
	unsigned (*marks)(const void *state, int step);
	/* The view's one definition of its point, as the steps that show it are called ("access with bank
	 * conflicts"): the help box, the opening step and the "no later ..." message say it. */
	const char *point;
	/* What } { jump between, the steps marked NEW_WARP ("warp", "output tile"); NULL: the view has no groups. */
	const char *group;
	/* true: the view opens on its first step, an introduction the point comes after (mma's fragment map,
	 * flash's first block); false: on the first step that shows its point. */
	bool opens_at_start;
	/* The view's own keys (gemm: zoom, pan, thread), tried before the player's: true when the key was
	 * the view's (the screen changed).  May be NULL; so may the rest. */
	bool (*key)(const void *state, int key);
	/* Pages a w x h body needs (the panels that do not fit side by side), and which one to draw:
	 * --frames prints every page of each frame. */
	int (*pages)(const void *state, int w, int h);
	void (*set_page)(const void *state, int page);
	const char *const *help; /* the view's keys for the help box, NULL-terminated */
	/* true: the view draws its whole frame, however tall or wide, on a canvas of VIEW_TALL rows that
	 * keeps VIEW_WIDE columns (what follows a list comes right after it, not at the canvas's bottom), and
	 * the screen scrolls over the frame; --frames prints all of it.  false: the view fits itself to the
	 * screen it is given (gemm). */
	bool tall;
};

/* The first step that shows the view's point, else the first. */
int view_first_point(const struct view_ops *ops, const void *state);
/* The step a view opens on: its first point, or its first step (ops->opens_at_start). */
int view_open_step(const struct view_ops *ops, const void *state);

extern const struct view_ops view_coalesce_ops, view_banks_ops, view_gemm_ops, view_conv_ops, view_mma_ops,
    view_flash_ops, view_reduce_ops;

/* The one table of views (view_table.c), ended by an entry without name. */
struct view_entry {
	const char *name;          /* as `gpulab view NAME` names it */
	enum gl_topic_view kind;   /* the kind a topic's natural view has (kernels/registry.h) */
	const char *topic;         /* the topic the view implies, or NULL (--topic needed) */
	const struct view_ops *ops;
	const char *variant;       /* the variant it shows by default, or NULL (the topic's first) */
	const char *summary;       /* what one step shows, for the man page */
};
extern const struct view_entry view_table[];
/* The view called `name`, else NULL. */
const struct view_entry *view_find(const char *name);

#define VIEW_MIN_W 80
#define VIEW_MIN_H 24
#define VIEW_TALL 200 /* rows a tall view may draw */
#define VIEW_WIDE 240 /* columns a tall view's frame keeps */

/* ---- the player: what the keys do */
enum {
	VIEW_KEY_ESC = 27,
	VIEW_KEY_BACKSPACE = 127,
	VIEW_KEY_HOME = 0x1001,
	VIEW_KEY_END = 0x1002,
	VIEW_KEY_PGDN = 0x1003, /* scroll a page down */
	VIEW_KEY_PGUP = 0x1004, /* scroll a page up */
};

struct view_player {
	int step, nsteps; /* step is 0-based */
	bool playing;
	int speed;   /* index into the speeds: 1, 2, 4, 8, 16, 32 steps per second */
	bool help;   /* the help box is open */
	bool prompt; /* reading a step number after 'g' */
	char input[12];
	bool quit;
	char message[128]; /* one-line feedback ("no step 900: 1 to 128") */
	const struct view_ops *ops; /* for the marks ([ ] { }), may be NULL */
	const void *state;
	/* Scrolling a frame taller or wider than the screen: its first row and column on screen (kept
	 * while stepping), and what view_compose last found: the frame's size and the rows and columns the
	 * screen shows of it (0 until composed). */
	int top, left;
	int frame_h, frame_w, page_h, page_w;
};

void view_player_init(struct view_player *p, int nsteps, bool play);
/* Jumps by marks use ops->marks over state; the player starts on view_open_step. */
void view_player_marks(struct view_player *p, const struct view_ops *ops, const void *state);
/* Apply one key: space, n, p, +, -, g, Home/End, ] [ (next/previous step that shows the point), } {
 * (next/previous warp), PgDn/PgUp (a page), j/k (a row), > < (half a screen across) when the frame does
 * not fit the screen, digits/Enter/Esc/Backspace in the prompt, ?, q.  Returns true when the screen
 * changed. */
bool view_player_key(struct view_player *p, int key);
/* Playing: advance one step; stops at the last.  Returns true when the step changed. */
bool view_player_tick(struct view_player *p);
int view_player_steps_per_second(const struct view_player *p);

/* ---- composing a screen (pure): the status row, the view below it, the help box over it.  A tall view's
 * frame is drawn whole and the screen shows the part at p->top, p->left (clamped to the frame; the
 * frame's and the screen's sizes are recorded in p for the scroll keys). */
void view_compose(const struct view_ops *ops, const void *state, struct view_player *p, struct view_canvas *cv);
/* The status row: step, play state, then the rows and columns hidden ("rows 1-23 of 46, PgDn for more";
 * shorter when the screen, p->page_w wide, has no room for it) or else the keys. */
void view_status_line(const struct view_player *p, char *buf, size_t n);

/* --frames N: N frames as text from the step the view opens on (view_open_step), each starting with
 * "step K/TOTAL", at 80x24.  No terminal. */
int view_print_frames(const struct view_ops *ops, const void *state, int nframes, FILE *out);
/* The same from step `first` (0-based; < 0: the step the view opens on). */
int view_print_frames_from(const struct view_ops *ops, const void *state, int first, int nframes, FILE *out);

/* The interactive view on the terminal.  Opens paused at step 1 unless `play`.  Returns when the user
 * quits (q), on SIGINT/SIGTERM, or on an error — always after endwin(). */
int view_tui_run(const struct view_ops *ops, const void *state, bool play, struct gl_err *err);
/* The same, opening on step `start` (0-based; < 0: the step the view opens on). */
int view_tui_run_at(const struct view_ops *ops, const void *state, bool play, int start, struct gl_err *err);
/* gpulab's --color for the views: 0 auto (colour unless NO_COLOR is set and not empty), 1 always, 2 never. */
void view_tui_color(int mode);
/* What view_tui_run needs from the terminal, checked without taking it over: stdin and stdout are
 * terminals and terminfo knows $TERM.  Lets a command refuse before it computes or records anything. */
int view_tui_check(struct gl_err *err);

#endif
