/* view_gemm.c — the gemm view's state for one CTA.  Steps are the CTA's K steps, then its epilogue:
 *  - with shared-memory staging, a K step is what the CTA loads from A and B up to the shared-memory
 *    reads that consume it (the next A/B load after a shared read starts the next step);
 *  - without it (naive, coalesced) a K step is one k: every warp's loads of A[.][k] and B[k][.].
 * The C tile, warp tile and thread tile are the C elements the CTA, warp 0 and thread 0 store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/memmodel.h"
#include "sim/sim.h"
#include "view_states.h"

#define MAX_ELEMENTS (1L << 26)

static bool is_load(const struct gl_trace_event *e)
{
	return e->op == GL_TRACE_LD || e->op == GL_TRACE_CP_ASYNC || e->op == GL_TRACE_LDMATRIX;
}

static const struct view_buffer *global_buffer(const struct view_gemm *g, const struct gl_trace_event *e)
{
	struct view_loc loc;
	if (e->space != GL_TRACE_GLOBAL || !e->mask || !view_locate(g->tr, e, e->addrs[__builtin_ctz(e->mask)], &loc))
		return NULL;
	return loc.buf;
}

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

/* Unstaged: the K step of an A/B load is the rank of its k among the distinct k loaded. */
static int phases_by_k(struct view_gemm *g)
{
	long *keys = gl_xmalloc((g->nidx ? g->nidx : 1) * sizeof *keys);
	long *sorted = gl_xmalloc((g->nidx ? g->nidx : 1) * sizeof *sorted);
	uint32_t nk = 0;
	for (uint32_t i = 0; i < g->nidx; i++) {
		const struct gl_trace_event *e = &g->tr->ev[g->idx[i]];
		const struct view_buffer *b = global_buffer(g, e);
		keys[i] = (b == g->A || b == g->B) && is_load(e) ? event_k(g, e, b) : -1;
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
		g->phase[i] = last;
	}
	free(keys);
	free(sorted);
	return distinct ? (int)distinct : 1;
}

/* Staged: a new K step starts at the first A/B load after a shared-memory read. */
static int phases_by_barrier(struct view_gemm *g)
{
	int phase = 0;
	bool read_shared = false;
	for (uint32_t i = 0; i < g->nidx; i++) {
		const struct gl_trace_event *e = &g->tr->ev[g->idx[i]];
		const struct view_buffer *b = global_buffer(g, e);
		if ((b == g->A || b == g->B) && is_load(e) && read_shared) {
			phase++;
			read_shared = false;
		} else if (e->space == GL_TRACE_SHARED && e->op != GL_TRACE_ST && e->op != GL_TRACE_CP_ASYNC) {
			read_shared = true;
		}
		g->phase[i] = phase;
	}
	return phase + 1;
}

/* C accesses form the last step, the epilogue. */
static void epilogue_phase(struct view_gemm *g)
{
	for (uint32_t i = 0; i < g->nidx; i++)
		if (global_buffer(g, &g->tr->ev[g->idx[i]]) == g->C)
			g->phase[i] = g->nsteps - 1;
}

static void box_add(struct view_box *b, long r, long c)
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

static const struct view_box empty_box = {0, 0, -1, -1};

/* For each lane of e in buffer b: every element it touches (a float4 is 4). */
#define FOR_ELEMENTS(g, e, b, loc, l)                                                                                  \
	for (int l = 0; l < 32; l++)                                                                                   \
		for (unsigned off_ = 0; (e->mask >> l & 1) && off_ < (e->bytes ? e->bytes : 1u); off_ += (b)->elem)    \
			if (view_locate((g)->tr, e, e->addrs[l] + off_, &loc) && loc.buf == (b))

static void register_tile(struct view_gemm *g);

