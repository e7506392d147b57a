/* sim_jit_expr.h — the compiled engine's inline forms as C expressions (sim_jit_expr.c), for the generator
 * (sim_jit_gen.c).  Registers are r[slot * 32 + lane]; vector forms read 4 lanes from lane q. */
#ifndef GL_SIM_JIT_EXPR_H
#define GL_SIM_JIT_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "ptx.h"

/* Source operand k as a C expression of lane `l`: a register load or a constant (in buf). */
const char *sim_jit_opnd(const struct ptx_function *fn, const struct ptx_insn *ins, int k, char *buf, size_t n);
/* The lane expression of an instruction translated inline (in e), or false when it calls the interpreter;
 * *flops names the FLOP counter it adds to (NULL: none). */
bool sim_jit_native_expr(const struct ptx_function *fn, const struct ptx_insn *ins, char *e, size_t n,
			 const char **flops);
/* A full-warp SIMD expression (8 x 4 lanes) for an instruction sim_jit_native_expr translated, or false. */
bool sim_jit_vec_expr(const struct ptx_function *fn, const struct ptx_insn *ins, char *v, size_t n);
/* The out-of-line full-warp call (WFADD, WFSUB, WFMUL, WFMA) for an f32 add/sub/mul/fma on registers only. */
bool sim_jit_warp_call(const struct ptx_function *fn, const struct ptx_insn *ins, char *v, size_t n);
/* ld/st whose memory operand is [register + offset], [constant + offset] or [absolute]: addresses inline. */
bool sim_jit_inline_mem(const struct ptx_function *fn, const struct ptx_insn *ins);

#endif
