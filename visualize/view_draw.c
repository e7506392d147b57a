/* view_draw.c — drawing pieces the views share: the title rows and the per-lane strips. */
#include <stdio.h>
#include <string.h>

#include "view_states.h"

/* The name of choice v of a choice parameter, or NULL when v is not one of them. */
static const char *choice_name(const struct gl_param *p, long v)
{
	for (long i = 0; p->choices[i]; i++)
		if (i == v)
			return p->choices[i];
	return NULL;
}

static void params_text(const struct view_trace *tr, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	if (!tr->t) {
		snprintf(buf, n, "%s", tr->params_json);
		return;
	}
	for (int i = 0; i < tr->t->nparams && len < n; i++) {
		const struct gl_param *p = &tr->t->params[i];
		long v = tr->problem.v[i];
		const char *name = p->choices ? choice_name(p, v) : NULL;
		if (name) /* a choice is shown by its name (layout=nhwc), as the command line takes it */
			len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", i ? " " : "", p->name, name);
		else
			len += (size_t)snprintf(buf + len, n - len, "%s%s=%ld", i ? " " : "", p->name, v);
	}
}

int view_draw_header(struct view_canvas *cv, const struct view_trace *tr, const char *view)
{
	char params[300];
	params_text(tr, params, sizeof params);
	int x = view_canvas_printf(cv, 0, 0, VS_TITLE, "%s", view);
	x = view_canvas_printf(cv, 0, x + 2, VS_TITLE, "%s %s", tr->topic, tr->variant);
	view_canvas_printf(cv, 0, x + 2, VS_PLAIN, "%s  grid %u,%u block %u,%u", params, tr->grid[0], tr->grid[1],
	                   tr->block[0], tr->block[1]);
	view_canvas_printf(cv, 1, 0, VS_DIM, "%s", tr->origin);
	return 2;
}

void view_draw_lane_row(struct view_canvas *cv, int y, const char *label, const int value[32], const int style[32])
{
	view_canvas_text(cv, y, 0, VS_DIM, label);
	for (int l = 0; l < 32; l++)
		view_canvas_put(cv, y, 7 + 2 * l, value[l] < 0 ? '.' : view_digit(value[l]),
		                value[l] < 0 ? VS_DIM
		                : style      ? style[l]
		                             : VS_PLAIN);
}
