/* sim_mma.c — mma.sync.aligned m16n8k16 / m16n8k8 with f16 or bf16 inputs and f32 or f16 accumulators,
 * using the PTX ISA fragment layouts (g = lane>>2, t = lane%4; see shared/reference/memory-model.md §4). */
#include "sim_exec.h"

/* Element i of the A fragment (m16 x k): row and column inside the tile. */
static void a_pos(unsigned lane, unsigned i, unsigned k, unsigned *row, unsigned *col)
{
	unsigned g = lane >> 2, t = lane & 3;
	if (k == 16) {
		*row = (i == 0 || i == 1 || i == 4 || i == 5) ? g : g + 8;
		*col = 2 * t + (i & 1) + (i >= 4 ? 8 : 0);
	} else {
		*row = i < 2 ? g : g + 8;
		*col = 2 * t + (i & 1);
	}
}

static void b_pos(unsigned lane, unsigned i, unsigned *kk, unsigned *n)
{
	unsigned g = lane >> 2, t = lane & 3;
	*kk = 2 * t + (i & 1) + (i >= 2 ? 8 : 0);
	*n = g;
}

static void c_pos(unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
	unsigned g = lane >> 2, t = lane & 3;
	*row = g + (i >= 2 ? 8 : 0);
	*col = 2 * t + (i & 1);
}

static double half_elem(const uint64_t *reg, unsigned i, enum ptx_type t)
{
	return sim_to_double((uint16_t)(reg[i / 2] >> (16 * (i & 1))), t);
}

int sim_exec_mma(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	unsigned k = ins->sub == MMA_M16N8K16 ? 16 : ins->sub == MMA_M16N8K8 ? 8 : 0;
	enum ptx_type dt = (enum ptx_type)ins->type, at = (enum ptx_type)ins->type2, ct = (enum ptx_type)ins->type3;
	if (!k || (at != PT_F16 && at != PT_BF16) || (dt != PT_F32 && dt != PT_F16))
		return sim_unsupported(cta, w, ins, "this mma shape or type (m16n8k16/m16n8k8 with f16/bf16 inputs)");
	if (mask != 0xffffffffu)
		return sim_unsupported(cta, w, ins, "mma.sync with inactive lanes");
	const struct ptx_operand *D = &ins->ops[0], *A = &ins->ops[1], *B = &ins->ops[2], *C = &ins->ops[3];
	unsigned na = k / 4, nb = k / 8, nc = dt == PT_F32 ? 4 : 2;
	if (D->kind != PO_VEC || A->kind != PO_VEC || B->kind != PO_VEC || C->kind != PO_VEC || A->nvec != na ||
	    B->nvec != nb || D->nvec != nc || C->nvec != (ct == PT_F32 ? 4 : 2))
		return sim_unsupported(cta, w, ins, "mma operands of this shape");
	double a[16][16], b[16][8], c[16][8];
	for (unsigned lane = 0; lane < 32; lane++) {
		uint64_t ar[4], br[2];
		for (unsigned r = 0; r < na; r++)
			ar[r] = sim_src(cta, w, A->vec[r])[lane];
		for (unsigned r = 0; r < nb; r++)
			br[r] = sim_src(cta, w, B->vec[r])[lane];
		for (unsigned i = 0; i < 2 * na; i++) {
			unsigned row, col;
			a_pos(lane, i, k, &row, &col);
			a[row][col] = half_elem(ar, i, at);
		}
		for (unsigned i = 0; i < 2 * nb; i++) {
			unsigned kk, n;
			b_pos(lane, i, &kk, &n);
			b[kk][n] = half_elem(br, i, at);
		}
		for (unsigned i = 0; i < 4; i++) {
			unsigned row, col;
			c_pos(lane, i, &row, &col);
			c[row][col] = ct == PT_F32 ? sim_f32(sim_src(cta, w, C->vec[i])[lane])
						   : sim_to_double((uint16_t)(sim_src(cta, w, C->vec[i / 2])[lane] >> (16 * (i & 1))), PT_F16);
		}
	}
	cta->c.mma_inst++;
	uint64_t out[4][32] = {{0}};
	for (unsigned lane = 0; lane < 32; lane++)
		for (unsigned i = 0; i < 4; i++) {
			unsigned row, col;
			c_pos(lane, i, &row, &col);
			double acc = c[row][col];
			for (unsigned kk = 0; kk < k; kk++)
				acc += a[row][kk] * b[kk][col];
			if (dt == PT_F32)
				out[i][lane] = sim_f32_bits((float)acc);
			else
				out[i / 2][lane] |= (sim_from_double(acc, PT_F16, PR_RN) & 0xffff) << (16 * (i & 1));
		}
	for (unsigned r = 0; r < nc; r++) {
		if (D->vec[r] < 0)
			continue;
		uint64_t *d = sim_reg(w, D->vec[r]);
		for (unsigned lane = 0; lane < 32; lane++)
			d[lane] = out[r][lane];
	}
	return 0;
}
