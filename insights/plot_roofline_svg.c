/* plot_roofline_svg.c — the hierarchical roofline as a self-contained SVG: the layout first (every text
 * item a box, placed where it overlaps no other text and no point: tests check the boxes), then the
 * drawing.  Text is monospace, so a box's width is exact to the font's advance (0.6 em). */
#include "plot.h"
#include "plot_roofline_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/svg.h"

#define W 900.0
#define H 560.0
#define PX0 80.0
#define PX1 620.0
#define PY0 50.0
#define PY1 500.0
#define LEGEND_X 640.0
#define MARK 5.0  /* half the size of a point's marker */
#define ADVANCE 0.6

static const char *const colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
				     "#7f7f7f", "#bcbd22", "#17becf"};
static const char *const roof_color[GL_ROOF_LEVELS] = {"#2ca02c", "#888888", "black"};
static const char *const ceiling_color[GL_ROOF_COMPUTES] = {"black", "#d62728", "#9467bd", "#8c564b"};

static double sx(const struct roof_axes *a, double v)
{
	return PX0 + (log10(v) - a->x0) / (a->x1 - a->x0) * (PX1 - PX0);
}

static double sy(const struct roof_axes *a, double v)
{
	return PY0 + (a->y1 - log10(v)) / (a->y1 - a->y0) * (PY1 - PY0);
}

