/* view_select.c — which events of a trace a view steps through, and what every view reads off a shared
 * event the same way. */
#include "common/util.h"
#include "sim/sim.h"
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

unsigned view_shared_ideal(const struct gl_trace_event *e)
{
	if (e->op == GL_TRACE_LDMATRIX)
		return (unsigned)__builtin_popcount(e->mask) / 8;
	uint32_t a32[32];
	for (int l = 0; l < 32; l++)
		a32[l] = (uint32_t)e->addrs[l];
	return gl_mm_shared_phases(a32, e->mask, e->bytes);
}

unsigned view_shared_conflicts(const struct gl_trace_event *e)
{
	return gl_mm_shared_conflicts(e->cost, view_shared_ideal(e));
}
