/* plot_roofline.c — the hierarchical roofline in the terminal: attainable GFLOP/s = min(compute
 * ceiling, intensity x bandwidth) on log-log axes, the DRAM, L2 and L1 roofs, the FP32 and FP16-tensor
 * ceilings, and each launch at its three intensities, every point visible. */
#include "plot.h"
#include "plot_roofline_int.h"

#include <math.h>
#include <string.h>

const char *gl_roof_level_name(enum gl_roof_level l)
{
	static const char *const names[GL_ROOF_LEVELS] = {"L1", "L2", "DRAM"};
	return l < GL_ROOF_LEVELS ? names[l] : "?";
}

const char *gl_roof_compute_name(enum gl_roof_compute k)
{
	static const char *const names[GL_ROOF_COMPUTES] = {"FP32", "FP16/BF16 tensor", "TF32 tensor", "INT8 tensor"};
	return k < GL_ROOF_COMPUTES ? names[k] : "?";
}

void gl_roof_ceilings_of(const struct gl_gpu_model *g, struct gl_roof_ceilings *c)
{
	double clk = g->clock_mhz * 1e6;
	memset(c, 0, sizeof *c);
	c->bw[GL_ROOF_L1] = g->sm_count * g->smem_bytes_per_clk_sm * clk / 1e9;
	c->bw[GL_ROOF_L2] = g->l2_bytes_per_clk * clk / 1e9;
	c->bw[GL_ROOF_DRAM] = g->dram_gbs;
	c->l2_assumed = g->l2_bw_assumed;
	c->peak[GL_ROOF_FP32] = g->fp32_tflops * 1e3;
	c->peak[GL_ROOF_TC_FP16] = g->tensor_tflops * 1e3;
	c->peak[GL_ROOF_TC_TF32] = g->tf32_tflops * 1e3;
	c->peak[GL_ROOF_TC_INT8] = g->int8_tops * 1e3;
}

bool roof_placed(const struct gl_plot_point *p, int level)
{
	return p->intensity[level] > 0 && p->gflops > 0 && isfinite(p->intensity[level]) && isfinite(p->gflops);
}

double roof_top(const struct gl_roof_ceilings *c)
{
	double top = 0;
	for (int k = 0; k < GL_ROOF_COMPUTES; k++)
		top = fmax(top, c->peak[k]);
	return top;
}

/* Decades that hold every point, every ceiling and the ridges of the memory roofs. */
struct roof_axes roof_pick_axes(const struct gl_roof_ceilings *c, const struct gl_plot_point *p, int n)
{
	double top = roof_top(c), lo_ridge = INFINITY, hi_ridge = 0;
	for (int l = 0; l < GL_ROOF_LEVELS; l++)
		if (c->bw[l] > 0) {
			lo_ridge = fmin(lo_ridge, c->peak[GL_ROOF_FP32] / c->bw[l]);
			hi_ridge = fmax(hi_ridge, top / c->bw[l]);
		}
	struct roof_axes a = {floor(log10(lo_ridge)) - 2, ceil(log10(hi_ridge)) + 1, 0, ceil(log10(top) + 0.05)};
	a.y0 = a.y1 - 5;
	for (int i = 0; i < n; i++)
		for (int l = 0; l < GL_ROOF_LEVELS; l++)
			if (roof_placed(&p[i], l)) {
				a.x0 = fmin(a.x0, floor(log10(p[i].intensity[l])));
				a.x1 = fmax(a.x1, ceil(log10(p[i].intensity[l]) + 0.05));
				a.y0 = fmin(a.y0, floor(log10(p[i].gflops)));
			}
	return a;
}

/* ---- text */

#define TW 64
#define TH 20

/* Launch k's mark at a level: L1 lowercase, L2 a digit, DRAM uppercase (k < 26); '?' beyond. */
static char mark_of(int k, int level)
{
	if (k >= 26)
		return '?';
	if (level == GL_ROOF_L1)
		return (char)('a' + k);
	if (level == GL_ROOF_DRAM)
		return (char)('A' + k);
	return k < 9 ? (char)('1' + k) : (char)('Z' - (k - 9));
}

static bool is_mark(char ch)
{
	return ch != ' ' && ch != '/' && ch != ':' && ch != '.' && ch != '-' && ch != '=';
}

/* The free cell nearest (r, c), by rings of growing distance (the same row first), or false. */
static bool nearest_free(char grid[TH][TW + 1], int *r, int *c)
{
	for (int d = 0; d < TW; d++)
		for (int dr = 0; dr <= d; dr++)
			for (int s = 0; s < 4; s++) {
				int rr = *r + ((s & 1) ? -dr : dr), cc = *c + ((s & 2) ? -(d - dr) : (d - dr));
				if (rr >= 0 && rr < TH && cc >= 0 && cc < TW && !is_mark(grid[rr][cc])) {
					*r = rr, *c = cc;
					return true;
				}
			}
	return false;
}

