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

struct view_ops {
	const char *name;
	int (*nsteps)(const void *state);
	void (*draw)(const void *state, int step, struct view_canvas *cv);
};

extern const struct view_ops view_coalesce_ops, view_banks_ops, view_gemm_ops, view_conv_ops, view_mma_ops;

/* The one table of views (view_table.c), ended by an entry without name. */
struct view_entry {
	const char *name;          /* as `gpulab view NAME` names it */
	enum gl_topic_view kind;   /* the kind a topic's natural view has (kernels/registry.h) */
	const char *topic;         /* the topic the view implies, or NULL (--topic needed) */
	const struct view_ops *ops;
	const char *variant;       /* the variant it shows by default, or NULL (the topic's first) */
};
extern const struct view_entry view_table[];
/* The view called `name`, else NULL. */
const struct view_entry *view_find(const char *name);

#define VIEW_MIN_W 80
#define VIEW_MIN_H 24

/* ---- the player: what the keys do */
enum { VIEW_KEY_ESC = 27, VIEW_KEY_BACKSPACE = 127 };

struct view_player {
	int step, nsteps; /* step is 0-based */
	bool playing;
	int speed;   /* index into the speeds: 1, 2, 4, 8, 16, 32 steps per second */
	bool help;   /* the help box is open */
	bool prompt; /* reading a step number after 'g' */
	char input[12];
	bool quit;
	char message[64]; /* one-line feedback ("no step 900: 1 to 128") */
};

void view_player_init(struct view_player *p, int nsteps, bool play);
/* Apply one key: space, n, p, +, -, g, digits/Enter/Esc/Backspace in the prompt, ?, q.  Returns true
 * when the screen changed. */
bool view_player_key(struct view_player *p, int key);
/* Playing: advance one step; stops at the last.  Returns true when the step changed. */
bool view_player_tick(struct view_player *p);
int view_player_steps_per_second(const struct view_player *p);

/* ---- composing a screen (pure): the status row, the view below it, the help box over it */
void view_compose(const struct view_ops *ops, const void *state, const struct view_player *p, struct view_canvas *cv);
void view_status_line(const struct view_player *p, char *buf, size_t n);

/* --frames N: the first N frames as text, each starting with "step K/TOTAL", at 80x24.  No terminal. */
int view_print_frames(const struct view_ops *ops, const void *state, int nframes, FILE *out);

/* The interactive view on the terminal.  Opens paused at step 1 unless `play`.  Returns when the user
 * quits (q), on SIGINT/SIGTERM, or on an error — always after endwin(). */
int view_tui_run(const struct view_ops *ops, const void *state, bool play, struct gl_err *err);
/* What view_tui_run needs from the terminal, checked without taking it over: stdin and stdout are
 * terminals and terminfo knows $TERM.  Lets a command refuse before it computes or records anything. */
int view_tui_check(struct gl_err *err);

#endif
