/* sim_race.c — races on global memory within a CTA: two warps touching the same bytes between two
 * barriers, at least one of them writing.  A per-worker open-addressing table keyed by 4-byte word
 * holds who wrote and read which bytes in which barrier interval; entries are stamped with the CTA
 * generation, so a new CTA starts with an empty table without clearing it. */
#include "sim_race.h"

#include <stdlib.h>

#include "common/util.h"

struct race_entry {
	uint64_t word;     /* address / 4 */
	uint32_t gen, epoch;
	uint16_t writer, reader; /* warp + 1 */
	uint8_t wbytes, rbytes;  /* byte masks within the word, this epoch */
};

static unsigned slot_of(uint64_t word, unsigned cap)
{
	return (unsigned)((word * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* An entry of this generation is live; anything else is free (see the file comment). */
static struct race_entry *lookup(struct sim_race *t, uint64_t word, uint32_t gen, bool insert)
{
	for (unsigned i = slot_of(word, t->cap);; i = (i + 1) & (t->cap - 1)) {
		struct race_entry *e = &t->entries[i];
		if (e->gen != gen) {
			if (!insert)
				return NULL;
			*e = (struct race_entry){.word = word, .gen = gen};
			t->used++;
			return e;
		}
		if (e->word == word)
			return e;
	}
}

static void grow(struct sim_race *t, uint32_t gen)
{
	struct race_entry *old = t->entries;
	unsigned old_cap = t->cap;
	t->cap = old_cap ? 2 * old_cap : 4096;
	t->entries = gl_xcalloc(t->cap, sizeof *t->entries);
	t->used = 0;
	for (unsigned i = 0; i < old_cap; i++)
		if (old[i].gen == gen) {
			struct race_entry *e = lookup(t, old[i].word, gen, true);
			*e = old[i];
		}
	free(old);
}

void sim_race_free(struct sim_race *t)
{
	free(t->entries);
	t->entries = NULL;
	t->cap = t->used = 0;
}

void sim_race_new_cta(struct sim_race *t)
{
	t->used = 0; /* entries of older generations are free slots */
}

/* Record one lane's access; returns the other warp (+1) it races with, or 0. */
unsigned sim_race_access(struct sim_race *t, uint32_t gen, uint32_t epoch, unsigned warp, uint64_t addr, unsigned n,
			 bool is_store)
{
	unsigned me = warp + 1, other = 0;
	for (uint64_t a = addr; a < addr + n;) {
		bool room = 2 * (t->used + 1) <= t->cap;
		if (!room && t->cap < SIM_RACE_MAX_ENTRIES) {
			grow(t, gen);
			room = true;
		}
		uint64_t word = a / 4;
		unsigned first = (unsigned)(a % 4), count = (unsigned)(addr + n - a);
		if (count > 4 - first)
			count = 4 - first;
		uint8_t bytes = (uint8_t)(((1u << count) - 1) << first);
		struct race_entry *e = lookup(t, word, gen, room);
		if (!e) { /* the table is at its size limit: this word goes unchecked */
			a += count;
			continue;
		}
		if (e->epoch != epoch) { /* a barrier since: the interval starts clean */
			e->epoch = epoch;
			e->writer = e->reader = 0;
			e->wbytes = e->rbytes = 0;
		}
		if (e->writer && e->writer != me && (e->wbytes & bytes))
			other = e->writer;
		else if (is_store && e->reader && e->reader != me && (e->rbytes & bytes))
			other = e->reader;
		if (is_store) {
			e->writer = (uint16_t)me;
			e->wbytes |= bytes;
		} else {
			e->reader = (uint16_t)me;
			e->rbytes |= bytes;
		}
		a += count;
	}
	return other;
}
