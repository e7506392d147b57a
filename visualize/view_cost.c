/* view_cost.c — an event's cost (global sectors, shared wavefronts) computed with the simulator's own
 * rules, for traces built by hand (the unit tests); stored traces carry the simulator's cost. */
#include "sim/memmodel.h"
#include "view_trace.h"

static unsigned event_cost(const struct gl_trace_event *e)
{
	if (e->space != GL_TRACE_SHARED)
		return gl_mm_global_sectors(e->addrs, e->mask, e->bytes);
	uint32_t a32[GL_WARP];
	for (int l = 0; l < GL_WARP; l++)
		a32[l] = (uint32_t)e->addrs[l];
	if (e->op == GL_TRACE_LDMATRIX)
		return gl_mm_ldmatrix_wavefronts(a32, (unsigned)__builtin_popcount(e->mask) / 8);
	return gl_mm_shared_wavefronts(a32, e->mask, e->bytes);
}

void view_fill_costs(struct gl_trace_event *ev, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		ev[i].cost = event_cost(&ev[i]);
}
