/* view_canvas.c — the character grid every view draws into. */
#include "view_canvas.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/util.h"

void view_canvas_init(struct view_canvas *c, int w, int h)
{
	view_canvas_init_wide(c, w, h, w);
}

void view_canvas_init_wide(struct view_canvas *c, int w, int h, int cap_w)
{
	c->w = w > 0 ? w : 1;
	c->h = h > 0 ? h : 1;
	c->cap_w = cap_w > c->w ? cap_w : c->w;
	c->cells = gl_xcalloc((size_t)c->cap_w * (size_t)c->h, sizeof *c->cells);
	view_canvas_clear(c);
}

void view_canvas_free(struct view_canvas *c)
{
	free(c->cells);
	c->cells = NULL;
	c->w = c->h = c->cap_w = 0;
}

void view_canvas_clear(struct view_canvas *c)
{
	for (int i = 0; i < c->cap_w * c->h; i++)
		c->cells[i] = (struct view_cell){' ', VS_PLAIN};
}

void view_canvas_put(struct view_canvas *c, int y, int x, char ch, int style)
{
	if (y < 0 || x < 0 || y >= c->h || x >= c->cap_w)
		return;
	c->cells[y * c->cap_w + x] = (struct view_cell){ch, (uint8_t)style};
}

int view_canvas_text(struct view_canvas *c, int y, int x, int style, const char *text)
{
	for (; *text; text++, x++)
		view_canvas_put(c, y, x, *text, style);
	return x;
}

int view_canvas_printf(struct view_canvas *c, int y, int x, int style, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return view_canvas_text(c, y, x, style, buf);
}

const struct view_cell *view_canvas_at(const struct view_canvas *c, int y, int x)
{
	static const struct view_cell blank = {' ', VS_PLAIN};
	if (y < 0 || x < 0 || y >= c->h || x >= c->cap_w)
		return &blank;
	return &c->cells[y * c->cap_w + x];
}

size_t view_canvas_row(const struct view_canvas *c, int y, char *buf, size_t n)
{
	size_t len = 0;
	if (!n)
		return 0;
	for (int x = 0; x < c->cap_w && len + 1 < n; x++)
		buf[len++] = view_canvas_at(c, y, x)->ch;
	while (len && buf[len - 1] == ' ')
		len--;
	buf[len] = '\0';
	return len;
}

void view_canvas_extent(const struct view_canvas *c, int *w, int *h)
{
	*w = *h = 0;
	for (int y = 0; y < c->h; y++)
		for (int x = 0; x < c->cap_w; x++) {
			const struct view_cell *cell = &c->cells[y * c->cap_w + x];
			if (cell->ch == ' ' && cell->style == VS_PLAIN)
				continue;
			*h = y + 1;
			*w = x + 1 > *w ? x + 1 : *w;
		}
}

int view_wf_style(int i)
{
	return VS_WF0 + (i < 0 ? 0 : i % VIEW_WF_STYLES);
}

const char *view_s(uint64_t n)
{
	return n == 1 ? "" : "s";
}

char view_digit(int i)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	return i >= 0 && i < (int)sizeof digits - 1 ? digits[i] : '+';
}
