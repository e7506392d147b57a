/* sim_exec.h — shared by the instruction-execution files of the simulator. */
#ifndef GL_SIM_EXEC_H
#define GL_SIM_EXEC_H

#include "sim_float.h"
#include "sim_internal.h"

/* Destination and source operand k of `ins` as 32-lane arrays. */
#define DST(k) sim_reg(w, ins->ops[k].slot)
#define SRC(k) sim_src(cta, w, ins->ops[k].slot)

uint64_t sim_trunc(uint64_t v, unsigned bytes);
int64_t sim_sext(uint64_t v, unsigned bytes);
bool sim_compare(const struct ptx_insn *ins, enum ptx_type t, uint64_t a, uint64_t b);
bool sim_compare_float(enum ptx_cmp cmp, enum ptx_type t, uint64_t a, uint64_t b);
int sim_unsupported(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const char *what);

/* sim_exec_float.c */
int sim_exec_float(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
int sim_exec_cvt(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
double sim_to_double(uint64_t bits, enum ptx_type t);
uint64_t sim_from_double(double v, enum ptx_type t, int rnd);

/* sim_mem.c: the address each lane in `mask` names with a memory operand */
void sim_lane_addresses(struct sim_cta *cta, struct sim_warp *w, const struct ptx_operand *mo, uint32_t mask,
			uint64_t addr[32]);

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

/* sim_call.c: call (device printf through vprintf) */
int sim_exec_call(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

#endif
