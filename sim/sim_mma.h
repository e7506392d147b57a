/* sim_mma.h — the warp-level matrix instructions (mma.sync, wmma.*) share one description of a matrix
 * operand's fragment (which matrix element each register of each lane holds) and one
 * multiply-accumulate.  Layouts: docs/sim.md, "Tensor-core fragments". */
#ifndef GL_SIM_MMA_H
#define GL_SIM_MMA_H

#include "sim_exec.h"

#define SIM_MMA_MAX 32 /* largest M, N or K of a supported shape */

/* The fragments themselves (struct sim_frag, sim_frag_make, sim_frag_pos) are in sim.h: the mma view
 * draws them. */

/* Element bits of a matrix, row-major, SIM_MMA_MAX wide. */
typedef uint64_t sim_mat[SIM_MMA_MAX][SIM_MMA_MAX];

/* Gather the matrix held by registers `regs[0..f->unique)` of all 32 lanes; scatter it back. */
void sim_frag_gather(struct sim_cta *cta, struct sim_warp *w, const struct sim_frag *f, const int32_t *regs, sim_mat m);
void sim_frag_scatter(struct sim_warp *w, const struct sim_frag *f, const int32_t *regs, unsigned nregs, const sim_mat m);

/* D = A * B + C for an M x N x K product; d_type is D's element type.  Floating-point products are
 * summed exactly (in double, f64 with fma in k order) and rounded once; integers wrap to s32, or
 * saturate with `satfinite`. */
void sim_mma_compute(unsigned M, unsigned N, unsigned K, enum ptx_type at, enum ptx_type bt, enum ptx_type ct,
		     enum ptx_type dt, bool satfinite, const sim_mat a, const sim_mat b, const sim_mat c, sim_mat d);

/* Is operand `o` a vector of n registers? */
static inline bool sim_vec_of(const struct ptx_operand *o, unsigned n)
{
	return o->kind == PO_VEC && o->nvec == n;
}

/* D = A * B + C (M x N x K) on the fragments that the vector operands D, A, B, C (ins->ops[0..3]) hold:
 * gather, multiply-accumulate (sim_mma_compute, .satfinite from the instruction), scatter D. */
void sim_frag_mma(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, unsigned M, unsigned N,
		  unsigned K, const struct sim_frag *fa, const struct sim_frag *fb, const struct sim_frag *fc,
		  const struct sim_frag *fd);

/* mma.sync m16n8kK (K 8 or 16) with f16 A and B and f32 C and D (ins->ops[0..3]) with AVX2, FMA and F16C
 * (sim_mma_hw.c): true when done, false, having written nothing, when the CPU lacks them or an input is
 * an infinity or a NaN; the results are sim_frag_mma's, bit for bit. */
bool sim_mma_hw_16x8(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, unsigned K);
/* Whether sim_mma_hw_16x8 may use the instructions (default: yes).  Tests turn it off to run the portable
 * form on a CPU that has them; the simulator never does. */
void sim_mma_hw_allow(bool on);

/* Count tensor-pipe instructions: `units` m16n8kK (or m8n8k4 f64) operations of input type `at`. */
void sim_mma_count(struct sim_cta *cta, enum ptx_type at, unsigned units);
/* Count the tensor path's math ops of an M x N x K product with inputs `at` and results `dt`: two (a
 * multiply and an add) per multiply-add, under the sm__ops_path_tensor_src_*_dst_* metric of the types. */
void sim_mma_count_ops(struct sim_cta *cta, enum ptx_type at, enum ptx_type dt, unsigned M, unsigned N, unsigned K);

#endif
