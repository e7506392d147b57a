/* sim_trace.h — per-access bookkeeping beyond the counts: the shared-memory shadow that finds races
 * and uninitialised reads, and the trace of warp-level memory events. */
#ifndef GL_SIM_TRACE_H
#define GL_SIM_TRACE_H

#include "sim_internal.h"

/* Shadow state of one 4-byte word of shared memory, valid only when gen matches the CTA's generation
 * (so starting a CTA costs nothing); writer/reader and their byte masks cover the current barrier
 * interval (epoch), `init` every byte written since the CTA started. */
struct sim_shadow {
	uint32_t gen, epoch;
	uint16_t writer, reader; /* warp + 1 of the last write / read in this interval; 0 = none */
	uint8_t wbytes, rbytes;  /* bytes written / read in this interval */
	uint8_t init;            /* bytes written since the CTA started */
};

/* An entry of an older CTA generation starts over; one of an older barrier interval forgets its writer and
 * reader (a barrier since: a clean interval), keeping the bytes initialised. */
static inline void sim_shadow_reset(struct sim_shadow *s, uint32_t gen, uint32_t epoch)
{
	if (s->gen != gen) {
		*s = (struct sim_shadow){.gen = gen, .epoch = epoch};
	} else if (s->epoch != epoch) {
		s->epoch = epoch;
		s->writer = s->reader = 0;
		s->wbytes = s->rbytes = 0;
	}
}

/* Could a write by warp `me` to the word of entry s race with an access of this interval (generation gen,
 * interval epoch)? */
static inline bool sim_shadow_busy(const struct sim_shadow *s, uint32_t gen, uint32_t epoch, uint16_t me)
{
	if (s->gen != gen || s->epoch != epoch)
		return false; /* stale: nothing in this interval */
	return (s->writer && s->writer != me && s->wbytes) || (s->reader && s->reader != me && s->rbytes);
}

void sim_shadow_write(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
		      unsigned n);
void sim_shadow_read(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
		     unsigned n);

void sim_shadow_warp(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
		     const uint64_t addr[32], unsigned n, bool is_store);
/* sim_shadow_quiet_reads: sim_quiet.h */
/* A full warp's plain stores of whole aligned words by `ins`, the words given as windows as for quiet reads:
 * the checks and updates of sim_shadow_write for each lane, a word at a time, when none of them can find
 * a race (no other warp wrote or read any of the words in this interval, quietly or not); then true.
 * False changes nothing: the stores go through sim_shadow_warp, which reports the races. */
bool sim_shadow_store_words(struct sim_cta *cta, const struct sim_warp *w, const struct ptx_insn *ins, uint64_t base,
			    unsigned nwin, const int32_t win[], const uint64_t words[]);
/* Bytes an instruction other than a store gave a value (mbarrier.init): initialized for initcheck. */
void sim_shadow_init(struct sim_cta *cta, uint64_t addr, unsigned n);
void sim_shadow_atomic(struct sim_cta *cta, const struct sim_warp *w, uint64_t addr, unsigned n);

/* sim_async.c: cp.async groups per thread; a read of a word that a copy may still be writing. */
void sim_async_copy(struct sim_cta *cta, const struct sim_warp *w, int lane, uint64_t dst, unsigned n);
/* sim_async_copy for each lane in `lanes`, in lane order. */
void sim_async_copy_warp(struct sim_cta *cta, const struct sim_warp *w, uint32_t lanes, const uint64_t dst[32],
			 unsigned n);
void sim_async_commit(struct sim_cta *cta, const struct sim_warp *w, uint32_t mask);
void sim_async_wait(struct sim_cta *cta, const struct sim_warp *w, uint32_t mask, bool all, uint64_t n);
/* Is any of [addr, addr+n) written by a cp.async that thread `lane` of `w` may not rely on yet?  Then
 * *issuer is the copying thread and *issuer_waited whether its own wait covered the copy. */
bool sim_async_in_flight(struct sim_cta *cta, const struct sim_warp *w, int lane, uint64_t addr, unsigned n,
			 unsigned *issuer, bool *issuer_waited);
/* sim_async_in_flight for the n bytes at addr[l] of each lane in `lanes`: is any of them in flight for
 * its reading lane? */
bool sim_async_warp_in_flight(struct sim_cta *cta, const struct sim_warp *w, uint32_t lanes, const uint64_t addr[32],
			      unsigned n);
void sim_async_free(struct sim_cta *cta);

/* sim_shadow_rows.c: a warp's reads of whole aligned words in shared memory, n bytes (a multiple of 4) at
 * offset off[l] for each lane in `lanes` (ldmatrix's 16-byte rows), recorded in one pass when none of
 * them can find anything (no race, no uninitialised byte, no cp.async data in flight): then true, and
 * the shadow is what sim_shadow_read for each lane would have left.  False changes nothing: the reads
 * go through sim_shadow_read, which reports what they find. */
bool sim_shadow_read_rows(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t lanes,
			  const uint64_t off[32], unsigned n);
/* The same for plain writes of whole aligned words (cp.async's copies, no two lanes writing one word):
 * true when no lane's write can find anything (no race with another warp, no cp.async data in flight),
 * the shadow then what sim_shadow_write for each lane would have left; false changes nothing. */
bool sim_shadow_write_rows(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t lanes,
			   const uint64_t off[32], unsigned n);

void sim_trace_record(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, enum ptx_space sp,
		      const uint64_t addr[32], uint32_t mask, unsigned size, bool is_store, unsigned units);
/* A shuffle (value[lane]: the lane it read) or a barrier arrival (barrier: value[lane] is the barrier id)
 * of the lanes in `mask`, into the trace of a traced CTA. */
void sim_trace_record_sync(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, bool barrier,
			   uint32_t mask, const uint64_t value[32]);

#endif
