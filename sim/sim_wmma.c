/* sim_wmma.c — wmma.load.{a,b,c}, wmma.store.d and wmma.mma (.sync.aligned) for every shape and type
 * of the PTX ISA: m16n16k16, m32n8k16, m8n32k16 with f16, bf16, s8 or u8; m16n16k8 with tf32; m8n8k4
 * with f64.  The ISA leaves the fragment element order opaque: gpulab tiles the mma.sync fragment
 * layouts over the wmma shape (sim_mma_frag.c, docs/sim.md), the way sm_80 runs wmma as mma.m16n8kK
 * operations.  Loads and stores are warp-level accesses with each lane's addresses under that layout. */
#include "sim_mma.h"

struct wmma_shape {
	unsigned m, n, k;
};

static struct wmma_shape shape_of(unsigned sub)
{
	switch (sub) {
	case MMA_M16N16K16: return (struct wmma_shape){16, 16, 16};
	case MMA_M32N8K16: return (struct wmma_shape){32, 8, 16};
	case MMA_M8N32K16: return (struct wmma_shape){8, 32, 16};
	case MMA_M16N16K8: return (struct wmma_shape){16, 16, 8};
	case MMA_M8N8K4: return (struct wmma_shape){8, 8, 4};
	default: return (struct wmma_shape){0, 0, 0};
	}
}

/* Whether the ISA defines a multiplicand (ab) or accumulator type t for shape `sub`. */
static bool type_ok(unsigned sub, enum ptx_type t, bool ab)
{
	switch (sub) {
	case MMA_M16N16K16: case MMA_M32N8K16: case MMA_M8N32K16:
		return ab ? t == PT_F16 || t == PT_BF16 || t == PT_S8 || t == PT_U8 : t == PT_F16 || t == PT_F32 || t == PT_S32;
	case MMA_M16N16K8: return ab ? t == PT_TF32 : t == PT_F32;
	case MMA_M8N8K4: return t == PT_F64;
	default: return false;
	}
}

/* The fragment of wmma matrix `mx` (A, B, C or D) of shape s. */
static struct sim_frag frag_of(struct wmma_shape s, enum ptx_wmma_matrix mx, enum ptx_type t)
{
	if (mx == WMMA_A)
		return sim_frag_make(FRAG_A, s.m, s.k, t);
	if (mx == WMMA_B)
		return sim_frag_make(FRAG_B, s.k, s.n, t);
	return sim_frag_make(FRAG_C, s.m, s.n, t);
}

/* Registers the instruction's operand has: f16 multiplicands are eight .f16x2 registers in every shape
 * (the ISA keeps the Volta-sized fragment); registers beyond the distinct ones repeat them. */
static unsigned operand_regs(const struct sim_frag *f)
{
	return f->role != FRAG_C && f->type == PT_F16 ? 8 : f->unique;
}

/* Each lane's element (row, col) of the matrix in memory: base + (row-major ? row * ld + col : col * ld +
 * row) elements; ld is the stride operand, or the matrix's width (row) / height (col) without one. */
struct wmma_mem {
	uint64_t base[32], ld[32];
	bool col;
	unsigned esz;
};

static void mem_of(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int mem_op,
		   const struct sim_frag *f, struct wmma_mem *m)
{
	m->col = ins->sub2 & MMA_A_COL;
	m->esz = ptx_type_bytes(f->type);
	sim_lane_addresses(cta, w, &ins->ops[mem_op], 0xffffffffu, m->base);
	const uint64_t *ld = ins->nops > 2 ? sim_src(cta, w, ins->ops[2].slot) : NULL;
	for (unsigned l = 0; l < 32; l++)
		m->ld[l] = ld ? (uint32_t)ld[l] : m->col ? f->rows : f->cols;
}

static uint64_t elem_addr(const struct wmma_mem *m, unsigned lane, unsigned row, unsigned col)
{
	uint64_t idx = m->col ? (uint64_t)col * m->ld[lane] + row : (uint64_t)row * m->ld[lane] + col;
	return m->base[lane] + idx * m->esz;
}

/* Each lane's address of element j of unique register r.  `swapped`: the lane reads the element at
 * its (g, 2t + j) offset mirrored inside the register's 8x8 block, so that a pair of 16-bit
 * elements is one 32-bit word of memory (what ptxas loads before transposing with MOVM). */
static uint64_t reg_addr(const struct sim_frag *f, const struct wmma_mem *m, unsigned lane, unsigned r, unsigned j,
			 bool swapped)
{
	unsigned row, col;
	sim_frag_pos(f, lane, r, j, &row, &col);
	if (swapped) {
		unsigned r0, c0;
		sim_frag_pos(f, 0, r, 0, &r0, &c0);
		unsigned dr = row - r0, dc = col - c0;
		row = r0 + dc, col = c0 + dr;
	}
	return elem_addr(m, lane, row, col);
}

