/* test_visualize_player.c — the controls as a state machine (step, play, speed, go-to prompt, help,
 * quit) and the composed screen: status row, help box, too-small terminals, --frames text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "visualize/view.h"

static void test_keys(void)
{
	struct view_player p;
	view_player_init(&p, 10, false);
	CHECK_EQ(p.step, 0);
	CHECK(!p.playing);
	CHECK(view_player_key(&p, 'n'));
	CHECK_EQ(p.step, 1);
	view_player_key(&p, 'p');
	view_player_key(&p, 'p'); /* stays at the first step */
	CHECK_EQ(p.step, 0);
	view_player_key(&p, ' ');
	CHECK(p.playing);
	CHECK(view_player_tick(&p));
	CHECK_EQ(p.step, 1);
	view_player_key(&p, 'n'); /* stepping pauses */
	CHECK(!p.playing);
	CHECK_EQ(p.step, 2);
	int speed = view_player_steps_per_second(&p);
	view_player_key(&p, '+');
	CHECK_EQ(view_player_steps_per_second(&p), 2 * speed);
	for (int i = 0; i < 20; i++)
		view_player_key(&p, '-');
	CHECK_EQ(view_player_steps_per_second(&p), 1);
	for (int i = 0; i < 20; i++)
		view_player_key(&p, '+');
	CHECK_EQ(view_player_steps_per_second(&p), 32);

	/* g: type a step number */
	view_player_key(&p, 'g');
	CHECK(p.prompt);
	view_player_key(&p, '1');
	view_player_key(&p, '2');
	view_player_key(&p, VIEW_KEY_BACKSPACE);
	view_player_key(&p, '0');
	CHECK_STR(p.input, "10");
	view_player_key(&p, '\r');
	CHECK(!p.prompt);
	CHECK_EQ(p.step, 9);
	view_player_key(&p, 'g');
	view_player_key(&p, '9');
	view_player_key(&p, '9');
	view_player_key(&p, '\n');
	CHECK_EQ(p.step, 9);
	CHECK(strstr(p.message, "no step 99") != NULL);
	view_player_key(&p, 'g');
	view_player_key(&p, '3');
	view_player_key(&p, VIEW_KEY_ESC);
	CHECK(!p.prompt);
	CHECK_EQ(p.step, 9);

	/* playing at the end stops; space there replays from the start */
	CHECK(!view_player_tick(&p));
	view_player_key(&p, ' ');
	CHECK(p.playing);
	CHECK_EQ(p.step, 0);
	for (int i = 0; i < 20; i++)
		view_player_tick(&p);
	CHECK_EQ(p.step, 9);
	CHECK(!p.playing);

	/* help: any key closes it without acting; q quits from anywhere */
	view_player_key(&p, '?');
	CHECK(p.help);
	view_player_key(&p, 'p');
	CHECK(!p.help);
	CHECK_EQ(p.step, 9);
	view_player_key(&p, '?');
	view_player_key(&p, 'q');
	CHECK(p.quit);

	view_player_init(&p, 5, true);
	CHECK(p.playing);
	view_player_init(&p, 1, true); /* nothing to play */
	CHECK(!p.playing);
}

/* A toy view: step k draws "frame k" and a marker on its last row. */
static int toy_steps(const void *s)
{
	return *(const int *)s;
}

static void toy_draw(const void *s, int step, struct view_canvas *cv)
{
	(void)s;
	view_canvas_printf(cv, 0, 0, VS_PLAIN, "frame %d", step + 1);
	view_canvas_text(cv, cv->h - 1, 0, VS_DIM, "bottom");
}

/* Steps 2, 5, 8, ... show the point; a new warp starts at steps 0 and 4. */
static unsigned toy_marks(const void *s, int step)
{
	(void)s;
	return (step % 3 == 2 ? VIEW_MARK_POINT : 0) | (step == 0 || step == 4 ? VIEW_MARK_NEW_WARP : 0);
}

static const struct view_ops toy = {.name = "toy", .nsteps = toy_steps, .draw = toy_draw};
static const struct view_ops toy_marked = {.name = "toy", .nsteps = toy_steps, .draw = toy_draw, .marks = toy_marks};

/* A toy view with its own key ('x' counts, '}' too: the view's keys come before the player's) and two
 * pages, whose state is behind a pointer as gemm's is. */
struct paged {
	int steps;
	int *page, *presses;
};

static int paged_steps(const void *s)
{
	return ((const struct paged *)s)->steps;
}

static void paged_draw(const void *s, int step, struct view_canvas *cv)
{
	view_canvas_printf(cv, 0, 0, VS_PLAIN, "frame %d page %d", step + 1, *((const struct paged *)s)->page + 1);
}

static bool paged_key(const void *s, int key)
{
	const struct paged *v = s;
	if (key != 'x' && key != '}')
		return false;
	(*v->presses)++;
	return true;
}

static int paged_pages(const void *s, int w, int h)
{
	(void)s;
	return w < 100 || h < 30 ? 2 : 1;
}

static void paged_set_page(const void *s, int page)
{
	*((const struct paged *)s)->page = page;
}

static const char *const paged_help[] = {"x        the toy's own key", NULL};
static const struct view_ops paged_ops = {.name = "paged",
                                          .nsteps = paged_steps,
                                          .draw = paged_draw,
                                          .key = paged_key,
                                          .pages = paged_pages,
                                          .set_page = paged_set_page,
                                          .help = paged_help};

