/* plot_roofline.c — the roofline: attainable GFLOP/s = min(peak, intensity x bandwidth) on log-log
 * axes, DRAM and L2 roofs, the FP32 (and tensor) ceilings, and the launches as labelled points. */
#include "plot.h"

#include <math.h>
#include <string.h>

#include "common/svg.h"

struct axes {
	double x0, x1, y0, y1; /* log10 bounds */
};

static double peak_gflops(const struct gl_gpu_model *g)
{
	return g->fp32_tflops * 1e3;
}

static double l2_gbs(const struct gl_gpu_model *g)
{
	return g->l2_bytes_per_clk * g->clock_mhz * 1e6 / 1e9;
}

static struct axes pick_axes(const struct gl_gpu_model *g, const struct gl_plot_point *p, int n)
{
	double ridge = peak_gflops(g) / g->dram_gbs;
	struct axes a = {floor(log10(ridge)) - 3, ceil(log10(ridge)) + 2, 0, ceil(log10(peak_gflops(g))) + 0.3};
	a.y0 = a.y1 - 5;
	for (int i = 0; i < n; i++) {
		if (p[i].intensity > 0 && p[i].gflops > 0) {
			a.x0 = fmin(a.x0, floor(log10(p[i].intensity)));
			a.x1 = fmax(a.x1, ceil(log10(p[i].intensity)));
			a.y0 = fmin(a.y0, floor(log10(p[i].gflops)));
		}
	}
	return a;
}

static bool placed(const struct gl_plot_point *p)
{
	return p->intensity > 0 && p->gflops > 0 && isfinite(p->intensity) && isfinite(p->gflops);
}

static void unplaced_note(FILE *out, const struct gl_plot_point *p, int n, const char *prefix)
{
	for (int i = 0; i < n; i++)
		if (!placed(&p[i]))
			fprintf(out, "%s%s: no FLOPs counted, so no point on the roofline\n", prefix, p[i].label);
}

#define TW 64
#define TH 18

void gl_plot_roofline_text(FILE *out, const struct gl_gpu_model *g, const struct gl_plot_point *p, int n)
{
	struct axes a = pick_axes(g, p, n);
	char grid[TH][TW + 1];
	memset(grid, ' ', sizeof grid);
	for (int r = 0; r < TH; r++)
		grid[r][TW] = '\0';
	for (int c = 0; c < TW; c++) { /* the roof, column by column */
		double x = a.x0 + (a.x1 - a.x0) * (c + 0.5) / TW;
		double y = log10(fmin(peak_gflops(g), pow(10, x) * g->dram_gbs));
		int r = (int)((a.y1 - y) / (a.y1 - a.y0) * TH);
		if (r >= 0 && r < TH)
			grid[r][c] = pow(10, x) * g->dram_gbs < peak_gflops(g) ? '/' : '-';
	}
	for (int i = 0; i < n && i < 9; i++) {
		if (!placed(&p[i]))
			continue;
		int c = (int)((log10(p[i].intensity) - a.x0) / (a.x1 - a.x0) * TW);
		int r = (int)((a.y1 - log10(p[i].gflops)) / (a.y1 - a.y0) * TH);
		if (c >= 0 && c < TW && r >= 0 && r < TH)
			grid[r][c] = (char)('1' + i);
	}
	fprintf(out, "roofline on %s: FP32 %.1f TFLOP/s, DRAM %.0f GB/s (ridge %.1f FLOP/B); log-log\n", g->full_name,
		g->fp32_tflops, g->dram_gbs, peak_gflops(g) / g->dram_gbs);
	for (int r = 0; r < TH; r++) {
		double y = a.y1 - (a.y1 - a.y0) * r / TH;
		if (r % 3 == 0)
			fprintf(out, "%9.3g |%s\n", pow(10, y), grid[r]);
		else
			fprintf(out, "%9s |%s\n", "", grid[r]);
	}
	fprintf(out, "%9s +", "GFLOP/s");
	for (int c = 0; c < TW; c++)
		fputc('-', out);
	fprintf(out, "\n%10s%-10.3g%*s%10.3g  FLOP per DRAM byte\n", "", pow(10, a.x0), TW - 20, "", pow(10, a.x1));
	for (int i = 0; i < n && i < 9; i++)
		if (placed(&p[i]))
			fprintf(out, "  %d %-28s %8.3g FLOP/B %10.4g GFLOP/s (%s)\n", i + 1, p[i].label, p[i].intensity,
				p[i].gflops, p[i].measured ? "measured" : "estimate (model)");
	unplaced_note(out, p, n, "  ");
}

/* SVG: 720 x 480, plot area inset for the axis labels. */
#define SW 720
#define SH 480
#define L 80
#define R 20
#define T 40
#define B 60