/* Whether unique registers r and r + 1 of every lane are adjacent 32-bit words, 8-byte aligned:
 * ptxas moves such accumulator pairs with one 64-bit access. */
static bool pair_adjacent(const struct sim_frag *f, const struct wmma_mem *m, unsigned r)
{
	if (f->role != FRAG_C || m->esz != 4 || r + 1 >= f->unique)
		return false;
	for (unsigned l = 0; l < 32; l++) {
		uint64_t a = reg_addr(f, m, l, r, 0, false);
		if (a % 8 || reg_addr(f, m, l, r + 1, 0, false) != a + 4)
			return false;
	}
	return true;
}

/* Move `nr` (1 or 2) unique registers from r on, as ptxas does on sm_80 (docs/sim.md): one warp-level
 * access per register when its elements are adjacent in memory (along the rows for A and C, the
 * columns for B), one 64-bit access for an adjacent accumulator pair; 16-bit pairs that are not
 * adjacent are read as the mirrored 32-bit words; 8-bit ones one byte at a time. */
static void move_regs(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const struct sim_frag *f,
		      const struct wmma_mem *m, unsigned r, unsigned nr, uint64_t val[2][32], bool is_store)
{
	bool adjacent = f->per_reg == 1 || (f->role == FRAG_B) == m->col;
	bool swapped = !adjacent && f->per_reg == 2 && !is_store;
	unsigned parts = adjacent || swapped ? 1 : f->per_reg;
	unsigned size = parts == 1 ? f->per_reg * m->esz * nr : m->esz, bits = 8 * m->esz;
	uint64_t emask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	for (unsigned j = 0; j < parts; j++) {
		uint64_t addr[32], part[32];
		for (unsigned l = 0; l < 32; l++) {
			addr[l] = reg_addr(f, m, l, r, j, swapped);
			part[l] = nr == 2 ? (val[0][l] & 0xffffffffu) | val[1][l] << 32
				: parts == 1 ? val[0][l] : (val[0][l] >> (bits * j)) & emask;
		}
		sim_warp_access(cta, w, ins, addr, 0xffffffffu, size, is_store, part);
		if (is_store)
			continue;
		for (unsigned l = 0; l < 32; l++) {
			if (nr == 2)
				val[0][l] = part[l] & 0xffffffffu, val[1][l] = part[l] >> 32;
			else if (swapped) /* the value is the register's own elements, whatever the lanes read */
				continue;
			else
				val[0][l] = parts == 1 ? part[l] : (val[0][l] & ~(emask << (bits * j))) | (part[l] & emask) << (bits * j);
		}
	}
	if (swapped && !is_store) /* after MOVM each lane holds its own elements */
		for (unsigned l = 0; l < 32; l++) {
			val[0][l] = 0;
			for (unsigned jj = 0; jj < f->per_reg; jj++) {
				uint64_t a = reg_addr(f, m, l, r, jj, false), v = 0;
				enum ptx_space sp = (enum ptx_space)ins->space;
				uint8_t *p = sim_translate(cta, w, (int)l, &sp, a, m->esz, false, ins);
				if (p)
					memcpy(&v, p, m->esz);
				val[0][l] |= (v & emask) << (bits * jj);
			}
		}
}

/* A wmma matrix must start at a 256-bit (32-byte) aligned address (CUDA's wmma::load_matrix_sync and
 * store_matrix_sync: "mptr must be a 256-bit aligned pointer"; the PTX ISA's wmma.load/store likewise):
 * each lane whose address is not is a misaligned finding, as on the device.  The access is still
 * simulated through the checked translation (the element accesses have their own checks). */
static void check_alignment(struct sim_cta *cta, const struct ptx_insn *ins, const struct wmma_mem *m, bool is_store)
{
	for (int l = 0; l < 32; l++)
		if (m->base[l] % 32)
			sim_finding(cta, ins, l, "misaligned", (enum ptx_space)ins->space, m->base[l], 32, false,
				    "misaligned wmma.%s %s of a matrix at 0x%llx: it must be 32-byte (256-bit) aligned",
				    is_store ? "store" : "load", is_store ? "write" : "read",
				    (unsigned long long)m->base[l]);
}

