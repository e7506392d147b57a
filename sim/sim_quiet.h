/* sim_quiet.h — the quiet reads of shared memory (see below), inline: the hot forms of sim_mem_hot.c make
 * one per warp-level shared load, and the bitmaps they test and set are also kept by sim_trace.c. */
#ifndef GL_SIM_QUIET_H
#define GL_SIM_QUIET_H

#include <string.h>

#include "sim_internal.h"

/* ---- quiet reads
 * Tiled kernels read shared memory far more than they write it between two barriers.  While an
 * interval has seen no write at all (quiet_interval), a plain read of a whole, initialised word can
 * find nothing: no write to race with, no uninitialised byte.  All it could leave is its reader, for a
 * later write of the interval to race with; that goes into the reading warp's bitmap (a few hundred
 * bytes that stay in cache) instead of the word's entry (16 bytes in a table as large as shared memory
 * four times over).  Every read path follows this rule, so they all leave the same state. */

/* Bit i of a bitmap of uint64_t words. */
static inline bool bit_of(const uint64_t *map, uint64_t i)
{
	return map[i / 64] >> (i % 64) & 1;
}

static inline void bit_set(uint64_t *map, uint64_t i)
{
	map[i / 64] |= 1ull << (i % 64);
}

/* quiet.full, the words whose `init` is 0xf, for this CTA generation (cleared on its first use). */
static inline uint64_t *full_bits(struct sim_cta *cta)
{
	if (cta->quiet.full_gen != cta->gen) {
		memset(cta->quiet.full, 0, SIM_QUIET_ROWS(cta->L) * sizeof *cta->quiet.full);
		cta->quiet.full_gen = cta->gen;
	}
	return cta->quiet.full;
}

/* A write (plain, strong or atomic): the interval is no longer quiet (nor ready, below). */
static inline void note_write(struct sim_cta *cta)
{
	cta->quiet.wrote_gen = cta->gen;
	cta->quiet.wrote_epoch = cta->epoch;
	cta->quiet.ready_gen = 0;
}

static inline bool quiet_interval(const struct sim_cta *cta)
{
	return cta->quiet.wrote_gen != cta->gen || cta->quiet.wrote_epoch != cta->epoch;
}

/* Are the read bitmaps those of the current interval? */
static inline bool reads_current(const struct sim_cta *cta)
{
	return cta->quiet.reads_gen == cta->gen && cta->quiet.reads_epoch == cta->epoch;
}

void sim_quiet_new_reads(struct sim_cta *cta);

/* Warp me - 1's read bitmap for the current interval, emptying the bitmaps of an older one first. */
static inline uint64_t *reads_row(struct sim_cta *cta, uint16_t me)
{
	struct sim_quiet *q = &cta->quiet;
	if (!reads_current(cta))
		sim_quiet_new_reads(cta);
	q->readers |= 1u << (me - 1);
	return q->reads + (size_t)(me - 1) * SIM_QUIET_ROWS(cta->L);
}

/* Does this CTA have cp.async bookkeeping that racecheck must consult (tested before async_race's call)? */
static inline bool async_active(const struct sim_cta *cta)
{
	return cta->async.gen == cta->gen && (cta->L->tools & GL_TOOL_RACECHECK);
}

/* Bits [lo, lo + 64) of a bitmap, and setting some of them (SIM_QUIET_ROWS leaves a spare word). */
static inline uint64_t window_of(const uint64_t *map, uint64_t lo)
{
	unsigned s = lo % 64;
	return s ? map[lo / 64] >> s | map[lo / 64 + 1] << (64 - s) : map[lo / 64];
}

static inline void window_set(uint64_t *map, uint64_t lo, uint64_t bits)
{
	unsigned s = lo % 64;
	map[lo / 64] |= bits << s;
	if (s)
		map[lo / 64 + 1] |= bits >> (64 - s);
}

/* Does a warp other than me hold one of the words `bits` of the 64-word window at lo in its quiet-read bitmap
 * (`reads`: the bitmaps, the current interval's)?  A write to such a word races with that read. */
static inline bool others_read(const struct sim_cta *cta, const uint64_t *reads, uint64_t lo, uint64_t bits,
			       uint16_t me)
{
	size_t rows = SIM_QUIET_ROWS(cta->L);
	FOR_LANES(cta->quiet.readers & ~(1u << (me - 1)), k) {
		const uint64_t *row = reads + k * rows;
		if (bits == 1 ? bit_of(row, lo) : (window_of(row, lo) & bits) != 0)
			return true;
	}
	return false;
}

/* No per-access exception applies to a 4-byte access of `ins`: not strong, no cp.async bookkeeping to
 * consult, no reserved shared memory. */
static inline bool plain_access(const struct sim_cta *cta, const struct ptx_insn *ins)
{
	return !(ins && (ins->mods & (PM_VOLATILE | PM_STRONG))) && !async_active(cta) && !cta->L->reserved_used;
}

/* Are all the words of nwin 64-word windows (bit i of words[k]: word base + win[k] + i) set in `full`? */
static inline __attribute__((always_inline)) bool window_full(const uint64_t *full, uint64_t lo, uint64_t words)
{
	return words == 1 ? bit_of(full, lo) : (window_of(full, lo) & words) == words;
}

static inline __attribute__((always_inline)) bool quiet_words_full(const uint64_t *full, uint64_t base, unsigned nwin,
								   const int32_t win[], const uint64_t words[])
{
	if (nwin == 1) /* a broadcast, a row: no loop */
		return window_full(full, base + (uint64_t)win[0], words[0]);
	for (unsigned k = 0; k < nwin; k++)
		if (!window_full(full, base + (uint64_t)win[k], words[k]))
			return false;
	return true;
}

