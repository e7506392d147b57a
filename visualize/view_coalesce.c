/* view_coalesce.c — the coalesce view's state: for the k-th global access, the sectors and 128-byte
 * lines its lanes touch, and the requests and sectors so far against the ideal. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "view_states.h"

static unsigned ideal_sectors(const struct gl_trace_event *e)
{
	unsigned lanes = (unsigned)__builtin_popcount(e->mask);
	return (lanes * e->bytes + 31) / 32;
}

int view_coalesce_build(const struct view_trace *tr, long block, struct view_coalesce *v, struct gl_err *err)
{
	memset(v, 0, sizeof *v);
	v->tr = tr;
	v->idx = view_select(tr, GL_TRACE_GLOBAL, block, &v->n);
	if (!v->n) {
		view_coalesce_free(v);
		return gl_errf(err, GL_EUSAGE, "the trace of %s %s has no global-memory accesses%s", tr->topic,
		               tr->variant, block >= 0 ? " in that CTA" : "");
	}
	v->sectors_prefix = gl_xcalloc(v->n + 1, sizeof *v->sectors_prefix);
	v->ideal_prefix = gl_xcalloc(v->n + 1, sizeof *v->ideal_prefix);
	for (uint32_t i = 0; i < v->n; i++) {
		const struct gl_trace_event *e = &tr->ev[v->idx[i]];
		v->sectors_prefix[i + 1] = v->sectors_prefix[i] + e->cost;
		v->ideal_prefix[i + 1] = v->ideal_prefix[i] + ideal_sectors(e);
	}
	return GL_OK;
}

void view_coalesce_free(struct view_coalesce *v)
{
	free(v->idx);
	free(v->sectors_prefix);
	free(v->ideal_prefix);
	memset(v, 0, sizeof *v);
}

/* Insert into an ascending set; returns the new count. */
static unsigned set_add(uint64_t *set, unsigned n, unsigned cap, uint64_t x)
{
	unsigned i = 0;
	while (i < n && set[i] < x)
		i++;
	if ((i < n && set[i] == x) || n >= cap)
		return n;
	memmove(&set[i + 1], &set[i], (n - i) * sizeof *set);
	set[i] = x;
	return n + 1;
}

static int set_index(const uint64_t *set, unsigned n, uint64_t x)
{
	for (unsigned i = 0; i < n; i++)
		if (set[i] == x)
			return (int)i;
	return -1;
}

void view_coalesce_frame(const struct view_coalesce *v, int step, struct view_coalesce_frame *f)
{
	memset(f, 0, sizeof *f);
	if (step < 0)
		step = 0;
	if (step >= (int)v->n)
		step = (int)v->n - 1;
	const struct gl_trace_event *e = &v->tr->ev[v->idx[step]];
	unsigned size = e->bytes ? e->bytes : 1;
	f->e = e;
	f->step = step;
	f->nsteps = (int)v->n;
	f->lo_addr = UINT64_MAX;
	for (int l = 0; l < 32; l++) {
		f->lane_sector[l] = f->lane_line[l] = -1;
		if (!(e->mask >> l & 1))
			continue;
		uint64_t a = e->addrs[l];
		for (uint64_t s = a / 32; s <= (a + size - 1) / 32; s++)
			f->nsectors = set_add(f->sectors, f->nsectors, 2 * 32, s);
		for (uint64_t s = a / 128; s <= (a + size - 1) / 128; s++)
			f->nlines = set_add(f->lines, f->nlines, VIEW_MAX_LINES, s);
		if (a < f->lo_addr)
			f->lo_addr = a;
		if (a > f->hi_addr)
			f->hi_addr = a;
	}
	for (int l = 0; l < 32; l++)
		if (e->mask >> l & 1) {
			f->lane_sector[l] = set_index(f->sectors, f->nsectors, e->addrs[l] / 32);
			f->lane_line[l] = set_index(f->lines, f->nlines, e->addrs[l] / 128);
		}
	f->ideal = ideal_sectors(e);
	f->req_so_far = (uint64_t)step + 1;
	f->sectors_so_far = v->sectors_prefix[step + 1];
	f->ideal_so_far = v->ideal_prefix[step + 1];
	view_locate(v->tr, e, f->lo_addr, &f->lo);
	view_locate(v->tr, e, f->hi_addr, &f->hi);
}

int view_coalesce_word_lanes(const struct view_coalesce_frame *f, uint64_t line, int word, int *first)
{
	uint64_t lo = line * 128 + 4u * (unsigned)word, hi = lo + 4;
	unsigned size = f->e->bytes ? f->e->bytes : 1;
	int count = 0;
	*first = -1;
	for (int l = 0; l < 32; l++) {
		if (!(f->e->mask >> l & 1))
			continue;
		uint64_t a = f->e->addrs[l];
		if (a < hi && a + size > lo) {
			if (*first < 0)
				*first = l;
			count++;
		}
	}
	return count;
}