bool gl_plot_boxes_overlap(const struct gl_plot_text *a, const struct gl_plot_text *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

/* A text item whose box has its left edge at x and its baseline at y. */
static struct gl_plot_text text_at(double x, double y, double size, const char *color, bool in_plot, const char *s)
{
	struct gl_plot_text t = {.x = x, .y = y - 0.8 * size, .size = size, .color = color, .in_plot = in_plot};
	snprintf(t.text, sizeof t.text, "%s", s);
	t.w = ADVANCE * size * (double)strlen(t.text);
	t.h = size;
	return t;
}

/* Liang-Barsky: clip the segment to the box; it crosses when something is left. */
bool gl_plot_line_crosses(const struct gl_plot_line *s, const struct gl_plot_text *b)
{
	double t0 = 0, t1 = 1, dx = s->x2 - s->x1, dy = s->y2 - s->y1;
	double p[4] = {-dx, dx, -dy, dy}, q[4] = {s->x1 - b->x, b->x + b->w - s->x1, s->y1 - b->y, b->y + b->h - s->y1};
	for (int i = 0; i < 4; i++) {
		if (p[i] == 0) {
			if (q[i] < 0)
				return false;
			continue;
		}
		double r = q[i] / p[i];
		if (p[i] < 0)
			t0 = r > t0 ? r : t0;
		else
			t1 = r < t1 ? r : t1;
		if (t0 > t1)
			return false;
	}
	return true;
}

static void add_line(struct gl_roofline_layout *L, double x1, double y1, double x2, double y2)
{
	if (L->nlines < GL_PLOT_MAX_LINES)
		L->lines[L->nlines++] = (struct gl_plot_line){x1, y1, x2, y2};
}

static bool collides(const struct gl_roofline_layout *L, const struct gl_plot_text *t)
{
	for (int i = 0; i < L->nlines; i++)
		if (gl_plot_line_crosses(&L->lines[i], t))
			return true;
	if (t->in_plot && (t->x < PX0 || t->x + t->w > PX1 || t->y < PY0 || t->y + t->h > PY1))
		return true;
	for (int i = 0; i < L->ntext; i++)
		if (gl_plot_boxes_overlap(&L->text[i], t))
			return true;
	for (int i = 0; i < L->nmarks; i++) {
		struct gl_plot_text m = {.x = L->marks[i].x - MARK, .y = L->marks[i].y - MARK, .w = 2 * MARK, .h = 2 * MARK};
		if (gl_plot_boxes_overlap(&m, t))
			return true;
	}
	return false;
}

/* Place the first candidate that collides with nothing; false (and nothing placed) when none fits. */
static bool place(struct gl_roofline_layout *L, const struct gl_plot_text *cand, int n)
{
	for (int i = 0; i < n; i++)
		if (L->ntext < GL_PLOT_MAX_TEXT && !collides(L, &cand[i])) {
			L->text[L->ntext++] = cand[i];
			return true;
		}
	return false;
}

static void add_text(struct gl_roofline_layout *L, struct gl_plot_text t)
{
	if (L->ntext < GL_PLOT_MAX_TEXT)
		L->text[L->ntext++] = t;
}

static void layout_axes(struct gl_roofline_layout *L, const struct roof_axes *a, const char *title)
{
	char buf[32];
	struct gl_plot_text t = text_at(0, 28, 14, "black", false, title);
	t.x = (W - t.w) / 2;
	add_text(L, t);
	for (int e = (int)a->x0; e <= (int)a->x1; e++) {
		snprintf(buf, sizeof buf, "%g", pow(10, e));
		t = text_at(0, PY1 + 16, 11, "black", false, buf);
		t.x = sx(a, pow(10, e)) - t.w / 2;
		add_text(L, t);
	}
	for (int e = (int)ceil(a->y0); e <= (int)a->y1; e++) {
		snprintf(buf, sizeof buf, "%g", pow(10, e));
		t = text_at(0, sy(a, pow(10, e)) + 4, 11, "black", false, buf);
		t.x = PX0 - 6 - t.w;
		add_text(L, t);
	}
	t = text_at(0, PY1 + 36, 12, "black", false, "arithmetic intensity (FLOP per byte at each level)");
	t.x = (PX0 + PX1 - t.w) / 2;
	add_text(L, t);
}

/* The points' markers; a marker that would cover most of an earlier one moves right by part of a marker
 * per such neighbour, so two launches at one place both show (the legend's values are exact). */
static void layout_marks(struct gl_roofline_layout *L, const struct roof_axes *a, const struct gl_plot_point *p, int n)
{
	for (int i = 0; i < n; i++)
		for (int l = 0; l < GL_ROOF_LEVELS; l++) {
			if (!roof_placed(&p[i], l) || L->nmarks >= GL_PLOT_MAX_MARKS)
				continue;
			double x = sx(a, p[i].intensity[l]), y = sy(a, p[i].gflops);
			for (int k = 0; k < L->nmarks; k++)
				if (fabs(L->marks[k].x - x) < MARK && fabs(L->marks[k].y - y) < MARK)
					x = L->marks[k].x + 1.2 * MARK;
			L->marks[L->nmarks++] = (struct gl_plot_mark){x, y, i, (enum gl_roof_level)l};
		}
}

/* A ceiling's short name in the plot: right-aligned above its line, else below, else further left along
 * it (the legend carries its rate). */
static void layout_ceilings(struct gl_roofline_layout *L, const struct roof_axes *a, const struct gl_roof_ceilings *c)
{
	static const char *const short_name[GL_ROOF_COMPUTES] = {"FP32", "FP16/BF16", "TF32", "INT8"};
	for (int k = 0; k < GL_ROOF_COMPUTES; k++) {
		if (!(c->peak[k] > 0))
			continue;
		double y = sy(a, c->peak[k]);
		struct gl_plot_text cand[24];
		int m = 0;
		for (int shift = 0; shift < 12; shift++)
			for (int below = 0; below < 2; below++) {
				struct gl_plot_text t = text_at(0, below ? y + 13 : y - 5, 11, ceiling_color[k], true, short_name[k]);
				t.x = PX1 - 4 - t.w - shift * (t.w + 8);
				cand[m++] = t;
			}
		place(L, cand, m);
	}
}

/* A memory roof's name: above-left of a point on the sloped line, tried at several points along it. */
static void layout_roofs(struct gl_roofline_layout *L, const struct roof_axes *a, const struct gl_roof_ceilings *c)
{
	double top = roof_top(c);
	for (int l = 0; l < GL_ROOF_LEVELS; l++) {
		if (!(c->bw[l] > 0))
			continue;
		const char *name = gl_roof_level_name((enum gl_roof_level)l);
		double xl = fmax(pow(10, a->x0), pow(10, a->y0) / c->bw[l]), xr = fmin(pow(10, a->x1), top / c->bw[l]);
		struct gl_plot_text cand[32];
		int m = 0;
		for (int s = 0; s < 16 && xr > xl; s++)
			for (int side = 0; side < 2; side++) { /* above-left of the line, or below-right */
				double x = pow(10, log10(xl) + (log10(xr) - log10(xl)) * (0.04 + 0.06 * s));
				double px = sx(a, x), py = sy(a, x * c->bw[l]);
				struct gl_plot_text t = text_at(0, side ? py + 14 : py - 5, 11, roof_color[l], true, name);
				t.x = side ? px + 5 : px - t.w - 5;
				cand[m++] = t;
			}
		place(L, cand, m);
	}
}

/* Each launch's number next to its DRAM point (else its L2, else L1), where it collides with nothing. */
static void layout_numbers(struct gl_roofline_layout *L, const struct roof_axes *a, const struct gl_plot_point *p, int n)
{
	for (int i = 0; i < n; i++) {
		int l = GL_ROOF_DRAM;
		while (l >= 0 && !roof_placed(&p[i], l))
			l--;
		if (l < 0)
			continue;
		double x = sx(a, p[i].intensity[l]), y = sy(a, p[i].gflops);
		char buf[16];
		snprintf(buf, sizeof buf, "%d", i + 1);
		struct gl_plot_text cand[48];
		int m = 0;
		for (int ring = 1; ring <= 6; ring++)
			for (int d = 0; d < 8; d++) {
				static const double dx[8] = {1, -1, 0, 0, 1, -1, 1, -1}, dy[8] = {0, 0, -1, 1, -1, -1, 1, 1};
				struct gl_plot_text t = text_at(0, 0, 11, colors[i % 10], true, buf);
				double cx = x + dx[d] * (MARK + 2 + t.w / 2 + 6 * (ring - 1));
				double cy = y + dy[d] * (MARK + 2 + t.h / 2 + 6 * (ring - 1));
				t.x = cx - t.w / 2, t.y = cy - t.h / 2;
				cand[m++] = t;
			}
		place(L, cand, m);
	}
}

/* The legend, right of the plot: each roof and ceiling with its rate beside a sample of its line, the
 * points' shapes, then the launches in their colours. */
static void layout_legend(struct gl_roofline_layout *L, const struct gl_roof_ceilings *c, const struct gl_plot_point *p,
			  int n)
{
	double y = PY0 + 2;
	char buf[160];
	add_text(L, text_at(LEGEND_X, y += 12, 11, "black", false, "ceilings and roofs:"));
	for (int i = 0; i < L->nlines; i++) {
		int k = L->line_kind[i];
		if (i < L->nroofs)
			snprintf(buf, sizeof buf, "%s %.0f GB/s%s", gl_roof_level_name((enum gl_roof_level)k), c->bw[k],
				 k == GL_ROOF_L2 && c->l2_assumed ? " (assumed)" : "");
		else
			snprintf(buf, sizeof buf, "%s %.1f %s", gl_roof_compute_name((enum gl_roof_compute)k), c->peak[k] / 1e3,
				 k == GL_ROOF_TC_INT8 ? "TOPS" : "TFLOP/s");
		add_text(L, text_at(LEGEND_X + 28, y += 14, 10, "black", false, buf));
		L->legend_y[i] = y - 3.5;
	}
	static const char *const shapes[GL_ROOF_LEVELS] = {"L1 intensity", "L2 intensity", "DRAM intensity"};
	add_text(L, text_at(LEGEND_X, y += 20, 11, "black", false, "points (one launch, one colour):"));
	for (int l = 0; l < GL_ROOF_LEVELS; l++) {
		add_text(L, text_at(LEGEND_X + 28, y += 15, 10, "black", false, shapes[l]));
		L->legend_shape_y[l] = y - 3.5;
	}
	y += 8;
	for (int i = 0; i < n; i++) {
		bool any = roof_placed(&p[i], 0) || roof_placed(&p[i], 1) || roof_placed(&p[i], 2);
		snprintf(buf, sizeof buf, "%d %s (%s)", i + 1, p[i].label,
			 !any ? "no FLOPs: not drawn" : p[i].measured ? "measured" : "estimate");
		size_t fit = (size_t)((W - LEGEND_X - 16) / (ADVANCE * 10));
		if (strlen(buf) > fit)
			buf[fit] = '\0';
		add_text(L, text_at(LEGEND_X + 16, y += 14, 10, colors[i % 10], false, buf));
	}
	if (y + 20 > L->height)
		L->height = y + 20;
}

/* The roofs (each rises to the highest ceiling) and the ceilings (each from where the fastest roof
 * reaches it): what draw_lines draws, and what no label may cross. */
static void layout_lines(struct gl_roofline_layout *L, const struct roof_axes *a, const struct gl_roof_ceilings *c)
{
	double top = roof_top(c);
	for (int l = 0; l < GL_ROOF_LEVELS; l++) {
		if (!(c->bw[l] > 0))
			continue;
		double xl = fmax(pow(10, a->x0), pow(10, a->y0) / c->bw[l]), xr = fmin(pow(10, a->x1), top / c->bw[l]);
		L->line_kind[L->nlines] = l;
		add_line(L, sx(a, xl), sy(a, xl * c->bw[l]), sx(a, xr), sy(a, xr * c->bw[l]));
	}
	L->nroofs = L->nlines;
	for (int k = 0; k < GL_ROOF_COMPUTES; k++)
		if (c->peak[k] > 0) {
			L->line_kind[L->nlines] = k;
			add_line(L, fmax(PX0, sx(a, c->peak[k] / c->bw[GL_ROOF_L1])), sy(a, c->peak[k]), PX1, sy(a, c->peak[k]));
		}
}

void gl_roofline_layout(const struct gl_gpu_model *g, const struct gl_plot_point *p, int n, const char *title,
			struct gl_roofline_layout *L)
{
	struct gl_roof_ceilings c;
	gl_roof_ceilings_of(g, &c);
	struct roof_axes a = roof_pick_axes(&c, p, n);
	memset(L, 0, sizeof *L);
	L->width = W, L->height = H, L->px0 = PX0, L->px1 = PX1, L->py0 = PY0, L->py1 = PY1;
	layout_axes(L, &a, title);
	layout_lines(L, &a, &c);
	layout_marks(L, &a, p, n);
	layout_legend(L, &c, p, n);
	layout_ceilings(L, &a, &c);
	layout_roofs(L, &a, &c);
	layout_numbers(L, &a, p, n);
}

/* ---- drawing */

static void draw_lines(FILE *out, const struct gl_roofline_layout *L, const struct roof_axes *a)
{
	for (int e = (int)a->x0; e <= (int)a->x1; e++)
		gl_svg_line(out, sx(a, pow(10, e)), PY0, sx(a, pow(10, e)), PY1, "#e4e4e4", 1, false);
	for (int e = (int)ceil(a->y0); e <= (int)a->y1; e++)
		gl_svg_line(out, PX0, sy(a, pow(10, e)), PX1, sy(a, pow(10, e)), "#e4e4e4", 1, false);
	gl_svg_line(out, PX0, PY1, PX1, PY1, "black", 1, false);
	gl_svg_line(out, PX0, PY0, PX0, PY1, "black", 1, false);
	for (int i = 0; i < L->nlines; i++) { /* the roofs (L1, L2, DRAM), then the ceilings */
		const struct gl_plot_line *s = &L->lines[i];
		const char *color = i < L->nroofs ? roof_color[L->line_kind[i]] : ceiling_color[L->line_kind[i]];
		bool dashed = i < L->nroofs ? L->line_kind[i] != GL_ROOF_DRAM : L->line_kind[i] != GL_ROOF_FP32;
		gl_svg_line(out, s->x1, s->y1, s->x2, s->y2, color, 2, dashed);
	}
}

static void draw_mark(FILE *out, double x, double y, enum gl_roof_level l, const char *color)
{
	if (l == GL_ROOF_L1)
		gl_svg_circle(out, x, y, MARK, color);
	else if (l == GL_ROOF_L2)
		gl_svg_shape(out, (const double[]){x - MARK, y - MARK, x + MARK, y - MARK, x + MARK, y + MARK, x - MARK, y + MARK},
			     4, color);
	else
		gl_svg_shape(out, (const double[]){x, y - MARK - 1, x + MARK + 1, y + MARK, x - MARK - 1, y + MARK}, 3, color);
}

void gl_plot_roofline_svg(FILE *out, const struct gl_gpu_model *g, const struct gl_plot_point *p, int n,
			  const char *title)
{
	struct gl_roofline_layout *L = malloc(sizeof *L);
	if (!L)
		return;
	gl_roofline_layout(g, p, n, title, L);
	struct gl_roof_ceilings c;
	gl_roof_ceilings_of(g, &c);
	struct roof_axes a = roof_pick_axes(&c, p, n);
	gl_svg_begin(out, (int)L->width, (int)ceil(L->height), title);
	draw_lines(out, L, &a);
	for (int i = 0; i < L->nmarks; i++)
		draw_mark(out, L->marks[i].x, L->marks[i].y, L->marks[i].level, colors[L->marks[i].launch % 10]);
	for (int i = 0; i < L->nlines; i++) { /* the legend's samples beside their rows */
		int k = L->line_kind[i];
		bool roof = i < L->nroofs;
		gl_svg_line(out, LEGEND_X, L->legend_y[i], LEGEND_X + 22, L->legend_y[i], roof ? roof_color[k] : ceiling_color[k],
			    2, roof ? k != GL_ROOF_DRAM : k != GL_ROOF_FP32);
	}
	for (int l = 0; l < GL_ROOF_LEVELS; l++)
		draw_mark(out, LEGEND_X + 11, L->legend_shape_y[l], (enum gl_roof_level)l, "white");
	for (int i = 0; i < L->ntext; i++)
		gl_svg_text_mono(out, L->text[i].x, L->text[i].y + 0.8 * L->text[i].size, L->text[i].size, L->text[i].color,
				 L->text[i].text);
	gl_svg_text(out, 20, (PY0 + PY1) / 2.0, 12, "middle", -90, "GFLOP/s (measured, or the estimate (model))");
	gl_svg_end(out);
	free(L);
}
