/* view_mma.c — the mma view's state.  Three sections of steps:
 *   1. the m16n8k16 fragment map, one step per lane (step k selects lane k): which lane and register
 *      holds each element of A (16x16), B (16x8) and C/D (16x8), from the simulator's fragment layouts
 *      (sim/sim.h, the PTX ISA's tables);
 *   2. the ldmatrix instructions of the first warp that issues one in the CTA, one per step: the 32 row
 *      addresses, the 8x8 matrices they form, the 16-byte bank group of every row and its wavefront
 *      (sim/memmodel.h), beside the same rows with the XOR swizzle applied to their offsets;
 *   3. the CTA's K loop, one step per K tile: the A and B tiles loaded from global memory (by their k
 *      range), what went to shared memory, that warp's fragments, and the counts so far. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/sim.h"
#include "view_states.h"

/* The fragment map of mma.m16n8k16 with f16 A/B and f32 C/D. */
static void fill_fragments(struct view_mma *v)
{
	static const struct {
		enum sim_frag_role role;
		unsigned rows, cols;
		enum ptx_type type;
	} ops[3] = {{FRAG_A, 16, 16, PT_F16}, {FRAG_B, 16, 8, PT_F16}, {FRAG_C, 16, 8, PT_F32}};
	for (int o = 0; o < 3; o++) {
		struct sim_frag f = sim_frag_make(ops[o].role, ops[o].rows, ops[o].cols, ops[o].type);
		struct view_mma_matrix *m = &v->frag[o];
		m->rows = (int)f.rows;
		m->cols = (int)f.cols;
		for (unsigned lane = 0; lane < 32; lane++)
			for (unsigned r = 0; r < f.unique; r++)
				for (unsigned j = 0; j < f.per_reg; j++) {
					unsigned row, col;
					sim_frag_pos(&f, lane, r, j, &row, &col);
					m->lane[row][col] = (int8_t)lane;
					m->elem[row][col] = (int8_t)(r * f.per_reg + j);
				}
	}
}

/* The k range [lo, hi] of the A or B elements a global event touches (A: columns, B: rows). */
static bool event_k_range(const struct view_trace *tr, const struct gl_trace_event *e, bool *is_a, long *lo, long *hi)
{
	*lo = -1, *hi = -1;
	for (uint32_t m = e->mask; m; m &= m - 1) {
		struct view_loc loc;
		if (!view_locate(tr, e, e->addrs[__builtin_ctz(m)], &loc) || loc.buf->rows <= 1)
			return false;
		bool a = strcmp(loc.buf->name, "A") == 0;
		if (!a && strcmp(loc.buf->name, "B") != 0)
			return false;
		*is_a = a;
		long k = a ? loc.col : loc.row, k_last = k + (a ? (long)(e->bytes / loc.buf->elem) - 1 : 0);
		*lo = *lo < 0 || k < *lo ? k : *lo;
		*hi = k_last > *hi ? k_last : *hi;
	}
	return *lo >= 0;
}

/* K steps.  A global load of A or B belongs to the tile its k range lies in, BK wide, where BK is the
 * widest k range one load of A covers (a warp's row of the A tile).  A K loop does the same shared reads
 * and writes in every iteration, so each warp's n-th shared read (write) of R belongs to step n*nk/R.
 * Everything else (the epilogue's C stores) counts in the last step. */
