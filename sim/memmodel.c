/* memmodel.c — sector and wavefront counting rules. */
#include "memmodel.h"

#include <stdbool.h>
#include <string.h>

/* The common case in one pass: when each active lane's first unit (sector or line) is at or after the
 * previous lane's last, units come in ascending order and a unit is new exactly when it is above the
 * highest one so far.  Returns 0 (never a real count for a non-empty mask) when the lanes are not in
 * that order. */
static inline unsigned ascending_units(const uint64_t addr[GL_WARP], uint32_t mask, unsigned size, unsigned unit)
{
	unsigned n = 0;
	uint64_t top = 0;
	bool any = false;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint64_t a = addr[__builtin_ctz(m)];
		uint64_t first = a / unit, last = (a + size - 1) / unit;
		if (last < first || (any && first < top)) /* wrapped around, or out of order */
			return 0;
		n += (unsigned)(last - first) + 1 - (any && first == top);
		top = last;
		any = true;
	}
	return n;
}

/* Distinct `unit`-byte blocks (32: sectors, 128: lines) the active lanes touch, each accessing
 * [addr, addr+size): a coalesced span by arithmetic, lanes in order in one pass, any order by search. */
static inline unsigned distinct_units(const uint64_t addr[GL_WARP], uint32_t mask, unsigned size, unsigned unit)
{
	if (size && gl_mm_unit_stride(addr, mask, size)) /* one span: its units by arithmetic */
		return (unsigned)((addr[0] + (uint64_t)GL_WARP * size - 1) / unit - addr[0] / unit + 1);
	unsigned fast = mask ? ascending_units(addr, mask, size, unit) : 0;
	if (fast)
		return fast;
	/* Each lane touches at most 2 units (size <= 16 and accesses never span more), so 64 slots. */
	uint64_t seen[2 * GL_WARP];
	unsigned n = 0;
	for (int l = 0; l < GL_WARP; l++) {
		if (!(mask >> l & 1))
			continue;
		uint64_t first = addr[l] / unit;
		uint64_t last = (addr[l] + size - 1) / unit;
		for (uint64_t s = first; s <= last; s++) {
			bool dup = false;
			for (unsigned i = 0; i < n && !dup; i++)
				dup = seen[i] == s;
			if (!dup && n < 2 * GL_WARP)
				seen[n++] = s;
		}
	}
	return n;
}

unsigned gl_mm_global_sectors(const uint64_t addr[GL_WARP], uint32_t mask, unsigned size)
{
	return distinct_units(addr, mask, size, GL_SECTOR_BYTES);
}

unsigned gl_mm_global_lines(const uint64_t addr[GL_WARP], uint32_t mask, unsigned size)
{
	return mask && size ? distinct_units(addr, mask, size, 128) : 0;
}

unsigned gl_mm_local_sectors(const uint64_t offset[GL_WARP], uint32_t mask, unsigned size)
{
	/* a lane touches at most 4 words (16 bytes), each word 4 bytes inside one sector: 128 slots */
	uint64_t seen[4 * GL_WARP];
	unsigned n = 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		for (uint64_t word = offset[l] / 4; word <= (offset[l] + size - 1) / 4; word++) {
			uint64_t sector = (word * 128 + 4 * l) / GL_SECTOR_BYTES;
			bool dup = false;
			for (unsigned i = 0; i < n && !dup; i++)
				dup = seen[i] == sector;
			if (!dup && n < 4 * GL_WARP)
				seen[n++] = sector;
		}
	}
	return n;
}

/* One phase: the most distinct words any bank serves, over lanes in `mask`, each touching
 * ceil(size/4) consecutive words (sub-word accesses touch one word). */
static unsigned phase_wavefronts(const uint32_t addr[GL_WARP], uint32_t mask, unsigned size)
{
	/* A lane's words are consecutive, so it adds at most one word to any bank: <= 32 per bank. */
	uint32_t words[GL_BANKS][GL_WARP];
	unsigned count[GL_BANKS] = {0};
	unsigned nwords = size <= 4 ? 1 : size / 4;
	unsigned worst = 0;
	for (int l = 0; l < GL_WARP; l++) {
		if (!(mask >> l & 1))
			continue;
		for (unsigned k = 0; k < nwords; k++) {
			uint32_t w = addr[l] / 4 + k;
			unsigned b = w % GL_BANKS;
			bool dup = false;
			for (unsigned i = 0; i < count[b] && !dup; i++)
				dup = words[b][i] == w;
			if (dup)
				continue;
			words[b][count[b]++] = w;
			if (count[b] > worst)
				worst = count[b];
		}
	}
	return worst;
}

