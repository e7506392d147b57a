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

/* sim_mma.c: mma.sync */
int sim_exec_mma(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_mbarrier.c: mbarrier.* and cp.async.mbarrier.arrive */
int sim_exec_mbarrier(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
/* The 64-bit object of a valid mbarrier in gpulab's encoding (for tests and documentation). */
uint64_t sim_mbarrier_encode(uint32_t pending, uint32_t expected, int32_t tx, bool phase);

/* sim_call.c: call (device printf through vprintf) */
int sim_exec_call(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

#endif
