/* sim_mma_frag.c — fragment layouts and the multiply-accumulate shared by mma.sync and wmma.
 *
 * With g = lane / 4 and t = lane % 4, each register holds per_reg = e consecutive elements along K
 * (A, B) or N (C in f16).  The PTX ISA's mma layouts are all instances of one rule, applied per
 * 16-row (or, for 8-row matrices, 8-row) block of A and per 8-column block of B:
 *   A register r of a block: row g + 8 * (r % 2), columns (r / 2) * 4e + e * t + j   (8-row: row g,
 *                            columns r * 4e + e * t + j)
 *   B register r of a block: column g, rows r * 4e + e * t + j
 *   C element q of a 16x8 (8x8) tile: row g + 8 * (q / 2), column 2t + q % 2; tiles in row-major order.
 * wmma shapes are covered by tiling these blocks (docs/sim.md). */
#include <math.h>

#include "sim_mma.h"

static unsigned elems_per_reg(enum ptx_type t)
{
	unsigned bits = 8 * ptx_type_bytes(t);
	return bits < 32 ? 32 / bits : 1;
}

struct sim_frag sim_frag_make(enum sim_frag_role role, unsigned rows, unsigned cols, enum ptx_type type)
{
	struct sim_frag f = {role, rows, cols, type, elems_per_reg(type), 0};
	f.unique = rows * cols / (32 * f.per_reg);
	return f;
}

void sim_frag_pos(const struct sim_frag *f, unsigned lane, unsigned r, unsigned j, unsigned *row, unsigned *col)
{
	unsigned g = lane >> 2, t = lane & 3, e = f->per_reg;
	if (f->role == FRAG_A) {
		unsigned bh = f->rows >= 16 ? 16 : 8, rb = bh * f->cols / (32 * e), blk = r / rb, rr = r % rb;
		*row = blk * bh + g + (bh == 16 ? 8 * (rr % 2) : 0);
		*col = (bh == 16 ? rr / 2 : rr) * 4 * e + e * t + j;
	} else if (f->role == FRAG_B) {
		unsigned rb = f->rows * 8 / (32 * e), blk = r / rb, rr = r % rb;
		*row = rr * 4 * e + e * t + j;
		*col = blk * 8 + g;
	} else {
		unsigned bh = f->rows >= 16 ? 16 : 8, per_tile = bh * 8 / 32, i = r * e + j;
		unsigned tile = i / per_tile, q = i % per_tile, tiles_n = f->cols / 8;
		*row = (tile / tiles_n) * bh + g + 8 * (q / 2);
		*col = (tile % tiles_n) * 8 + 2 * t + q % 2;
	}
}

/* sim_frag_pos for every element of a fragment, index (r * 32 + lane) * per_reg + j: computed once per
 * fragment shape and kept per thread (a kernel uses a few shapes, each instruction moves them all). */
struct frag_map {
	struct sim_frag f;
	bool valid;
	uint8_t pos[SIM_MMA_MAX * SIM_MMA_MAX][2];
};

static const uint8_t (*frag_map(const struct sim_frag *f))[2]
{
	static _Thread_local struct frag_map cache[6];
	static _Thread_local unsigned next;
	for (unsigned i = 0; i < sizeof cache / sizeof *cache; i++) {
		const struct sim_frag *c = &cache[i].f;
		if (cache[i].valid && c->role == f->role && c->rows == f->rows && c->cols == f->cols &&
		    c->per_reg == f->per_reg && c->unique == f->unique)
			return cache[i].pos;
	}
	struct frag_map *m = &cache[next++ % (sizeof cache / sizeof *cache)];
	m->f = *f;
	m->valid = true;
	for (unsigned r = 0; r < f->unique; r++)
		for (unsigned lane = 0; lane < 32; lane++)
			for (unsigned j = 0; j < f->per_reg; j++) {
				unsigned row, col, k = (r * 32 + lane) * f->per_reg + j;
				sim_frag_pos(f, lane, r, j, &row, &col);
				m->pos[k][0] = (uint8_t)row;
				m->pos[k][1] = (uint8_t)col;
			}
	return m->pos;
}

