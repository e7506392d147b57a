/* view_canvas.h — a character grid with a style per cell: every view draws its frame here (pure code,
 * unit-tested), and either the ncurses layer paints it or the --frames printer writes its text.
 * The characters alone carry the picture; styles only add colour or emphasis. */
#ifndef GL_VIEW_CANVAS_H
#define GL_VIEW_CANVAS_H

#include <stddef.h>
#include <stdint.h>

enum view_style {
	VS_PLAIN,
	VS_DIM,     /* untouched cells, rulers */
	VS_TITLE,   /* headings */
	VS_NOW,     /* lit at this step */
	VS_EARLIER, /* lit at an earlier step */
	VS_OWN,     /* owned by the CTA (gemm C tile) */
	VS_SELF,    /* the selected thread's elements */
	VS_WARN,    /* conflicts, wasted sectors */
	VS_GOOD,    /* ideal counts */
	VS_WF0,     /* wavefront classes VS_WF0 .. VS_WF0 + VIEW_WF_STYLES - 1, cycling */
	VIEW_STYLE_COUNT = VS_WF0 + 6,
};
#define VIEW_WF_STYLES 6

struct view_cell {
	char ch;
	uint8_t style;
};

struct view_canvas {
	int w, h;         /* the size a view lays its frame out for */
	int cap_w;        /* the columns kept: text may run on past w up to cap_w, for the screen to scroll to */
	struct view_cell *cells;
};

void view_canvas_init(struct view_canvas *c, int w, int h);
/* A canvas that keeps what is written up to column cap_w (at least w), not only up to w. */
void view_canvas_init_wide(struct view_canvas *c, int w, int h, int cap_w);
void view_canvas_free(struct view_canvas *c);
void view_canvas_clear(struct view_canvas *c);
/* Writes outside the canvas are clipped. */
void view_canvas_put(struct view_canvas *c, int y, int x, char ch, int style);
/* Text at (y, x), clipped; returns the column after it. */
int view_canvas_text(struct view_canvas *c, int y, int x, int style, const char *text);
int view_canvas_printf(struct view_canvas *c, int y, int x, int style, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
const struct view_cell *view_canvas_at(const struct view_canvas *c, int y, int x);
/* Row y as text without trailing blanks (up to cap_w); returns its length. */
size_t view_canvas_row(const struct view_canvas *c, int y, char *buf, size_t n);
/* The frame's extent: one past the last row and the last column that hold anything but a plain blank
 * (0 x 0 for an empty canvas). */
void view_canvas_extent(const struct view_canvas *c, int *w, int *h);

/* The style of wavefront index i (cycling), and its one-character label: 0-9 then a-z then A-Z. */
int view_wf_style(int i);
char view_digit(int i);
/* The plural ending of a count: "" for 1, else "s" ("1 wavefront", "2 wavefronts"). */
const char *view_s(uint64_t n);

#endif
