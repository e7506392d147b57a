/* sim_race.c — races on global memory within a CTA: two warps touching the same bytes between two
 * barriers, at least one of them writing.  A per-worker open-addressing table keyed by 4-byte word
 * holds who wrote and read which bytes in the current barrier interval.  Entries are stamped with the
 * table's interval number, which moves on with every new CTA generation or barrier interval (epoch):
 * an entry of any other interval is a free slot, so a barrier or a new CTA empties the table at once
 * without clearing it, and the table only ever holds the words of one interval (a tiled kernel's tile,
 * not everything its CTA touched).  An entry takes 16 bytes and the table grows when it would be more
 * than three quarters full (linear probing stays short at that load with a multiplicative hash).  Every live entry was
 * inserted in the current interval, when the entries its probe sequence passed were live too, so the
 * linear-probing chains stay intact when older entries all become free together.
 *
 * Reads are held back: until an interval records its first store, a read can race with nothing (reads
 * race only with writes), so a warp's read goes into a list instead of the table, and the list is put
 * into the table, in order, when the first store comes.  An interval that only reads, as a tiled kernel's
 * loads of its next tile do, ends with the list dropped and the table untouched.  When the list fills,
 * it goes into the table and the rest of the interval records its reads at once: an interval that
 * reads that much (a naive GEMM's CTA, which has no barrier, at every k) is seldom one that ends
 * without a store, and holding back would only delay the same work.
 * Results, entries and findings are those of recording every access at once (test_sim_race).
 *
 * Stores are held back too, in one case: a full warp's store of 32 consecutive words (a row of a tile)
 * into an interval that has recorded nothing else.  Such a run can race only with another warp's access
 * of its words, so while every access of the interval is a run and no two runs share a word, none races
 * and none needs an entry: the runs are kept as their first words in a short list, and an interval of
 * runs alone (a transpose's stores of its tile) ends with the list dropped.  Anything else (a read, a
 * store of another shape, a run that shares a word with one held, a full list) first puts the runs into
 * the table in order, as if each had been recorded when made, so what it finds is what it would have.
 *
 * Read groups: the warps of a CTA often read the same words (the rows of A in a naive GEMM: all 32
 * warps, at every k).  After a read, a word's entry holds the last warp that read it; a later read of the
 * same words by another warp, with no write to any of them in between, only makes that warp their last
 * reader.  So a full warp's read of whole words that no warp wrote in this interval becomes a group: its
 * entries name the group as their reader (RACE_GROUP), and the group holds the warp.  The caller names
 * the address set by a key (the shape it keeps per instruction, and the start), and a read with the key
 * of an intact group only changes the group's warp: one store instead of 32 probes.  Any other access to
 * a word of the group (a write, a read of other words or shapes) first gives the entry its reader back
 * and breaks the group, so from then on the words are recorded one by one again.  Groups last one
 * interval. */
#include "sim_race.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "memmodel.h"

struct race_entry {
	uint64_t word;     /* address / 4 */
	uint16_t stamp;    /* the interval (sim_race.stamp) it was recorded in */
	uint16_t group;    /* with reader RACE_GROUP: the read group whose warp is the reader */
	uint8_t writer, reader; /* warp + 1 (a CTA has at most 32 warps), or RACE_GROUP */
	uint8_t wbytes, rbytes; /* byte masks within the word, this interval */
};
#define RACE_GROUP 0xff

/* A read group (see the file comment): the address set's key, its last reader, and whether every entry
 * of the set still names it. */
struct race_group {
	struct sim_race_key key;
	uint8_t reader;
	bool intact;
};
#define RACE_GROUPS_MAX 16384 /* per interval; later reads are recorded word by word */
#define RACE_GINDEX 16384     /* groups found by key through an index of this many slots */
#define RACE_GPROBE 4         /* slots an index lookup tries from the key's own */

