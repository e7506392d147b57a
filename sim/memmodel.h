/* memmodel.h — how Nsight Compute counts one warp-level memory instruction, as pure functions of the
 * 32 lane addresses, the access size and the active mask (rules and their public sources: docs/sim.md).
 * No simulator state: unit-tested with hand-computed cases. */
#ifndef GL_MEMMODEL_H
#define GL_MEMMODEL_H

#include <stdbool.h>
#include <stdint.h>

#define GL_WARP 32
#define GL_SECTOR_BYTES 32
#define GL_BANKS 32

/* Whether all 32 lanes are active and lane l accesses addr[0] + l*size, without wrapping: one
 * contiguous span of 32*size bytes in lane order (a coalesced warp access), which the counting and the
 * footprint handle as one range instead of lane by lane. */
static inline bool gl_mm_unit_stride(const uint64_t addr[GL_WARP], uint32_t mask, unsigned size)
{
	if (mask != 0xffffffffu || addr[0] > UINT64_MAX - (uint64_t)GL_WARP * size)
		return false;
	uint64_t off = 0;
	for (int l = 0; l < GL_WARP; l++) /* a loop the compiler vectorises */
		off |= addr[l] - addr[0] - (uint64_t)l * size;
	return off == 0;
}

/* Distinct 32-byte sectors touched by the active lanes, each accessing [addr, addr+size). */
unsigned gl_mm_global_sectors(const uint64_t addr[GL_WARP], uint32_t mask, unsigned size);

/* Distinct 128-byte lines touched by the active lanes: the L1's tag lookups for the request. */
unsigned gl_mm_global_lines(const uint64_t addr[GL_WARP], uint32_t mask, unsigned size);

/* Local memory is interleaved across the warp 4 bytes at a time: byte o of lane l lives at
 * (o/4)*128 + 4*l + o%4 of the warp's local window.  Distinct 32-byte sectors of an access of `size`
 * bytes at each lane's per-thread offset. */
unsigned gl_mm_local_sectors(const uint64_t offset[GL_WARP], uint32_t mask, unsigned size);

/* Shared-memory wavefronts of one LDS/STS-like instruction of `size` bytes (1, 2, 4, 8 or 16):
 *   size <= 4: one phase; wavefronts = the most distinct 32-bit words any one bank must serve;
 *   size == 8: half-warp phases, merged into one when every active lane's neighbour (i^1, or i^2)
 *              is inactive or reads the same address;
 *   size == 16: quarter-warp phases, merged within a half-warp under the same condition. */
unsigned gl_mm_shared_wavefronts(const uint32_t addr[GL_WARP], uint32_t mask, unsigned size);

/* gl_mm_shared_wavefronts, remembered per call site.  The count depends only on the mask, the size and
 * the lane addresses up to a common shift by a multiple of 4 bytes: every lane's words move by the same
 * number of words, so equal words stay equal and the banks ((addr / 4) % 32) only rotate, and words
 * that shared a bank still share one.  An entry keeps the addresses relative to the first active
 * lane's word and answers any access of that shape at that site: a tiled kernel's loop asks the same
 * shape again and again, from every warp and every tile row.  Addresses of 2^31 and above are counted
 * directly (the shift argument needs no wrap-around).  Direct-mapped: a miss counts and replaces the
 * entry. */
#define GL_MM_MEMO_SLOTS 256
struct gl_mm_memo_entry {
	uintptr_t site;
	uint32_t mask, size, units, phases;
	uint32_t rel[GL_WARP]; /* addresses minus the first active lane's word address, 0 for inactive lanes */
};
struct gl_mm_memo {
	struct gl_mm_memo_entry e[GL_MM_MEMO_SLOTS]; /* zeroed: site 0 is no site */
};
unsigned gl_mm_shared_wavefronts_memo(struct gl_mm_memo *memo, uintptr_t site, const uint32_t addr[GL_WARP],
				      uint32_t mask, unsigned size);
/* The same, also giving the access's phases (gl_mm_shared_phases), which depend on the same shape. */
unsigned gl_mm_shared_cost_memo(struct gl_mm_memo *memo, uintptr_t site, const uint32_t addr[GL_WARP], uint32_t mask,
				unsigned size, unsigned *phases);

/* The conflict-free minimum for an access that only its mask and size describe: ceil(active lanes *
 * size / 128), at least 1.  For 1-, 2- and 4-byte accesses it is the phase count below; for 8- and
 * 16-byte ones the addresses decide (gl_mm_shared_phases). */
unsigned gl_mm_shared_ideal_wavefronts(uint32_t mask, unsigned size);

/* The phases of an access once lanes that read the same address are merged: the conflict-free
 * wavefronts that bank conflicts are counted against (docs/sim.md, "Bank conflicts of 64- and
 * 128-bit accesses").
 *   size <= 4: one phase;
 *   size == 8: two half-warp phases, one when they merge as gl_mm_shared_wavefronts merges them, or
 *              when every lane of one half reads the address its counterpart (lane i^16) reads;
 *   size == 16: per half-warp one phase when its quarters merge as gl_mm_shared_wavefronts merges them,
 *              else its two quarter-warp phases; then a phase whose every active lane reads the address
 *              of the same lane position in an earlier phase of the same width is merged into it.
 * Phases without active lanes do not count.  0 for an empty mask. */
unsigned gl_mm_shared_phases(const uint32_t addr[GL_WARP], uint32_t mask, unsigned size);

/* Bank conflicts of one access: its wavefronts beyond its phases (never negative). */
static inline unsigned gl_mm_shared_conflicts(unsigned wavefronts, unsigned phases)
{
	return wavefronts > phases ? wavefronts - phases : 0;
}

/* ldmatrix: `nmat` 8x8 b16 matrices; lanes 8k..8k+7 give the 16-byte row addresses of matrix k.
 * Per matrix, wavefronts = the most distinct rows sharing one 16-byte bank group ((addr>>4) & 7). */
unsigned gl_mm_ldmatrix_wavefronts(const uint32_t addr[GL_WARP], unsigned nmat);

/* Which wavefront serves each 32-bit word of each lane, by the rules above (for the views):
 * wf[l][k] for the k-th word of lane l (k < max(1, size/4); an ldmatrix row has 4 words), -1 for
 * inactive lanes and unused slots.  Inside a phase a word's wavefront is its rank among the distinct
 * words of its bank, in lane order; phases that do not merge follow one another.  Returns the number of
 * wavefronts, equal to gl_mm_shared_wavefronts / gl_mm_ldmatrix_wavefronts. */
unsigned gl_mm_shared_word_wavefronts(const uint32_t addr[GL_WARP], uint32_t mask, unsigned size,
				      int8_t wf[GL_WARP][4]);
unsigned gl_mm_ldmatrix_word_wavefronts(const uint32_t addr[GL_WARP], unsigned nmat, int8_t wf[GL_WARP][4]);

#endif
