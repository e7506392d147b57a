/* sim_core.h — the interpreter core that every instruction executor includes: operand access and the
 * helpers in sim_core.c.  Executors depend on this header, never on the dispatcher (sim_exec.c). */
#ifndef GL_SIM_CORE_H
#define GL_SIM_CORE_H

#include "sim_float.h"
#include "sim_internal.h"

/* Destination and source operand k of `ins` as 32-lane arrays. */
#define DST(k) sim_reg(w, ins->ops[k].slot)
#define SRC(k) sim_src(cta, w, ins->ops[k].slot)

/* v cut to its low `bytes` bytes, and sign-extended from them. */
uint64_t sim_trunc(uint64_t v, unsigned bytes);
int64_t sim_sext(uint64_t v, unsigned bytes);
/* setp's comparison (ins->sub) of a and b as type t; sim_compare_float is in sim_exec_float.c. */
bool sim_compare(const struct ptx_insn *ins, enum ptx_type t, uint64_t a, uint64_t b);
bool sim_compare_float(enum ptx_cmp cmp, enum ptx_type t, uint64_t a, uint64_t b);
/* A finding for a form the simulator does not carry out; returns -1 (the launch stops). */
int sim_unsupported(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const char *what);

#endif
