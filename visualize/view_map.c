/* view_map.c — addresses to buffers, elements and (row, col). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_trace.h"

void view_trace_free(struct view_trace *tr)
{
	free(tr->ev);
	free(tr->sync);
	tr->ev = tr->sync = NULL;
	tr->n = tr->nsync = 0;
}

const struct view_buffer *view_buffer_find(const struct view_trace *tr, const char *name, bool shared)
{
	for (int i = 0; i < tr->nbufs; i++)
		if (tr->bufs[i].shared == shared && strcmp(tr->bufs[i].name, name) == 0)
			return &tr->bufs[i];
	return NULL;
}

static const struct view_buffer *containing(const struct view_trace *tr, bool shared, uint64_t addr)
{
	for (int i = 0; i < tr->nbufs; i++) {
		const struct view_buffer *b = &tr->bufs[i];
		if (b->shared == shared && addr - b->base < b->bytes)
			return b;
	}
	return NULL;
}

bool view_locate(const struct view_trace *tr, const struct gl_trace_event *e, uint64_t addr, struct view_loc *loc)
{
	bool shared = e->space == GL_TRACE_SHARED;
	memset(loc, 0, sizeof *loc);
	const struct view_buffer *b = e->buffer[0] ? view_buffer_find(tr, e->buffer, shared) : NULL;
	if (!b || addr - b->base >= b->bytes)
		b = containing(tr, shared, addr);
	if (!b)
		return false;
	loc->buf = b;
	loc->offset = addr - b->base;
	unsigned elem = b->elem ? b->elem : 1;
	loc->elem = (long)(loc->offset / elem);
	long cols = b->cols > 0 ? b->cols : 1;
	loc->row = loc->elem / cols;
	loc->col = loc->elem % cols;
	return true;
}

void view_loc_format(const struct view_loc *loc, uint64_t addr, char *buf, size_t n)
{
	const struct view_buffer *b = loc->buf;
	if (!b)
		snprintf(buf, n, "0x%" PRIx64, addr);
	else if (b->shared)
		snprintf(buf, n, "%s +0x%" PRIx64, b->name, loc->offset);
	else if (b->rows > 1)
		snprintf(buf, n, "%s[%ld][%ld]", b->name, loc->row, loc->col);
	else
		snprintf(buf, n, "%s[%ld]", b->name, loc->elem);
}