static int exec_load_store(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins)
{
	bool is_store = ins->op == OP_WMMA_STORE;
	enum ptx_wmma_matrix mx = (enum ptx_wmma_matrix)(ins->sub2 >> MMA_MATRIX_SHIFT);
	enum ptx_type t = (enum ptx_type)ins->type;
	struct wmma_shape s = shape_of(ins->sub);
	if (!s.m || !type_ok(ins->sub, t, mx == WMMA_A || mx == WMMA_B))
		return sim_unsupported(cta, w, ins, "this wmma shape and type (see docs/sim.md: m16n16k16, m32n8k16, "
						    "m8n32k16 with f16/bf16/s8/u8; m16n16k8 with tf32; m8n8k4 with f64)");
	struct sim_frag f = frag_of(s, mx, t);
	const struct ptx_operand *frag = &ins->ops[is_store ? 1 : 0];
	unsigned nregs = operand_regs(&f);
	if (!sim_vec_of(frag, nregs))
		return sim_unsupported(cta, w, ins, "a wmma fragment with the wrong number of registers for its shape");
	struct wmma_mem m;
	mem_of(cta, w, ins, is_store ? 0 : 1, &f, &m);
	check_alignment(cta, ins, &m, is_store);
	for (unsigned r = 0; r < f.unique;) {
		unsigned nr = pair_adjacent(&f, &m, r) ? 2 : 1;
		uint64_t val[2][32] = {{0}};
		for (unsigned i = 0; is_store && i < nr; i++)
			memcpy(val[i], sim_src(cta, w, frag->vec[r + i]), sizeof val[i]);
		move_regs(cta, w, ins, &f, &m, r, nr, val, is_store);
		for (unsigned i = 0; !is_store && i < nr; i++) /* the register and its replicas */
			for (unsigned k = r + i; k < nregs; k += f.unique)
				if (frag->vec[k] >= 0)
					memcpy(sim_reg(w, frag->vec[k]), val[i], sizeof val[i]);
		r += nr;
	}
	return 0;
}

static int exec_mma(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins)
{
	enum ptx_type dt = (enum ptx_type)ins->type, at = (enum ptx_type)ins->type2, ct = (enum ptx_type)ins->type3;
	enum ptx_type bt = (enum ptx_type)ins->btype;
	struct wmma_shape s = shape_of(ins->sub);
	bool i8 = at == PT_S8 || at == PT_U8, ok;
	if (at == PT_F16)
		ok = (dt == PT_F16 || dt == PT_F32) && (ct == PT_F16 || ct == PT_F32);
	else if (i8)
		ok = dt == PT_S32 && ct == PT_S32 && (bt == PT_S8 || bt == PT_U8);
	else
		ok = ct == dt && bt == at && (at == PT_F64 ? dt == PT_F64 : dt == PT_F32);
	ok = ok && s.m && (i8 || bt == at) && type_ok(ins->sub, at, true) && type_ok(ins->sub, dt, false);
	if (!ok)
		return sim_unsupported(cta, w, ins, "this wmma.mma shape and type combination (see docs/sim.md)");
	if ((ins->sub2 & MMA_SATFINITE) && !i8)
		return sim_unsupported(cta, w, ins, "wmma.mma .satfinite with floating-point results");
	struct sim_frag fa = frag_of(s, WMMA_A, at), fb = frag_of(s, WMMA_B, bt);
	struct sim_frag fc = frag_of(s, WMMA_C, ct), fd = frag_of(s, WMMA_D, dt);
	const struct ptx_operand *D = &ins->ops[0], *A = &ins->ops[1], *B = &ins->ops[2], *C = &ins->ops[3];
	if (!sim_vec_of(D, fd.unique) || !sim_vec_of(A, operand_regs(&fa)) || !sim_vec_of(B, operand_regs(&fb)) ||
	    !sim_vec_of(C, fc.unique))
		return sim_unsupported(cta, w, ins, "wmma.mma fragments with the wrong number of registers for the shape");
	sim_frag_mma(cta, w, ins, s.m, s.n, s.k, &fa, &fb, &fc, &fd);
	/* ptxas (sm_80) runs the product as HMMA/IMMA.16816 (tf32: HMMA.1684) or DMMA.884 instructions:
	 * as many as their multiply-adds divide into (m8n32k16 as the transposed m32n8k16: two) */
	unsigned per = at == PT_F64 ? 8 * 8 * 4 : at == PT_TF32 ? 16 * 8 * 4 : 16 * 8 * 16;
	sim_mma_count(cta, at, s.m * s.n * s.k / per);
	sim_mma_count_ops(cta, at, dt, s.m, s.n, s.k);
	return 0;
}

int sim_exec_wmma(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	if (mask != 0xffffffffu)
		return sim_unsupported(cta, w, ins, "wmma with inactive lanes (.aligned needs the whole warp)");
	return ins->op == OP_WMMA_MMA ? exec_mma(cta, w, ins) : exec_load_store(cta, w, ins);
}