/* Set the words of the windows in a read bitmap. */
static inline __attribute__((always_inline)) void window_mark(uint64_t *row, uint64_t lo, uint64_t words)
{
	if (words == 1) /* one word (a broadcast, or lanes far apart, as down a column): one bit */
		bit_set(row, lo);
	else
		window_set(row, lo, words);
}

static inline __attribute__((always_inline)) void quiet_words_mark(uint64_t *row, uint64_t base, unsigned nwin,
								   const int32_t win[], const uint64_t words[])
{
	if (nwin == 1) {
		window_mark(row, base + (uint64_t)win[0], words[0]);
		return;
	}
	for (unsigned k = 0; k < nwin; k++)
		window_mark(row, base + (uint64_t)win[k], words[k]);
}

bool sim_shadow_quiet_reads_checked(struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins,
				    uint64_t base, unsigned nwin, const int32_t win[], const uint64_t words[]);

/* Is the current interval one in which a quiet read was taken already, with no cp.async bookkeeping to
 * consult (sim_shadow_quiet_reads)? */
static inline __attribute__((always_inline)) bool sim_quiet_ready(const struct sim_cta *cta)
{
	const struct sim_quiet *q = &cta->quiet;
	return q->ready_gen == cta->gen && q->ready_epoch == cta->epoch && !async_active(cta);
}

/* The reads in an interval that sim_quiet_ready keeps: quiet when the access is plain and its words are
 * initialised (true, and they are recorded); false changes nothing. */
static inline __attribute__((always_inline)) bool sim_quiet_take(struct sim_cta *cta, const struct sim_warp *w,
								 const struct ptx_insn *ins, uint64_t base,
								 unsigned nwin, const int32_t win[],
								 const uint64_t words[])
{
	struct sim_quiet *q = &cta->quiet;
	if ((ins->mods & (PM_VOLATILE | PM_STRONG)) || !quiet_words_full(q->full, base, nwin, win, words))
		return false;
	q->readers |= 1u << w->id; /* reads_row's, the bitmaps being this interval's */
	q->site[w->id] = ins;
	quiet_words_mark(q->reads + (size_t)w->id * q->rows, base, nwin, win, words);
	return true;
}

/* Bits [lo, lo + 57) of a bitmap, and setting some of them: on a little-endian machine the 8 bytes from
 * byte lo / 8 on hold bits [lo - lo % 8, lo - lo % 8 + 64), so one load and a shift by less than 8 (no
 * branch, no second word) reach them; the spare word of SIM_QUIET_ROWS keeps the 8 bytes inside. */
#define SIM_QUIET_NEAR_BITS 57
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint64_t near_bits(const uint64_t *map, uint64_t lo)
{
	uint64_t v;
	memcpy(&v, (const unsigned char *)map + lo / 8, sizeof v);
	return v >> (lo % 8);
}

static inline void near_set(uint64_t *map, uint64_t lo, uint64_t bits)
{
	unsigned char *p = (unsigned char *)map + lo / 8;
	uint64_t v;
	memcpy(&v, p, sizeof v);
	v |= bits << (lo % 8);
	memcpy(p, &v, sizeof v);
}
#else
static inline uint64_t near_bits(const uint64_t *map, uint64_t lo)
{
	return window_of(map, lo);
}

static inline void near_set(uint64_t *map, uint64_t lo, uint64_t bits)
{
	window_set(map, lo, bits);
}
#endif

/* sim_quiet_take of a plain access (not strong) whose words are one window at lo, all below bit
 * SIM_QUIET_NEAR_BITS of it. */
static inline __attribute__((always_inline)) bool sim_quiet_take1(struct sim_cta *cta, const struct sim_warp *w,
								  const struct ptx_insn *ins, uint64_t lo,
								  uint64_t words)
{
	struct sim_quiet *q = &cta->quiet;
	if ((near_bits(q->full, lo) & words) != words)
		return false;
	q->readers |= 1u << w->id;
	q->site[w->id] = ins;
	near_set(q->reads + (size_t)w->id * q->rows, lo, words);
	return true;
}

/* A full warp's aligned 4-byte reads of `ins`, whose words are given as nwin 64-word windows (bit i of
 * words[k]: a lane read word base + win[k] + i; every lane's word in one of them), recorded as quiet
 * reads when the rules allow it for every one: then true, and the reads are done with.  False changes
 * nothing: they go through sim_shadow_warp.
 * The conditions that hold for a whole interval (no write in it yet, initialised words of this CTA
 * generation, no reserved shared memory, no cp.async bookkeeping to consult) and the read bitmaps being
 * this interval's are checked one by one (sim_shadow_quiet_reads_checked) until a quiet read is taken;
 * that one keeps the interval (quiet.ready_gen/ready_epoch).  Only a write (note_write), a new interval or
 * generation, or a first cp.async can end them, so the reads after it in the interval compare two
 * numbers and the cp.async one, then test their own words. */
static inline __attribute__((always_inline)) bool sim_shadow_quiet_reads(struct sim_cta *cta, const struct sim_warp *w,
									 const struct ptx_insn *ins, uint64_t base,
									 unsigned nwin, const int32_t win[],
									 const uint64_t words[])
{
	if (!sim_quiet_ready(cta))
		return sim_shadow_quiet_reads_checked(cta, w, ins, base, nwin, win, words);
	return sim_quiet_take(cta, w, ins, base, nwin, win, words);
}

#endif
