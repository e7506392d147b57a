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

/* An accumulated element as D's bits (f32, f16 or f64).  A NaN result is CUDA's canonical NaN of the type
 * (CUDART_NAN_F 0x7fffffff, CUDART_NAN 0xfff8000000000000 in the toolkit's math_constants.h; f16's 0x7fff
 * comes from sim_from_double): the payload a NaN picks up in the host's additions depends on which
 * operand the C compiler puts first, which differs between builds (-O2 and -O3) and paths. */
static uint64_t mma_result(double x, enum ptx_type dt)
{
	if (dt == PT_F16)
		return sim_from_double(x, PT_F16, PR_RN) & 0xffff;
	if (x != x)
		return dt == PT_F64 ? 0xfff8000000000000ull : 0x7fffffffu;
	return dt == PT_F64 ? sim_f64_bits(x) : sim_f32_bits((float)x);
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
				d[i][n] = mma_result(acc[n], PT_F64);
			}
			continue;
		}
		accumulate_row(acc, af[i], bf, N, K);
		for (unsigned n = 0; n < N; n++)
			d[i][n] = mma_result(acc[n], dt);
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
				uint64_t bits = mma_result(x, fd->type);
				v |= bits << (16 * j); /* two f16 results per register, or one f32 */
			}
			d[lane] = v;
		}
	}
}

/* Four lanes' values in the vector extensions of GCC and Clang (AVX2 in the clones built for it). */
typedef uint64_t u64x4 __attribute__((vector_size(32)));
typedef double f64x4 __attribute__((vector_size(32)));
typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef float f32x4 __attribute__((vector_size(16)));
typedef uint32_t u32x8 __attribute__((vector_size(32)));
typedef int32_t i32x8 __attribute__((vector_size(32)));
typedef float f32x8 __attribute__((vector_size(32)));

/* float_elem of eight f16s (the low 16 bits of each element) as f32s of the same values, exactly: a normal
 * number by moving its fields, a zero or subnormal as its integer significand times 2^-24; *inf collects
 * the infinities and NaNs. */
static inline __attribute__((always_inline)) void f16x8_float(f32x8 *out, u32x8 h, u32x8 *inf)
{
	u32x8 exp = h >> 10 & 0x1f, sign = (h & 0x8000) << 16, mant = h & 0x3ff, low = (u32x8)(exp == 0);
	u32x8 normal = sign | (exp + (127 - 15)) << 23 | mant << 13, tiny;
	f32x8 sub = __builtin_convertvector((i32x8)mant, f32x8) * 0x1p-24f;
	memcpy(&tiny, &sub, sizeof tiny);
	u32x8 bits = (normal & ~low) | ((tiny | sign) & low);
	*inf |= (u32x8)(exp == 0x1f);
	memcpy(out, &bits, sizeof *out);
}

/* The two f16 elements (j = 0, 1) of lane l of a register, as doubles at out[2l + j]: in this order a
 * register of an m16n8kK fragment holds an 8 x 8 block of A row-major (row g, columns 2t + j) and of B
 * column-major (column g, rows 2t + j).  Eight lanes at a time; returns false when an element is an
 * infinity or a NaN. */
SIM_SIMD_CLONES static bool f16_pairs(double *restrict out, const uint64_t *restrict v)
{
	u32x8 inf = {0};
	for (int l = 0; l < 32; l += 8) {
		u32x8 x0, x1;
		memcpy(&x0, v + l, sizeof x0);
		memcpy(&x1, v + l + 4, sizeof x1);
		u32x8 x = __builtin_shufflevector(x0, x1, 0, 2, 4, 6, 8, 10, 12, 14); /* the low words (little-endian) */
		f32x8 lo, hi;
		f16x8_float(&lo, x & 0xffff, &inf);
		f16x8_float(&hi, x >> 16, &inf);
		f64x4 d0 = __builtin_convertvector(__builtin_shufflevector(lo, hi, 0, 8, 1, 9), f64x4);
		f64x4 d1 = __builtin_convertvector(__builtin_shufflevector(lo, hi, 2, 10, 3, 11), f64x4);
		f64x4 d2 = __builtin_convertvector(__builtin_shufflevector(lo, hi, 4, 12, 5, 13), f64x4);
		f64x4 d3 = __builtin_convertvector(__builtin_shufflevector(lo, hi, 6, 14, 7, 15), f64x4);
		memcpy(out + 2 * l, &d0, sizeof d0);
		memcpy(out + 2 * l + 4, &d1, sizeof d1);
		memcpy(out + 2 * l + 8, &d2, sizeof d2);
		memcpy(out + 2 * l + 12, &d3, sizeof d3);
	}
	u32x4 any = __builtin_shufflevector(inf, inf, 0, 1, 2, 3) | __builtin_shufflevector(inf, inf, 4, 5, 6, 7);
	return !(any[0] | any[1] | any[2] | any[3]);
}

