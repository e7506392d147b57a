/* view_flash.c — the flash view's state for one CTA of flash1, flash2 or flash2_mma: its steps (which Q
 * block meets which K/V block, in the loop order the kernel really ran, read from the trace), the global
 * traffic through each step per matrix, and the running row maximum m and sum l of the Q block's rows,
 * recomputed in double from the inputs the harness builds (FA1/FA2 Algorithm 1's m and l). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/half.h"
#include "common/util.h"
#include "view_states.h"

enum { FB_Q, FB_K, FB_V, FB_O, FB_M, FB_L };
static const char *const buf_names[VIEW_FLASH_BUFS] = {"Q", "K", "V", "O", "m", "l"};

#define MAX_SCORES (1L << 22) /* the head's S in double: 32 MiB */

static int buf_of(const struct gl_trace_event *e)
{
	for (int b = 0; b < VIEW_FLASH_BUFS; b++)
		if (strcmp(e->buffer, buf_names[b]) == 0)
			return b;
	return -1;
}

static long param(const struct view_trace *tr, const char *name)
{
	int i = tr->t ? gl_param_index(tr->t, name) : -1;
	return i < 0 ? 0 : tr->problem.v[i];
}

static bool is_load(const struct gl_trace_event *e)
{
	return e->op == GL_TRACE_LD || e->op == GL_TRACE_CP_ASYNC;
}

static bool is_shared_read(const struct gl_trace_event *e)
{
	return e->space == GL_TRACE_SHARED && e->op != GL_TRACE_ST && e->op != GL_TRACE_CP_ASYNC;
}

/* The row of its head's matrix (m and l: its element) that the event's first lane addresses. */
static long event_row(const struct view_flash *f, const struct gl_trace_event *e, int b, long *head)
{
	const struct view_buffer *vb = f->buf[b];
	uint64_t a = e->addrs[__builtin_ctz(e->mask)];
	long elem = a >= vb->base ? (long)((a - vb->base) / (vb->elem ? vb->elem : 4)) : 0;
	long row = b >= FB_M ? elem : elem / f->d, n = b == FB_K || b == FB_V ? f->nk : f->nq;
	*head = row / n;
	return row % n;
}

/* Rows per Q block and keys per K/V block: the rows of the first run of loads of each (up to the first
 * shared-memory read after it, where the tile is used). */
static void block_sizes(struct view_flash *f)
{
	long lo[2] = {-1, -1}, hi[2] = {-1, -1};
	bool closed[2] = {false, false};
	for (uint32_t i = 0; i < f->nidx; i++) {
		const struct gl_trace_event *e = &f->tr->ev[f->idx[i]];
		for (int w = 0; w < 2; w++)
			if (is_shared_read(e) && lo[w] >= 0)
				closed[w] = true;
		int b = e->space == GL_TRACE_GLOBAL ? buf_of(e) : -1;
		int w = b == FB_Q ? 0 : b == FB_K ? 1 : -1;
		if (w < 0 || closed[w] || !is_load(e))
			continue;
		for (uint32_t m = e->mask; m; m &= m - 1) {
			long head, row;
			struct gl_trace_event one = *e;
			one.mask = m & -m;
			row = event_row(f, &one, b, &head);
			if (head != f->head)
				continue;
			lo[w] = lo[w] < 0 || row < lo[w] ? row : lo[w];
			hi[w] = row > hi[w] ? row : hi[w];
		}
	}
	f->br = lo[0] >= 0 ? hi[0] - lo[0] + 1 : f->nq;
	f->bc = lo[1] >= 0 ? hi[1] - lo[1] + 1 : f->nk;
	f->nqb = (int)((f->nq + f->br - 1) / f->br);
	f->nkb = (int)((f->nk + f->bc - 1) / f->bc);
}

static void close_step(struct view_flash *f, uint32_t end)
{
	if (f->nsteps)
		f->steps[f->nsteps - 1].end = end;
}

static void open_step(struct view_flash *f, uint32_t first, int qb, int kb, bool epilogue)
{
	close_step(f, first);
	f->steps[f->nsteps++] = (struct view_flash_step){qb, kb, epilogue, first, first};
}

/* A step starts at a load of the driving matrix (flash1: Q, flash2: K) once the step has loaded one and
 * then read shared memory (flash1: also at the load of the next K/V block); flash2's store of O opens the
 * epilogue. */