/* Phases of a 64/128-bit access merge when each active lane's partner (i^1 everywhere, or i^2
 * everywhere) is inactive or uses the same address. */
static bool partners_agree(const uint32_t addr[GL_WARP], uint32_t mask, int flip)
{
	for (int l = 0; l < GL_WARP; l++) {
		int p = l ^ flip;
		if ((mask >> l & 1) && (mask >> p & 1) && addr[l] != addr[p])
			return false;
	}
	return true;
}

static bool phases_merge(const uint32_t addr[GL_WARP], uint32_t mask)
{
	return partners_agree(addr, mask, 1) || partners_agree(addr, mask, 2);
}

/* Score `lanes`-wide groups separately, or as one group when they merge. */
static unsigned grouped_wavefronts(const uint32_t addr[GL_WARP], uint32_t mask, unsigned size, int lanes)
{
	uint32_t group_mask = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
	unsigned total = 0;
	for (int g = 0; g < GL_WARP; g += lanes)
		total += phase_wavefronts(addr, mask & (group_mask << g), size);
	return total;
}

/* The common conflict-free case in one pass: every bank serves at most one distinct word.  Without
 * branches on the addresses (a bank's first word is kept, any other word of it clears `ok`), since
 * access patterns vary from one instruction to the next and mispredicted branches cost more than the
 * loop. */
static bool one_word_per_bank(const uint32_t addr[GL_WARP], uint32_t mask)
{
	uint32_t word_of_bank[GL_BANKS] = {0};
	uint32_t used = 0, ok = 1;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t w = addr[__builtin_ctz(m)] / 4, b = w % GL_BANKS;
		uint32_t seen = used >> b & 1;
		ok &= !seen | (word_of_bank[b] == w);
		word_of_bank[b] = seen ? word_of_bank[b] : w;
		used |= 1u << b;
	}
	return ok;
}

unsigned gl_mm_shared_wavefronts(const uint32_t addr[GL_WARP], uint32_t mask, unsigned size)
{
	if (!mask)
		return 0;
	if (size <= 4)
		return one_word_per_bank(addr, mask) ? 1 : phase_wavefronts(addr, mask, size);
	if (size == 8) {
		if (phases_merge(addr, mask))
			return phase_wavefronts(addr, mask, size);
		return grouped_wavefronts(addr, mask, size, 16);
	}
	/* 16 bytes: the two half-warps never merge; quarters inside a half may. */
	unsigned total = 0;
	for (int h = 0; h < 2; h++) {
		uint32_t half = mask & (0xffffu << (16 * h));
		if (!half)
			continue;
		if (phases_merge(addr, half))
			total += phase_wavefronts(addr, half, size);
		else
			total += grouped_wavefronts(addr, half, size, 8);
	}
	return total;
}

/* ---- phases: the conflict-free minimum bank conflicts are counted against */

/* Whether every active lane of the `width`-lane group at `b` reads the address of the lane at the same
 * position in the group at `a`, that lane being active too: the group asks for nothing `a` does not. */
static bool group_repeats(const uint32_t addr[GL_WARP], uint32_t mask, int a, int b, int width)
{
	for (int j = 0; j < width; j++) {
		if (!(mask >> (b + j) & 1))
			continue;
		if (!(mask >> (a + j) & 1) || addr[a + j] != addr[b + j])
			return false;
	}
	return true;
}

/* Count the groups (first lane, width < 32) with active lanes, a group that repeats an earlier one of
 * its width counting once. */