static void split_k_loop(struct view_mma *v)
{
	const struct view_trace *tr = v->tr;
	v->kstep = gl_xcalloc(v->nidx ? v->nidx : 1, sizeof *v->kstep);
	long *lo = gl_xcalloc(v->nidx ? v->nidx : 1, sizeof *lo), bk = 1, hi, top = 0;
	bool *global = gl_xcalloc(v->nidx ? v->nidx : 1, sizeof *global);
	for (uint32_t i = 0; i < v->nidx; i++) {
		const struct gl_trace_event *e = &tr->ev[v->idx[i]];
		bool is_a = false;
		global[i] = e->space == GL_TRACE_GLOBAL && e->op != GL_TRACE_ST && event_k_range(tr, e, &is_a, &lo[i], &hi);
		if (global[i] && is_a && hi - lo[i] + 1 > bk)
			bk = hi - lo[i] + 1;
	}
	for (uint32_t i = 0; i < v->nidx; i++)
		if (global[i] && lo[i] / bk > top)
			top = lo[i] / bk;
	v->nk = (int)top + 1;
	/* shared accesses per (warp, read or write), then their ordinals */
	enum { MAXW = 64 };
	uint32_t total[MAXW][2] = {{0}}, seen[MAXW][2] = {{0}};
	for (uint32_t i = 0; i < v->nidx; i++) {
		const struct gl_trace_event *e = &tr->ev[v->idx[i]];
		if (e->space == GL_TRACE_SHARED && e->warp < MAXW)
			total[e->warp][e->op == GL_TRACE_LD || e->op == GL_TRACE_LDMATRIX]++;
	}
	for (uint32_t i = 0; i < v->nidx; i++) {
		const struct gl_trace_event *e = &tr->ev[v->idx[i]];
		int rd = e->op == GL_TRACE_LD || e->op == GL_TRACE_LDMATRIX;
		if (global[i])
			v->kstep[i] = (int)(lo[i] / bk);
		else if (e->space == GL_TRACE_SHARED && e->warp < MAXW)
			v->kstep[i] = (int)((uint64_t)seen[e->warp][rd]++ * (uint64_t)v->nk / total[e->warp][rd]);
		else
			v->kstep[i] = v->nk - 1;
	}
	free(lo);
	free(global);
}

static void find_ldmatrix(struct view_mma *v)
{
	v->ldm = gl_xcalloc(v->nidx ? v->nidx : 1, sizeof *v->ldm);
	v->warp = -1;
	for (uint32_t i = 0; i < v->nidx; i++) {
		const struct gl_trace_event *e = &v->tr->ev[v->idx[i]];
		if (e->op != GL_TRACE_LDMATRIX)
			continue;
		if (v->warp < 0)
			v->warp = (int)e->warp;
		if ((int)e->warp == v->warp)
			v->ldm[v->nldm++] = i;
	}
}

int view_mma_build(const struct view_trace *tr, long block, struct view_mma *v, struct gl_err *err)
{
	memset(v, 0, sizeof *v);
	v->tr = tr;
	v->block = block >= 0 ? block : tr->n ? (long)tr->ev[0].block : 0;
	uint32_t n = 0;
	uint32_t *all = gl_xmalloc((tr->n ? tr->n : 1) * sizeof *all);
	for (uint32_t i = 0; i < tr->n; i++)
		if (tr->ev[i].mask && tr->ev[i].block == (uint32_t)v->block)
			all[n++] = i;
	v->idx = all;
	v->nidx = n;
	if (!n) {
		view_mma_free(v);
		return gl_errf(err, GL_EUSAGE, "the trace of %s %s has no accesses by CTA %ld: the trace keeps the "
			       "first %d CTAs", tr->topic, tr->variant, block, GL_SIM_TRACE_CTAS);
	}
	fill_fragments(v);
	find_ldmatrix(v);
	split_k_loop(v);
	if (v->warp < 0)
		v->warp = 0;
	v->nsteps = 32 + (int)v->nldm + v->nk;
	return GL_OK;
}

void view_mma_free(struct view_mma *v)
{
	free(v->idx);
	free(v->ldm);
	free(v->kstep);
	memset(v, 0, sizeof *v);
}

/* ---- section 2: one ldmatrix and its swizzled counterpart */

/* CUTLASS's Swizzle<3,4,3> on a byte offset: the 16-byte chunk XOR the 128-byte line, mod 8.  Applying
 * it twice gives the offset back, so on a swizzled tile it shows the plain layout. */
uint64_t view_mma_swizzle(uint64_t offset)
{
	return offset ^ (((offset >> 7) & 7) << 4);
}