static void ownership(struct view_gemm *g)
{
	g->owner = gl_xmalloc((size_t)g->m * (size_t)g->n * sizeof *g->owner);
	memset(g->owner, -1, (size_t)g->m * (size_t)g->n * sizeof *g->owner);
	g->c_tile = g->warp_tile = g->thread_tile = empty_box;
	uint64_t warps = 0;
	int first_warp = -1;
	for (int pass = 0; pass < 2 && g->c_tile.r1 < g->c_tile.r0; pass++) /* stores, else loads of C */
		for (uint32_t i = 0; i < g->nidx; i++) {
			const struct gl_trace_event *e = &g->tr->ev[g->idx[i]];
			if (global_buffer(g, e) != g->C || (pass == 0) != (e->op == GL_TRACE_ST))
				continue;
			if (first_warp < 0)
				first_warp = (int)e->warp;
			warps |= 1ull << (e->warp % 64);
			struct view_loc loc;
			FOR_ELEMENTS(g, e, g->C, loc, l)
			{
				int thread = (int)e->warp * 32 + l;
				g->owner[loc.row * g->n + loc.col] = thread;
				box_add(&g->c_tile, loc.row, loc.col);
				if ((int)e->warp == first_warp) {
					box_add(&g->warp_tile, loc.row, loc.col);
					g->warp_elems++;
				}
				if (thread == first_warp * 32) {
					box_add(&g->thread_tile, loc.row, loc.col);
					g->thread_elems++;
				}
			}
		}
	g->warps = __builtin_popcountll(warps);
	g->first_warp = first_warp < 0 ? 0 : first_warp;
	register_tile(g);
}

static void add_sorted(long *v, int *n, long x)
{
	int i = *n;
	for (int k = 0; k < *n; k++)
		if (v[k] == x)
			return;
	if (*n >= VIEW_GEMM_TILE_MAX)
		return;
	while (i > 0 && v[i - 1] > x) {
		v[i] = v[i - 1];
		i--;
	}
	v[i] = x;
	(*n)++;
}

/* Thread 0 of the first storing warp: the rows and columns of its C elements, and whether it owns their
 * whole product (a register tile: acc[i][j] for row i, column j, updated by an outer product per k). */
static void register_tile(struct view_gemm *g)
{
	int self = g->first_warp * 32;
	g->ntrows = g->ntcols = 0;
	for (long r = 0; r < g->m; r++)
		for (long c = 0; c < g->n; c++)
			if (g->owner[r * g->n + c] == self) {
				add_sorted(g->trows, &g->ntrows, r);
				add_sorted(g->tcols, &g->ntcols, c);
			}
	g->thread_outer = g->ntrows > 0 && (long)g->ntrows * g->ntcols == g->thread_elems;
}

void view_ranges(const long *v, int n, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && len + 1 < size;) {
		long d = i + 1 < n ? v[i + 1] - v[i] : 1;
		int j = i;
		while (j + 1 < n && v[j + 1] - v[j] == d)
			j++;
		int w;
		if (j - i >= 2 && d == 1) /* a run: 0-7 */
			w = snprintf(buf + len, size - len, "%s%ld-%ld", i ? "," : "", v[i], v[j]);
		else if (j - i >= 2) /* a progression: 0,16..112 */
			w = snprintf(buf + len, size - len, "%s%ld,%ld..%ld", i ? "," : "", v[i], v[i + 1], v[j]);
		else {
			j = i;
			w = snprintf(buf + len, size - len, "%s%ld", i ? "," : "", v[i]);
		}
		if (w < 0 || (size_t)w >= size - len)
			break;
		len += (size_t)w;
		i = j + 1;
	}
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
		g->staged = tr->ev[g->idx[i]].space == GL_TRACE_SHARED && tr->ev[g->idx[i]].op != GL_TRACE_ST;
	g->phase = gl_xmalloc(g->nidx * sizeof *g->phase);
	g->nsteps = (g->staged ? phases_by_barrier(g) : phases_by_k(g)) + 1;
	epilogue_phase(g);
	ownership(g);
	return GL_OK;
}

void view_gemm_free(struct view_gemm *g)
{
	free(g->idx);
	free(g->phase);
	free(g->owner);
	memset(g, 0, sizeof *g);
}

static void mark(uint8_t *marks, long cols, const struct view_loc *loc, bool now, struct view_box *box)
{
	uint8_t *m = &marks[loc->row * cols + loc->col];
	if (now) {
		*m = VG_NOW;
		box_add(box, loc->row, loc->col);
	} else if (*m == VG_NONE) {
		*m = VG_EARLIER;
	}
}

