/* test_render_validate_rows.c — how `gpulab validate` judges its rows, with collected GPU metrics and
 * without: an exact count agrees or differs, a metric the GPU did not collect is "not collected"
 * (never a difference, although NaN != NaN), conflict and instruction-total rows are shown only. */
#include <math.h>

#include "check.h"
#include "render/render.h"
#include "profiler/metric_sets.h"

static void fill(struct gl_metrics *m, double value)
{
	size_t n;
	const char *const *names = gl_metric_set_sim(&n);
	for (size_t i = 0; i < n; i++)
		gl_metrics_set(m, names[i], value, "");
}

static void test_rows(void)
{
	CHECK_EQ(gl_validate_row(GL_M_GLD_SECT, 4096, 4096), GL_VROW_AGREE);
	CHECK_EQ(gl_validate_row(GL_M_GLD_SECT, 4096, 4097), GL_VROW_DIFFERS);
	CHECK_EQ(gl_validate_row(GL_M_GLD_SECT, 4096, NAN), GL_VROW_NOT_COLLECTED);
	CHECK_EQ(gl_validate_row(GL_M_SLD_CONF, 0, 12), GL_VROW_SHOWN); /* the counter reads high */
	CHECK_EQ(gl_validate_row(GL_M_INST, 100, 80), GL_VROW_SHOWN);   /* PTX vs SASS */
	CHECK_EQ(gl_validate_row(GL_M_INST, 100, NAN), GL_VROW_NOT_COLLECTED);
	CHECK_EQ(gl_validate_kind(GL_M_SST_WF), GL_VKIND_EXACT);
	CHECK(strcmp(gl_validate_row_word(GL_VROW_NOT_COLLECTED), "not collected") == 0);
	/* instruction totals: an estimate of the SASS when the simulator mapped it, else PTX */
	CHECK(strncmp(gl_validate_info_remark("counts: SASS-mapped (ptxas 13.0 sm_80); sampled 8 of 64 CTAs"),
		      "estimate: SASS", 14) == 0);
	CHECK(strcmp(gl_validate_info_remark("counts: PTX-level (nvdisasm not found)"),
		     "PTX (sim) vs SASS (GPU): not 1:1") == 0);
	CHECK(strcmp(gl_validate_info_remark(""), "PTX (sim) vs SASS (GPU): not 1:1") == 0);
}

static void test_counts(void)
{
	struct gl_metrics sim = {0}, gpu = {0}, none = {0};
	size_t n;
	gl_metric_set_sim(&n);
	fill(&sim, 32);
	fill(&gpu, 32);
	struct gl_vcount c = {0};
	gl_validate_count(&sim, &gpu, &c); /* collected, all equal */
	CHECK_EQ(c.agree, (int)n - 4);     /* two conflict rows and two instruction totals are shown only */
	CHECK_EQ(c.differs, 0);
	CHECK_EQ(c.not_collected, 0);
	gl_metrics_set(&gpu, GL_M_GST_SECT, 40, "sector");
	gl_metrics_set(&gpu, GL_M_SLD_CONF, 99, "conflict");
	c = (struct gl_vcount){0};
	gl_validate_count(&sim, &gpu, &c); /* one exact row differs; a conflict row never counts */
	CHECK_EQ(c.differs, 1);
	CHECK_EQ(c.agree, (int)n - 5);
	c = (struct gl_vcount){0};
	gl_validate_count(&sim, &none, &c); /* CUPTI fell back: nothing collected, nothing differs */
	CHECK_EQ(c.differs, 0);
	CHECK_EQ(c.agree, 0);
	CHECK_EQ(c.not_collected, (int)n);
	gl_metrics_set(&none, GL_M_GLD_REQ, NAN, "request"); /* a stored NaN is not collected either */
	c = (struct gl_vcount){0};
	gl_validate_count(&sim, &none, &c);
	CHECK_EQ(c.differs, 0);
	gl_metrics_free(&sim);
	gl_metrics_free(&gpu);
	gl_metrics_free(&none);
}

int main(void)
{
	test_rows();
	test_counts();
	CHECK_DONE();
}
