/* view_gemm_frame.c — the gemm view at one step (one k): what the CTA loaded from A and B in this slab
 * and before, what its shared arrays hold, and what the selected thread reads at this k.
 *
 * The trace records addresses, not values, so a shared store is paired with the global load it copies
 * by program order: each thread's global loads of A and B wait in a queue, and each element the thread
 * stores to shared memory takes the oldest (a float4 load is four elements; stores of a zero fill find
 * the queue empty and hold nothing of A or B). */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/sim.h"
#include "view_gemm_int.h"

#define QUEUE      8 /* elements a thread may have loaded and not stored yet */
#define MAX_SHARED 4

struct held_el {
	int8_t src; /* 0 A, 1 B, -1 nothing of A or B */
	int slab;
	long r, c;
};

struct queue {
	struct held_el el[QUEUE];
	int head, n;
};

struct pairing {
	const struct view_gemm *g;
	struct queue *q; /* per thread */
	const struct view_buffer *sbuf[MAX_SHARED];
	struct held_el *held[MAX_SHARED]; /* per shared array: per element */
	long nel[MAX_SHARED];
	int nshared;
};

static void push(struct queue *q, struct held_el el)
{
	if (q->n == QUEUE) { /* loads never stored (registers): the oldest is dropped */
		q->head = (q->head + 1) % QUEUE;
		q->n--;
	}
	q->el[(q->head + q->n++) % QUEUE] = el;
}

static struct held_el pop(struct queue *q)
{
	struct held_el none = {-1, 0, 0, 0};
	if (!q->n)
		return none;
	struct held_el el = q->el[q->head];
	q->head = (q->head + 1) % QUEUE;
	q->n--;
	return el;
}

static int shared_index(struct pairing *p, const struct view_buffer *b)
{
	for (int i = 0; i < p->nshared; i++)
		if (p->sbuf[i] == b)
			return i;
	if (p->nshared == MAX_SHARED || !b->elem)
		return -1;
	int i = p->nshared++;
	p->sbuf[i] = b;
	p->nel[i] = (long)(b->bytes / b->elem);
	p->held[i] = gl_xmalloc((size_t)(p->nel[i] ? p->nel[i] : 1) * sizeof *p->held[i]);
	for (long k = 0; k < p->nel[i]; k++)
		p->held[i][k] = (struct held_el){-1, 0, 0, 0};
	return i;
}

static int thread_of(const struct view_gemm *g, const struct gl_trace_event *e, int lane)
{
	int t = (int)e->warp * 32 + lane;
	return t < g->nthreads ? t : -1;
}

/* A global load of A or B: its elements join their threads' queues. */
static void pair_load(struct pairing *p, const struct gl_trace_event *e, const struct view_buffer *b, int slab)
{
	struct view_loc loc;
	VG_FOR_ELEMENTS(p->g, e, b, loc, l)
	{
		int t = thread_of(p->g, e, l);
		if (t >= 0)
			push(&p->q[t], (struct held_el){(int8_t)(b == p->g->A ? 0 : 1), slab, loc.row, loc.col});
	}
}

static void pair_store(struct pairing *p, const struct gl_trace_event *e, int slab)
{
	for (int l = 0; l < 32; l++) {
		int t = thread_of(p->g, e, l);
		for (unsigned off = 0; (e->mask >> l & 1) && t >= 0 && off < (e->bytes ? e->bytes : 1u); off += 4) {
			struct view_loc loc;
			if (!view_locate(p->g->tr, e, e->addrs[l] + off, &loc) || !loc.buf->shared)
				continue;
			int i = shared_index(p, loc.buf);
			long el = (long)(loc.offset / loc.buf->elem);
			struct held_el h = pop(&p->q[t]);
			h.slab = slab;
			if (i >= 0 && el < p->nel[i])
				p->held[i][el] = h;
		}
	}
}