static void draw_roofs(char grid[TH][TW + 1], const struct roof_axes *a, const struct gl_roof_ceilings *c)
{
	static const char slope[GL_ROOF_LEVELS] = {'.', ':', '/'};
	double fp32 = c->peak[GL_ROOF_FP32], tc = c->peak[GL_ROOF_TC_FP16];
	for (int col = 0; col < TW; col++) {
		double x = pow(10, a->x0 + (a->x1 - a->x0) * (col + 0.5) / TW);
		for (int k = 0; k < 2; k++) { /* ceilings where a roof reaches them */
			double peak = k ? tc : fp32;
			int r = (int)((a->y1 - log10(peak)) / (a->y1 - a->y0) * TH);
			if (peak > 0 && r >= 0 && r < TH && x * c->bw[GL_ROOF_L1] >= peak)
				grid[r][col] = k ? '=' : '-';
		}
		for (int l = 0; l < GL_ROOF_LEVELS; l++) {
			double y = x * c->bw[l];
			int r = (int)((a->y1 - log10(y)) / (a->y1 - a->y0) * TH);
			if (c->bw[l] > 0 && y < roof_top(c) && r >= 0 && r < TH && grid[r][col] == ' ')
				grid[r][col] = slope[l];
		}
	}
}

void gl_plot_roofline_text(FILE *out, const struct gl_gpu_model *g, const struct gl_plot_point *p, int n)
{
	struct gl_roof_ceilings c;
	gl_roof_ceilings_of(g, &c);
	struct roof_axes a = roof_pick_axes(&c, p, n);
	char grid[TH][TW + 1];
	memset(grid, ' ', sizeof grid);
	for (int r = 0; r < TH; r++)
		grid[r][TW] = '\0';
	draw_roofs(grid, &a, &c);
	bool moved[26][GL_ROOF_LEVELS] = {{false}}, any_moved = false;
	for (int i = 0; i < n && i < 26; i++)
		for (int l = 0; l < GL_ROOF_LEVELS; l++) {
			if (!roof_placed(&p[i], l))
				continue;
			int col = (int)((log10(p[i].intensity[l]) - a.x0) / (a.x1 - a.x0) * TW);
			int row = (int)((a.y1 - log10(p[i].gflops)) / (a.y1 - a.y0) * TH);
			col = col < 0 ? 0 : col >= TW ? TW - 1 : col;
			row = row < 0 ? 0 : row >= TH ? TH - 1 : row;
			int r0 = row, c0 = col;
			if (nearest_free(grid, &row, &col)) {
				grid[row][col] = mark_of(i, l);
				moved[i][l] = row != r0 || col != c0;
				any_moved |= moved[i][l];
			}
		}
	fprintf(out, "hierarchical roofline on %s (log-log): roofs L1 '.' %.0f GB/s, L2 ':' %.0f GB/s%s, DRAM '/' %.0f GB/s;\n",
		g->full_name, c.bw[GL_ROOF_L1], c.bw[GL_ROOF_L2], c.l2_assumed ? " (assumed)" : "", c.bw[GL_ROOF_DRAM]);
	fprintf(out, "ceilings FP32 '-' %.1f TFLOP/s, FP16/BF16 tensor '=' %.1f; TF32 tensor %.1f, INT8 tensor %.1f TOPS\n",
		c.peak[GL_ROOF_FP32] / 1e3, c.peak[GL_ROOF_TC_FP16] / 1e3, c.peak[GL_ROOF_TC_TF32] / 1e3,
		c.peak[GL_ROOF_TC_INT8] / 1e3);
	for (int r = 0; r < TH; r++) {
		double y = a.y1 - (a.y1 - a.y0) * r / TH;
		if (r % 4 == 0)
			fprintf(out, "%9.3g |%s\n", pow(10, y), grid[r]);
		else
			fprintf(out, "%9s |%s\n", "", grid[r]);
	}
	fprintf(out, "%9s +", "GFLOP/s");
	for (int col = 0; col < TW; col++)
		fputc('-', out);
	fprintf(out, "\n%10s%-10.3g%*s%10.3g  FLOP per byte\n", "", pow(10, a.x0), TW - 20, "", pow(10, a.x1));
	fprintf(out, "  mark  L1/L2/DRAM  launch                         FLOP/B: L1       L2     DRAM      GFLOP/s\n");
	for (int i = 0; i < n; i++) {
		if (!(p[i].gflops > 0) || !isfinite(p[i].gflops)) {
			fprintf(out, "  %s: no FLOPs counted, so no point on the roofline\n", p[i].label);
			continue;
		}
		char marks[16];
		snprintf(marks, sizeof marks, "%c %c %c", mark_of(i, GL_ROOF_L1), mark_of(i, GL_ROOF_L2),
			 mark_of(i, GL_ROOF_DRAM));
		fprintf(out, "  %-17s %-28s %8.3g %8.3g %8.3g %12.4g (%s)%s\n", marks, p[i].label,
			p[i].intensity[GL_ROOF_L1], p[i].intensity[GL_ROOF_L2], p[i].intensity[GL_ROOF_DRAM], p[i].gflops,
			p[i].measured ? "measured" : "estimate (model)",
			i < 26 && (moved[i][0] || moved[i][1] || moved[i][2]) ? " *" : "");
	}
	if (any_moved)
		fprintf(out, "  * a mark moved to the nearest free cell: another point was drawn where it falls\n");
	if (n > 26)
		fprintf(out, "  launches after the 26th are listed, not drawn\n");
}
