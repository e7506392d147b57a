/* view_conv.c — the conv view's state: the recorded global loads of the input x, one warp instruction
 * per step, grouped by the output tile they serve (the y elements their CTA stores).  For the step's
 * lane of interest (the first that reads a pixel its tile loaded before, else the first active one) the
 * elements A(m, kk) of the im2col matrix that are that pixel — the implicit GEMM's mapping run backwards —
 * with the loads of every pixel of its channel so far. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "view_states.h"

static bool conv_problem(const struct view_trace *tr, struct gl_conv_dims *d)
{
	if (!tr->t || strcmp(tr->t->name, "conv2d") != 0)
		return false;
	*d = gl_conv_dims_of(&tr->problem);
	return d->p > 0 && d->q > 0;
}

/* The element of buffer b lane l of e addresses, -1 outside it. */
static long element(const struct view_buffer *b, const struct gl_trace_event *e, int l)
{
	uint64_t a = e->addrs[l];
	if (!b || !b->elem || a < b->base || a - b->base >= b->bytes)
		return -1;
	return (long)((a - b->base) / b->elem);
}

/* Lanes of each load that read a pixel an earlier load of the same output tile (CTA) read: the loads an
 * im2col matrix would hold as copies. */
static void count_rereads(struct view_conv *v)
{
	long count = (long)(v->x->bytes / v->x->elem);
	uint8_t *seen = gl_xcalloc((size_t)count / 8 + 1, 1);
	v->reread = gl_xcalloc(v->nidx ? v->nidx : 1, sizeof *v->reread);
	for (uint32_t i = 0; i < v->nidx; i++) {
		const struct gl_trace_event *e = &v->tr->ev[v->idx[i]];
		if (i > 0 && e->block != v->tr->ev[v->idx[i - 1]].block)
			memset(seen, 0, (size_t)count / 8 + 1);
		uint8_t before[32] = {0};
		for (int l = 0; l < 32; l++) {
			long el = e->mask >> l & 1 ? element(v->x, e, l) : -1;
			before[l] = el >= 0 && (seen[el / 8] >> (el % 8) & 1);
			v->reread[i] += before[l];
		}
		for (int l = 0; l < 32; l++) {
			long el = e->mask >> l & 1 ? element(v->x, e, l) : -1;
			if (el >= 0)
				seen[el / 8] |= (uint8_t)(1u << (el % 8));
		}
	}
	free(seen);
}

/* range [lo, hi] grown to hold x (empty while lo < 0). */
static void widen(long range[2], long x)
{
	range[0] = range[0] < 0 || x < range[0] ? x : range[0];
	range[1] = x > range[1] ? x : range[1];
}

/* The output tiles: each traced CTA's loads, and the y elements it stores (their count and extent). */
static void find_tiles(struct view_conv *v)
{
	const struct view_trace *tr = v->tr;
	const struct view_buffer *y = view_buffer_find(tr, "y", false);
	v->tiles = gl_xcalloc(v->nidx ? v->nidx : 1, sizeof *v->tiles);
	for (uint32_t i = 0; i < v->nidx; i++) {
		uint32_t block = tr->ev[v->idx[i]].block;
		if (v->ntiles && v->tiles[v->ntiles - 1].block == block)
			continue;
		struct view_conv_tile *t = &v->tiles[v->ntiles++];
		*t = (struct view_conv_tile){.block = block, .first = i, .k = {-1, -1}, .p = {-1, -1}, .q = {-1, -1}};
		for (uint32_t k = 0; k < tr->n; k++) {
			const struct gl_trace_event *e = &tr->ev[k];
			if (e->block != block || e->space != GL_TRACE_GLOBAL || e->op != GL_TRACE_ST)
				continue;
			for (int l = 0; l < 32; l++) {
				long el = e->mask >> l & 1 ? element(y, e, l) : -1, n, kk, p, q;
				if (el < 0)
					continue;
				gl_conv_y_coords(&v->d, el, &n, &kk, &p, &q);
				widen(t->k, kk);
				widen(t->p, p);
				widen(t->q, q);
				t->stores++;
			}
		}
	}
}

int view_conv_build(const struct view_trace *tr, long block, struct view_conv *v, struct gl_err *err)
{
	memset(v, 0, sizeof *v);
	v->tr = tr;
	if (!conv_problem(tr, &v->d))
		return gl_errf(err, GL_EUSAGE, "the conv view shows the conv2d topic, not %s (launch of %s)", tr->topic,
			       tr->variant);
	v->x = view_buffer_find(tr, "x", false);
	if (!v->x || !v->x->elem)
		return gl_errf(err, GL_EUSAGE, "the trace of conv2d %s has no buffer map for x", tr->variant);
	uint32_t n;
	uint32_t *all = view_select(tr, GL_TRACE_GLOBAL, block, &n);
	v->idx = gl_xmalloc((n ? n : 1) * sizeof *v->idx);
	for (uint32_t i = 0; i < n; i++) {
		const struct gl_trace_event *e = &tr->ev[all[i]];
		/* view_select keeps events with active lanes */
		if (e->op == GL_TRACE_LD && element(v->x, e, __builtin_ctz(e->mask)) >= 0)
			v->idx[v->nidx++] = all[i];
	}
	free(all);
	if (!v->nidx) {
		view_conv_free(v);
		return gl_errf(err, GL_EUSAGE, "the trace of conv2d %s has no global loads of x%s", tr->variant,
			       block >= 0 ? " in that CTA" : "");
	}
	v->nsteps = (int)v->nidx;
	count_rereads(v);
	find_tiles(v);
	return GL_OK;
}

