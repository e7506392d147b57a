/* view_buffers.c — where a launch's buffers and shared arrays lie, so the views can turn addresses
 * into elements.  A launch stored with its buffer map (schema 3) is read from it; for older launches,
 * global buffers: the launch made again from its stored parameters (gl_topic_rebuild), placed by
 * gl_sim_buffer_address exactly as the simulator placed them.  Shared arrays: the entry's .shared
 * variables (offset and size), named after the trace events that touch them. */
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
#include "view_trace.h"

static struct view_buffer *add_buffer(struct view_trace *tr, const char *name, bool shared)
{
	if (tr->nbufs >= VIEW_MAX_BUFFERS)
		return NULL;
	struct view_buffer *b = &tr->bufs[tr->nbufs++];
	memset(b, 0, sizeof *b);
	snprintf(b->name, sizeof b->name, "%s", name);
	b->shared = shared;
	return b;
}

static void shape(struct view_trace *tr, struct view_buffer *b)
{
	if (b->shared || !gl_topic_buffer_shape(tr->t, &tr->problem, b->name, &b->rows, &b->cols)) {
		b->rows = 1;
		b->cols = (long)(b->bytes / (b->elem ? b->elem : 1));
	}
}

/* A launch stored before its buffer map existed: its buffers made again from its stored parameters and
 * seed (gl_topic_rebuild), placed by gl_sim_buffer_address as the simulator placed them. */
static int globals_rebuilt(struct view_trace *tr, const struct gl_variant *v, struct gl_err *err)
{
	struct gl_launch l;
	int rc = gl_topic_rebuild(tr->t, v, tr->params_json, &l, err);
	for (int i = 0; rc == GL_OK && i < l.nbuffers; i++) {
		struct view_buffer *b = add_buffer(tr, l.buffers[i].name, false);
		if (!b)
			break;
		b->elem = (unsigned)gl_dtype_size(l.buffers[i].dtype);
		b->base = gl_sim_buffer_address(&l, i);
		b->bytes = l.buffers[i].count * b->elem;
		shape(tr, b);
	}
	gl_launch_free(&l);
	return rc;
}

/* The first event of `space` whose first active lane lies in [lo, lo + size): its buffer name. */
static const char *name_from_events(const struct view_trace *tr, int space, uint64_t lo, uint64_t size)
{
	for (uint32_t i = 0; i < tr->n; i++) {
		const struct gl_trace_event *e = &tr->ev[i];
		if (e->space != space || !e->mask || !e->buffer[0])
			continue;
		uint64_t a = e->addrs[__builtin_ctz(e->mask)];
		if (a - lo < size)
			return e->buffer;
	}
	return NULL;
}

static int shared_from_ptx(struct view_trace *tr, const struct gl_variant *v, struct gl_err *err)
{
	struct ptx_module *m = NULL;
	int rc = ptx_parse(tr->t->ptx, tr->t->name, &m, err);
	if (rc)
		return rc;
	const struct ptx_function *fn = ptx_find_function(m, v->entry);
	for (int i = 0; fn && i < fn->nvars; i++) {
		const struct ptx_var *pv = &fn->vars[i];
		uint64_t size = pv->is_extern ? tr->dyn_smem : pv->size;
		const char *name =
		    pv->space == PS_SHARED && size ? name_from_events(tr, GL_TRACE_SHARED, pv->offset, size) : NULL;
		struct view_buffer *b = name ? add_buffer(tr, name, true) : NULL;
		if (!b)
			continue;
		b->base = pv->offset;
		b->bytes = size;
		b->elem = 4;
		shape(tr, b);
	}
	ptx_module_free(m);
	return GL_OK;
}

/* Unknown topic: each named buffer spans the addresses traced in it (global bases rounded down to 256). */
static void from_trace(struct view_trace *tr, int space)
{
	for (uint32_t i = 0; i < tr->n; i++) {
		const struct gl_trace_event *e = &tr->ev[i];
		if (e->space != space || !e->buffer[0])
			continue;
		struct view_buffer *b = (struct view_buffer *)view_buffer_find(tr, e->buffer, space == GL_TRACE_SHARED);
		if (!b && !(b = add_buffer(tr, e->buffer, space == GL_TRACE_SHARED)))
			return;
		for (uint32_t m = e->mask; m; m &= m - 1) {
			uint64_t a = e->addrs[__builtin_ctz(m)];
			uint64_t lo = space == GL_TRACE_SHARED ? 0 : a / 256 * 256;
			if (!b->bytes || lo < b->base) {
				uint64_t end = b->bytes ? b->base + b->bytes : a + e->bytes;
				b->base = lo;
				b->bytes = end - lo;
			}
			if (a + e->bytes > b->base + b->bytes)
				b->bytes = a + e->bytes - b->base;
		}
		b->elem = 4;
	}
	for (int i = 0; i < tr->nbufs; i++)
		if (tr->bufs[i].shared == (space == GL_TRACE_SHARED))
			shape(tr, &tr->bufs[i]);
}

void view_buffers_from_map(struct view_trace *tr, const struct gl_buffer_desc *map, int n)
{
	tr->nbufs = 0;
	for (int i = 0; i < n; i++) {
		struct view_buffer *b = add_buffer(tr, map[i].name, map[i].shared != 0);
		if (!b)
			break;
		b->base = map[i].base;
		b->bytes = map[i].bytes;
		b->elem = map[i].elem ? map[i].elem : 4;
		b->rows = map[i].rows; /* the logical shape the topic gave when it was recorded */
		b->cols = map[i].cols;
	}
}

int view_buffers_build(struct view_trace *tr, struct gl_err *err)
{
	tr->nbufs = 0;
	const struct gl_variant *v = tr->t ? gl_variant_find(tr->t, tr->variant) : NULL;
	if (!v) {
		from_trace(tr, GL_TRACE_GLOBAL);
		from_trace(tr, GL_TRACE_SHARED);
		return GL_OK;
	}
	int rc = globals_rebuilt(tr, v, err);
	if (rc == GL_OK)
		rc = shared_from_ptx(tr, v, err);
	return rc;
}
