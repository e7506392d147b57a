/* view_conv.c — the conv view's state: the recorded global loads of the input x, one lane per step, and
 * for the lane's pixel the elements A(m, kk) of the im2col matrix that are that pixel — the implicit
 * GEMM's mapping run backwards — with the loads of every pixel of its channel so far. */
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
	v->first = gl_xmalloc((n + 1) * sizeof *v->first);
	for (uint32_t i = 0; i < n; i++) {
		const struct gl_trace_event *e = &tr->ev[all[i]];
		uint64_t a = e->addrs[__builtin_ctz(e->mask)]; /* view_select keeps events with active lanes */
		if (e->op != GL_TRACE_LD || a < v->x->base || a >= v->x->base + v->x->bytes)
			continue;
		v->first[v->nidx] = (uint32_t)v->nsteps;
		v->idx[v->nidx++] = all[i];
		v->nsteps += __builtin_popcount(e->mask);
	}
	v->first[v->nidx] = (uint32_t)v->nsteps;
	free(all);
	if (!v->nidx) {
		view_conv_free(v);
		return gl_errf(err, GL_EUSAGE, "the trace of conv2d %s has no global loads of x%s", tr->variant,
			       block >= 0 ? " in that CTA" : "");
	}
	return GL_OK;
}

void view_conv_free(struct view_conv *v)
{
	free(v->idx);
	free(v->first);
	memset(v, 0, sizeof *v);
}

/* The warp load holding step `step`, by bisection over the first steps. */
static uint32_t load_of(const struct view_conv *v, int step)
{
	uint32_t lo = 0, hi = v->nidx - 1;
	while (lo < hi) {
		uint32_t mid = (lo + hi + 1) / 2;
		if (v->first[mid] <= (uint32_t)step)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static int nth_lane(uint32_t mask, int k)
{
	for (int l = 0; l < 32; l++)
		if (mask >> l & 1 && k-- == 0)
			return l;
	return -1;
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
			if (!(e->mask >> l & 1) || e->addrs[l] < v->x->base)
				continue;
			long el = (long)((e->addrs[l] - v->x->base) / v->x->elem), n, c, h, w;
			if (el >= count)
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
	uint32_t i = load_of(v, step);
	f->e = &v->tr->ev[v->idx[i]];
	f->step = step;
	f->nsteps = v->nsteps;
	f->lane = nth_lane(f->e->mask, step - (int)v->first[i]);
	f->elem = (long)((f->e->addrs[f->lane] - v->x->base) / v->x->elem);
	gl_conv_x_coords(&v->d, f->elem, &f->n, &f->c, &f->h, &f->w);
	find_uses(&v->d, f);
	count_loads(v, i, f);
}

void view_conv_frame_free(struct view_conv_frame *f)
{
	free(f->plane);
	f->plane = NULL;
}