/* C registers c0 and c1 (f32, columns 2t and 2t + 1 of rows g) as the doubles of an 8 x 8 block,
 * row-major: lane l's element j at out[2l + j].  Returns false when an element is an infinity or a NaN. */
SIM_SIMD_CLONES static bool f32_pairs(double *restrict out, const uint64_t *restrict c0, const uint64_t *restrict c1)
{
	u64x4 inf = {0, 0, 0, 0};
	for (int l = 0; l < 32; l += 4) {
		u64x4 x0, x1;
		memcpy(&x0, c0 + l, sizeof x0);
		memcpy(&x1, c1 + l, sizeof x1);
		inf |= (u64x4)((x0 & 0x7f800000u) == 0x7f800000u) | (u64x4)((x1 & 0x7f800000u) == 0x7f800000u);
		f64x4 d0 = __builtin_convertvector((f32x4)__builtin_convertvector(x0, u32x4), f64x4);
		f64x4 d1 = __builtin_convertvector((f32x4)__builtin_convertvector(x1, u32x4), f64x4);
		f64x4 p0 = __builtin_shufflevector(d0, d1, 0, 4, 1, 5), p1 = __builtin_shufflevector(d0, d1, 2, 6, 3, 7);
		memcpy(out + 2 * l, &p0, sizeof p0);
		memcpy(out + 2 * l + 4, &p1, sizeof p1);
	}
	return !(inf[0] | inf[1] | inf[2] | inf[3]);
}

/* The inverse for D: the block's doubles rounded to f32 (sim_f32_bits((float)x)) into d0 and d1. */
SIM_SIMD_CLONES static void f32_pairs_out(uint64_t *d0, uint64_t *d1, const double *restrict in)
{
	for (int l = 0; l < 32; l += 4) {
		f64x4 a0, a1;
		memcpy(&a0, in + 2 * l, sizeof a0);
		memcpy(&a1, in + 2 * l + 4, sizeof a1);
		f64x4 even = __builtin_shufflevector(a0, a1, 0, 2, 4, 6), odd = __builtin_shufflevector(a0, a1, 1, 3, 5, 7);
		u64x4 w0 = __builtin_convertvector((u32x4)__builtin_convertvector(even, f32x4), u64x4);
		u64x4 w1 = __builtin_convertvector((u32x4)__builtin_convertvector(odd, f32x4), u64x4);
		memcpy(d0 + l, &w0, sizeof w0);
		memcpy(d1 + l, &w1, sizeof w1);
	}
}

/* accumulate_row8 for the 16 rows of a tile, four rows at a time (their 8 outputs in registers, each
 * row of b loaded once for the four): the same operations in the same order for every output. */