void sim_frag_gather(struct sim_cta *cta, struct sim_warp *w, const struct sim_frag *f, const int32_t *regs, sim_mat m)
{
	unsigned bits = 8 * ptx_type_bytes(f->type);
	uint64_t emask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	const uint8_t(*pos)[2] = frag_map(f);
	for (unsigned r = 0; r < f->unique; r++) {
		const uint64_t *v = sim_src(cta, w, regs[r]);
		for (unsigned lane = 0; lane < 32; lane++)
			for (unsigned j = 0; j < f->per_reg; j++) {
				const uint8_t *p = pos[(r * 32 + lane) * f->per_reg + j];
				m[p[0]][p[1]] = f->per_reg > 1 ? (v[lane] >> (bits * j)) & emask : v[lane];
			}
	}
}

void sim_frag_scatter(struct sim_warp *w, const struct sim_frag *f, const int32_t *regs, unsigned nregs, const sim_mat m)
{
	unsigned bits = 8 * ptx_type_bytes(f->type);
	uint64_t emask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	const uint8_t(*pos)[2] = frag_map(f);
	for (unsigned r = 0; r < nregs; r++) {
		if (regs[r] < 0)
			continue;
		uint64_t *d = sim_reg(w, regs[r]);
		for (unsigned lane = 0; lane < 32; lane++) {
			uint64_t v = 0;
			for (unsigned j = 0; j < f->per_reg; j++) { /* replicas repeat the unique registers */
				const uint8_t *p = pos[((r % f->unique) * 32 + lane) * f->per_reg + j];
				v |= (m[p[0]][p[1]] & emask) << (bits * j);
			}
			d[lane] = v;
		}
	}
}

static inline double float_elem(uint64_t bits, enum ptx_type t)
{
	if (t == PT_F16 && ((bits >> 10) & 0x1f) != 0 && ((bits >> 10) & 0x1f) != 0x1f) {
		/* a normal f16, the common case, built as the double of the same value (exactly) */
		uint64_t exp = (bits >> 10) & 0x1f;
		return sim_f64((bits >> 15 & 1) << 63 | (exp - 15 + 1023) << 52 | (bits & 0x3ff) << 42);
	}
	if (t == PT_TF32) /* tensor cores read the sign, exponent and top 10 mantissa bits of a .tf32 operand */
		return sim_f32(bits & 0xffffe000u);
	if (t == PT_F32)
		return sim_f32(bits);
	if (t == PT_F64)
		return sim_f64(bits);
	return sim_to_double(bits, t);
}

static int64_t int_elem(uint64_t bits, enum ptx_type t)
{
	switch (t) {
	case PT_S8: return (int8_t)bits;
	case PT_U8: return (uint8_t)bits;
	default: return (int32_t)bits;
	}
}

static uint64_t int_result(int64_t v, bool satfinite)
{
	if (satfinite)
		v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
	return (uint32_t)v;
}

/* acc[n] += a[k] * b[k][n] for k = 0, 1, ... K-1: each output's products are added in k order, as the
 * definition has them, and the outputs of a row side by side, 8 at a time (every shape's N is a
 * multiple of 8; the loop of fixed length vectorises, sim_simd.h). */
SIM_SIMD_CLONES static void accumulate_row(double *restrict acc, const double *restrict a,
					   const double (*restrict b)[SIM_MMA_MAX], unsigned N, unsigned K)
{
	for (unsigned k = 0; k < K; k++) {
		double x = a[k];
		unsigned n = 0;
		for (; n + 8 <= N; n += 8) {
			double *o = acc + n;
			const double *y = b[k] + n;
			for (int j = 0; j < 8; j++)
				o[j] += x * y[j];
		}
		for (; n < N; n++)
			acc[n] += x * b[k][n];
	}
}

/* accumulate_row for a row of 8 outputs (mma.sync's m16n8kK), which stay in registers across k: the same
 * operations in the same order. */