static void add_unique(long *v, int *n, long x)
{
	for (int i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	if (*n < VIEW_GEMM_TILE_MAX)
		v[(*n)++] = x;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* What the selected thread reads at k: from shared memory (through what each element holds) when the
 * CTA stages its tiles (its global loads are then the copy into shared memory), else straight from A
 * and B. */
static void thread_read(struct pairing *p, struct view_gemm_frame *f, const struct gl_trace_event *e,
                        const struct view_buffer *b)
{
	const struct view_gemm *g = p->g;
	int lane = g->ui->thread % 32;
	if ((int)e->warp != g->ui->thread / 32 || !(e->mask >> lane & 1) || !vg_is_load(e))
		return;
	for (unsigned off = 0; off < (e->bytes ? e->bytes : 1u); off += 4) {
		struct view_loc loc;
		if (!view_locate(g->tr, e, e->addrs[lane] + off, &loc))
			continue;
		struct held_el h = {-1, 0, 0, 0};
		bool shared = loc.buf->shared;
		if (shared) {
			int i = shared_index(p, loc.buf);
			long el = (long)(loc.offset / loc.buf->elem);
			if (i >= 0 && el < p->nel[i])
				h = p->held[i][el];
		} else if (!g->staged && (b == g->A || b == g->B)) {
			h = (struct held_el){(int8_t)(b == g->A ? 0 : 1), 0, loc.row, loc.col};
		}
		long el = (long)(loc.offset / loc.buf->elem);
		if (h.src == 0 && h.c == f->kk) {
			add_unique(f->arow, &f->narow, h.r);
			f->a_from_shared |= shared;
			if (shared)
				add_unique(f->aoff, &f->naoff, el);
		} else if (h.src == 1 && h.r == f->kk) {
			add_unique(f->bcol, &f->nbcol, h.c);
			f->b_from_shared |= shared;
			if (shared)
				add_unique(f->boff, &f->nboff, el);
		}
	}
}

static void mark(uint8_t *marks, long cols, const struct view_loc *loc, bool now, struct view_box *box)
{
	uint8_t *m = &marks[loc->row * cols + loc->col];
	if (now) {
		*m = VG_NOW;
		vg_box_add(box, loc->row, loc->col);
	} else if (*m == VG_NONE) {
		*m = VG_EARLIER;
	}
}

static void count(struct view_gemm_frame *f, const struct view_gemm *g, const struct gl_trace_event *e,
                  const struct view_buffer *b)
{
	if (e->space == GL_TRACE_SHARED) {
		*(vg_is_shared_store(e) ? &f->sst_wf : &f->sld_wf) += e->cost;
		f->s_conflicts += view_shared_conflicts(e);
		return;
	}
	uint64_t *sect = b == g->A ? &f->a_sect : b == g->B ? &f->b_sect : b == g->C ? &f->c_sect : NULL;
	uint64_t *req = b == g->A ? &f->a_req : b == g->B ? &f->b_req : b == g->C ? &f->c_req : NULL;
	if (sect) {
		*sect += e->cost;
		(*req)++;
	}
}

/* The region of A (src 0) or B (src 1) a shared array is drawn over: the CTA tile's rows (columns) by
 * the slab's k; without C stores, the extent of what it holds. */
static void smem_region(const struct view_gemm *g, const struct view_gemm_frame *f, int src, const struct pairing *p,
                        int i, struct view_gemm_smem *s)
{
	const struct view_box *t = &g->tile;
	if (t->r1 >= t->r0) {
		s->r0 = src == 0 ? t->r0 : f->k0;
		s->c0 = src == 0 ? f->k0 : t->c0;
		s->rows = src == 0 ? t->r1 - t->r0 + 1 : f->k1 - f->k0 + 1;
		s->cols = src == 0 ? f->k1 - f->k0 + 1 : t->c1 - t->c0 + 1;
		return;
	}
	struct view_box box = VG_EMPTY_BOX;
	for (long el = 0; el < p->nel[i]; el++)
		if (p->held[i][el].src == src)
			vg_box_add(&box, p->held[i][el].r, p->held[i][el].c);
	s->r0 = box.r0, s->c0 = box.c0;
	s->rows = box.r1 - box.r0 + 1, s->cols = box.c1 - box.c0 + 1;
}

/* Which elements of the region the array holds, and its layout when one affine map fits them all. */
static void smem_fill(const struct view_gemm *g, struct view_gemm_frame *f, const struct pairing *p, int i, int src)
{
	struct view_gemm_smem *s = &f->sm[src];
	s->buf = p->sbuf[i];
	smem_region(g, f, src, p, i, s);
	if (s->rows <= 0 || s->cols <= 0)
		return;
	s->held = gl_xcalloc((size_t)(s->rows * s->cols), 1);
	long *at = gl_xmalloc((size_t)(s->rows * s->cols) * sizeof *at);
	for (long x = 0; x < s->rows * s->cols; x++)
		at[x] = -1;
	for (long el = 0; el < p->nel[i]; el++) {
		const struct held_el *h = &p->held[i][el];
		if (h->src != src)
			continue;
		long r = h->r - s->r0, c = h->c - s->c0;
		if (r < 0 || c < 0 || r >= s->rows || c >= s->cols) {
			s->outside++;
			continue;
		}
		s->held[r * s->cols + c] = h->slab == f->slab ? VG_NOW : VG_EARLIER;
		at[r * s->cols + c] = el;
		s->nheld++;
	}
	s->affine = at[0] >= 0 && (s->rows < 2 || at[s->cols] >= 0) && (s->cols < 2 || at[1] >= 0);
	if (s->affine) {
		s->off0 = at[0];
		s->sr = s->rows > 1 ? at[s->cols] - at[0] : 0;
		s->sc = s->cols > 1 ? at[1] - at[0] : 0;
		for (long x = 0; x < s->rows * s->cols && s->affine; x++)
			s->affine = at[x] < 0 || at[x] == s->off0 + s->sr * (x / s->cols) + s->sc * (x % s->cols);
	}
	free(at);
}

static void replay(const struct view_gemm *g, struct view_gemm_frame *f, struct pairing *p)
{
	int upto = f->epilogue ? g->nslabs : f->slab;
	for (uint32_t i = 0; i < g->nidx; i++) {
		int slab = g->slab[i];
		if (slab > upto)
			continue;
		const struct gl_trace_event *e = &g->tr->ev[g->idx[i]];
		const struct view_buffer *b = vg_global_buffer(g, e);
		count(f, g, e, b);
		bool now = slab == upto;
		struct view_loc loc;
		if ((b == g->A || b == g->B) && vg_is_load(e)) {
			VG_FOR_ELEMENTS(g, e, b, loc, l)
			mark(b == g->A ? f->a : f->b, b->cols, &loc, now, b == g->A ? &f->a_now : &f->b_now);
			pair_load(p, e, b, slab);
		} else if (vg_is_shared_store(e)) {
			pair_store(p, e, slab);
		} else if (b == g->C && e->op == GL_TRACE_ST) {
			struct view_box c_box = VG_EMPTY_BOX;
			VG_FOR_ELEMENTS(g, e, b, loc, l)
			mark(f->c, g->n, &loc, now, &c_box);
		}
		if (now && !f->epilogue)
			thread_read(p, f, e, b);
	}
}

void view_gemm_frame(const struct view_gemm *g, int step, struct view_gemm_frame *f)
{
	memset(f, 0, sizeof *f);
	step = step < 0 ? 0 : step >= g->nsteps ? g->nsteps - 1 : step;
	f->step = step;
	f->nsteps = g->nsteps;
	f->epilogue = step == g->nsteps - 1;
	f->kk = f->epilogue ? -1 : step;
	f->slab = f->epilogue ? -1 : view_gemm_slab_of(g, step);
	f->k0 = f->slab >= 0 ? g->slab_k0[f->slab] : f->kk;
	f->k1 = f->slab >= 0 ? g->slab_k1[f->slab] : f->kk;
	f->a_now = f->b_now = VG_EMPTY_BOX;
	f->a = gl_xcalloc((size_t)(g->m * g->k), 1);
	f->b = gl_xcalloc((size_t)(g->k * g->n), 1);
	f->c = gl_xcalloc((size_t)(g->m * g->n), 1);
	if (!f->epilogue && f->slab < 0)
		return;
	struct pairing p = {.g = g};
	p.q = gl_xcalloc((size_t)(g->nthreads ? g->nthreads : 1), sizeof *p.q);
	replay(g, f, &p);
	qsort(f->arow, (size_t)f->narow, sizeof *f->arow, cmp_long);
	qsort(f->bcol, (size_t)f->nbcol, sizeof *f->bcol, cmp_long);
	qsort(f->aoff, (size_t)f->naoff, sizeof *f->aoff, cmp_long);
	qsort(f->boff, (size_t)f->nboff, sizeof *f->boff, cmp_long);
	for (int src = 0; src < 2 && !f->epilogue; src++)
		for (int i = 0; i < p.nshared && !f->sm[src].buf; i++)
			for (long el = 0; el < p.nel[i]; el++)
				if (p.held[i][el].src == src) {
					smem_fill(g, f, &p, i, src);
					break;
				}
	for (int i = 0; i < p.nshared; i++)
		free(p.held[i]);
	free(p.q);
}

void view_gemm_frame_free(struct view_gemm_frame *f)
{
	free(f->a);
	free(f->b);
	free(f->c);
	free(f->sm[0].held);
	free(f->sm[1].held);
	f->a = f->b = f->c = NULL;
	f->sm[0].held = f->sm[1].held = NULL;
}