SIM_SIMD_CLONES static void accumulate_16x8(double (*restrict acc)[8], const double (*restrict a)[16],
					    const double (*restrict b)[8], unsigned K)
{
	for (unsigned i = 0; i < 16; i += 4) {
		f64x4 o0, o1, o2, o3, o4, o5, o6, o7;
		memcpy(&o0, acc[i], 32), memcpy(&o1, acc[i] + 4, 32), memcpy(&o2, acc[i + 1], 32);
		memcpy(&o3, acc[i + 1] + 4, 32), memcpy(&o4, acc[i + 2], 32), memcpy(&o5, acc[i + 2] + 4, 32);
		memcpy(&o6, acc[i + 3], 32), memcpy(&o7, acc[i + 3] + 4, 32);
		for (unsigned k = 0; k < K; k++) {
			f64x4 b0, b1, x0 = {a[i][k], a[i][k], a[i][k], a[i][k]};
			f64x4 x1 = {a[i + 1][k], a[i + 1][k], a[i + 1][k], a[i + 1][k]};
			f64x4 x2 = {a[i + 2][k], a[i + 2][k], a[i + 2][k], a[i + 2][k]};
			f64x4 x3 = {a[i + 3][k], a[i + 3][k], a[i + 3][k], a[i + 3][k]};
			memcpy(&b0, b[k], 32), memcpy(&b1, b[k] + 4, 32);
			o0 += x0 * b0, o1 += x0 * b1, o2 += x1 * b0, o3 += x1 * b1;
			o4 += x2 * b0, o5 += x2 * b1, o6 += x3 * b0, o7 += x3 * b1;
		}
		memcpy(acc[i], &o0, 32), memcpy(acc[i] + 4, &o1, 32), memcpy(acc[i + 1], &o2, 32);
		memcpy(acc[i + 1] + 4, &o3, 32), memcpy(acc[i + 2], &o4, 32), memcpy(acc[i + 2] + 4, &o5, 32);
		memcpy(acc[i + 3], &o6, 32), memcpy(acc[i + 3] + 4, &o7, 32);
	}
}

/* mma_16x8_as for the usual case, f16 inputs with f32 accumulators (C and D), on whole registers: A
 * register r holds the 8 x 8 block of rows 8 (r % 2).., columns 8 (r / 2).. row-major (f16_pairs), B
 * register r the block of rows 8r.. column-major, and C and D registers 2h and 2h + 1 the even and odd
 * columns of rows 8h.. (f32_pairs).  Products of f16s are exact in double, so the sums are those of
 * sim_mma_compute, in the same order.  Only for finite inputs (false otherwise, having written
 * nothing): then no sum is a NaN, whose payload would depend on which operand of an addition the
 * compiler put first. */
static bool mma_16x8_f16_f32(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, unsigned K)
{
	double af[16][16], bf[16][8], acc[16][8], blk[64];
	bool finite = true;
	for (unsigned r = 0; r < K / 4; r++) {
		finite &= f16_pairs(blk, sim_src(cta, w, ins->ops[1].vec[r]));
		for (unsigned g = 0; g < 8; g++)
			memcpy(&af[g + 8 * (r & 1)][8 * (r >> 1)], blk + 8 * g, 8 * sizeof *blk);
	}
	for (unsigned r = 0; r < K / 8; r++) {
		finite &= f16_pairs(blk, sim_src(cta, w, ins->ops[2].vec[r]));
		for (unsigned g = 0; g < 8; g++)
			for (unsigned c = 0; c < 8; c++)
				bf[8 * r + c][g] = blk[8 * g + c];
	}
	for (unsigned h = 0; h < 2; h++)
		finite &= f32_pairs(acc[8 * h], sim_src(cta, w, ins->ops[3].vec[2 * h]),
				    sim_src(cta, w, ins->ops[3].vec[2 * h + 1]));
	if (!finite)
		return false;
	accumulate_16x8(acc, (const double(*)[16])af, (const double(*)[8])bf, K);
	uint64_t sink[32];
	for (unsigned h = 0; h < 2; h++) {
		int d0 = ins->ops[0].vec[2 * h], d1 = ins->ops[0].vec[2 * h + 1];
		f32_pairs_out(d0 >= 0 ? sim_reg(w, d0) : sink, d1 >= 0 ? sim_reg(w, d1) : sink, acc[8 * h]);
	}
	return true;
}

static void mma_16x8(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, unsigned K,
		     const struct sim_frag *fa, const struct sim_frag *fc, const struct sim_frag *fd)
{
	if (fa->type == PT_F16 && fc->type == PT_F32 && fd->type == PT_F32 &&
	    (sim_mma_hw_16x8(cta, w, ins, K) || mma_16x8_f16_f32(cta, w, ins, K)))
		return;
	if (fa->type == PT_F16)
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
