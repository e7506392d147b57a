/* test_visualize_player.c — the controls as a state machine (step, play, speed, go-to prompt, help,
 * quit) and the composed screen: status row, help box, too-small terminals, --frames text. */
#include <stdio.h>
#include <stdlib.h>

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

static const struct view_ops toy = {"toy", toy_steps, toy_draw, NULL, .tall = false};
static const struct view_ops toy_marked = {"toy", toy_steps, toy_draw, toy_marks, .tall = false};

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
	CHECK_DONE();
}
