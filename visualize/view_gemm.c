/* view_gemm.c — the gemm view's steps for one CTA: its events, grouped into K slabs, and one step per k
 * (then the epilogue).
 *  - with shared-memory staging, a slab is what the CTA loads from A and B up to the shared-memory reads
 *    that consume it (the next A/B load after a shared read starts the next slab);
 *  - without it (naive, coalesced) a slab is one k: every warp's loads of A[.][k] and B[k][.].
 * The hierarchy (CTA tile, warps, threads) is view_gemm_model.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/sim.h"
#include "view_gemm_int.h"

#define MAX_ELEMENTS (1L << 26)

/* The smallest k an A or B access touches: A's column, B's row. */
static long event_k(const struct view_gemm *g, const struct gl_trace_event *e, const struct view_buffer *b)
{
	long best = -1;
	for (uint32_t m = e->mask; m; m &= m - 1) {
		struct view_loc loc;
		if (!view_locate(g->tr, e, e->addrs[__builtin_ctz(m)], &loc) || loc.buf != b)
			continue;
		long k = b == g->A ? loc.col : loc.row;
		if (best < 0 || k < best)
			best = k;
	}
	return best;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* Unstaged: the slab of an A/B load is the rank of its k among the distinct k loaded. */
static int slabs_by_k(struct view_gemm *g)
{
	long *keys = gl_xmalloc((g->nidx ? g->nidx : 1) * sizeof *keys);
	long *sorted = gl_xmalloc((g->nidx ? g->nidx : 1) * sizeof *sorted);
	uint32_t nk = 0;
	for (uint32_t i = 0; i < g->nidx; i++) {
		const struct gl_trace_event *e = &g->tr->ev[g->idx[i]];
		const struct view_buffer *b = vg_global_buffer(g, e);
		keys[i] = (b == g->A || b == g->B) && vg_is_load(e) ? event_k(g, e, b) : -1;
		if (keys[i] >= 0)
			sorted[nk++] = keys[i];
	}
	qsort(sorted, nk, sizeof *sorted, cmp_long);
	uint32_t distinct = 0;
	for (uint32_t i = 0; i < nk; i++)
		if (!distinct || sorted[distinct - 1] != sorted[i])
			sorted[distinct++] = sorted[i];
	int last = 0;
	for (uint32_t i = 0; i < g->nidx; i++) {
		if (keys[i] >= 0) {
			long *at = bsearch(&keys[i], sorted, distinct, sizeof *sorted, cmp_long);
			last = (int)(at - sorted);
		}
		g->slab[i] = last;
	}
	free(keys);
	free(sorted);
	return distinct ? (int)distinct : 1;
}

/* Staged: a new slab starts at the first A/B load after a shared-memory read. */
static int slabs_by_barrier(struct view_gemm *g)
{
	int slab = 0;
	bool read_shared = false;
	for (uint32_t i = 0; i < g->nidx; i++) {
		const struct gl_trace_event *e = &g->tr->ev[g->idx[i]];
		const struct view_buffer *b = vg_global_buffer(g, e);
		if ((b == g->A || b == g->B) && vg_is_load(e) && read_shared) {
			slab++;
			read_shared = false;
		} else if (e->space == GL_TRACE_SHARED && !vg_is_shared_store(e)) {
			read_shared = true;
		}
		g->slab[i] = slab;
	}
	return slab + 1;
}

/* Each slab's k range from its A and B loads; C accesses go to the epilogue (slab nslabs). */
static void slab_ranges(struct view_gemm *g)
{
	g->slab_k0 = gl_xmalloc((size_t)g->nslabs * sizeof *g->slab_k0);
	g->slab_k1 = gl_xmalloc((size_t)g->nslabs * sizeof *g->slab_k1);
	for (int s = 0; s < g->nslabs; s++)
		g->slab_k0[s] = g->slab_k1[s] = -1;
	for (uint32_t i = 0; i < g->nidx; i++) {
		const struct gl_trace_event *e = &g->tr->ev[g->idx[i]];
		const struct view_buffer *b = vg_global_buffer(g, e);
		if (b == g->C) {
			g->slab[i] = g->nslabs;
			continue;
		}
		if ((b != g->A && b != g->B) || !vg_is_load(e))
			continue;
		struct view_loc loc;
		long *k0 = &g->slab_k0[g->slab[i]], *k1 = &g->slab_k1[g->slab[i]];
		VG_FOR_ELEMENTS(g, e, b, loc, l)
		{
			long k = b == g->A ? loc.col : loc.row;
			*k0 = *k0 < 0 || k < *k0 ? k : *k0;
			*k1 = k > *k1 ? k : *k1;
		}
	}
}

int view_gemm_slab_of(const struct view_gemm *g, long k)
{
	for (int s = 0; s < g->nslabs; s++)
		if (g->slab_k0[s] >= 0 && k >= g->slab_k0[s] && k <= g->slab_k1[s])
			return s;
	return -1;
}

static int need_buffers(struct view_gemm *g, struct gl_err *err)
{
	const struct view_trace *tr = g->tr;
	g->A = view_buffer_find(tr, "A", false);
	g->B = view_buffer_find(tr, "B", false);
	g->C = view_buffer_find(tr, "C", false);
	int im = tr->t ? gl_param_index(tr->t, "m") : -1, in = tr->t ? gl_param_index(tr->t, "n") : -1,
	    ik = tr->t ? gl_param_index(tr->t, "k") : -1;
	if (!g->A || !g->B || !g->C || im < 0 || in < 0 || ik < 0)
		return gl_errf(err, GL_EUSAGE,
		               "the gemm view needs a trace of the gemm topic (buffers A, B, C and "
		               "parameters m, n, k); %s has none",
		               tr->topic);
	g->m = tr->problem.v[im];
	g->n = tr->problem.v[in];
	g->k = tr->problem.v[ik];
	if (g->m * g->k > MAX_ELEMENTS || g->k * g->n > MAX_ELEMENTS || g->m * g->n > MAX_ELEMENTS)
		return gl_errf(err, GL_EUSAGE,
		               "gemm %ldx%ldx%ld is too large to draw; view a smaller size "
		               "(e.g. --size 128)",
		               g->m, g->n, g->k);
	return GL_OK;
}

int view_gemm_build(const struct view_trace *tr, long block, struct view_gemm *g, struct gl_err *err)
{
	memset(g, 0, sizeof *g);
	g->tr = tr;
	int rc = need_buffers(g, err);
	if (rc)
		return rc;
	if (!tr->n)
		return gl_errf(err, GL_EUSAGE, "the trace of gemm %s has no events; record it again", tr->variant);
	g->block = block >= 0 ? block : (long)tr->ev[0].block;
	g->idx = gl_xmalloc(tr->n * sizeof *g->idx);
	for (uint32_t i = 0; i < tr->n; i++)
		if (tr->ev[i].block == (uint32_t)g->block && tr->ev[i].mask)
			g->idx[g->nidx++] = i;
	if (!g->nidx) {
		view_gemm_free(g);
		return gl_errf(err, GL_EUSAGE, "CTA %ld is not in the trace (traces keep the first %d CTAs)", block,
		               GL_SIM_TRACE_CTAS);
	}
	for (uint32_t i = 0; i < g->nidx && !g->staged; i++)
		g->staged = tr->ev[g->idx[i]].space == GL_TRACE_SHARED && !vg_is_shared_store(&tr->ev[g->idx[i]]);
	g->slab = gl_xmalloc(g->nidx * sizeof *g->slab);
	g->nslabs = g->staged ? slabs_by_barrier(g) : slabs_by_k(g);
	slab_ranges(g);
	g->nsteps = (int)g->k + 1;
	g->ui = gl_xcalloc(1, sizeof *g->ui);
	view_gemm_model(g);
	return GL_OK;
}

void view_gemm_free(struct view_gemm *g)
{
	free(g->idx);
	free(g->slab);
	free(g->slab_k0);
	free(g->slab_k1);
	free(g->owner);
	free(g->warp_elems);
	free(g->ui);
	memset(g, 0, sizeof *g);
}
