/* sim_race.h — the global-memory race table of one worker (see sim_race.c). */
#ifndef GL_SIM_RACE_H
#define GL_SIM_RACE_H

#include <stdbool.h>
#include <stdint.h>

struct race_entry;
struct race_read;
struct race_group;

/* Names the address set of a full warp's access of whole aligned words, for read groups (sim_race.c):
 * equal keys, equal addresses (shape 0: no key); `same` says that every lane is at base (a broadcast). */
struct sim_race_key {
	uint64_t shape, base;
	bool same;
};

#define SIM_RACE_RUNS 64 /* stores held back as runs at most (sim_race.c) */

struct sim_race {
	struct race_entry *entries;
	unsigned cap, used;    /* slots, and entries live in the interval gen/epoch */
	uint32_t gen, epoch;   /* the CTA generation and barrier interval the live entries belong to */
	uint16_t stamp;        /* their interval number, stamped on each entry (sim_race.c) */
	bool wrote;            /* a store was recorded in this interval */
	bool direct;           /* the held-back reads filled their list once in this interval (sim_race.c) */
	struct race_read *reads; /* warp-level reads of this interval not in the table yet (sim_race.c) */
	unsigned nreads;
	struct race_group *groups; /* read groups of this interval, 1..ngroups (sim_race.c) */
	unsigned ngroups, gcap;
	uint16_t *gindex;      /* groups by key */
	uint64_t grouped;      /* reads that only changed a group's reader (for tests) */
	/* full warps' stores of 32 consecutive words held back (sim_race.c): the first word of each, its warp */
	uint64_t run_first[SIM_RACE_RUNS];
	uint8_t run_warp[SIM_RACE_RUNS];
	unsigned nruns;
	uint64_t held_runs;    /* stores held back as runs (for tests) */
};

/* The table holds the words of one barrier interval and stops growing at SIM_RACE_MAX_ENTRIES slots
 * (three quarters of them live): words an interval touches beyond that are not checked for races, so
 * its memory stays bounded. */
#define SIM_RACE_MAX_ENTRIES (1u << 24)

void sim_race_new_cta(struct sim_race *t);
unsigned sim_race_access(struct sim_race *t, uint32_t gen, uint32_t epoch, unsigned warp, uint64_t addr, unsigned n,
			 bool is_store);
/* The same for the lanes of one warp-level access, in lane order: other[l] is lane l's result (0 for
 * none); returns the mask of lanes that race.  Aligned 4-byte accesses take an inlined path. */
uint32_t sim_race_warp(struct sim_race *t, uint32_t gen, uint32_t epoch, unsigned warp, const uint64_t addr[32],
		       uint32_t mask, unsigned n, bool is_store, uint8_t other[32]);
/* Put the reads still held back into the table (sim_race.c), as if each had been recorded when made:
 * the table is then what recording every access at once would have made it. */
void sim_race_settle(struct sim_race *t);
/* sim_race_warp for a read whose address set `key` names (NULL: none), so that warps reading the same
 * words share one read group (sim_race.c): the same results, entries and findings. */
uint32_t sim_race_warp_keyed(struct sim_race *t, uint32_t gen, uint32_t epoch, unsigned warp, const uint64_t addr[32],
			     uint32_t mask, unsigned n, bool is_store, const struct sim_race_key *key,
			     uint8_t other[32]);
/* sim_race_warp_keyed for a full warp's access of whole aligned words (n 4) whose address set `key` names
 * (key->shape not 0): the hot loads' entry (sim_mem_hot.c), with a short way for a broadcast read and for
 * a read of an intact group once reads are no longer held back.  The same results and entries. */
uint32_t sim_race_words(struct sim_race *t, uint32_t gen, uint32_t epoch, unsigned warp, const uint64_t addr[32],
			bool is_store, const struct sim_race_key *key, uint8_t other[32]);
void sim_race_free(struct sim_race *t);

#endif