SIM_SIMD_CLONES static void accumulate_row8(double *restrict acc, const double *restrict a,
					    const double (*restrict b)[SIM_MMA_MAX], unsigned K)
{
	double o[8];
	memcpy(o, acc, sizeof o);
	for (unsigned k = 0; k < K; k++) {
		double x = a[k];
		for (int j = 0; j < 8; j++)
			o[j] += x * b[k][j];
	}
	memcpy(acc, o, sizeof o);
}

/* A's and B's elements are converted once each, not once per product: the values and the order of the
 * operations are those of the definition. */
void sim_mma_compute(unsigned M, unsigned N, unsigned K, enum ptx_type at, enum ptx_type bt, enum ptx_type ct,
		     enum ptx_type dt, bool satfinite, const sim_mat a, const sim_mat b, const sim_mat c, sim_mat d)
{
	if (dt == PT_S32) {
		int64_t ai[SIM_MMA_MAX][SIM_MMA_MAX], bi[SIM_MMA_MAX][SIM_MMA_MAX];
		for (unsigned k = 0; k < K; k++) {
			for (unsigned i = 0; i < M; i++)
				ai[i][k] = int_elem(a[i][k], at);
			for (unsigned n = 0; n < N; n++)
				bi[n][k] = int_elem(b[k][n], bt);
		}
		for (unsigned i = 0; i < M; i++)
			for (unsigned n = 0; n < N; n++) {
				int64_t acc = int_elem(c[i][n], ct);
				for (unsigned k = 0; k < K; k++)
					acc += ai[i][k] * bi[n][k];
				d[i][n] = int_result(acc, satfinite);
			}
		return;
	}
	double af[SIM_MMA_MAX][SIM_MMA_MAX], bf[SIM_MMA_MAX][SIM_MMA_MAX];
	for (unsigned k = 0; k < K; k++) {
		for (unsigned i = 0; i < M; i++)
			af[i][k] = float_elem(a[i][k], at);
		for (unsigned n = 0; n < N; n++)
			bf[k][n] = float_elem(b[k][n], bt);
	}
	for (unsigned i = 0; i < M; i++) {
		double acc[SIM_MMA_MAX];
		for (unsigned n = 0; n < N; n++)
			acc[n] = float_elem(c[i][n], ct);
		if (dt == PT_F64) {
			for (unsigned n = 0; n < N; n++) {
				for (unsigned k = 0; k < K; k++)
					acc[n] = fma(af[i][k], bf[k][n], acc[n]);
				d[i][n] = sim_f64_bits(acc[n]);
			}
			continue;
		}
		accumulate_row(acc, af[i], bf, N, K);
		for (unsigned n = 0; n < N; n++)
			d[i][n] = dt == PT_F32 ? sim_f32_bits((float)acc[n]) : sim_from_double(acc[n], PT_F16, PR_RN) & 0xffff;
	}
}

/* Element j of a register holding per_reg elements of `bits` bits each. */
static uint64_t elem_of(uint64_t v, unsigned per_reg, unsigned bits, unsigned j)
{
	return per_reg > 1 ? (v >> (bits * j)) & ((1ull << bits) - 1) : v;
}

/* sim_frag_mma for the one tile of mma.sync m16n8kK with floating-point inputs: the same gather, the same
 * multiply-accumulate (sim_mma_compute's conversions, the same sums in the same order, and rounding), and
 * the same scatter, with each element's row and column worked out directly from the layout in the file
 * comment instead of through the maps and 32 x 32 matrices sim_frag_gather fills (which cost several
 * times the arithmetic).  Built once per input type (at, ea elements of ba bits per register), so that
 * the indexing folds into constants. */