static unsigned distinct_groups(const uint32_t addr[GL_WARP], uint32_t mask, const int first[], const int width[],
				int n)
{
	unsigned phases = 0;
	for (int g = 0; g < n; g++) {
		if (!(mask & ((1u << width[g]) - 1) << first[g]))
			continue;
		bool repeat = false; /* an earlier group without active lanes repeats nothing: its lanes are off */
		for (int e = 0; e < g && !repeat; e++)
			repeat = width[e] == width[g] && group_repeats(addr, mask, first[e], first[g], width[g]);
		phases += !repeat;
	}
	return phases;
}

unsigned gl_mm_shared_phases(const uint32_t addr[GL_WARP], uint32_t mask, unsigned size)
{
	if (!mask)
		return 0;
	if (size <= 4)
		return 1;
	int first[4], width[4], n = 0;
	if (size == 8) {
		if (phases_merge(addr, mask))
			return 1;
		for (int h = 0; h < 2; h++)
			first[n] = 16 * h, width[n++] = 16;
		return distinct_groups(addr, mask, first, width, n);
	}
	for (int h = 0; h < 2; h++) { /* 16 bytes: a merged half is one phase, else its two quarters */
		uint32_t half = mask & (0xffffu << (16 * h));
		if (half && phases_merge(addr, half))
			first[n] = 16 * h, width[n++] = 16;
		else
			for (int q = 0; q < 2; q++)
				first[n] = 16 * h + 8 * q, width[n++] = 8;
	}
	return distinct_groups(addr, mask, first, width, n);
}

/* The lane addresses relative to `base`, 0 for inactive lanes; false when an active lane's address
 * is 2^31 or above. */
static bool relative(const uint32_t addr[GL_WARP], uint32_t mask, uint32_t base, uint32_t rel[GL_WARP])
{
	uint32_t high = 0;
	if (mask == 0xffffffffu) {
		for (int l = 0; l < GL_WARP; l++) {
			rel[l] = addr[l] - base;
			high |= addr[l];
		}
	} else {
		for (int l = 0; l < GL_WARP; l++) {
			uint32_t on = 0u - (mask >> l & 1);
			rel[l] = (addr[l] - base) & on;
			high |= addr[l] & on;
		}
	}
	return !(high >> 31);
}

unsigned gl_mm_shared_cost_memo(struct gl_mm_memo *memo, uintptr_t site, const uint32_t addr[GL_WARP], uint32_t mask,
				unsigned size, unsigned *phases)
{
	uint32_t rel[GL_WARP];
	if (!mask || !site || !relative(addr, mask, addr[__builtin_ctz(mask)] & ~3u, rel)) {
		*phases = gl_mm_shared_phases(addr, mask, size);
		return gl_mm_shared_wavefronts(addr, mask, size);
	}
	uint64_t h = (((uint64_t)site ^ size) * 0x9E3779B97F4A7C15ull >> 40) % GL_MM_MEMO_SLOTS;
	struct gl_mm_memo_entry *e = &memo->e[h];
	if (e->site == site && e->mask == mask && e->size == size && memcmp(e->rel, rel, sizeof rel) == 0) {
		*phases = e->phases;
		return e->units;
	}
	e->site = site;
	e->mask = mask;
	e->size = size;
	memcpy(e->rel, rel, sizeof rel);
	e->units = gl_mm_shared_wavefronts(addr, mask, size);
	e->phases = gl_mm_shared_phases(addr, mask, size); /* equal addresses stay equal under the shift */
	*phases = e->phases;
	return e->units;
}

unsigned gl_mm_shared_wavefronts_memo(struct gl_mm_memo *memo, uintptr_t site, const uint32_t addr[GL_WARP],
				      uint32_t mask, unsigned size)
{
	unsigned phases;
	return gl_mm_shared_cost_memo(memo, site, addr, mask, size, &phases);
}

unsigned gl_mm_shared_ideal_wavefronts(uint32_t mask, unsigned size)
{
	unsigned lanes = (unsigned)__builtin_popcount(mask);
	unsigned w = (lanes * size + 127) / 128;
	return w ? w : 1;
}

