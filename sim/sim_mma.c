/* sim_mma.c — mma.sync.aligned with the PTX ISA's fragment layouts (sim_mma_frag.c):
 *   m16n8k16, m16n8k8           f16 / bf16 inputs, f32 or f16 accumulators
 *   m16n8k8, m16n8k4            tf32 inputs, f32 accumulators
 *   m8n8k4                      f64
 *   m16n8k16, m16n8k32, m8n8k16 s8 / u8 inputs, s32 accumulators, optional .satfinite
 * One instruction is one tensor-pipe instruction (HMMA, IMMA or DMMA). */
#include "sim_mma.h"

struct mma_shape {
	unsigned m, n, k;
};

/* The shape, or {0} when the ISA does not define mma.sync for it with these input types. */
static struct mma_shape shape_of(unsigned sub, enum ptx_type at, enum ptx_type dt)
{
	bool half = at == PT_F16 || at == PT_BF16, tf32 = at == PT_TF32, i8 = at == PT_S8 || at == PT_U8;
	bool facc = dt == PT_F32 || (dt == PT_F16 && at == PT_F16);
	switch (sub) {
	case MMA_M16N8K16: return (half && facc) || (i8 && dt == PT_S32) ? (struct mma_shape){16, 8, 16} : (struct mma_shape){0};
	case MMA_M16N8K8: return (half && facc) || (tf32 && dt == PT_F32) ? (struct mma_shape){16, 8, 8} : (struct mma_shape){0};
	case MMA_M16N8K4: return tf32 && dt == PT_F32 ? (struct mma_shape){16, 8, 4} : (struct mma_shape){0};
	case MMA_M8N8K4: return at == PT_F64 && dt == PT_F64 ? (struct mma_shape){8, 8, 4} : (struct mma_shape){0};
	case MMA_M16N8K32: return i8 && dt == PT_S32 ? (struct mma_shape){16, 8, 32} : (struct mma_shape){0};
	case MMA_M8N8K16: return i8 && dt == PT_S32 ? (struct mma_shape){8, 8, 16} : (struct mma_shape){0};
	default: return (struct mma_shape){0};
	}
}

int sim_exec_mma(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	enum ptx_type dt = (enum ptx_type)ins->type, at = (enum ptx_type)ins->type2, ct = (enum ptx_type)ins->type3;
	enum ptx_type bt = (enum ptx_type)ins->btype;
	struct mma_shape s = shape_of(ins->sub, at, dt);
	bool i8 = at == PT_S8 || at == PT_U8;
	bool c_ok = ct == dt || (at == PT_F16 && (ct == PT_F16 || ct == PT_F32) && (dt == PT_F16 || dt == PT_F32));
	if (!s.m || (bt != at && !(i8 && (bt == PT_S8 || bt == PT_U8))) || !c_ok)
		return sim_unsupported(cta, w, ins, "this mma shape or type combination (see docs/sim.md: f16/bf16 "
						    "m16n8k16/k8, tf32 m16n8k8/k4, f64 m8n8k4, s8/u8 m16n8k16/k32 and m8n8k16)");
	if ((ins->sub2 & MMA_SATFINITE) && dt != PT_S32)
		return sim_unsupported(cta, w, ins, "mma .satfinite other than with integer inputs");
	if (mask != 0xffffffffu)
		return sim_unsupported(cta, w, ins, "mma.sync with inactive lanes");
	struct sim_frag fa = sim_frag_make(FRAG_A, s.m, s.k, at), fb = sim_frag_make(FRAG_B, s.k, s.n, bt);
	struct sim_frag fc = sim_frag_make(FRAG_C, s.m, s.n, ct), fd = sim_frag_make(FRAG_C, s.m, s.n, dt);
	const struct ptx_operand *D = &ins->ops[0], *A = &ins->ops[1], *B = &ins->ops[2], *C = &ins->ops[3];
	if (!sim_vec_of(D, fd.unique) || !sim_vec_of(A, fa.unique) || !sim_vec_of(B, fb.unique) || !sim_vec_of(C, fc.unique))
		return sim_unsupported(cta, w, ins, "mma operands with the wrong number of registers for the shape");
	sim_frag_mma(cta, w, ins, s.m, s.n, s.k, &fa, &fb, &fc, &fd);
	sim_mma_count(cta, at, 1);
	sim_mma_count_ops(cta, at, dt, s.m, s.n, s.k);
	return 0;
}
