/* view_fixture.h — hand-built traces for the view tests: a trace with named buffers, and events
 * from per-lane addresses. */
#ifndef GL_VIEW_FIXTURE_H
#define GL_VIEW_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/memmodel.h"
#include "visualize/view_trace.h"

/* Each hand-built event's cost (global sectors, shared wavefronts) by the simulator's own rules, as the
 * simulator stores it with a recorded trace. */
static inline void view_fill_costs(struct gl_trace_event *ev, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct gl_trace_event *e = &ev[i];
		if (!gl_trace_is_memory(e)) /* a shuffle or a barrier costs nothing */
			continue;
		uint32_t a32[GL_WARP];
		for (int l = 0; l < GL_WARP; l++)
			a32[l] = (uint32_t)e->addrs[l];
		if (e->space != GL_TRACE_SHARED)
			e->cost = gl_mm_global_sectors(e->addrs, e->mask, e->bytes);
		else if (e->op == GL_TRACE_LDMATRIX)
			e->cost = gl_mm_ldmatrix_wavefronts(a32, (unsigned)__builtin_popcount(e->mask) / 8);
		else
			e->cost = gl_mm_shared_wavefronts(a32, e->mask, e->bytes);
	}
}

static inline struct view_buffer *fx_buffer(struct view_trace *tr, const char *name, bool shared, uint64_t base,
                                            long rows, long cols)
{
	struct view_buffer *b = &tr->bufs[tr->nbufs++];
	memset(b, 0, sizeof *b);
	snprintf(b->name, sizeof b->name, "%s", name);
	b->shared = shared;
	b->base = base;
	b->elem = 4;
	b->rows = rows;
	b->cols = cols;
	b->bytes = (uint64_t)rows * (uint64_t)cols * 4;
	return b;
}

/* Append an event; lane l's address is addr(l) for lanes in mask.  Costs are filled by view_fill_costs. */
static inline struct gl_trace_event *fx_event(struct view_trace *tr, uint32_t block, uint32_t warp, int space, int op,
                                              unsigned bytes, uint32_t mask, const char *buffer,
                                              const uint64_t addrs[32])
{
	tr->ev = gl_xrealloc(tr->ev, (tr->n + 1) * sizeof *tr->ev);
	struct gl_trace_event *e = &tr->ev[tr->n];
	memset(e, 0, sizeof *e);
	e->seq = tr->n++;
	e->block = block;
	e->warp = warp;
	e->space = (uint8_t)space;
	e->op = (uint8_t)op;
	e->bytes = (uint8_t)bytes;
	e->mask = mask;
	snprintf(e->buffer, sizeof e->buffer, "%s", buffer);
	for (int l = 0; l < 32; l++)
		e->addrs[l] = (mask >> l & 1) ? addrs[l] : 0;
	int first = mask ? __builtin_ctz(mask) : 0;
	e->addr_base = e->addrs[first];
	return e;
}

/* Lane l at base + stride * l. */
static inline struct gl_trace_event *fx_strided(struct view_trace *tr, uint32_t block, uint32_t warp, int space, int op,
                                                unsigned bytes, uint32_t mask, const char *buffer, uint64_t base,
                                                int64_t stride)
{
	uint64_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = base + (uint64_t)(stride * l);
	struct gl_trace_event *e = fx_event(tr, block, warp, space, op, bytes, mask, buffer, a);
	e->strided = true;
	e->addr_stride = stride;
	e->addr_base = base;
	return e;
}

#endif