unsigned gl_mm_ldmatrix_wavefronts(const uint32_t addr[GL_WARP], unsigned nmat)
{
	unsigned total = 0;
	for (unsigned m = 0; m < nmat; m++) {
		unsigned per_group[8] = {0}, worst = 0;
		for (unsigned r = 0; r < 8; r++) {
			unsigned l = 8 * m + r;
			bool dup = false;
			for (unsigned q = 8 * m; q < l && !dup; q++)
				dup = addr[q] == addr[l];
			if (dup)
				continue;
			unsigned g = (addr[l] >> 4) & 7;
			if (++per_group[g] > worst)
				worst = per_group[g];
		}
		total += worst;
	}
	return total;
}

/* ---- per-word wavefront assignment (views) */

static void clear_words(int8_t wf[GL_WARP][4])
{
	for (int l = 0; l < GL_WARP; l++)
		for (int k = 0; k < 4; k++)
			wf[l][k] = -1;
}

/* One phase, as phase_wavefronts counts it: each word gets `first` + its rank in its bank. */
static unsigned phase_words(const uint32_t addr[GL_WARP], uint32_t mask, unsigned size, unsigned first,
			    int8_t wf[GL_WARP][4])
{
	uint32_t words[GL_BANKS][GL_WARP];
	unsigned count[GL_BANKS] = {0};
	unsigned nwords = size <= 4 ? 1 : size / 4;
	unsigned worst = 0;
	for (int l = 0; l < GL_WARP; l++) {
		if (!(mask >> l & 1))
			continue;
		for (unsigned k = 0; k < nwords; k++) {
			uint32_t w = addr[l] / 4 + k;
			unsigned b = w % GL_BANKS, rank = 0;
			while (rank < count[b] && words[b][rank] != w)
				rank++;
			if (rank == count[b])
				words[b][count[b]++] = w;
			if (count[b] > worst)
				worst = count[b];
			wf[l][k] = (int8_t)(first + rank);
		}
	}
	return worst;
}

static unsigned grouped_words(const uint32_t addr[GL_WARP], uint32_t mask, unsigned size, int lanes, unsigned first,
			      int8_t wf[GL_WARP][4])
{
	uint32_t group_mask = (1u << lanes) - 1;
	unsigned total = 0;
	for (int g = 0; g < GL_WARP; g += lanes)
		total += phase_words(addr, mask & (group_mask << g), size, first + total, wf);
	return total;
}

unsigned gl_mm_shared_word_wavefronts(const uint32_t addr[GL_WARP], uint32_t mask, unsigned size,
				      int8_t wf[GL_WARP][4])
{
	clear_words(wf);
	if (!mask)
		return 0;
	if (size <= 4)
		return phase_words(addr, mask, size, 0, wf);
	if (size == 8)
		return phases_merge(addr, mask) ? phase_words(addr, mask, size, 0, wf)
						: grouped_words(addr, mask, size, 16, 0, wf);
	unsigned total = 0;
	for (int h = 0; h < 2; h++) {
		uint32_t half = mask & (0xffffu << (16 * h));
		if (!half)
			continue;
		if (phases_merge(addr, half))
			total += phase_words(addr, half, size, total, wf);
		else
			total += grouped_words(addr, half, size, 8, total, wf);
	}
	return total;
}

unsigned gl_mm_ldmatrix_word_wavefronts(const uint32_t addr[GL_WARP], unsigned nmat, int8_t wf[GL_WARP][4])
{
	clear_words(wf);
	unsigned total = 0;
	for (unsigned m = 0; m < nmat && m < 4; m++) {
		uint32_t rows[8];
		unsigned group_of[8], rank_in_group[8], per_group[8] = {0}, nrows = 0, worst = 0;
		for (unsigned r = 0; r < 8; r++) {
			unsigned l = 8 * m + r, i = 0;
			while (i < nrows && rows[i] != addr[l])
				i++;
			if (i == nrows) { /* a new row: next rank in its 16-byte bank group */
				rows[nrows] = addr[l];
				group_of[nrows] = (addr[l] >> 4) & 7;
				rank_in_group[nrows] = per_group[group_of[nrows]]++;
				if (per_group[group_of[nrows]] > worst)
					worst = per_group[group_of[nrows]];
				nrows++;
			}
			for (int k = 0; k < 4; k++)
				wf[l][k] = (int8_t)(total + rank_in_group[i]);
		}
		total += worst;
	}
	return total;
}