static inline __attribute__((always_inline)) void mma_16x8_as(struct sim_cta *cta, struct sim_warp *w,
							      const struct ptx_insn *ins, unsigned K,
							      const struct sim_frag *fc, const struct sim_frag *fd,
							      enum ptx_type at, unsigned ea, unsigned ba)
{
	double af[16][SIM_MMA_MAX], bf[SIM_MMA_MAX][SIM_MMA_MAX], acc[16][8];
	unsigned nab = 16 * K / (32 * ea), nb = K * 8 / (32 * ea), ec = fc->per_reg, ed = fd->per_reg;
	unsigned bc = 8 * ptx_type_bytes(fc->type);
	for (unsigned r = 0; r < nab; r++) { /* A: row g + 8 (r % 2), columns (r / 2) 4e + e t + j */
		const uint64_t *v = sim_src(cta, w, ins->ops[1].vec[r]);
		for (unsigned lane = 0; lane < 32; lane++) {
			double *row = af[(lane >> 2) + 8 * (r & 1)] + (r >> 1) * 4 * ea + ea * (lane & 3);
			for (unsigned j = 0; j < ea; j++)
				row[j] = float_elem(elem_of(v[lane], ea, ba, j), at);
		}
	}
	for (unsigned r = 0; r < nb; r++) { /* B: column g, rows 4e r + e t + j */
		const uint64_t *v = sim_src(cta, w, ins->ops[2].vec[r]);
		for (unsigned lane = 0; lane < 32; lane++)
			for (unsigned j = 0; j < ea; j++)
				bf[r * 4 * ea + ea * (lane & 3) + j][lane >> 2] =
					float_elem(elem_of(v[lane], ea, ba, j), at);
	}
	for (unsigned r = 0; r < fc->unique; r++) { /* C: element q = e r + j at row g + 8 (q / 2), column 2t + q % 2 */
		const uint64_t *v = sim_src(cta, w, ins->ops[3].vec[r]);
		for (unsigned lane = 0; lane < 32; lane++)
			for (unsigned j = 0; j < ec; j++) {
				unsigned q = r * ec + j;
				acc[(lane >> 2) + 8 * (q >> 1)][2 * (lane & 3) + (q & 1)] =
					float_elem(elem_of(v[lane], ec, bc, j), fc->type);
			}
	}
	for (unsigned i = 0; i < 16; i++)
		accumulate_row8(acc[i], af[i], (const double(*)[SIM_MMA_MAX])bf, K);
	for (unsigned r = 0; r < fd->unique; r++) {
		uint64_t *d = sim_reg(w, ins->ops[0].vec[r]);
		for (unsigned lane = 0; lane < 32; lane++) {
			uint64_t v = 0;
			for (unsigned j = 0; j < ed; j++) {
				unsigned q = r * ed + j;
				double x = acc[(lane >> 2) + 8 * (q >> 1)][2 * (lane & 3) + (q & 1)];
				uint64_t bits = fd->type == PT_F32 ? sim_f32_bits((float)x)
								   : sim_from_double(x, PT_F16, PR_RN) & 0xffff;
				v |= bits << (16 * j); /* two f16 results per register, or one f32 */
			}
			d[lane] = v;
		}
	}
}

/* float_elem of an f16, its common case (a normal number) inline. */
static inline double f16_elem(uint64_t h)
{
	uint64_t exp = (h >> 10) & 0x1f;
	if (exp != 0 && exp != 0x1f)
		return sim_f64((h >> 15 & 1) << 63 | (exp - 15 + 1023) << 52 | (h & 0x3ff) << 42);
	return float_elem(h, PT_F16);
}

/* mma_16x8_as for the usual case, f16 inputs with f32 accumulators (C and D), written out: each lane's
 * A register r holds row g + 8 (r % 2), columns 8 (r / 2) + 2t and one more; B register r column g,
 * rows 8r + 2t and one more; C and D element q row g + 8 (q / 2), column 2t + q % 2. */
