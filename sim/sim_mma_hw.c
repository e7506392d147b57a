/* sim_mma_hw.c — mma.sync m16n8kK (K = 8, 16) with f16 inputs and f32 C and D, on x86-64 CPUs with AVX2,
 * FMA and F16C: the same values as sim_mma_compute, in fewer instructions than sim_mma_frag.c's
 * portable vector form.
 *   - vcvtph2ps converts an f16 to the f32 of the same value, exactly (zeros and subnormals included;
 *     it ignores MXCSR's denormals-are-zero); tiles with an infinity or a NaN are left to the
 *     element-by-element path, as in sim_mma_frag.c, so NaN quieting never matters here.
 *   - a product of two f16s has at most 22 significant bits, exact in double, so a fused multiply-add
 *     acc + a * b rounds once, like the separate multiply (exact) and add (rounded) of the definition:
 *     the same bits, with the products still added in k order.
 * Chosen at run time (__builtin_cpu_supports, what libgcc found at start-up), like sim_exec_float.c's
 * FMA path; elsewhere sim_mma_hw_16x8 answers false and the portable form runs. */
#include "sim_mma.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define MMA_HW __attribute__((target("avx2,fma,f16c")))

/* The low 32 bits of v[0..7] (eight lanes' two f16 elements, or one f32) side by side. */
MMA_HW static inline __m256i low_dwords(const uint64_t *v)
{
	__m256 x0 = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)v));
	__m256 x1 = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(v + 4)));
	__m256i x = _mm256_castps_si256(_mm256_shuffle_ps(x0, x1, 0x88)); /* lanes 0 1 4 5 | 2 3 6 7 */
	return _mm256_permute4x64_epi64(x, 0xd8);
}

/* Sixteen f16s (the low words of eight lanes, element j of lane l at 2l + j) as two f32 vectors (lanes
 * 0-3, lanes 4-7); *special collects the infinities and NaNs (exponent all ones). */
MMA_HW static inline void f16_row_pairs(const uint64_t *v, __m256 *lo, __m256 *hi, __m256i *special)
{
	__m256i h = low_dwords(v), e = _mm256_set1_epi16(0x7c00);
	*special = _mm256_or_si256(*special, _mm256_cmpeq_epi16(_mm256_and_si256(h, e), e));
	*lo = _mm256_cvtph_ps(_mm256_castsi256_si128(h));
	*hi = _mm256_cvtph_ps(_mm256_extracti128_si256(h, 1));
}

MMA_HW static inline void store_f32_as_f64(double *out, __m256 x)
{
	_mm256_storeu_pd(out, _mm256_cvtps_pd(_mm256_castps256_ps128(x)));
	_mm256_storeu_pd(out + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)));
}

/* A register r: rows g + 8 (r % 2), columns 8 (r / 2) + 2t + j, i.e. lanes 4g..4g+3 hold one row's
 * eight columns in order. */
MMA_HW static void a_rows(double (*af)[16], const uint64_t *v, unsigned r, __m256i *special)
{
#pragma GCC unroll 8
	for (unsigned q = 0; q < 4; q++) { /* lanes 8q..8q+7: rows 2q and 2q + 1 of the block */
		__m256 lo, hi;
		f16_row_pairs(v + 8 * q, &lo, &hi, special);
		store_f32_as_f64(&af[2 * q + 8 * (r & 1)][8 * (r >> 1)], lo);
		store_f32_as_f64(&af[2 * q + 1 + 8 * (r & 1)][8 * (r >> 1)], hi);
	}
}

/* Rows c[0..7] of an 8 x 8 f32 matrix become its columns. */
MMA_HW static void transpose8(__m256 c[8])
{
	__m256 t[8], u[8];
#pragma GCC unroll 8
	for (int i = 0; i < 8; i += 2) {
		t[i] = _mm256_unpacklo_ps(c[i], c[i + 1]);
		t[i + 1] = _mm256_unpackhi_ps(c[i], c[i + 1]);
	}
#pragma GCC unroll 8
	for (int i = 0; i < 8; i += 4) {
		u[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
		u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xee);
		u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
		u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xee);
	}
#pragma GCC unroll 8
	for (int i = 0; i < 4; i++) {
		c[i] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x20);
		c[i + 4] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x31);
	}
}

/* B register r: column g, rows 8r + 2t + j, i.e. lanes 4g..4g+3 hold one column's eight rows: converted
 * column by column, transposed, and stored row by row into bf[8r..8r+7]. */
MMA_HW static void b_rows(double (*bf)[8], const uint64_t *v, unsigned r, __m256i *special)
{
	__m256 col[8];
#pragma GCC unroll 8
	for (unsigned q = 0; q < 4; q++)
		f16_row_pairs(v + 8 * q, &col[2 * q], &col[2 * q + 1], special);
	transpose8(col);
#pragma GCC unroll 8
	for (unsigned k = 0; k < 8; k++)
		store_f32_as_f64(bf[8 * r + k], col[k]);
}

/* C registers c0, c1 (columns 2t and 2t + 1 of rows g, f32 in the low 32 bits): row g of the block from
 * lanes 4g..4g+3.  Returns the lanes whose element is an infinity or a NaN (nonzero). */