/* One warp-level read held back. */
struct race_read {
	uint64_t addr[32];
	struct sim_race_key key;
	uint32_t mask;
	uint8_t warp, n;
};
#define RACE_READS_MAX 256 /* held back at most (68 KiB); more put the list into the table first */

static unsigned slot_of(uint64_t word, unsigned cap)
{
	return (unsigned)((word * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* The live entry of `word`, or the free slot where it would go (*fresh).  An entry of this interval is
 * live; anything else is free (see the file comment).  Inline: the warp loop of sim_race_warp probes
 * once per lane. */
static inline struct race_entry *find(const struct sim_race *t, uint64_t word, bool *fresh)
{
	for (unsigned i = slot_of(word, t->cap);; i = (i + 1) & (t->cap - 1)) {
		struct race_entry *e = &t->entries[i];
		if ((*fresh = e->stamp != t->stamp) || e->word == word)
			return e;
	}
}

static void grow(struct sim_race *t)
{
	struct race_entry *old = t->entries;
	unsigned old_cap = t->cap;
	t->cap = old_cap ? 2 * old_cap : 4096;
	t->entries = gl_xcalloc(t->cap, sizeof *t->entries);
	t->used = 0;
	bool fresh;
	for (unsigned i = 0; i < old_cap; i++)
		if (old[i].stamp == t->stamp) {
			*find(t, old[i].word, &fresh) = old[i];
			t->used++;
		}
	free(old);
}

/* Entries of older intervals become free slots.  Stamp 0 is never current, so the zeroed slots of a
 * new table are free; when the counter wraps, every slot is cleared once instead. */
static void next_interval(struct sim_race *t)
{
	t->used = 0;
	t->ngroups = 0;
	t->nruns = 0; /* the runs held back: they raced with nothing */
	if (++t->stamp == 0) {
		if (t->entries)
			memset(t->entries, 0, (size_t)t->cap * sizeof *t->entries);
		t->stamp = 1;
	}
}

void sim_race_free(struct sim_race *t)
{
	free(t->entries);
	free(t->reads);
	free(t->groups);
	free(t->gindex);
	t->entries = NULL;
	t->reads = NULL;
	t->groups = NULL;
	t->gindex = NULL;
	t->gcap = t->ngroups = 0;
	t->cap = t->used = t->nreads = 0;
}

void sim_race_new_cta(struct sim_race *t)
{
	t->used = 0;
	t->gen = t->epoch = 0;
	t->wrote = t->direct = false;
	t->nreads = 0;
	next_interval(t);
}

static inline void enter_interval(struct sim_race *t, uint32_t gen, uint32_t epoch)
{
	if (gen != t->gen || epoch != t->epoch || !t->stamp) { /* a new interval: every entry is free */
		t->gen = gen;
		t->epoch = epoch;
		t->wrote = t->direct = false;
		t->nreads = 0; /* the last interval's reads held back: it had no store they could race with */
		next_interval(t);
	}
}

/* Record an access to `bytes` of the word in entry `e`; returns the warp (+1) it races with, or 0. */
static inline unsigned entry_access(struct race_entry *e, uint8_t bytes, unsigned me, bool is_store)
{
	unsigned other = 0;
	if (e->writer && e->writer != me && (e->wbytes & bytes))
		other = e->writer;
	else if (is_store && e->reader && e->reader != me && (e->rbytes & bytes))
		other = e->reader;
	if (is_store) {
		e->writer = (uint8_t)me;
		e->wbytes |= bytes;
	} else {
		e->reader = (uint8_t)me;
		e->rbytes |= bytes;
	}
	return other;
}

/* Give an entry of a read group its reader back, and break the group (see the file comment). */
static void ungroup(struct sim_race *t, struct race_entry *e)
{
	struct race_group *g = &t->groups[e->group];
	e->reader = g->reader;
	e->group = 0;
	g->intact = false;
}

/* An access to a word found by find(): a fresh slot becomes the word's entry with this access in one
 * store (nothing to race with yet), without reading back the fields it was just given. */
static inline unsigned record(struct sim_race *t, struct race_entry *e, bool fresh, uint64_t word, uint8_t bytes,
			      unsigned me, bool is_store)
{
	if (!fresh) {
		if (e->reader == RACE_GROUP)
			ungroup(t, e);
		return entry_access(e, bytes, me, is_store);
	}
	*e = (struct race_entry){.word = word, .stamp = t->stamp, .writer = (uint8_t)(is_store ? me : 0),
				 .reader = (uint8_t)(is_store ? 0 : me), .wbytes = is_store ? bytes : 0,
				 .rbytes = is_store ? 0 : bytes};
	t->used++;
	return 0;
}

/* Record an access to `bytes` (a mask) of one word; returns the warp (+1) it races with, or 0. */
static inline unsigned word_access(struct sim_race *t, uint64_t word, uint8_t bytes, unsigned me, bool is_store)
{
	bool room = 4 * (uint64_t)(t->used + 1) <= 3 * (uint64_t)t->cap; /* at most 3/4 full */
	if (!room && t->cap < SIM_RACE_MAX_ENTRIES) {
		grow(t);
		room = true;
	}
	bool fresh;
	struct race_entry *e = find(t, word, &fresh);
	if (fresh && !room) /* the table is at its size limit: this word goes unchecked */
		return 0;
	return record(t, e, fresh, word, bytes, me, is_store);
}

/* Whole aligned words, one per lane, and room for all of them: each word adds at most one entry, so
 * word_access would neither grow the table nor drop a word, and the room check is made once for the
 * warp instead of once per lane.  Same entries, same races, same lane order (test_sim_race). */
static inline bool words_fit(const struct sim_race *t, const uint64_t addr[32], uint32_t mask, unsigned n,
		      const struct sim_race_key *key)
{
	if (n != 4 || !t->entries)
		return false;
	if (key && key->shape && mask == 0xffffffffu) /* the caller's key says: whole aligned words */
		return 4 * ((uint64_t)t->used + 32) <= 3 * (uint64_t)t->cap;
	uint64_t bits = 0;
	unsigned lanes = 32;
	if (mask == 0xffffffffu) { /* a full warp: a plain loop */
		for (int l = 0; l < 32; l++)
			bits |= addr[l];
	} else {
		for (uint32_t m = mask; m; m &= m - 1)
			bits |= addr[__builtin_ctz(m)];
		lanes = (unsigned)__builtin_popcount(mask);
	}
	return !(bits & 3) && 4 * ((uint64_t)t->used + lanes) <= 3 * (uint64_t)t->cap;
}

static unsigned lane_access(struct sim_race *t, unsigned me, uint64_t addr, unsigned n, bool is_store)
{
	unsigned other = 0;
	for (uint64_t a = addr; a < addr + n;) {
		unsigned first = (unsigned)(a % 4), count = (unsigned)(addr + n - a);
		if (count > 4 - first)
			count = 4 - first;
		unsigned r = word_access(t, a / 4, (uint8_t)(((1u << count) - 1) << first), me, is_store);
		other = r ? r : other; /* a multi-word access reports its last racing word */
		a += count;
	}
	return other;
}

/* The index slot of `key` (RACE_GINDEX is 2^14).  The index is never cleared: a slot names a group of this
 * interval only while its number is at most ngroups, and then only the group's own key says whose it is.
 * A key's group sits in one of RACE_GPROBE slots from this one, or in none (when they were all taken,
 * or it was written over): a group not found only costs a read word by word, which breaks and makes
 * the group again, so the index need not hold every group.  Linear probing, not one slot per key: the
 * 256 address sets of a naive GEMM's CTA collide in a direct-mapped index, and every warp made the
 * colliding groups again. */
static inline unsigned gslot(const struct sim_race_key *key)
{
	return (unsigned)((key->shape * 0x9E3779B97F4A7C15ull ^ key->base * 0xC2B2AE3D27D4EB4Full) >> 50);
}

static inline bool same_key(const struct race_group *g, const struct sim_race_key *key)
{
	return g->key.shape == key->shape && g->key.base == key->base;
}

/* The intact group of `key` in this interval, or NULL. */
static inline struct race_group *group_of(const struct sim_race *t, const struct sim_race_key *key)
{
	if (!t->gindex || !key->shape)
		return NULL;
	unsigned home = gslot(key);
	for (unsigned i = 0; i < RACE_GPROBE; i++) {
		unsigned id = t->gindex[(home + i) & (RACE_GINDEX - 1)];
		if (!id || id > t->ngroups) /* a free slot ends the probe */
			return NULL;
		if (same_key(&t->groups[id], key))
			return t->groups[id].intact ? &t->groups[id] : NULL;
	}
	return NULL;
}

/* The slot a new group of `key` takes: the first of its probe that is free or holds an older group of the
 * same key, else its own slot (the group there can no longer be found: see gslot). */
static unsigned gslot_free(const struct sim_race *t, const struct sim_race_key *key)
{
	unsigned home = gslot(key);
	for (unsigned i = 0; i < RACE_GPROBE; i++) {
		unsigned s = (home + i) & (RACE_GINDEX - 1), id = t->gindex[s];
		if (!id || id > t->ngroups || same_key(&t->groups[id], key))
			return s;
	}
	return home;
}

/* Make the n entries a read of `key` by warp me just recorded (none written in this interval) a group. */
static void group_make(struct sim_race *t, const struct sim_race_key *key, unsigned me, struct race_entry *const *ents,
		       unsigned n)
{
	if (t->ngroups + 1 >= RACE_GROUPS_MAX)
		return;
	if (t->ngroups + 1 >= t->gcap) {
		t->gcap = t->gcap ? 2 * t->gcap : 256;
		t->groups = gl_xrealloc(t->groups, t->gcap * sizeof *t->groups);
	}
	if (!t->gindex)
		t->gindex = gl_xcalloc(RACE_GINDEX, sizeof *t->gindex);
	unsigned slot = gslot_free(t, key), id = ++t->ngroups;
	t->groups[id] = (struct race_group){.key = *key, .reader = (uint8_t)me, .intact = true};
	t->gindex[slot] = (uint16_t)id;
	for (unsigned i = 0; i < n; i++) {
		ents[i]->reader = RACE_GROUP;
		ents[i]->group = (uint16_t)id;
	}
}

/* Whole aligned words, one per lane, with room (words_fit): each lane's entry in lane order, a load of
 * the word the lane before loaded taking that lane's answer (a store changes the writer, so each
 * counts).  A full warp's read of words no warp wrote in this interval becomes the read group of `key`
 * (see the file comment). */
static uint32_t words_access(struct sim_race *t, unsigned me, const uint64_t addr[32], uint32_t mask, bool is_store,
			     const struct sim_race_key *key, uint8_t other[32])
{
	struct race_entry *ents[32];
	unsigned nents = 0;
	bool unwritten = true;
	uint32_t racing = 0;
	uint64_t prev = UINT64_MAX;
	unsigned r = 0;
	memset(other, 0, 32);
	if (!is_store && key && key->same && mask == 0xffffffffu) { /* a broadcast read: one word, one answer */
		bool fresh;
		struct race_entry *e = find(t, addr[0] / 4, &fresh);
		r = record(t, e, fresh, addr[0] / 4, 0xf, me, is_store);
		memset(other, (int)r, 32);
		return r ? 0xffffffffu : 0;
	}
	for (unsigned l = 0; l < 32; l++) {
		if (!(mask >> l & 1))
			continue;
		if (is_store || addr[l] != prev) {
			bool fresh;
			struct race_entry *e = find(t, addr[l] / 4, &fresh);
			r = record(t, e, fresh, addr[l] / 4, 0xf, me, is_store);
			unwritten &= e->writer == 0;
			ents[nents++] = e;
			prev = addr[l];
		}
		if (r) { /* seldom: most accesses race with nothing */
			other[l] = (uint8_t)r;
			racing |= 1u << l;
		}
	}
	if (!is_store && key && key->shape && mask == 0xffffffffu && unwritten)
		group_make(t, key, me, ents, nents);
	return racing;
}

/* Record a warp's access now (the lanes in order): sim_race_warp after the holding back. */
static inline __attribute__((always_inline)) uint32_t warp_access(struct sim_race *t, unsigned warp, const uint64_t addr[32], uint32_t mask, unsigned n,
			    bool is_store, const struct sim_race_key *key, uint8_t other[32])
{
	unsigned me = warp + 1;
	uint32_t racing = 0;
	if (words_fit(t, addr, mask, n, key)) {
		struct race_group *g = is_store || !key || mask != 0xffffffffu ? NULL : group_of(t, key);
		if (g) { /* the same words read again, none written since: only the last reader changes */
			g->reader = (uint8_t)me;
			t->grouped++;
			memset(other, 0, 32);
			return 0;
		}
		return words_access(t, me, addr, mask, is_store, key, other);
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		unsigned r = n == 4 && !(addr[l] & 3) ? word_access(t, addr[l] / 4, 0xf, me, is_store)
						      : lane_access(t, me, addr[l], n, is_store);
		other[l] = (uint8_t)r;
		racing |= (uint32_t)(r != 0) << l;
	}
	return racing;
}

/* Put the runs held back into the table, in order: the entries their stores would have made then. */
static void settle_runs(struct sim_race *t)
{
	unsigned n = t->nruns;
	t->nruns = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t addr[32];
		uint8_t other[32];
		for (unsigned l = 0; l < 32; l++)
			addr[l] = (t->run_first[i] + l) * 4;
		warp_access(t, t->run_warp[i], addr, 0xffffffffu, 4, true, NULL, other);
	}
}

/* Hold a warp's store back as a run (see the file comment); false when it must be recorded now. */
static bool hold_run(struct sim_race *t, unsigned warp, const uint64_t addr[32], uint32_t mask, unsigned n)
{
	if (n != 4 || t->used || t->nreads || t->nruns == SIM_RACE_RUNS || (addr[0] & 3) ||
	    !gl_mm_unit_stride(addr, mask, 4))
		return false;
	uint64_t first = addr[0] / 4;
	for (unsigned i = 0; i < t->nruns; i++)
		if (first - t->run_first[i] + 31 < 63) /* within 31 words of a run held: they share one */
			return false;
	t->run_first[t->nruns] = first;
	t->run_warp[t->nruns++] = (uint8_t)warp;
	t->wrote = true;
	t->held_runs++;
	return true;
}

void sim_race_settle(struct sim_race *t)
{
	settle_runs(t);
	unsigned n = t->nreads;
	t->nreads = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct race_read *r = &t->reads[i];
		uint8_t other[32];
		warp_access(t, r->warp, r->addr, r->mask, r->n, false, &r->key, other);
	}
}

/* Hold a warp's read back (see the file comment); false when it must be recorded now. */
static bool hold_read(struct sim_race *t, unsigned warp, const uint64_t addr[32], uint32_t mask, unsigned n,
		      const struct sim_race_key *key)
{
	if (t->wrote || t->direct || n > UINT8_MAX)
		return false;
	if (!t->reads)
		t->reads = gl_xcalloc(RACE_READS_MAX, sizeof *t->reads);
	if (t->nreads == RACE_READS_MAX) { /* an interval that reads this much: holding back does not pay */
		sim_race_settle(t);
		t->direct = true;
		return false;
	}
	struct race_read *r = &t->reads[t->nreads++];
	memcpy(r->addr, addr, sizeof r->addr);
	r->key = key ? *key : (struct sim_race_key){0, 0, false};
	r->mask = mask;
	r->warp = (uint8_t)warp;
	r->n = (uint8_t)n;
	return true;
}

/* Before recording an access now: the runs and reads held back go first, and a store ends the holding
 * back of reads. */
static void record_now(struct sim_race *t, bool is_store)
{
	if (t->nreads || t->nruns)
		sim_race_settle(t);
	t->wrote |= is_store;
}

/* Record one lane's access; returns the other warp (+1) it races with, or 0. */
unsigned sim_race_access(struct sim_race *t, uint32_t gen, uint32_t epoch, unsigned warp, uint64_t addr, unsigned n,
			 bool is_store)
{
	enter_interval(t, gen, epoch);
	record_now(t, is_store);
	return lane_access(t, warp + 1, addr, n, is_store);
}

/* A broadcast read of `word` by warp me: a fresh word's entry is written whole (nothing to race with). */
static inline unsigned broadcast_read(struct sim_race *t, uint64_t word, unsigned me)
{
	bool fresh;
	struct race_entry *e = find(t, word, &fresh);
	if (fresh) {
		*e = (struct race_entry){.word = word, .stamp = t->stamp, .reader = (uint8_t)me, .rbytes = 0xf};
		t->used++;
		return 0;
	}
	return record(t, e, false, word, 0xf, me, false);
}

uint32_t sim_race_warp_keyed(struct sim_race *t, uint32_t gen, uint32_t epoch, unsigned warp, const uint64_t addr[32],
			     uint32_t mask, unsigned n, bool is_store, const struct sim_race_key *key,
			     uint8_t other[32])
{
	enter_interval(t, gen, epoch);
	if (is_store ? hold_run(t, warp, addr, mask, n) : hold_read(t, warp, addr, mask, n, key)) {
		memset(other, 0, 32);
		return 0;
	}
	record_now(t, is_store);
	return warp_access(t, warp, addr, mask, n, is_store, key, other);
}

/* sim_race_words when its short ways do not apply: sim_race_warp_keyed (out of line, so that the short ways
 * keep a small frame). */
static __attribute__((noinline)) uint32_t words_general(struct sim_race *t, uint32_t gen, uint32_t epoch,
							unsigned warp, const uint64_t addr[32], bool is_store,
							const struct sim_race_key *key, uint8_t other[32])
{
	return sim_race_warp_keyed(t, gen, epoch, warp, addr, 0xffffffffu, 4, is_store, key, other);
}

/* The short ways apply to a read in this interval (so enter_interval has nothing to do), once reads are no
 * longer held back (a store came, or the list filled once: hold_read refuses it, and nothing is held), with
 * no store runs held back (they would have to go in first), and with room for all 32 words (words_fit): a
 * broadcast is one word's entry, the address set of an intact group only changes the group's reader.  The
 * same entries and results as warp_access. */
uint32_t sim_race_words(struct sim_race *t, uint32_t gen, uint32_t epoch, unsigned warp, const uint64_t addr[32],
			bool is_store, const struct sim_race_key *key, uint8_t other[32])
{
	if (is_store || !(t->wrote || t->direct) || t->nruns || gen != t->gen || epoch != t->epoch || !t->stamp ||
	    !t->entries || 4 * ((uint64_t)t->used + 32) > 3 * (uint64_t)t->cap)
		return words_general(t, gen, epoch, warp, addr, is_store, key, other);
	if (key->same) {
		unsigned r = broadcast_read(t, addr[0] / 4, warp + 1);
		memset(other, (int)r, 32);
		return r ? 0xffffffffu : 0;
	}
	struct race_group *g = group_of(t, key);
	if (!g)
		return words_general(t, gen, epoch, warp, addr, is_store, key, other);
	g->reader = (uint8_t)(warp + 1);
	t->grouped++;
	memset(other, 0, 32);
	return 0;
}

uint32_t sim_race_warp(struct sim_race *t, uint32_t gen, uint32_t epoch, unsigned warp, const uint64_t addr[32],
		       uint32_t mask, unsigned n, bool is_store, uint8_t other[32])
{
	return sim_race_warp_keyed(t, gen, epoch, warp, addr, mask, n, is_store, NULL, other);
}
