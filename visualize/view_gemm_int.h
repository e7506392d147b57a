/* view_gemm_int.h — what the gemm view's files share: which events load A or B, which buffer an event
 * addresses, and a loop over the elements each lane of an event touches. */
#ifndef GL_VIEW_GEMM_INT_H
#define GL_VIEW_GEMM_INT_H

#include "view_states.h"

static inline bool vg_is_load(const struct gl_trace_event *e)
{
	return e->op == GL_TRACE_LD || e->op == GL_TRACE_CP_ASYNC || e->op == GL_TRACE_LDMATRIX;
}

static inline bool vg_is_shared_store(const struct gl_trace_event *e)
{
	return e->space == GL_TRACE_SHARED && (e->op == GL_TRACE_ST || e->op == GL_TRACE_CP_ASYNC);
}

/* The global buffer e addresses (by its first active lane), NULL when none. */
static inline const struct view_buffer *vg_global_buffer(const struct view_gemm *g, const struct gl_trace_event *e)
{
	struct view_loc loc;
	if (e->space != GL_TRACE_GLOBAL || !e->mask || !view_locate(g->tr, e, e->addrs[__builtin_ctz(e->mask)], &loc))
		return NULL;
	return loc.buf;
}

static inline void vg_box_add(struct view_box *b, long r, long c)
{
	if (b->r1 < b->r0) {
		*b = (struct view_box){r, c, r, c};
		return;
	}
	b->r0 = r < b->r0 ? r : b->r0;
	b->r1 = r > b->r1 ? r : b->r1;
	b->c0 = c < b->c0 ? c : b->c0;
	b->c1 = c > b->c1 ? c : b->c1;
}

#define VG_EMPTY_BOX ((struct view_box){0, 0, -1, -1})

/* For each lane l of e in buffer b: every element it touches (a float4 is 4), located in loc. */
#define VG_FOR_ELEMENTS(g, e, b, loc, l)                                                                               \
	for (int l = 0; l < 32; l++)                                                                                   \
		for (unsigned off_ = 0; (e->mask >> l & 1) && off_ < (e->bytes ? e->bytes : 1u); off_ += (b)->elem)    \
			if (view_locate((g)->tr, e, e->addrs[l] + off_, &loc) && loc.buf == (b))

#endif