void view_mma_ldmatrix_frame(const struct view_mma *v, int k, struct view_mma_ldm *f)
{
	memset(f, 0, sizeof *f);
	const struct gl_trace_event *e = &v->tr->ev[v->idx[v->ldm[k]]];
	f->e = e;
	f->nmat = (unsigned)__builtin_popcount(e->mask) / 8;
	uint32_t rec[32] = {0}, swz[32] = {0};
	for (int l = 0; l < 32; l++) {
		struct view_loc loc;
		uint64_t base = view_locate(v->tr, e, e->addrs[l], &loc) ? e->addrs[l] - loc.offset : 0;
		f->offset[l] = e->addrs[l] - base;
		f->buf = loc.buf ? loc.buf : f->buf;
		rec[l] = (uint32_t)e->addrs[l];
		swz[l] = (uint32_t)(base + view_mma_swizzle(f->offset[l]));
		f->swz_offset[l] = view_mma_swizzle(f->offset[l]);
	}
	f->wf = gl_mm_ldmatrix_word_wavefronts(rec, f->nmat, f->wf_rec);
	f->wf_swz = gl_mm_ldmatrix_word_wavefronts(swz, f->nmat, f->wf_alt);
	for (int l = 0; l < 32; l++) {
		f->group[l] = (int)((rec[l] >> 4) & 7);
		f->group_swz[l] = (int)((swz[l] >> 4) & 7);
	}
	for (int i = 0; i <= k; i++) {
		const struct gl_trace_event *p = &v->tr->ev[v->idx[v->ldm[i]]];
		unsigned nm = (unsigned)__builtin_popcount(p->mask) / 8;
		f->inst_so_far++;
		f->wf_so_far += p->cost;
		f->conf_so_far += p->cost > nm ? p->cost - nm : 0;
	}
}

/* ---- section 3: the K loop */

static void box_add(struct view_box *b, long r, long c)
{
	if (b->r1 < b->r0) {
		*b = (struct view_box){r, c, r, c};
		return;
	}
	b->r0 = r < b->r0 ? r : b->r0;
	b->c0 = c < b->c0 ? c : b->c0;
	b->r1 = r > b->r1 ? r : b->r1;
	b->c1 = c > b->c1 ? c : b->c1;
}

/* Add an event's global elements to the A, B or C box of the frame. */
static void global_boxes(const struct view_trace *tr, const struct gl_trace_event *e, struct view_mma_kstep *f,
			 bool now)
{
	for (uint32_t m = e->mask; m; m &= m - 1) {
		struct view_loc loc;
		if (!view_locate(tr, e, e->addrs[__builtin_ctz(m)], &loc) || loc.buf->rows <= 1)
			continue;
		long last = loc.col + (long)(e->bytes / (loc.buf->elem ? loc.buf->elem : 1)) - 1;
		struct view_box *b = !strcmp(loc.buf->name, "A") ? &f->a_now : !strcmp(loc.buf->name, "B") ? &f->b_now
				  : !strcmp(loc.buf->name, "C") ? &f->c_tile : NULL;
		if (!b || (!now && b != &f->c_tile))
			continue;
		box_add(b, loc.row, loc.col);
		box_add(b, loc.row, last);
	}
}

/* Note a shared array written at this step ("As, Bs"). */
static void staged(struct view_mma_kstep *f, const char *name)
{
	size_t len = strlen(f->staged_into);
	if (name[0] && !strstr(f->staged_into, name) && len + strlen(name) + 3 < sizeof f->staged_into)
		snprintf(f->staged_into + len, sizeof f->staged_into - len, "%s%s", len ? ", " : "", name);
}

