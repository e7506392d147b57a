/* view_table.c — the one table of views: what `gpulab view NAME` names, the topic a view implies and
 * the engine table that draws it.  cmd_view and anything else that names views read it here. */
#include <string.h>

#include "view.h"

const struct view_entry view_table[] = {
	{"coalesce", GL_VIEW_COALESCE, NULL, &view_coalesce_ops, NULL},
	{"banks", GL_VIEW_BANKS, NULL, &view_banks_ops, NULL},
	{"gemm", GL_VIEW_GEMM, "gemm", &view_gemm_ops, NULL},
	{"conv", GL_VIEW_CONV, "conv2d", &view_conv_ops, NULL},
	{"mma", GL_VIEW_MMA, "hgemm", &view_mma_ops, "mma_ldmatrix"},
	{0},
};

const struct view_entry *view_find(const char *name)
{
	for (const struct view_entry *v = view_table; v->name; v++)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}