static void mma_16x8_f16_f32(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, unsigned K)
{
	double af[16][SIM_MMA_MAX], bf[SIM_MMA_MAX][SIM_MMA_MAX], acc[16][8];
	for (unsigned r = 0; r < K / 4; r++) {
		const uint64_t *v = sim_src(cta, w, ins->ops[1].vec[r]);
		for (unsigned lane = 0; lane < 32; lane++) {
			double *row = af[(lane >> 2) + 8 * (r & 1)] + 8 * (r >> 1) + 2 * (lane & 3);
			row[0] = f16_elem(v[lane] & 0xffff);
			row[1] = f16_elem(v[lane] >> 16 & 0xffff);
		}
	}
	for (unsigned r = 0; r < K / 8; r++) {
		const uint64_t *v = sim_src(cta, w, ins->ops[2].vec[r]);
		for (unsigned lane = 0; lane < 32; lane++) {
			unsigned k = 8 * r + 2 * (lane & 3);
			bf[k][lane >> 2] = f16_elem(v[lane] & 0xffff);
			bf[k + 1][lane >> 2] = f16_elem(v[lane] >> 16 & 0xffff);
		}
	}
	for (unsigned q = 0; q < 4; q++) {
		const uint64_t *v = sim_src(cta, w, ins->ops[3].vec[q]);
		for (unsigned lane = 0; lane < 32; lane++)
			acc[(lane >> 2) + 8 * (q >> 1)][2 * (lane & 3) + (q & 1)] = sim_f32(v[lane]);
	}
	for (unsigned i = 0; i < 16; i++)
		accumulate_row8(acc[i], af[i], (const double(*)[SIM_MMA_MAX])bf, K);
	for (unsigned q = 0; q < 4; q++) {
		uint64_t *d = sim_reg(w, ins->ops[0].vec[q]);
		for (unsigned lane = 0; lane < 32; lane++)
			d[lane] = sim_f32_bits((float)acc[(lane >> 2) + 8 * (q >> 1)][2 * (lane & 3) + (q & 1)]);
	}
}

static void mma_16x8(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, unsigned K,
		     const struct sim_frag *fa, const struct sim_frag *fc, const struct sim_frag *fd)
{
	if (fa->type == PT_F16 && fc->type == PT_F32 && fd->type == PT_F32)
		mma_16x8_f16_f32(cta, w, ins, K);
	else if (fa->type == PT_F16)
		mma_16x8_as(cta, w, ins, K, fc, fd, PT_F16, 2, 16);
	else if (fa->type == PT_BF16)
		mma_16x8_as(cta, w, ins, K, fc, fd, PT_BF16, 2, 16);
	else
		mma_16x8_as(cta, w, ins, K, fc, fd, fa->type, 1, 32);
}

void sim_frag_mma(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, unsigned M, unsigned N,
		  unsigned K, const struct sim_frag *fa, const struct sim_frag *fb, const struct sim_frag *fc,
		  const struct sim_frag *fd)
{
	bool floats = fd->type == PT_F32 || fd->type == PT_F16;
	if (M == 16 && N == 8 && floats && fa->rows == 16 && fb->cols == 8 && fb->type == fa->type) {
		mma_16x8(cta, w, ins, K, fa, fc, fd);
		return;
	}
	static _Thread_local sim_mat a, b, c, d;
	sim_frag_gather(cta, w, fa, ins->ops[1].vec, a);
	sim_frag_gather(cta, w, fb, ins->ops[2].vec, b);
	sim_frag_gather(cta, w, fc, ins->ops[3].vec, c);
	sim_mma_compute(M, N, K, fa->type, fb->type, fc->type, fd->type, ins->sub2 & MMA_SATFINITE, a, b, c, d);
	sim_frag_scatter(w, fd, ins->ops[0].vec, fd->unique, d);
}

void sim_mma_count(struct sim_cta *cta, enum ptx_type at, unsigned units)
{
	if (at == PT_S8 || at == PT_U8)
		cta->c.imma_inst += units;
	else if (at == PT_F64)
		cta->c.dmma_inst += units;
	else
		cta->c.mma_inst += units;
}

void sim_mma_count_ops(struct sim_cta *cta, enum ptx_type at, enum ptx_type dt, unsigned M, unsigned N, unsigned K)
{
	uint64_t ops = 2ull * M * N * K;
	switch (at) {
	case PT_F16: *(dt == PT_F16 ? &cta->c.tops_f16_f16 : &cta->c.tops_f16_f32) += ops; break;
	case PT_BF16: cta->c.tops_bf16_f32 += ops; break;
	case PT_TF32: cta->c.tops_tf32_f32 += ops; break;
	case PT_F64: cta->c.tops_f64 += ops; break;
	case PT_S8: case PT_U8: cta->c.tops_i8 += ops; break;
	default: break;
	}
}
