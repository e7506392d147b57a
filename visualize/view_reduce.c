/* view_reduce.c — the reduce view's state: how a reduction brings the values of many lanes, warps and
 * blocks together, from the stored trace of each traced CTA (memory accesses, shuffles, barriers).
 *
 * The barriers cut a CTA's run into intervals (a warp's k-th barrier ends its interval k).  Within an
 * interval each warp's events fall into runs of one kind — global loads (of one buffer), shared-memory
 * accesses, shuffles with one lane pattern (a round of the butterfly), global writes and atomics — and
 * the n-th run of a kind in an interval is the same code in every warp.  One step is one such run over
 * all the warps that made it: a level of a shared-memory tree, a shuffle round, the block's atomic.  The
 * warps without it are idle there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/sim.h"
#include "view_states.h"

/* The kind of an event, as runs and steps tell them apart. */
static int kind_of(const struct gl_trace_event *e)
{
	if (e->space == GL_TRACE_WARP)
		return VR_SHFL;
	if (e->space == GL_TRACE_SHARED)
		return VR_SHARED;
	if (e->space == GL_TRACE_GLOBAL && (e->op == GL_TRACE_LD || e->op == GL_TRACE_CP_ASYNC))
		return VR_LOAD;
	return VR_WRITE; /* global stores and atomics, local memory */
}

/* Do two events of a warp belong to one run?  The same kind, and for loads the same buffer, for shuffles
 * the same lanes reading the same lanes (the next round of a butterfly reads other lanes). */
static bool same_run(const struct gl_trace_event *a, const struct gl_trace_event *b)
{
	int k = kind_of(a);
	if (k != kind_of(b))
		return false;
	if (k == VR_LOAD)
		return strcmp(a->buffer, b->buffer) == 0;
	if (k == VR_SHFL)
		return a->mask == b->mask && memcmp(a->addrs, b->addrs, sizeof a->addrs) == 0;
	return true;
}

/* The events of the shown CTAs, memory and sync merged in recorded order, CTA after CTA (both lists keep
 * each CTA's events in order of seq). */
static void merge(struct view_reduce *v, long block)
{
	const struct view_trace *tr = v->tr;
	v->ev = gl_xmalloc((size_t)(tr->n + tr->nsync + 1) * sizeof *v->ev);
	uint32_t i = 0, k = 0;
	while (i < tr->n || k < tr->nsync) {
		const struct gl_trace_event *a = i < tr->n ? &tr->ev[i] : NULL, *b = k < tr->nsync ? &tr->sync[k] : NULL;
		bool take_a = a && (!b || a->block < b->block || (a->block == b->block && a->seq < b->seq));
		const struct gl_trace_event *e = take_a ? a : b;
		take_a ? i++ : k++;
		if (e->mask && (block < 0 || e->block == (uint32_t)block))
			v->ev[v->nev++] = e;
	}
}

/* The step with this key, added at the end when it is new. */
static int step_for(struct view_reduce *v, uint32_t block, int interval, int kind, int run)
{
	for (int s = v->nsteps - 1; s >= 0; s--) {
		const struct view_reduce_step *st = &v->steps[s];
		if (st->block == block && st->interval == interval && st->kind == kind && st->run == run)
			return s;
		if (st->block != block)
			break;
	}
	v->steps = gl_xrealloc(v->steps, (size_t)(v->nsteps + 1) * sizeof *v->steps);
	v->steps[v->nsteps] = (struct view_reduce_step){.block = block, .interval = interval, .kind = kind, .run = run};
	return v->nsteps++;
}

/* What one event adds to its step: its warp's lanes, and what it cost against the ideal. */
static void add_event(struct view_reduce_step *st, const struct gl_trace_event *e, uint32_t at)
{
	if (!st->nev)
		st->first = at;
	st->nev++;
	if (e->warp < VIEW_REDUCE_WARPS)
		st->lanes[e->warp] |= e->mask;
	if (e->space == GL_TRACE_SHARED) {
		unsigned ideal = gl_mm_shared_ideal_wavefronts(e->mask, e->bytes);
		st->wavefronts += e->cost;
		st->ideal += ideal;
		st->conflicts += e->cost > ideal ? e->cost - ideal : 0;
	} else if (e->space == GL_TRACE_GLOBAL) {
		st->requests++;
		st->sectors += e->cost;
	}
}

