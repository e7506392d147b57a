/* test_visualize_scroll.c — a frame taller and wider than the screen: the status row says which rows and
 * columns are shown, PgDn/PgUp, j/k and > < move over it within its edges, the position is kept (and
 * clamped) when stepping, a frame that fits has nothing to scroll, and --frames prints the whole frame. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "visualize/view.h"

/* Step k draws rows "row 1" .. "row N" with N = 40 - 10 k, the last 100 columns wide ("row N" then
 * dashes up to an 'E' in column 100). */
static int tall_steps(const void *s)
{
	(void)s;
	return 3;
}

static int tall_rows(int step)
{
	return 40 - 10 * step;
}

static void tall_draw(const void *s, int step, struct view_canvas *cv)
{
	(void)s;
	int n = tall_rows(step);
	for (int y = 0; y < n; y++)
		view_canvas_printf(cv, y, 0, VS_PLAIN, "row %d", y + 1);
	for (int x = 10; x < 99; x++)
		view_canvas_put(cv, n - 1, x, '-', VS_PLAIN);
	view_canvas_put(cv, n - 1, 99, 'E', VS_PLAIN);
}

static const struct view_ops tall = {"tall", tall_steps, tall_draw, NULL, .tall = true};

static void row(const struct view_canvas *cv, int y, char *buf, size_t n)
{
	view_canvas_row(cv, y, buf, n);
}

static void test_canvas_extent(void)
{
	struct view_canvas cv;
	view_canvas_init_wide(&cv, 80, 50, 120);
	int w, h;
	view_canvas_extent(&cv, &w, &h);
	CHECK(w == 0 && h == 0);
	view_canvas_text(&cv, 3, 90, VS_PLAIN, "past 80"); /* kept: the canvas keeps 120 columns */
	view_canvas_put(&cv, 7, 2, ' ', VS_NOW);           /* a styled blank counts */
	view_canvas_put(&cv, 9, 130, 'x', VS_PLAIN);       /* past the columns kept: clipped */
	view_canvas_extent(&cv, &w, &h);
	CHECK_EQ(w, 97);
	CHECK_EQ(h, 8);
	char buf[200];
	row(&cv, 3, buf, sizeof buf);
	CHECK_EQ(strlen(buf), 97);
	view_canvas_free(&cv);
}

static void test_scroll(void)
{
	struct view_player p;
	view_player_init(&p, tall_steps(NULL), false);
	struct view_canvas cv;
	view_canvas_init(&cv, 80, 24);
	char buf[256];
	view_compose(&tall, NULL, &p, &cv);
	CHECK_EQ(p.frame_h, 40);
	CHECK_EQ(p.frame_w, 100);
	CHECK_EQ(p.page_h, 23);
	CHECK_EQ(p.page_w, 80);
	row(&cv, 0, buf, sizeof buf);
	/* both kinds hidden do not fit 80 columns in words: the compact form */
	CHECK_STR(buf, "step 1/3  [paused] 2/s  rows 1-23/40 PgDn  cols 1-80/100 >");
	row(&cv, 1, buf, sizeof buf);
	CHECK_STR(buf, "row 1");
	row(&cv, 23, buf, sizeof buf);
	CHECK_STR(buf, "row 23");

	CHECK(view_player_key(&p, VIEW_KEY_PGDN)); /* a page less one row of context, within the frame */
	view_compose(&tall, NULL, &p, &cv);
	CHECK_EQ(p.top, 17);
	row(&cv, 1, buf, sizeof buf);
	CHECK_STR(buf, "row 18");
	row(&cv, 23, buf, sizeof buf);
	CHECK(strncmp(buf, "row 40", 6) == 0);
	row(&cv, 0, buf, sizeof buf);
	CHECK(strstr(buf, "rows 18-40/40 PgUp") != NULL);
	view_player_key(&p, 'j'); /* at the bottom already */
	CHECK_EQ(p.top, 17);
	CHECK(strstr(p.message, "nothing more below") != NULL);
	view_player_key(&p, 'k');
	CHECK_EQ(p.top, 16);
	view_player_key(&p, VIEW_KEY_PGUP);
	CHECK_EQ(p.top, 0);

	view_player_key(&p, '>'); /* half a screen across, up to the frame's right edge */
	CHECK_EQ(p.left, 20);
	view_player_key(&p, '>');
	CHECK_EQ(p.left, 20);
	view_player_key(&p, 'j');
	view_player_key(&p, 'j');
	view_compose(&tall, NULL, &p, &cv);
	row(&cv, 1, buf, sizeof buf);
	CHECK_STR(buf, ""); /* "row 3" lies left of column 21 */

	/* stepping keeps the position, clamped to the smaller frame: step 3 has 20 rows, all on screen */
	view_player_key(&p, 'n');
	view_compose(&tall, NULL, &p, &cv);
	CHECK_EQ(p.top, 2);
	view_player_key(&p, 'n');
	view_compose(&tall, NULL, &p, &cv);
	CHECK_EQ(p.frame_h, 20);
	CHECK_EQ(p.top, 0);
	CHECK_EQ(p.left, 20);
	row(&cv, 0, buf, sizeof buf);
	CHECK_STR(buf, "step 3/3  [paused] 2/s  cols 21-100 of 100, < for more");
	view_player_key(&p, '<');
	view_compose(&tall, NULL, &p, &cv);
	row(&cv, 0, buf, sizeof buf);
	CHECK_STR(buf, "step 3/3  [paused] 2/s  cols 1-80 of 100, > for more");
	view_player_key(&p, VIEW_KEY_PGDN);
	CHECK(strstr(p.message, "nothing more below") != NULL);
	view_canvas_free(&cv);

	/* a wider screen shows every column: only the rows are hidden, said in words */
	view_player_init(&p, tall_steps(NULL), false);
	view_canvas_init(&cv, 120, 30);
	view_compose(&tall, NULL, &p, &cv);
	row(&cv, 0, buf, sizeof buf);
	CHECK_STR(buf, "step 1/3  [paused] 2/s  rows 1-29 of 40, PgDn for more");
	view_player_key(&p, 'j');
	view_compose(&tall, NULL, &p, &cv);
	row(&cv, 0, buf, sizeof buf);
	CHECK_STR(buf, "step 1/3  [paused] 2/s  rows 2-30 of 40, PgUp/PgDn for more");
	view_canvas_free(&cv);
}

static void test_frames_whole(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	CHECK_EQ(view_print_frames_from(&tall, NULL, 0, 1, out), GL_OK);
	fclose(out);
	int lines = 0;
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	CHECK_EQ(lines, 1 + 40); /* "step 1/3" and every row, none blank after the last */
	CHECK(strstr(text, "\nrow 40") != NULL);
	CHECK(strstr(text, "-E\n") != NULL); /* the 100th column too */
	free(text);
}

int main(void)
{
	test_canvas_extent();
	test_scroll();
	test_frames_whole();
	CHECK_DONE();
}