void view_mma_kstep_frame(const struct view_mma *v, int k, struct view_mma_kstep *f)
{
	memset(f, 0, sizeof *f);
	f->k = k;
	f->a_now = f->b_now = f->c_tile = (struct view_box){0, 0, -1, -1};
	memset(f->owner, -1, sizeof f->owner);
	for (uint32_t i = 0; i < v->nidx; i++) {
		const struct gl_trace_event *e = &v->tr->ev[v->idx[i]];
		bool now = v->kstep[i] == k, upto = v->kstep[i] <= k;
		global_boxes(v->tr, e, f, now && e->op != GL_TRACE_ST);
		if (!upto)
			continue;
		if (e->space == GL_TRACE_GLOBAL && e->op == GL_TRACE_CP_ASYNC) {
			f->ldgsts_req++;
			f->ldgsts_sect += e->cost;
		} else if (e->space == GL_TRACE_GLOBAL && e->op == GL_TRACE_LD) {
			f->gld_req++;
			f->gld_sect += e->cost;
		} else if (e->space == GL_TRACE_SHARED && e->op == GL_TRACE_LDMATRIX) {
			f->ldsm++;
			f->sld_wf += e->cost;
			f->sld_conf += view_shared_conflicts(e);
			f->warp_ldsm_now += now && (int)e->warp == v->warp;
		} else if (e->space == GL_TRACE_SHARED && e->op == GL_TRACE_LD) {
			f->lds++;
			f->sld_wf += e->cost;
			f->sld_conf += view_shared_conflicts(e);
		} else if (e->space == GL_TRACE_SHARED) {
			f->sst_wf += e->cost;
		}
		if (now && e->space == GL_TRACE_SHARED && e->op != GL_TRACE_LD && e->op != GL_TRACE_LDMATRIX)
			staged(f, e->buffer);
	}
	view_mma_owners(v, f);
}

/* Which warp stores each 16x8 (mma-sized) block of the CTA's C tile: the CTA -> warp -> mma hierarchy. */
void view_mma_owners(const struct view_mma *v, struct view_mma_kstep *f)
{
	if (f->c_tile.r1 < f->c_tile.r0)
		return;
	for (uint32_t i = 0; i < v->nidx; i++) {
		const struct gl_trace_event *e = &v->tr->ev[v->idx[i]];
		if (e->space != GL_TRACE_GLOBAL || e->op != GL_TRACE_ST)
			continue;
		for (uint32_t m = e->mask; m; m &= m - 1) {
			struct view_loc loc;
			if (!view_locate(v->tr, e, e->addrs[__builtin_ctz(m)], &loc) || strcmp(loc.buf->name, "C"))
				continue;
			long br = (loc.row - f->c_tile.r0) / 16, bc = (loc.col - f->c_tile.c0) / 8;
			if (br >= 0 && br < VIEW_MMA_BLOCKS && bc >= 0 && bc < VIEW_MMA_BLOCKS)
				f->owner[br][bc] = (int8_t)e->warp;
		}
	}
}

/* Does step `step` show a bank conflict: an ldmatrix with more wavefronts than matrices, or a K step
 * whose shared reads (ldmatrix and ld.shared) took more wavefronts than their ideal?  The fragment map's
 * steps never do. */
bool view_mma_conflict(const struct view_mma *v, int step)
{
	if (step < 32)
		return false;
	if (step < 32 + (int)v->nldm) {
		const struct gl_trace_event *e = &v->tr->ev[v->idx[v->ldm[step - 32]]];
		return e->cost > (unsigned)__builtin_popcount(e->mask) / 8;
	}
	int k = step - 32 - (int)v->nldm;
	for (uint32_t i = 0; i < v->nidx; i++) {
		const struct gl_trace_event *e = &v->tr->ev[v->idx[i]];
		if (v->kstep[i] != k || e->space != GL_TRACE_SHARED)
			continue;
		unsigned ideal = e->op == GL_TRACE_LDMATRIX ? (unsigned)__builtin_popcount(e->mask) / 8
			       : e->op == GL_TRACE_LD	   ? gl_mm_shared_ideal_wavefronts(e->mask, e->bytes)
							   : e->cost;
		if (e->cost > ideal)
			return true;
	}
	return false;
}