/* Each warp's state while the events are walked: its interval, its current run and how many runs of
 * each kind it has begun in this interval. */
struct warp_walk {
	int interval, run;
	int runs[VR_KINDS];
	const struct gl_trace_event *last;
};

static void assign_steps(struct view_reduce *v)
{
	struct warp_walk w[VIEW_REDUCE_WARPS];
	uint32_t block = v->nev ? v->ev[0]->block : 0;
	memset(w, 0, sizeof w);
	v->step_of = gl_xmalloc((v->nev ? v->nev : 1) * sizeof *v->step_of);
	for (uint32_t i = 0; i < v->nev; i++) {
		const struct gl_trace_event *e = v->ev[i];
		if (e->block != block) { /* the next CTA starts afresh */
			memset(w, 0, sizeof w);
			block = e->block;
		}
		struct warp_walk *ww = &w[e->warp < VIEW_REDUCE_WARPS ? e->warp : VIEW_REDUCE_WARPS - 1];
		v->step_of[i] = -1;
		if (e->op == GL_TRACE_BAR) { /* the warp's interval ends here */
			ww->interval++;
			memset(ww->runs, 0, sizeof ww->runs);
			ww->last = NULL;
			continue;
		}
		int kind = kind_of(e);
		if (!ww->last || !same_run(ww->last, e))
			ww->run = ww->runs[kind]++;
		ww->last = e;
		int s = step_for(v, e->block, ww->interval, kind, ww->run);
		v->step_of[i] = s;
		add_event(&v->steps[s], e, i);
	}
}

/* Steps in the order their first events ran (each CTA's in a row, as merge() put them). */
static int by_first(const void *a, const void *b)
{
	const struct view_reduce_step *x = a, *y = b;
	return x->first < y->first ? -1 : x->first > y->first;
}

static void order_steps(struct view_reduce *v)
{
	for (int s = 0; s < v->nsteps; s++)
		v->steps[s].id = s;
	qsort(v->steps, (size_t)v->nsteps, sizeof *v->steps, by_first);
	int *now = gl_xmalloc((size_t)(v->nsteps ? v->nsteps : 1) * sizeof *now);
	for (int s = 0; s < v->nsteps; s++)
		now[v->steps[s].id] = s;
	for (uint32_t i = 0; i < v->nev; i++)
		v->step_of[i] = v->step_of[i] < 0 ? -1 : now[v->step_of[i]];
	free(now);
}

int view_reduce_build(const struct view_trace *tr, long block, struct view_reduce *v, struct gl_err *err)
{
	memset(v, 0, sizeof *v);
	v->tr = tr;
	unsigned threads = tr->block[0] * (tr->block[1] ? tr->block[1] : 1) * (tr->block[2] ? tr->block[2] : 1);
	v->nwarps = (int)((threads + 31) / 32);
	if (v->nwarps > VIEW_REDUCE_WARPS)
		return gl_errf(err, GL_EUSAGE, "the reduce view shows CTAs of at most %d warps; this launch's have %d",
			       VIEW_REDUCE_WARPS, v->nwarps);
	merge(v, block);
	if (!v->nev) {
		view_reduce_free(v);
		return gl_errf(err, GL_EUSAGE, "the trace of %s %s has no events%s (traces keep the first %d CTAs)",
			       tr->topic, tr->variant, block >= 0 ? " of that CTA" : "", GL_SIM_TRACE_CTAS);
	}
	assign_steps(v);
	order_steps(v);
	return GL_OK;
}

void view_reduce_free(struct view_reduce *v)
{
	free(v->ev);
	free(v->step_of);
	free(v->steps);
	memset(v, 0, sizeof *v);
}

int view_reduce_idle_warps(const struct view_reduce *v, int step)
{
	int idle = 0;
	for (int w = 0; w < v->nwarps; w++)
		idle += !v->steps[step].lanes[w];
	return idle;
}

/* The rounds of shuffles of a step's interval, in order: the steps with the same CTA and interval. */
static int shuffle_rounds(const struct view_reduce *v, int step, int *rounds)
{
	const struct view_reduce_step *st = &v->steps[step];
	int n = 0;
	for (int s = 0; s < v->nsteps; s++) {
		const struct view_reduce_step *o = &v->steps[s];
		if (o->block == st->block && o->interval == st->interval && o->kind == VR_SHFL)
			rounds[n++] = s;
	}
	return n;
}