static void test_view_keys_and_pages(void)
{
	int page = 0, presses = 0;
	struct paged v = {3, &page, &presses};
	struct view_player p;
	view_player_init(&p, 3, false);
	view_player_marks(&p, &paged_ops, &v);
	CHECK(view_player_key(&p, 'x'));
	CHECK(view_player_key(&p, '}'));
	CHECK_EQ(presses, 2);
	CHECK_EQ(p.step, 0);
	CHECK(view_player_key(&p, 'n')); /* not the view's: the player's */
	CHECK_EQ(p.step, 1);
	/* the help box lists the view's keys */
	p.help = true;
	struct view_canvas cv;
	view_canvas_init(&cv, 80, 24);
	view_compose(&paged_ops, &v, &p, &cv);
	bool listed = false, scroll = false, closing = false;
	for (int y = 0; y < cv.h; y++) {
		char row[96];
		view_canvas_row(&cv, y, row, sizeof row);
		listed |= strstr(row, "the toy's own key") != NULL;
		scroll |= strstr(row, "PgDn") != NULL; /* a view that fits itself never scrolls */
		closing |= strstr(row, "any key closes this box") != NULL;
	}
	CHECK(listed);
	CHECK(!scroll);
	CHECK(closing);
	view_canvas_free(&cv);
	/* --frames prints both pages of each frame at 80x24, and leaves the first page selected */
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	CHECK_EQ(view_print_frames_from(&paged_ops, &v, 0, 2, out), GL_OK);
	fclose(out);
	CHECK(strstr(text, "step 1/3\nframe 1 page 1\n") != NULL);
	CHECK(strstr(text, "frame 1 page 2\n") != NULL);
	CHECK(strstr(text, "step 2/3\nframe 2 page 1\n") != NULL);
	CHECK(strstr(text, "frame 2 page 2\n") != NULL);
	CHECK_EQ(page, 0);
	free(text);
}

/* The view opens on the first step that shows its point; ] [ } { jump by marks, Home/End to the ends, Esc
 * quits at once (and only closes the help box when it is open). */
static void test_marks(void)
{
	int n = 7;
	struct view_player p;
	view_player_init(&p, n, false);
	view_player_marks(&p, &toy_marked, &n);
	CHECK(p.step == 2);
	CHECK(view_first_point(&toy, &n) == 0);
	view_player_key(&p, ']');
	CHECK(p.step == 5);
	view_player_key(&p, ']');
	CHECK(p.step == 5 && strstr(p.message, "no later step") != NULL);
	view_player_key(&p, '[');
	CHECK(p.step == 2);
	view_player_key(&p, '}');
	CHECK(p.step == 4);
	view_player_key(&p, '{');
	CHECK(p.step == 0);
	view_player_key(&p, VIEW_KEY_END);
	CHECK(p.step == 6);
	view_player_key(&p, VIEW_KEY_HOME);
	CHECK(p.step == 0);
	view_player_key(&p, '?');
	view_player_key(&p, VIEW_KEY_ESC);
	CHECK(!p.help && !p.quit);
	view_player_key(&p, VIEW_KEY_ESC);
	CHECK(p.quit);
}

static void test_compose(void)
{
	int n = 3;
	struct view_player p;
	view_player_init(&p, n, false);
	struct view_canvas cv;
	view_canvas_init(&cv, 80, 24);
	view_compose(&toy, &n, &p, &cv);
	char row[128];
	view_canvas_row(&cv, 0, row, sizeof row);
	CHECK(strncmp(row, "step 1/3  [paused] 2/s", 22) == 0);
	CHECK(strlen(row) <= 80);
	view_canvas_row(&cv, 1, row, sizeof row);
	CHECK_STR(row, "frame 1");
	view_canvas_row(&cv, 23, row, sizeof row);
	CHECK_STR(row, "bottom");
	view_player_key(&p, '?');
	view_compose(&toy, &n, &p, &cv);
	bool box = false;
	for (int y = 0; y < 24; y++) {
		view_canvas_row(&cv, y, row, sizeof row);
		box |= strstr(row, "| space    play / pause") != NULL;
	}
	CHECK(box);
	view_player_key(&p, 'x');
	view_player_key(&p, 'g');
	view_player_key(&p, '2');
	view_compose(&toy, &n, &p, &cv);
	view_canvas_row(&cv, 0, row, sizeof row);
	CHECK(strstr(row, "go to step (1-3") != NULL && strstr(row, ": 2_") != NULL);
	view_canvas_free(&cv);

	view_canvas_init(&cv, 60, 20);
	view_compose(&toy, &n, &p, &cv);
	view_canvas_row(&cv, 0, row, sizeof row);
	CHECK_STR(row, "terminal 60x20: the view needs 80x24");
	view_canvas_free(&cv);
}

static void test_frames_text(void)
{
	int n = 3;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	CHECK_EQ(view_print_frames(&toy, &n, 5, out), GL_OK); /* asks for 5, the view has 3 */
	fclose(out);
	int steps = 0, lines = 0;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "step ", 5) == 0) {
			char want[32];
			snprintf(want, sizeof want, "step %d/3", ++steps);
			CHECK_STR(line, want);
		}
		lines++;
	}
	CHECK_EQ(steps, 3);
	CHECK_EQ(lines, 3 * 3); /* step, frame, bottom; blank rows are empty lines strtok skips */
	free(buf);
}

int main(void)
{
	test_keys();
	test_compose();
	test_marks();
	test_frames_text();
	test_view_keys_and_pages();
	CHECK_DONE();
}