static void segment(struct view_flash *f)
{
	int driver = f->v1 ? FB_Q : FB_K, cur[2] = {0, 0};
	bool driven = false, used = false;
	f->steps = gl_xcalloc(f->nidx + 2, sizeof *f->steps);
	open_step(f, 0, 0, 0, false);
	for (uint32_t i = 0; i < f->nidx; i++) {
		const struct gl_trace_event *e = &f->tr->ev[f->idx[i]];
		if (is_shared_read(e))
			used |= driven;
		int b = e->space == GL_TRACE_GLOBAL ? buf_of(e) : -1;
		if (b < 0)
			continue;
		long head, row = event_row(f, e, b, &head);
		struct view_flash_step *s = &f->steps[f->nsteps - 1];
		bool new_kv = f->v1 && b == FB_K && is_load(e) && row / f->bc != cur[1]; /* FA1's outer loop moves on */
		if ((b == driver || new_kv) && is_load(e) && driven && used) {
			open_step(f, i, cur[0], cur[1], false);
			driven = used = false;
		} else if (!f->v1 && b == FB_O && e->op == GL_TRACE_ST && !s->epilogue) {
			open_step(f, i, cur[0], -1, true);
		}
		if (is_load(e) && (b == FB_Q || b == FB_K))
			cur[b == FB_K] = (int)(row / (b == FB_Q ? f->br : f->bc));
		if (b == driver && is_load(e) && !driven) {
			driven = true;
			f->steps[f->nsteps - 1].qb = cur[0];
			f->steps[f->nsteps - 1].kb = cur[1];
		}
	}
	close_step(f, f->nidx);
}

static void traffic(struct view_flash *f)
{
	f->ld = gl_xcalloc((size_t)f->nsteps, sizeof *f->ld);
	f->st = gl_xcalloc((size_t)f->nsteps, sizeof *f->st);
	for (int k = 0; k < f->nsteps; k++) {
		if (k) {
			memcpy(f->ld[k], f->ld[k - 1], sizeof f->ld[k]);
			memcpy(f->st[k], f->st[k - 1], sizeof f->st[k]);
		}
		for (uint32_t i = f->steps[k].first; i < f->steps[k].end; i++) {
			const struct gl_trace_event *e = &f->tr->ev[f->idx[i]];
			int b = e->space == GL_TRACE_GLOBAL ? buf_of(e) : -1;
			if (b >= 0)
				(e->op == GL_TRACE_ST ? f->st : f->ld)[k][b] += e->cost;
		}
	}
}

/* Buffer `name` of the harness's launch as floats (fp16 widened), or NULL. */
static float *input(const struct gl_launch *l, const char *name)
{
	for (int i = 0; i < l->nbuffers; i++) {
		const struct gl_buffer *b = &l->buffers[i];
		if (strcmp(b->name, name) != 0 || !b->host)
			continue;
		float *x = gl_xmalloc(b->count * sizeof *x);
		for (size_t k = 0; k < b->count; k++)
			x[k] = b->dtype == GL_F16 ? gl_f16_to_f32(((const uint16_t *)b->host)[k]) : ((const float *)b->host)[k];
		return x;
	}
	return NULL;
}

/* Scores, then m and l after each K/V block, of the CTA's head, from the launch's inputs made again from
 * its stored parameters and seed. */
static int values(struct view_flash *f, struct gl_err *err)
{
	const struct gl_variant *v = gl_variant_find(f->tr->t, f->tr->variant);
	struct gl_launch l = {0};
	int rc = v ? gl_topic_rebuild(f->tr->t, v, f->tr->params_json, &l, err) /* the stored seed's inputs */
		   : gl_errf(err, GL_EUSAGE, "unknown variant");
	float *q = rc == GL_OK ? input(&l, "Q") : NULL, *k = rc == GL_OK ? input(&l, "K") : NULL;
	if (rc == GL_OK && (!q || !k))
		rc = gl_errf(err, GL_EINTERNAL, "the attention harness made no Q or K buffer");
	if (rc == GL_OK) {
		f->s = gl_xmalloc((size_t)(f->nq * f->nk) * sizeof *f->s);
		f->m = gl_xmalloc((size_t)(f->nq * (f->nkb + 1)) * sizeof *f->m);
		f->l = gl_xmalloc((size_t)(f->nq * (f->nkb + 1)) * sizeof *f->l);
		const float *qh = q + f->head * f->nq * f->d, *kh = k + f->head * f->nk * f->d;
		for (long i = 0; i < f->nq; i++) {
			double *m = &f->m[i * (f->nkb + 1)], *lsum = &f->l[i * (f->nkb + 1)];
			m[0] = -INFINITY;
			lsum[0] = 0;
			for (int b = 0; b < f->nkb; b++) {
				double mb = m[b], sum = 0;
				for (long j = b * f->bc; j < (b + 1) * f->bc && j < f->nk; j++) {
					double acc = 0;
					for (long c = 0; c < f->d; c++)
						acc += (double)qh[i * f->d + c] * kh[j * f->d + c];
					f->s[i * f->nk + j] = f->causal && j > i ? -INFINITY : acc / sqrt((double)f->d);
					mb = fmax(mb, f->s[i * f->nk + j]);
				}
				for (long j = b * f->bc; j < (b + 1) * f->bc && j < f->nk; j++)
					sum += isinf(f->s[i * f->nk + j]) ? 0 : exp(f->s[i * f->nk + j] - mb);
				m[b + 1] = mb;
				lsum[b + 1] = (isinf(m[b]) ? 0 : lsum[b] * exp(m[b] - mb)) + sum;
			}
		}
	}
	free(q);
	free(k);
	gl_launch_free(&l);
	return rc;
}

