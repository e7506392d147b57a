/* test_visualize_table.c — the one table of views: each name finds its entry, the kind and engine
 * table agree, gemm, conv, mma, flash and reduce imply their topics (mma, flash and reduce also a
 * variant), every view defines its point, kinds are distinct, and an unknown name finds nothing. */
#include "check.h"
#include "visualize/view.h"

int main(void)
{
	const struct view_entry *g = view_find("gemm"), *b = view_find("banks"), *c = view_find("coalesce");
	CHECK(g && b && c);
	if (g && b && c) {
		CHECK_EQ(g->kind, GL_VIEW_GEMM);
		CHECK(g->ops == &view_gemm_ops && strcmp(g->topic, "gemm") == 0);
		CHECK_EQ(b->kind, GL_VIEW_BANKS);
		CHECK(b->ops == &view_banks_ops && b->topic == NULL);
		CHECK_EQ(c->kind, GL_VIEW_COALESCE);
		CHECK(c->ops == &view_coalesce_ops && c->topic == NULL);
	}
	const struct view_entry *m = view_find("mma");
	CHECK(m != NULL);
	if (m) {
		CHECK_EQ(m->kind, GL_VIEW_MMA);
		CHECK(m->ops == &view_mma_ops && strcmp(m->topic, "hgemm") == 0 && strcmp(m->variant, "mma_ldmatrix") == 0);
	}
	CHECK(g && g->variant == NULL);
	const struct view_entry *f = view_find("flash");
	CHECK(f && f->kind == GL_VIEW_FLASH && f->ops == &view_flash_ops && f->topic && strcmp(f->topic, "attention") == 0 &&
	      strcmp(f->variant, "flash2") == 0);
	CHECK(view_find("bank") == NULL);
	const struct view_entry *cv = view_find("conv");
	CHECK(cv && cv->kind == GL_VIEW_CONV && cv->ops == &view_conv_ops && strcmp(cv->topic, "conv2d") == 0);
	const struct view_entry *r = view_find("reduce");
	CHECK(r && r->kind == GL_VIEW_REDUCE && r->ops == &view_reduce_ops && strcmp(r->topic, "reduce") == 0 &&
	      strcmp(r->variant, "shared_tree") == 0);
	/* every entry: its engine table is the view of that name and says what its point is, and no two
	 * entries share a kind */
	int n = 0;
	for (const struct view_entry *v = view_table; v->name; v++, n++) {
		CHECK_STR(v->ops->name, v->name);
		CHECK(v->ops->marks != NULL && v->ops->point != NULL);
		for (const struct view_entry *u = view_table; u != v; u++)
			CHECK(u->kind != v->kind);
	}
	CHECK(n >= 5);
	CHECK_DONE();
}
