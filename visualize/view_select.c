/* view_select.c — which events of a trace a view steps through. */
#include "common/util.h"
#include "view_states.h"

uint32_t *view_select(const struct view_trace *tr, int space, long block, uint32_t *n)
{
	uint32_t *idx = gl_xmalloc((tr->n ? tr->n : 1) * sizeof *idx);
	*n = 0;
	for (uint32_t i = 0; i < tr->n; i++)
		if (tr->ev[i].space == space && tr->ev[i].mask && (block < 0 || tr->ev[i].block == (uint32_t)block))
			idx[(*n)++] = i;
	return idx;
}