static double sx(const struct axes *a, double v)
{
	return L + (log10(v) - a->x0) / (a->x1 - a->x0) * (SW - L - R);
}

static double sy(const struct axes *a, double v)
{
	return T + (a->y1 - log10(v)) / (a->y1 - a->y0) * (SH - T - B);
}

/* A roof y = x * bw capped at peak, drawn from the left edge to the ridge and then flat. */
static void roof(FILE *out, const struct axes *a, double bw, double peak, const char *color, bool dashed)
{
	double xl = pow(10, a->x0), xr = pow(10, a->x1), ridge = peak / bw;
	double yl = xl * bw;
	double ylow = pow(10, a->y0);
	if (yl < ylow) { /* start where the roof enters the plot */
		xl = ylow / bw;
		yl = ylow;
	}
	gl_svg_line(out, sx(a, xl), sy(a, yl), sx(a, fmin(ridge, xr)), sy(a, fmin(peak, xr * bw)), color, 2, dashed);
	if (ridge < xr)
		gl_svg_line(out, sx(a, ridge), sy(a, peak), sx(a, xr), sy(a, peak), color, 2, dashed);
}

static void svg_axes(FILE *out, const struct axes *a)
{
	char buf[32];
	gl_svg_line(out, L, SH - B, SW - R, SH - B, "black", 1, false);
	gl_svg_line(out, L, T, L, SH - B, "black", 1, false);
	for (int e = (int)a->x0; e <= (int)a->x1; e++) {
		double x = sx(a, pow(10, e));
		gl_svg_line(out, x, T, x, SH - B, "#dddddd", 1, false);
		snprintf(buf, sizeof buf, "%g", pow(10, e));
		gl_svg_text(out, x, SH - B + 16, 11, "middle", 0, buf);
	}
	for (int e = (int)ceil(a->y0); e <= (int)a->y1; e++) {
		double y = sy(a, pow(10, e));
		gl_svg_line(out, L, y, SW - R, y, "#dddddd", 1, false);
		snprintf(buf, sizeof buf, "%g", pow(10, e));
		gl_svg_text(out, L - 6, y + 4, 11, "end", 0, buf);
	}
	gl_svg_text(out, (L + SW - R) / 2.0, SH - 20, 13, "middle", 0, "arithmetic intensity (FLOP per DRAM byte)");
	gl_svg_text(out, 20, (T + SH - B) / 2.0, 13, "middle", -90, "GFLOP/s");
}

void gl_plot_roofline_svg(FILE *out, const struct gl_gpu_model *g, const struct gl_plot_point *p, int n,
			  const char *title)
{
	static const char *const colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
					     "#7f7f7f", "#bcbd22", "#17becf"};
	struct axes a = pick_axes(g, p, n);
	char buf[160];
	gl_svg_begin(out, SW, SH, title);
	gl_svg_text(out, SW / 2.0, 24, 15, "middle", 0, title);
	svg_axes(out, &a);
	roof(out, &a, g->dram_gbs, peak_gflops(g), "black", false);
	snprintf(buf, sizeof buf, "DRAM %.0f GB/s, FP32 %.1f TFLOP/s", g->dram_gbs, g->fp32_tflops);
	gl_svg_text(out, SW - R - 4, sy(&a, peak_gflops(g)) - 6, 11, "end", 0, buf);
	if (g->l2_bytes_per_clk > 0) {
		roof(out, &a, l2_gbs(g), peak_gflops(g), "#888888", true);
		snprintf(buf, sizeof buf, "L2 %.0f GB/s%s", l2_gbs(g), g->l2_bw_assumed ? " (assumed)" : "");
		gl_svg_text(out, sx(&a, pow(10, a.x0)) + 4, sy(&a, fmax(pow(10, a.y0), pow(10, a.x0) * l2_gbs(g))) - 6, 11,
			    "start", 0, buf);
	}
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (!placed(&p[i]))
			continue;
		const char *c = colors[i % 10];
		gl_svg_circle(out, sx(&a, p[i].intensity), sy(&a, p[i].gflops), 5, c);
		snprintf(buf, sizeof buf, "%s (%s)", p[i].label, p[i].measured ? "measured" : "estimate (model)");
		gl_svg_text(out, sx(&a, p[i].intensity) + 8, sy(&a, p[i].gflops) + 4 + 12 * (k++ % 2), 11, "start", 0, buf);
	}
	int row = 0;
	for (int i = 0; i < n; i++)
		if (!placed(&p[i])) {
			snprintf(buf, sizeof buf, "%s: no FLOPs counted, not on the roofline", p[i].label);
			gl_svg_text(out, L + 8, T + 14 + 14 * row++, 11, "start", 0, buf);
		}
	gl_svg_end(out);
}