int view_flash_build(const struct view_trace *tr, long block, struct view_flash *f, struct gl_err *err)
{
	memset(f, 0, sizeof *f);
	f->tr = tr;
	if (!tr->t || strcmp(tr->t->name, "attention") != 0)
		return gl_errf(err, GL_EUSAGE, "the flash view shows the attention topic, not %s", tr->topic);
	f->nq = param(tr, "seq");
	f->nk = param(tr, "seq-k") ? param(tr, "seq-k") : f->nq;
	f->d = param(tr, "dim");
	f->causal = (int)param(tr, "causal");
	for (int b = 0; b < VIEW_FLASH_BUFS; b++)
		f->buf[b] = view_buffer_find(tr, buf_names[b], false);
	if (!f->buf[FB_Q] || !f->buf[FB_K] || !f->buf[FB_V] || !f->buf[FB_O] || f->nq < 1 || f->nk < 1 || f->d < 1)
		return gl_errf(err, GL_EUSAGE, "the flash view needs a launch that reads Q, K, V and writes O (%s %s "
			       "has none of its buffers in the trace)", tr->topic, tr->variant);
	if (f->nq * f->nk > MAX_SCORES)
		return gl_errf(err, GL_EUSAGE, "the flash view recomputes one head's %ldx%ld scores: at most %ld "
			       "(use --seq 2048 or less)", f->nq, f->nk, MAX_SCORES);
	f->block = block >= 0 ? block : tr->n ? tr->ev[0].block : 0;
	f->idx = gl_xmalloc((tr->n ? tr->n : 1) * sizeof *f->idx);
	for (uint32_t i = 0; i < tr->n; i++)
		if (tr->ev[i].block == (uint32_t)f->block && tr->ev[i].mask)
			f->idx[f->nidx++] = i;
	for (uint32_t i = 0; i < f->nidx; i++) { /* flash1 reads O back; flash2 never does */
		const struct gl_trace_event *e = &tr->ev[f->idx[i]];
		f->v1 |= e->space == GL_TRACE_GLOBAL && buf_of(e) == FB_O && is_load(e);
		if (e->space == GL_TRACE_GLOBAL && buf_of(e) == FB_Q && f->head == 0) {
			long head;
			event_row(f, e, FB_Q, &head);
			f->head = head;
		}
	}
	bool loads_k = false;
	for (uint32_t i = 0; i < f->nidx && !loads_k; i++)
		loads_k = tr->ev[f->idx[i]].space == GL_TRACE_GLOBAL && buf_of(&tr->ev[f->idx[i]]) == FB_K;
	if (!loads_k) {
		view_flash_free(f);
		return gl_errf(err, GL_EUSAGE, "CTA %ld of %s %s has no traced loads of K (traces keep the first 2 "
			       "CTAs; try --block 0)", block, tr->topic, tr->variant);
	}
	block_sizes(f);
	segment(f);
	traffic(f);
	int rc = values(f, err);
	if (rc != GL_OK)
		view_flash_free(f);
	return rc;
}

void view_flash_free(struct view_flash *f)
{
	free(f->idx);
	free(f->steps);
	free(f->ld);
	free(f->st);
	free(f->m);
	free(f->l);
	free(f->s);
	memset(f, 0, sizeof *f);
}

char view_flash_cell(const struct view_flash *f, int step, int qb, int kb)
{
	if (f->causal && (long)kb * f->bc > (long)qb * f->br + f->br - 1)
		return 'x';
	for (int k = 0; k < f->nsteps; k++)
		if (!f->steps[k].epilogue && f->steps[k].qb == qb && f->steps[k].kb == kb)
			return k == step ? 'N' : k < step ? 'D' : '.';
	return f->v1 ? '.' : 'o'; /* flash2: another CTA's Q block */
}

/* Does step `step` rescale O: its K/V block raises the running max m of a row shown (the Q block's first
 * VIEW_FLASH_ROWS) that had seen keys before, so what O holds is multiplied by e^(m - m') < 1? */
bool view_flash_rescales(const struct view_flash *f, int step)
{
	const struct view_flash_step *s = &f->steps[step];
	if (s->epilogue || !f->m || s->kb < 0)
		return false;
	for (long i = (long)s->qb * f->br; i < ((long)s->qb * f->br) + VIEW_FLASH_ROWS && i < f->nq; i++) {
		const double *m = &f->m[i * (f->nkb + 1)];
		if (!isinf(m[s->kb]) && m[s->kb + 1] > m[s->kb])
			return true;
	}
	return false;
}
