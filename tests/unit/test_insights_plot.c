/* test_insights_plot.c — the hierarchical roofline: the SVG's text boxes never overlap each other, a
 * point or a roof or ceiling line; every point of every launch is drawn, in the SVG and in the terminal
 * (a point whose cell is taken moves to a free one); the ceilings are those of the GPU model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "insights/plot.h"

static const struct gl_gpu_model *model(const char *name)
{
	const struct gl_gpu_model *g = NULL;
	struct gl_err err = {0};
	gl_gpu_model_lookup(name, &g, &err);
	CHECK(g != NULL);
	return g;
}

/* n launches crowded together, several on exactly the same spot: the hard case for labels. */
static int crowd(struct gl_plot_point *p, int n)
{
	for (int i = 0; i < n; i++) {
		memset(&p[i], 0, sizeof p[i]);
		snprintf(p[i].label, sizeof p[i].label, "gemm variant_%d", i);
		double x = 2.0 + (i % 4); /* four columns, launches 0, 4, 8, ... on one spot */
		p[i].intensity[GL_ROOF_L1] = x / 8;
		p[i].intensity[GL_ROOF_L2] = x;
		p[i].intensity[GL_ROOF_DRAM] = x * 4;
		p[i].gflops = 1000.0 * (1 + i / 4);
	}
	return n;
}

static void check_layout(const struct gl_gpu_model *g, const struct gl_plot_point *p, int n)
{
	struct gl_roofline_layout *L = calloc(1, sizeof *L);
	gl_roofline_layout(g, p, n, "title", L);
	int overlaps = 0, crossings = 0, outside = 0;
	for (int i = 0; i < L->ntext; i++) {
		const struct gl_plot_text *t = &L->text[i];
		for (int j = i + 1; j < L->ntext; j++)
			overlaps += gl_plot_boxes_overlap(t, &L->text[j]);
		if (!t->in_plot)
			continue;
		outside += t->x < L->px0 || t->x + t->w > L->px1 || t->y < L->py0 || t->y + t->h > L->py1;
		for (int k = 0; k < L->nlines; k++)
			crossings += gl_plot_line_crosses(&L->lines[k], t);
		for (int k = 0; k < L->nmarks; k++) {
			struct gl_plot_text m = {.x = L->marks[k].x - 5, .y = L->marks[k].y - 5, .w = 10, .h = 10};
			overlaps += gl_plot_boxes_overlap(t, &m);
		}
	}
	CHECK_EQ(overlaps, 0);
	CHECK_EQ(crossings, 0);
	CHECK_EQ(outside, 0);
	CHECK_EQ(L->nmarks, 3 * n); /* three intensities per launch */
	CHECK_EQ(L->nroofs, 3);      /* L1, L2, DRAM */
	CHECK(L->nlines >= 3 + 4);   /* and the FP32, FP16/BF16, TF32 and INT8 ceilings */
	int numbers = 0;             /* each launch's number is placed */
	for (int i = 0; i < n; i++) {
		char want[16];
		snprintf(want, sizeof want, "%d", i + 1);
		for (int k = 0; k < L->ntext; k++)
			numbers += L->text[k].in_plot && strcmp(L->text[k].text, want) == 0;
	}
	CHECK_EQ(numbers, n);
	free(L);
}

static void test_svg_layout(void)
{
	struct gl_plot_point p[12];
	check_layout(model("H100"), p, crowd(p, 12));
	check_layout(model("RTX4090"), p, crowd(p, 7)); /* FP32 and TF32 ceilings coincide */
	check_layout(model("A100"), p, crowd(p, 1));
}

static void test_ceilings(void)
{
	struct gl_roof_ceilings c;
	gl_roof_ceilings_of(model("A100"), &c);
	CHECK_NEAR(c.bw[GL_ROOF_DRAM], 2039, 1e-9);
	CHECK_NEAR(c.bw[GL_ROOF_L2], 5120 * 1.41, 1e-6);          /* 5120 B/clk at 1410 MHz */
	CHECK_NEAR(c.bw[GL_ROOF_L1], 108 * 128 * 1.41, 1e-6);     /* 128 B/clk per SM */
	CHECK_NEAR(c.peak[GL_ROOF_FP32], 19500, 1e-9);
	CHECK_NEAR(c.peak[GL_ROOF_TC_FP16], 312000, 1e-9);
	CHECK_NEAR(c.peak[GL_ROOF_TC_TF32], 156000, 1e-9);
	CHECK_NEAR(c.peak[GL_ROOF_TC_INT8], 624000, 1e-9);
}

/* The terminal plot: every launch's three marks appear in the grid even where they coincide. */
static void test_text(void)
{
	struct gl_plot_point p[8];
	int n = crowd(p, 8);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	gl_plot_roofline_text(f, model("H100"), p, n);
	fclose(f);
	/* the grid is the lines with a '|' axis; marks counted there only */
	int seen[128] = {0};
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char *bar = strchr(line, '|');
		if (!bar || strstr(line, "FLOP/B"))
			continue;
		for (char *c = bar + 1; *c; c++)
			seen[(unsigned char)*c]++;
	}
	for (int i = 0; i < n; i++) {
		CHECK_EQ(seen['a' + i], 1);
		CHECK_EQ(seen['1' + i], 1);
		CHECK_EQ(seen['A' + i], 1);
	}
	free(buf);
}

int main(void)
{
	test_svg_layout();
	test_ceilings();
	test_text();
	CHECK_DONE();
}
