/* sim_exec.h — the executors the dispatcher in sim_exec.c calls, one family per file; what they share is
 * the interpreter core (sim_core.h). */
#ifndef GL_SIM_EXEC_H
#define GL_SIM_EXEC_H

#include "sim_core.h"

/* sim_exec_float.c */
int sim_exec_float(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
int sim_exec_cvt(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
double sim_to_double(uint64_t bits, enum ptx_type t);
uint64_t sim_from_double(double v, enum ptx_type t, int rnd);

/* sim_mem.c: the address each lane in `mask` names with a memory operand */
void sim_lane_addresses(struct sim_cta *cta, struct sim_warp *w, const struct ptx_operand *mo, uint32_t mask,
			uint64_t addr[32]);

/* sim_mem.c: ld/st of the lanes in `mask` at the addresses their memory operand names (sim_lane_addresses'
 * result, which it may change): exec_ld_st after the address step, for the compiled engine (sim_jit_mem.c) */
int sim_ld_st_at(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask, uint64_t addr[32]);

/* sim_exec_packed.c: dp4a / dp2a, vabsdiff2 / vabsdiff4, fns */
int sim_exec_packed(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_atom.c: atom / red */
int sim_exec_atom(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_mma.c: mma.sync; sim_wmma.c: wmma.load, wmma.store, wmma.mma */
int sim_exec_mma(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
int sim_exec_wmma(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_mem.c: one warp-level access of `size` (1, 2, 4 or 8) bytes per lane in `mask` for an instruction
 * that is not a ld/st itself (wmma.load/store), in the instruction's state space: counted, checked
 * (bounds, alignment, races) and moved like a ld/st of that size.  Loads fill val[lane]; lanes whose
 * access failed a check keep their value and add a finding. */
void sim_warp_access(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const uint64_t addr[32],
		     uint32_t mask, unsigned size, bool is_store, uint64_t val[32]);

/* sim_mbarrier.c: mbarrier.* and cp.async.mbarrier.arrive */
int sim_exec_mbarrier(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
/* The 64-bit object of a valid mbarrier in gpulab's encoding (for tests and documentation). */
uint64_t sim_mbarrier_encode(uint32_t pending, uint32_t expected, int32_t tx, bool phase);

/* sim_tex_exec.c: tex, tld4, txq, suld, sust, suq, sured */
int sim_exec_tex(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_call.c: call (device printf through vprintf) */
int sim_exec_call(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

#endif
