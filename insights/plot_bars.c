/* plot_bars.c — bars per metric per variant: each metric's bars scaled to its largest value, so metrics
 * of different units sit in one picture; the values are printed beside the bars. */
#include "plot.h"

#include <math.h>
#include <stdio.h>

#include "common/svg.h"

static double metric_max(const struct gl_plot_bars *b, int m)
{
	double mx = 0;
	for (int s = 0; s < b->nseries; s++) {
		double v = b->values[m * b->nseries + s];
		if (isfinite(v) && v > mx)
			mx = v;
	}
	return mx;
}

void gl_plot_bars_text(FILE *out, const struct gl_plot_bars *b)
{
	fprintf(out, "%s\n", b->title);
	for (int m = 0; m < b->nmetrics; m++) {
		double mx = metric_max(b, m);
		fprintf(out, "\n%s\n", b->metrics[m]);
		for (int s = 0; s < b->nseries; s++) {
			double v = b->values[m * b->nseries + s];
			int w = isfinite(v) && mx > 0 ? (int)lround(40 * v / mx) : 0;
			fprintf(out, "  %-16s |", b->series[s]);
			for (int i = 0; i < 40; i++)
				fputc(i < w ? '#' : ' ', out);
			if (isfinite(v))
				fprintf(out, "| %.4g\n", v);
			else
				fprintf(out, "| -\n");
		}
	}
}

#define BW 720
#define ROW 18
#define LEFT 150

void gl_plot_bars_svg(FILE *out, const struct gl_plot_bars *b)
{
	static const char *const colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
					     "#7f7f7f", "#bcbd22", "#17becf"};
	int height = 50 + b->nmetrics * (b->nseries * ROW + 34);
	char buf[64];
	gl_svg_begin(out, BW, height, b->title);
	gl_svg_text(out, BW / 2.0, 24, 15, "middle", 0, b->title);
	double y = 50;
	for (int m = 0; m < b->nmetrics; m++) {
		double mx = metric_max(b, m);
		gl_svg_text(out, 10, y + 12, 13, "start", 0, b->metrics[m]);
		y += 20;
		for (int s = 0; s < b->nseries; s++) {
			double v = b->values[m * b->nseries + s];
			double w = isfinite(v) && mx > 0 ? (BW - LEFT - 110) * v / mx : 0;
			gl_svg_text(out, LEFT - 6, y + 12, 11, "end", 0, b->series[s]);
			gl_svg_rect(out, LEFT, y + 2, w, ROW - 4, colors[s % 10]);
			if (isfinite(v))
				snprintf(buf, sizeof buf, "%.4g", v);
			else
				snprintf(buf, sizeof buf, "-");
			gl_svg_text(out, LEFT + w + 6, y + 12, 11, "start", 0, buf);
			y += ROW;
		}
		y += 14;
	}
	gl_svg_end(out);
}