void view_conv_free(struct view_conv *v)
{
	free(v->idx);
	free(v->reread);
	free(v->tiles);
	memset(v, 0, sizeof *v);
}

int view_conv_tile_of(const struct view_conv *v, int step)
{
	int t = 0;
	while (t + 1 < v->ntiles && v->tiles[t + 1].first <= (uint32_t)step)
		t++;
	return t;
}

/* The lane a step is about: the first that reads a pixel its tile loaded before, else the first active. */
static int lane_of_interest(const struct view_conv *v, uint32_t i)
{
	const struct gl_trace_event *e = &v->tr->ev[v->idx[i]];
	int first = __builtin_ctz(e->mask);
	if (!v->reread[i])
		return first;
	const struct view_conv_tile *t = &v->tiles[view_conv_tile_of(v, (int)i)];
	for (int l = first; l < 32; l++) {
		long el = e->mask >> l & 1 ? element(v->x, e, l) : -1;
		for (uint32_t k = t->first; el >= 0 && k < i; k++) {
			const struct gl_trace_event *p = &v->tr->ev[v->idx[k]];
			for (int m = 0; m < 32; m++)
				if (p->mask >> m & 1 && element(v->x, p, m) == el)
					return l;
		}
	}
	return first;
}

/* Every (output pixel, tap) whose window puts that tap on input pixel (h, w): h = p stride - pad + r dil. */
static void find_uses(const struct gl_conv_dims *d, struct view_conv_frame *f)
{
	for (long r = 0; r < d->r; r++)
		for (long s = 0; s < d->s; s++) {
			long hp = f->h + d->pad - r * d->dil, wq = f->w + d->pad - s * d->dil;
			if (hp < 0 || wq < 0 || hp % d->stride || wq % d->stride)
				continue;
			long p = hp / d->stride, q = wq / d->stride;
			if (p >= d->p || q >= d->q)
				continue;
			if (f->nuses < VIEW_CONV_MAX_USES)
				f->use[f->nuses] = (struct view_conv_use){(f->n * d->p + p) * d->q + q, p, q,
									  gl_conv_tap_index(d, f->c, r, s), r, s};
			f->nuses++;
		}
}

/* Loads of x by the warp loads 0..last: the lane count, the distinct elements, and the plane of the
 * frame's image and channel. */
static void count_loads(const struct view_conv *v, uint32_t last, struct view_conv_frame *f)
{
	const struct gl_conv_dims *d = &v->d;
	long count = (long)(v->x->bytes / v->x->elem);
	uint8_t *seen = calloc((size_t)count / 8 + 1, 1);
	f->plane = gl_xcalloc((size_t)(d->h * d->w), sizeof *f->plane);
	for (uint32_t i = 0; i <= last; i++) {
		const struct gl_trace_event *e = &v->tr->ev[v->idx[i]];
		for (int l = 0; l < 32; l++) {
			long el = e->mask >> l & 1 ? element(v->x, e, l) : -1, n, c, h, w;
			if (el < 0)
				continue;
			f->lane_loads++;
			if (seen && !(seen[el / 8] >> (el % 8) & 1)) {
				seen[el / 8] |= (uint8_t)(1u << (el % 8));
				f->distinct++;
			}
			gl_conv_x_coords(d, el, &n, &c, &h, &w);
			if (n == f->n && c == f->c)
				f->plane[h * d->w + w]++;
		}
	}
	free(seen);
}

void view_conv_frame(const struct view_conv *v, int step, struct view_conv_frame *f)
{
	memset(f, 0, sizeof *f);
	step = step < 0 ? 0 : step >= v->nsteps ? v->nsteps - 1 : step;
	uint32_t i = (uint32_t)step;
	f->e = &v->tr->ev[v->idx[i]];
	f->step = step;
	f->nsteps = v->nsteps;
	f->tile = view_conv_tile_of(v, step);
	f->reread = v->reread[i];
	f->lane = lane_of_interest(v, i);
	f->elem = element(v->x, f->e, f->lane);
	gl_conv_x_coords(&v->d, f->elem, &f->n, &f->c, &f->h, &f->w);
	find_uses(&v->d, f);
	count_loads(v, i, f);
}

void view_conv_frame_free(struct view_conv_frame *f)
{
	free(f->plane);
	f->plane = NULL;
}