static void count(struct view_gemm_frame *f, const struct view_gemm *g, const struct gl_trace_event *e,
                  const struct view_buffer *b)
{
	if (e->space == GL_TRACE_SHARED) {
		bool st = e->op == GL_TRACE_ST || e->op == GL_TRACE_CP_ASYNC;
		*(st ? &f->sst_wf : &f->sld_wf) += e->cost;
		unsigned ideal = e->op == GL_TRACE_LDMATRIX ? (unsigned)__builtin_popcount(e->mask) / 8
		                                            : gl_mm_shared_ideal_wavefronts(e->mask, e->bytes);
		f->s_conflicts += e->cost > ideal ? e->cost - ideal : 0;
		f->s_inst++;
		return;
	}
	uint64_t *sect = b == g->A ? &f->a_sect : b == g->B ? &f->b_sect : b == g->C ? &f->c_sect : NULL;
	uint64_t *req = b == g->A ? &f->a_req : b == g->B ? &f->b_req : b == g->C ? &f->c_req : NULL;
	if (sect) {
		*sect += e->cost;
		(*req)++;
	}
}

static void k_range(struct view_gemm_frame *f, const struct view_gemm *g)
{
	f->k_lo = f->a_now.r1 >= f->a_now.r0 ? f->a_now.c0 : f->b_now.r1 >= f->b_now.r0 ? f->b_now.r0 : -1;
	f->k_hi = f->a_now.r1 >= f->a_now.r0 ? f->a_now.c1 : f->b_now.r1 >= f->b_now.r0 ? f->b_now.r1 : -1;
	for (long k = 0; k < g->k; k++) {
		bool seen = false;
		for (long r = 0; r < g->m && !seen; r++)
			seen = f->a[r * g->k + k] != VG_NONE;
		for (long c = 0; c < g->n && !seen; c++)
			seen = f->b[k * g->n + c] != VG_NONE;
		f->k_done += seen;
	}
}

static void add_name(char *list, size_t n, const char *name)
{
	size_t len = strlen(list), nl = strlen(name);
	for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
		if ((p == list || p[-1] == ' ') && (p[nl] == ',' || p[nl] == '\0'))
			return;
	if (name[0])
		snprintf(list + len, n - len, "%s%s", len ? ", " : "", name);
}

void view_gemm_frame(const struct view_gemm *g, int step, struct view_gemm_frame *f)
{
	memset(f, 0, sizeof *f);
	step = step < 0 ? 0 : step >= g->nsteps ? g->nsteps - 1 : step;
	f->step = step;
	f->nsteps = g->nsteps;
	f->epilogue = step == g->nsteps - 1;
	f->a_now = f->b_now = empty_box;
	f->a = gl_xcalloc((size_t)(g->m * g->k), 1);
	f->b = gl_xcalloc((size_t)(g->k * g->n), 1);
	f->c = gl_xcalloc((size_t)(g->m * g->n), 1);
	struct view_box c_box = empty_box;
	for (uint32_t i = 0; i < g->nidx; i++) {
		if (g->phase[i] > step)
			continue;
		const struct gl_trace_event *e = &g->tr->ev[g->idx[i]];
		const struct view_buffer *b = global_buffer(g, e);
		count(f, g, e, b);
		bool now = g->phase[i] == step;
		struct view_loc loc;
		if ((b == g->A || b == g->B) && is_load(e)) {
			FOR_ELEMENTS(g, e, b, loc, l)
			mark(b == g->A ? f->a : f->b, b->cols, &loc, now, b == g->A ? &f->a_now : &f->b_now);
		} else if (now && e->space == GL_TRACE_SHARED && (e->op == GL_TRACE_ST || e->op == GL_TRACE_CP_ASYNC)) {
			add_name(f->staged_into, sizeof f->staged_into, e->buffer);
		} else if (b == g->C && e->op == GL_TRACE_ST) {
			FOR_ELEMENTS(g, e, b, loc, l)
			mark(f->c, g->n, &loc, now, &c_box);
		}
	}
	k_range(f, g);
}

void view_gemm_frame_free(struct view_gemm_frame *f)
{
	free(f->a);
	free(f->b);
	free(f->c);
	f->a = f->b = f->c = NULL;
}