MMA_HW static __m256i c_rows(double (*acc)[8], const uint64_t *c0, const uint64_t *c1)
{
	__m256i special = _mm256_setzero_si256(), e = _mm256_set1_epi32(0x7f800000);
#pragma GCC unroll 8
	for (unsigned g = 0; g < 8; g++) {
		__m256i x0 = _mm256_loadu_si256((const __m256i *)(c0 + 4 * g));
		__m256i x1 = _mm256_loadu_si256((const __m256i *)(c1 + 4 * g));
		__m256i x = _mm256_blend_epi32(x0, _mm256_slli_epi64(x1, 32), 0xaa); /* c0, c1, c0, c1, ... */
		special = _mm256_or_si256(special, _mm256_cmpeq_epi32(_mm256_and_si256(x, e), e));
		store_f32_as_f64(acc[g], _mm256_castsi256_ps(x));
	}
	return special;
}

/* D registers d0, d1 from rows acc[0..7]: each rounded to f32 (as (float)x), even columns to d0 and odd
 * ones to d1, zero-extended. */
MMA_HW static void d_rows(uint64_t *d0, uint64_t *d1, const double (*acc)[8])
{
#pragma GCC unroll 8
	for (unsigned g = 0; g < 8; g++) {
		__m128 lo = _mm256_cvtpd_ps(_mm256_loadu_pd(acc[g])), hi = _mm256_cvtpd_ps(_mm256_loadu_pd(acc[g] + 4));
		__m256i x = _mm256_castps_si256(_mm256_set_m128(hi, lo));
		_mm256_storeu_si256((__m256i *)(d0 + 4 * g), _mm256_and_si256(x, _mm256_set1_epi64x(0xffffffff)));
		_mm256_storeu_si256((__m256i *)(d1 + 4 * g), _mm256_srli_epi64(x, 32));
	}
}

/* acc[i][n] += a[i][k] * b[k][n] for k = 0.. K-1 in order, four rows' outputs in registers at a time. */
MMA_HW static inline __attribute__((always_inline)) void accumulate(double (*acc)[8], const double (*a)[16], const double (*b)[8], unsigned K)
{
	for (unsigned i = 0; i < 16; i += 4) {
		__m256d o[8]; /* kept in registers: every loop over them unrolled */
#pragma GCC unroll 4
		for (unsigned r = 0; r < 4; r++) {
			o[2 * r] = _mm256_loadu_pd(acc[i + r]);
			o[2 * r + 1] = _mm256_loadu_pd(acc[i + r] + 4);
		}
		for (unsigned k = 0; k < K; k++) {
			__m256d b0 = _mm256_loadu_pd(b[k]), b1 = _mm256_loadu_pd(b[k] + 4);
#pragma GCC unroll 4
			for (unsigned r = 0; r < 4; r++) {
				__m256d x = _mm256_broadcast_sd(&a[i + r][k]);
				o[2 * r] = _mm256_fmadd_pd(x, b0, o[2 * r]);
				o[2 * r + 1] = _mm256_fmadd_pd(x, b1, o[2 * r + 1]);
			}
		}
#pragma GCC unroll 4
		for (unsigned r = 0; r < 4; r++) {
			_mm256_storeu_pd(acc[i + r], o[2 * r]);
			_mm256_storeu_pd(acc[i + r] + 4, o[2 * r + 1]);
		}
	}
}

MMA_HW static inline __attribute__((always_inline)) bool mma_hw(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, unsigned K)
{
	double af[16][16], bf[16][8], acc[16][8];
	__m256i special = _mm256_setzero_si256();
	for (unsigned r = 0; r < K / 4; r++)
		a_rows(af, sim_src(cta, w, ins->ops[1].vec[r]), r, &special);
	for (unsigned r = 0; r < K / 8; r++)
		b_rows(bf, sim_src(cta, w, ins->ops[2].vec[r]), r, &special);
	for (unsigned h = 0; h < 2; h++)
		special = _mm256_or_si256(special, c_rows(acc + 8 * h, sim_src(cta, w, ins->ops[3].vec[2 * h]),
							  sim_src(cta, w, ins->ops[3].vec[2 * h + 1])));
	if (!_mm256_testz_si256(special, special))
		return false; /* nothing written */
	accumulate(acc, (const double(*)[16])af, (const double(*)[8])bf, K);
	uint64_t sink[32];
	for (unsigned h = 0; h < 2; h++) {
		int d0 = ins->ops[0].vec[2 * h], d1 = ins->ops[0].vec[2 * h + 1];
		d_rows(d0 >= 0 ? sim_reg(w, d0) : sink, d1 >= 0 ? sim_reg(w, d1) : sink, (const double(*)[8])acc[8 * h]);
	}
	return true;
}

/* mma_hw with K a constant */
MMA_HW static bool mma_hw_k16(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins)
{
	return mma_hw(cta, w, ins, 16);
}

MMA_HW static bool mma_hw_k8(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins)
{
	return mma_hw(cta, w, ins, 8);
}

static bool hw_allowed = true;

void sim_mma_hw_allow(bool on)
{
	hw_allowed = on;
}

bool sim_mma_hw_16x8(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, unsigned K)
{
	if (!hw_allowed || !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma") || !__builtin_cpu_supports("f16c"))
		return false;
	return K == 16 ? mma_hw_k16(cta, w, ins) : K == 8 && mma_hw_k8(cta, w, ins);
}
#else
bool sim_mma_hw_16x8(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, unsigned K)
{
	(void)cta, (void)w, (void)ins, (void)K;
	return false;
}

void sim_mma_hw_allow(bool on)
{
	(void)on;
}
#endif
