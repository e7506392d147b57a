/* sim_async.c — cp.async groups per thread, for racecheck.  The simulator copies at issue, but on the
 * device the bytes land some time before the issuing thread's cp.async.wait_group/wait_all returns.
 * So a shared word written by a copy remembers the issuing thread and the copy's group; a read of it is
 * a race unless that group is complete: for the issuing thread, once its wait covered the group; for
 * every other thread, once a barrier followed that wait (PTX ISA, "Completion mechanisms for
 * asynchronous copy operations"). */
#include <stdlib.h>

#include "sim_trace.h"

/* Lazily allocated on a CTA's first cp.async, so kernels without cp.async pay nothing. */
static void async_begin(struct sim_cta *cta)
{
	struct sim_async *a = &cta->async;
	const struct sim_launch *L = cta->L;
	if (!a->words) {
		a->words = gl_xcalloc(L->shared_size / 4 + 1, sizeof *a->words);
		a->threads = gl_xcalloc(L->threads_per_cta, sizeof *a->threads);
	}
	if (a->gen != cta->gen) { /* the first cp.async of this CTA: every thread starts with no groups */
		memset(a->threads, 0, L->threads_per_cta * sizeof *a->threads);
		a->gen = cta->gen;
	}
}

void sim_async_free(struct sim_cta *cta)
{
	free(cta->async.words);
	free(cta->async.threads);
	memset(&cta->async, 0, sizeof cta->async);
}

void sim_async_copy(struct sim_cta *cta, const struct sim_warp *w, int lane, uint64_t dst, unsigned n)
{
	async_begin(cta);
	unsigned t = w->id * 32 + (unsigned)lane;
	uint32_t group = cta->async.threads[t].committed; /* the open group */
	for (uint64_t word = dst / 4; word <= (dst + n - 1) / 4; word++)
		cta->async.words[word] = (struct sim_async_word){cta->gen, group, t + 1};
}

void sim_async_copy_warp(struct sim_cta *cta, const struct sim_warp *w, uint32_t lanes, const uint64_t dst[32],
			 unsigned n)
{
	async_begin(cta);
	FOR_LANES(lanes, l) {
		unsigned t = w->id * 32 + l;
		struct sim_async_word e = {cta->gen, cta->async.threads[t].committed, t + 1}; /* the open group */
		for (uint64_t word = dst[l] / 4; word <= (dst[l] + n - 1) / 4; word++)
			cta->async.words[word] = e;
	}
}

void sim_async_commit(struct sim_cta *cta, const struct sim_warp *w, uint32_t mask)
{
	if (cta->async.gen != cta->gen)
		return; /* no cp.async yet in this CTA: empty groups change nothing */
	FOR_LANES(mask, l) cta->async.threads[w->id * 32 + l].committed++;
}

/* wait_group N: every group but the N most recent committed ones is complete; wait_all commits the
 * open group and waits for all. */
void sim_async_wait(struct sim_cta *cta, const struct sim_warp *w, uint32_t mask, bool all, uint64_t n)
{
	if (cta->async.gen != cta->gen)
		return;
	FOR_LANES(mask, l)
	{
		struct sim_async_thread *th = &cta->async.threads[w->id * 32 + l];
		if (all)
			th->committed++;
		uint32_t done = all ? th->committed : n >= th->committed ? 0 : th->committed - (uint32_t)n;
		if (th->wait_epoch != cta->epoch || !th->waited) { /* the first wait of this barrier interval */
			th->completed_before = th->completed;
			th->wait_epoch = cta->epoch;
			th->waited = true;
		}
		if (done > th->completed)
			th->completed = done;
	}
}

/* Groups of thread `th` that thread `reader` may rely on: all its completed ones for itself, for others
 * only those completed before the current barrier interval began. */
static uint32_t visible_groups(const struct sim_cta *cta, const struct sim_async_thread *th, bool self)
{
	if (self || !th->waited || th->wait_epoch != cta->epoch)
		return th->completed;
	return th->completed_before;
}

/* Is the copy that last wrote word entry e still in flight for thread `reader`?  Then *issuer is the copying
 * thread and *issuer_waited whether its own wait covered the copy.  A copy that landed and is visible to
 * every thread is forgotten (its entry's thread cleared), which changes no later answer. */
static inline bool word_in_flight(struct sim_cta *cta, struct sim_async_word *e, unsigned reader, unsigned *issuer,
				  bool *issuer_waited)
{
	if (e->gen != cta->gen || !e->thread)
		return false;
	const struct sim_async_thread *th = &cta->async.threads[e->thread - 1];
	if (e->group >= visible_groups(cta, th, e->thread - 1 == reader)) {
		*issuer = e->thread - 1;
		*issuer_waited = e->group < th->completed;
		return true;
	}
	if (e->group < visible_groups(cta, th, false))
		e->thread = 0; /* landed and visible to every thread: forget it */
	return false;
}

bool sim_async_in_flight(struct sim_cta *cta, const struct sim_warp *w, int lane, uint64_t addr, unsigned n,
                         unsigned *issuer, bool *issuer_waited)
{
	struct sim_async *a = &cta->async;
	if (a->gen != cta->gen)
		return false;
	unsigned reader = w->id * 32 + (unsigned)lane;
	for (uint64_t word = addr / 4; word <= (addr + n - 1) / 4; word++)
		if (word_in_flight(cta, &a->words[word], reader, issuer, issuer_waited))
			return true;
	return false;
}

/* sim_async_in_flight for words first..last of one lane.  A lane's words are mostly one copy's (one
 * entry, repeated): an entry equal to the word before's gets that word's answer, and is forgotten with
 * it, without the groups being looked at again. */
static inline bool lane_in_flight(struct sim_cta *cta, uint64_t first, uint64_t last, unsigned reader)
{
	struct sim_async_word *e = &cta->async.words[first], prev = {0};
	bool prev_forgotten = false;
	unsigned issuer;
	bool waited;
	if (last - first == 3 && !(e[0].thread | e[1].thread | e[2].thread | e[3].thread))
		return false; /* a 16-byte row without a copy to look at, the usual case, without the loop */
	for (uint64_t k = 0; k <= last - first; k++) {
		if (!e[k].thread) /* most words hold no copy, or one forgotten */
			continue;
		if (k && e[k].gen == prev.gen && e[k].group == prev.group && e[k].thread == prev.thread) {
			if (prev_forgotten)
				e[k].thread = 0;
			continue;
		}
		prev = e[k];
		if (word_in_flight(cta, &e[k], reader, &issuer, &waited))
			return true;
		prev_forgotten = prev.gen == cta->gen && !e[k].thread;
	}
	return false;
}

bool sim_async_warp_in_flight(struct sim_cta *cta, const struct sim_warp *w, uint32_t lanes, const uint64_t addr[32],
			      unsigned n)
{
	struct sim_async *a = &cta->async;
	if (a->gen != cta->gen)
		return false;
	FOR_LANES(lanes, l)
		if (lane_in_flight(cta, addr[l] / 4, (addr[l] + n - 1) / 4, w->id * 32 + l))
			return true;
	return false;
}