/* Lanes whose value after round `from` of `rounds` still reaches lane 0 once the last has run: lane 0,
 * then, going back a round at a time, every lane a needed lane read (each lane adds what it reads to its
 * own value, as a reduction does). */
static uint32_t carried(const struct view_reduce *v, const int *rounds, int n, int from)
{
	uint32_t need = 1;
	for (int r = n - 1; r > from; r--) {
		const struct gl_trace_event *e = v->ev[v->steps[rounds[r]].first];
		uint32_t more = need;
		for (int l = 0; l < 32; l++)
			if (need >> l & 1 && e->mask >> l & 1 && e->addrs[l] < 32)
				more |= 1u << e->addrs[l];
		need = more;
	}
	return need;
}

/* The buffer or shared array an event addresses: as recorded, else from the launch's buffer map (a
 * module-scope .shared array has no name in the trace). */
static const char *buffer_name(const struct view_trace *tr, const struct gl_trace_event *e)
{
	struct view_loc loc;
	if (e->buffer[0])
		return e->buffer;
	if (view_locate(tr, e, e->addrs[__builtin_ctz(e->mask)], &loc))
		return loc.buf->name;
	return e->space == GL_TRACE_SHARED ? "a shared array" : "global memory";
}

/* Did the grid write `buffer` before step `step` (a block's partial result that a later stage reads)? */
static bool written_before(const struct view_reduce *v, int step, const char *buffer)
{
	for (uint32_t i = 0; i < v->nev && buffer[0]; i++) {
		int s = v->step_of[i];
		if (s >= 0 && s < step && v->steps[s].kind == VR_WRITE && strcmp(v->ev[i]->buffer, buffer) == 0)
			return true;
	}
	return false;
}

/* Note a buffer the step touches, once ("ssum, skey"). */
static void name_array(struct view_reduce_frame *f, const char *name)
{
	size_t len = strlen(f->arrays), n = strlen(name);
	for (const char *p = f->arrays; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] ? 2 : 0))
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return;
	if (len + strlen(name) + 3 < sizeof f->arrays)
		snprintf(f->arrays + len, sizeof f->arrays - len, "%s%s", len ? ", " : "", name);
}

void view_reduce_frame(const struct view_reduce *v, int step, struct view_reduce_frame *f)
{
	memset(f, 0, sizeof *f);
	step = step < 0 ? 0 : step >= v->nsteps ? v->nsteps - 1 : step;
	f->step = step;
	f->st = &v->steps[step];
	f->e = v->ev[f->st->first];
	f->idle = view_reduce_idle_warps(v, step);
	for (uint32_t i = 0; i < v->nev; i++) {
		const struct gl_trace_event *e = v->ev[i];
		int s = v->step_of[i];
		if (s < 0 || e->block != f->st->block || s > step)
			continue;
		if (s == step) {
			f->loads += e->op == GL_TRACE_LD || e->op == GL_TRACE_LDMATRIX || e->op == GL_TRACE_CP_ASYNC;
			f->stores += e->op == GL_TRACE_ST;
			f->atomics += e->op == GL_TRACE_ATOM;
			name_array(f, buffer_name(v->tr, e));
		}
		if (e->space == GL_TRACE_SHARED) {
			unsigned ideal = gl_mm_shared_ideal_wavefronts(e->mask, e->bytes);
			f->wf_so_far += e->cost;
			f->conf_so_far += e->cost > ideal ? e->cost - ideal : 0;
		} else if (e->space == GL_TRACE_GLOBAL) {
			f->sectors_so_far += e->cost;
		} else if (e->space == GL_TRACE_WARP) {
			f->shuffles_so_far++;
		}
	}
	f->from_grid = f->st->kind == VR_LOAD && written_before(v, step, f->e->buffer);
	if (f->st->kind != VR_SHFL)
		return;
	int *rounds = gl_xmalloc((size_t)v->nsteps * sizeof *rounds);
	f->rounds = shuffle_rounds(v, step, rounds);
	for (int r = 0; r < f->rounds; r++)
		if (rounds[r] == step)
			f->round = r;
	f->carry = carried(v, rounds, f->rounds, f->round);
	free(rounds);
}
