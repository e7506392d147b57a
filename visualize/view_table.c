/* view_table.c — the one table of views: what `gpulab view NAME` names, the topic a view implies and
 * the engine table that draws it.  cmd_view and anything else that names views read it here. */
#include <string.h>

#include "view.h"

const struct view_entry view_table[] = {
	{"coalesce", GL_VIEW_COALESCE, NULL, &view_coalesce_ops, NULL,
	 "one warp's global access per step: its lanes, the 32-byte sectors and 128-byte lines they touch"},
	{"banks", GL_VIEW_BANKS, NULL, &view_banks_ops, NULL,
	 "one warp's shared-memory access per step: the 32 banks and the wavefront that serves each lane"},
	{"gemm", GL_VIEW_GEMM, "gemm", &view_gemm_ops, NULL,
	 "one k of a CTA per step: the grid of CTA tiles, the K slab, As and Bs, warps, a thread's outer product"},
	{"conv", GL_VIEW_CONV, "conv2d", &view_conv_ops, NULL,
	 "one warp load of the input per step, by output tile: the im2col elements a pixel is, loads so far"},
	{"mma", GL_VIEW_MMA, "hgemm", &view_mma_ops, "mma_ldmatrix",
	 "the m16n8k16 fragments lane by lane, each ldmatrix beside its swizzled layout, the CTA's K loop"},
	{"flash", GL_VIEW_FLASH, "attention", &view_flash_ops, "flash2",
	 "one Q block x K/V block per step: the running max and sum, O's rescale, the traffic"},
	{"reduce", GL_VIEW_REDUCE, "reduce", &view_reduce_ops, "shared_tree",
	 "one run between barriers per step: a tree level, a shuffle round, the grid's stage; idle warps, banks"},
	{0},
};

const struct view_entry *view_find(const char *name)
{
	for (const struct view_entry *v = view_table; v->name; v++)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}
