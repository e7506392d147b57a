/* view_banks.c — the banks view's state: for the k-th shared access, the bank and wavefront of every
 * word each lane touches (sim/memmodel.h's rules, so the picture and the counts agree), and the
 * wavefronts and conflicts so far. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/sim.h"
#include "view_states.h"

int view_banks_build(const struct view_trace *tr, long block, struct view_banks *v, struct gl_err *err)
{
	memset(v, 0, sizeof *v);
	v->tr = tr;
	v->idx = view_select(tr, GL_TRACE_SHARED, block, &v->n);
	if (!v->n) {
		view_banks_free(v);
		return gl_errf(err, GL_EUSAGE,
		               "the trace of %s %s has no shared-memory accesses%s: the banks view needs a variant "
		               "that uses shared memory",
		               tr->topic, tr->variant, block >= 0 ? " in that CTA" : "");
	}
	v->wf_prefix = gl_xcalloc(v->n + 1, sizeof *v->wf_prefix);
	v->conflict_prefix = gl_xcalloc(v->n + 1, sizeof *v->conflict_prefix);
	for (uint32_t i = 0; i < v->n; i++) {
		const struct gl_trace_event *e = &tr->ev[v->idx[i]];
		v->wf_prefix[i + 1] = v->wf_prefix[i] + e->cost;
		v->conflict_prefix[i + 1] = v->conflict_prefix[i] + view_shared_conflicts(e);
	}
	return GL_OK;
}

void view_banks_free(struct view_banks *v)
{
	free(v->idx);
	free(v->wf_prefix);
	free(v->conflict_prefix);
	memset(v, 0, sizeof *v);
}

static unsigned words_of(const struct gl_trace_event *e)
{
	return e->op == GL_TRACE_LDMATRIX ? 4 : e->bytes <= 4 ? 1 : e->bytes / 4u;
}

/* Place each word in its (wavefront, bank) cell; lanes sharing a word are counted there. */
static void fill_cells(const struct gl_trace_event *e, struct view_banks_frame *f)
{
	uint32_t cell_word[32][32];
	memset(f->cell_lane, -1, sizeof f->cell_lane);
	unsigned nwords = words_of(e);
	for (int l = 0; l < 32; l++) {
		f->lane_bank[l] = f->lane_wf[l] = -1;
		for (unsigned k = 0; k < nwords && k < 4; k++) {
			int w = f->wf[l][k];
			if (w < 0 || w >= 32)
				continue;
			uint32_t word = (uint32_t)(e->addrs[l] / 4) + k;
			int bank = (int)(word % 32);
			if (k == 0)
				f->lane_bank[l] = bank;
			if (w > f->lane_wf[l])
				f->lane_wf[l] = w;
			if (f->cell_lane[w][bank] < 0) {
				f->cell_lane[w][bank] = (int8_t)l;
				cell_word[w][bank] = word;
			}
			if (cell_word[w][bank] == word)
				f->cell_lanes[w][bank]++;
		}
	}
}

static void worst_bank(struct view_banks_frame *f)
{
	for (int b = 0; b < 32; b++) {
		unsigned words = 0;
		for (int w = 0; w < 32; w++)
			words += f->cell_lane[w][b] >= 0;
		if (words > f->worst_words) {
			f->worst_words = words;
			f->worst_bank = b;
		}
	}
}

void view_banks_frame(const struct view_banks *v, int step, struct view_banks_frame *f)
{
	memset(f, 0, sizeof *f);
	if (step < 0)
		step = 0;
	if (step >= (int)v->n)
		step = (int)v->n - 1;
	const struct gl_trace_event *e = &v->tr->ev[v->idx[step]];
	f->e = e;
	f->step = step;
	f->nsteps = (int)v->n;
	uint32_t a32[32];
	for (int l = 0; l < 32; l++)
		a32[l] = (uint32_t)e->addrs[l];
	if (e->op == GL_TRACE_LDMATRIX)
		f->wavefronts = gl_mm_ldmatrix_word_wavefronts(a32, (unsigned)__builtin_popcount(e->mask) / 8, f->wf);
	else
		f->wavefronts = gl_mm_shared_word_wavefronts(a32, e->mask, e->bytes, f->wf);
	f->ideal = view_shared_ideal(e);
	f->conflicts = view_shared_conflicts(e);
	fill_cells(e, f);
	worst_bank(f);
	f->inst_so_far = (uint64_t)step + 1;
	f->wf_so_far = v->wf_prefix[step + 1];
	f->conflicts_so_far = v->conflict_prefix[step + 1];
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t m = e->mask; m; m &= m - 1) {
		uint64_t a = e->addrs[__builtin_ctz(m)];
		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
	}
	view_locate(v->tr, e, lo, &f->lo);
	view_locate(v->tr, e, hi, &f->hi);
}
