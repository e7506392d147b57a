/* view_text.c — --frames N: plain-text frames on stdout, for tests, docs and screen readers. */
#include "view.h"

int view_print_frames(const struct view_ops *ops, const void *state, int nframes, FILE *out)
{
	return view_print_frames_from(ops, state, -1, nframes, out);
}

/* A tall view's frame is printed whole (its rows down to the last one drawn, each as wide as it is); a
 * view that fits itself is drawn at 80x23, every row. */
int view_print_frames_from(const struct view_ops *ops, const void *state, int first, int nframes, FILE *out)
{
	int total = ops->nsteps(state);
	struct view_canvas cv;
	if (ops->tall)
		view_canvas_init_wide(&cv, VIEW_MIN_W, VIEW_TALL, VIEW_WIDE);
	else
		view_canvas_init(&cv, VIEW_MIN_W, VIEW_MIN_H - 1);
	if (first < 0)
		first = view_open_step(ops, state);
	int pages = ops->pages && ops->set_page ? ops->pages(state, cv.w, cv.h) : 1;
	for (int k = first; k < first + nframes && k < total; k++) {
		fprintf(out, "step %d/%d\n", k + 1, total);
		for (int page = 0; page < pages; page++) { /* every page: text output drops nothing */
			if (pages > 1)
				ops->set_page(state, page);
			view_canvas_clear(&cv);
			ops->draw(state, k, &cv);
			int w, h = cv.h;
			if (ops->tall)
				view_canvas_extent(&cv, &w, &h);
			for (int y = 0; y < h; y++) {
				char line[VIEW_WIDE + 1];
				view_canvas_row(&cv, y, line, sizeof line);
				fprintf(out, "%s\n", line);
			}
		}
	}
	if (pages > 1)
		ops->set_page(state, 0);
	view_canvas_free(&cv);
	return ferror(out) ? GL_EENV : GL_OK;
}
