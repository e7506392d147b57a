/* sim_trace.h — per-access bookkeeping beyond the counts: the shared-memory shadow that finds races
 * and uninitialised reads, and the trace of warp-level memory events. */
#ifndef GL_SIM_TRACE_H
#define GL_SIM_TRACE_H

#include "sim_internal.h"

/* Shadow state of one shared-memory byte, valid only when gen matches the CTA's generation, so that
 * starting a CTA costs nothing. */
struct sim_shadow {
	uint32_t gen;
	uint32_t write_epoch, read_epoch; /* barrier epoch of the last write / read */
	uint16_t writer, reader;          /* warp + 1 of the last write / read; 0 = none */
};

void sim_shadow_write(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
		      unsigned n);
void sim_shadow_read(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
		     unsigned n);

void sim_trace_record(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, enum ptx_space sp,
		      const uint64_t addr[32], uint32_t mask, unsigned size, bool is_store, unsigned units);

#endif
