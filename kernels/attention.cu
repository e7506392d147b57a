// attention.cu — scaled dot-product attention, O = softmax(Q Kᵀ / sqrt(d)) V, per (batch, head), from the
// textbook three kernels to FlashAttention-2 on tensor cores.  Q and O are nq x d, K and V nk x d, all
// row-major, heads one after another ([batch*heads][n][d]).  Causal attention masks key j for query i
// when j > i (top-left aligned, so every query sees at least key 0).
//
//   variant     what it teaches
//   naive       three launches: S = QKᵀ to global, a row softmax P to global, O = PV.  S and P are
//               nq x nk: the O(N²) memory traffic FlashAttention removes
//   fused_row   one CTA per query row: scores, softmax and PV in shared memory, nothing N² in global
//               memory, but every row re-reads all of K and V
//   flash1      FlashAttention-1's order (Dao et al. 2022, Algorithm 1): one CTA per head, outer loop over
//               K/V blocks, inner over Q blocks; O, the row max m and sum l go to global memory and back
//               on every outer step, O normalised on every step
//   flash2      FlashAttention-2's order (Dao 2023, Algorithm 1): one CTA per block of 32 Q rows, loop over
//               K/V blocks with the online softmax in registers, O rescaled once at the end and written
//               once; each warp owns 8 rows (warps split Q, not K); causal blocks above the diagonal are
//               never visited
//   flash2_mma  flash2 with fp16 Q/K/V and mma.sync m16n8k16 (fp32 accumulate) for QKᵀ and PV; Q, K and
//               V tiles are read with ldmatrix from an XOR-swizzled shared layout (no bank conflicts)
//
// Softmax in base 2: the harness passes sl2 = log2(e)/sqrt(d), so exp(s/sqrt(d) - m) = exp2(s*sl2 - m').
// Tails: rows past nq and keys past nk are zero-filled in shared memory, masked to -inf and never stored,
// so any length from 1 works.  flash1/flash2/flash2_mma are instantiated for d = 32, 64 and 128.

#include <math.h>

#define ATT_FULL 0xffffffffu

__device__ __forceinline__ float att_warp_max(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v = fmaxf(v, __shfl_xor_sync(ATT_FULL, v, o));
	return v;
}

__device__ __forceinline__ float att_warp_sum(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(ATT_FULL, v, o);
	return v;
}

__device__ __forceinline__ bool att_masked(int i, int j, int nk, int causal)
{
	return j >= nk || (causal && j > i);
}

// ---- naive, launch 1: one thread per score, lanes on consecutive keys (coalesced S stores)
extern "C" __global__ void attention_naive_scores(float *S, const float *Q, const float *K, int nq, int nk, int d,
						  float sl2, int causal)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
	size_t bh = blockIdx.z;
	if (i >= nq || j >= nk)
		return;
	const float *q = Q + (bh * nq + i) * d, *k = K + (bh * nk + j) * d;
	float s = 0.0f;
	for (int c = 0; c < d; c++)
		s += q[c] * k[c];
	S[(bh * nq + i) * nk + j] = att_masked(i, j, nk, causal) ? -INFINITY : s * sl2;
}

// ---- naive, launch 2: one warp per row of S: max, sum of exponentials, then P = exp2(S - max) / sum
extern "C" __global__ void attention_naive_softmax(float *P, const float *S, int nq, int nk)
{
	int i = blockIdx.x * blockDim.y + threadIdx.y, lane = threadIdx.x;
	size_t bh = blockIdx.y;
	if (i >= nq)
		return;
	const float *s = S + (bh * nq + i) * nk;
	float *p = P + (bh * nq + i) * nk;
	float m = -INFINITY, l = 0.0f;
	for (int j = lane; j < nk; j += 32)
		m = fmaxf(m, s[j]);
	m = att_warp_max(m);
	for (int j = lane; j < nk; j += 32)
		l += exp2f(s[j] - m);
	l = att_warp_sum(l);
	for (int j = lane; j < nk; j += 32)
		p[j] = exp2f(s[j] - m) / l;
}

// ---- naive, launch 3: one thread per output, lanes on consecutive columns of V and O
extern "C" __global__ void attention_naive_pv(float *O, const float *P, const float *V, int nq, int nk, int d)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
	size_t bh = blockIdx.z;
	if (i >= nq || c >= d)
		return;
	const float *p = P + (bh * nq + i) * nk, *v = V + bh * nk * d + c;
	float acc = 0.0f;
	for (int j = 0; j < nk; j++)
		acc += p[j] * v[(size_t)j * d];
	O[(bh * nq + i) * d + c] = acc;
}

// ---- fused_row: one CTA of 4 warps per query row.  Shared: the query row, its nk scores, 4 partials.
#define FR_WARPS 4

// Reduce across the CTA's warps through red[]; every thread gets the result.
__device__ float att_block_reduce(float v, float *red, bool is_max)
{
	int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	v = is_max ? att_warp_max(v) : att_warp_sum(v);
	if (lane == 0)
		red[warp] = v;
	__syncthreads();
	v = red[0];
	for (int w = 1; w < FR_WARPS; w++)
		v = is_max ? fmaxf(v, red[w]) : v + red[w];
	__syncthreads();
	return v;
}

extern "C" __global__ void __launch_bounds__(32 * FR_WARPS)
	attention_fused_row(float *O, const float *Q, const float *K, const float *V, int nq, int nk, int d,
			    float sl2, int causal)
{
	extern __shared__ float fr_smem[];
	float *q = fr_smem, *p = fr_smem + d, *red = p + nk;
	int i = blockIdx.x, t = threadIdx.x, lane = t % 32, warp = t / 32;
	size_t bh = blockIdx.y;
	int kend = causal ? min(nk, i + 1) : nk;
	for (int c = t; c < d; c += blockDim.x)
		q[c] = Q[(bh * nq + i) * d + c];
	__syncthreads();
	for (int j = warp; j < kend; j += FR_WARPS) { // a warp per key, lanes across d: coalesced K rows
		const float *k = K + (bh * nk + j) * d;
		float s = 0.0f;
		for (int c = lane; c < d; c += 32)
			s += q[c] * k[c];
		s = att_warp_sum(s);
		if (lane == 0)
			p[j] = s * sl2;
	}
	__syncthreads();
	float m = -INFINITY;
	for (int j = t; j < kend; j += blockDim.x)
		m = fmaxf(m, p[j]);
	m = att_block_reduce(m, red, true);
	float l = 0.0f;
	for (int j = t; j < kend; j += blockDim.x) {
		float e = exp2f(p[j] - m);
		p[j] = e;
		l += e;
	}
	l = att_block_reduce(l, red, false); // its barriers also order the p[] writes before the reads below
	for (int c = t; c < d; c += blockDim.x) {
		const float *v = V + bh * nk * d + c;
		float acc = 0.0f;
		for (int j = 0; j < kend; j++)
			acc += p[j] * v[(size_t)j * d];
		O[(bh * nq + i) * d + c] = acc / l;
	}
}

// ---- the fp32 flash kernels: 4 warps, each owning RPW query rows of the CTA's Q block; for a row, lane j
// computes the score of key k0 + j, and lane c accumulates output columns c, c + 32, ... (D / 32 of them).
#define FL_WARPS 4
#define FL_BC 32 // keys per K/V block: one per lane

// Cooperative tile load: rows [r0, r0 + rows) of a [n][D] matrix into dst[rows][ld], zero past n.
template <int D>
__device__ __forceinline__ void att_load_tile(float *dst, int ld, const float *src, int r0, int rows, int n)
{
	for (int e = threadIdx.x; e < rows * D; e += blockDim.x) {
		int r = e / D, c = e % D;
		dst[r * ld + c] = r0 + r < n ? src[(size_t)(r0 + r) * D + c] : 0.0f;
	}
}

// The score of row q_row (shared, D floats) against key row lane of k_s ([FL_BC][D + 1], padded so that
// the 32 lanes' rows fall in 32 different banks), in base-2 units, masked.
template <int D>
__device__ __forceinline__ float att_score(const float *q_row, const float *k_s, int i, int j, int nk, float sl2,
					   int causal)
{
	int lane = threadIdx.x % 32;
	float s = 0.0f;
#pragma unroll 8
	for (int c = 0; c < D; c++)
		s += q_row[c] * k_s[lane * (D + 1) + c];
	return att_masked(i, j, nk, causal) ? -INFINITY : s * sl2;
}

// pv[t] = sum over the block's keys j of p_j * V[j][lane + 32t]; p_j comes from lane j's register.
template <int D>
__device__ __forceinline__ void att_pv(float pv[D / 32], float p, const float *v_s, int ldv)
{
#pragma unroll
	for (int t = 0; t < D / 32; t++)
		pv[t] = 0.0f;
	for (int j = 0; j < FL_BC; j++) {
		float pj = __shfl_sync(ATT_FULL, p, j);
#pragma unroll
		for (int t = 0; t < D / 32; t++)
			pv[t] += pj * v_s[j * ldv + threadIdx.x % 32 + 32 * t];
	}
}

// flash1: one CTA per head.  Outer loop over K/V blocks (kept in shared memory), inner loop over Q blocks
// of 16 rows (4 per warp); each inner step reads O_i, m_i, l_i from global memory, updates them with the
// block's scores and writes them back normalised (FA1 Algorithm 1, lines 8-13).
#define F1_RPW 4
#define F1_BR (F1_RPW * FL_WARPS)

template <int D>
__device__ void flash1_body(float *O, float *M, float *L, const float *Q, const float *K, const float *V, int nq,
			    int nk, float sl2, int causal)
{
	__shared__ float k_s[FL_BC * (D + 1)];
	__shared__ float v_s[FL_BC * D];
	__shared__ float q_s[F1_BR * D];
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	size_t bh = blockIdx.y;
	const float *Qh = Q + bh * nq * D, *Kh = K + bh * nk * D, *Vh = V + bh * nk * D;
	float *Oh = O + bh * nq * D, *Mh = M + bh * nq, *Lh = L + bh * nq;
	for (int k0 = 0; k0 < nk; k0 += FL_BC) {
		__syncthreads();
		att_load_tile<D>(k_s, D + 1, Kh, k0, FL_BC, nk);
		att_load_tile<D>(v_s, D, Vh, k0, FL_BC, nk);
		// causal: Q blocks whose rows all come before key k0 see nothing of this K/V block
		int q_first = causal ? k0 / F1_BR * F1_BR : 0;
		for (int q0 = q_first; q0 < nq; q0 += F1_BR) {
			__syncthreads();
			att_load_tile<D>(q_s, D, Qh, q0, F1_BR, nq);
			__syncthreads();
			for (int r = 0; r < F1_RPW; r++) {
				int row = warp * F1_RPW + r, i = q0 + row;
				if (i >= nq)
					break;
				float s = att_score<D>(&q_s[row * D], k_s, i, k0 + lane, nk, sl2, causal);
				float mt = att_warp_max(s); // m~: finite, key k0 is visible to row i >= k0
				float pt = s == -INFINITY ? 0.0f : exp2f(s - mt);
				float lt = att_warp_sum(pt);
				float m = -INFINITY, l = 0.0f, o[D / 32];
				if (k0 > 0) { // the first K/V block starts every row afresh
					m = Mh[i];
					l = Lh[i];
				}
#pragma unroll
				for (int t = 0; t < D / 32; t++)
					o[t] = k0 > 0 ? Oh[(size_t)i * D + lane + 32 * t] : 0.0f;
				float pv[D / 32];
				att_pv<D>(pv, pt, v_s, D);
				float mn = fmaxf(m, mt), a = exp2f(m - mn) * l, b = exp2f(mt - mn);
				float ln = a + b * lt;
#pragma unroll
				for (int t = 0; t < D / 32; t++)
					Oh[(size_t)i * D + lane + 32 * t] = (a * o[t] + b * pv[t]) / ln;
				if (lane == 0) {
					Mh[i] = mn;
					Lh[i] = ln;
				}
			}
		}
	}
}

// flash2: one CTA per block of 32 Q rows (8 per warp).  The Q block stays in shared memory; K and then V
// of each K/V block share one buffer.  m, l and O stay in registers; O is divided by l once at the end.
#define F2_RPW 8
#define F2_BR (F2_RPW * FL_WARPS)

template <int D>
__device__ void flash2_body(float *O, const float *Q, const float *K, const float *V, int nq, int nk, float sl2,
			    int causal)
{
	__shared__ float q_s[F2_BR * D];
	__shared__ float kv_s[FL_BC * (D + 1)];
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32, q0 = blockIdx.x * F2_BR;
	size_t bh = blockIdx.y;
	const float *Kh = K + bh * nk * D, *Vh = V + bh * nk * D;
	att_load_tile<D>(q_s, D, Q + bh * nq * D, q0, F2_BR, nq);
	float m[F2_RPW], l[F2_RPW], o[F2_RPW][D / 32], p[F2_RPW];
#pragma unroll
	for (int r = 0; r < F2_RPW; r++) {
		m[r] = -INFINITY;
		l[r] = 0.0f;
#pragma unroll
		for (int t = 0; t < D / 32; t++)
			o[r][t] = 0.0f;
	}
	// causal: the last key any row of this block sees is q0 + F2_BR - 1; blocks past it are skipped
	int kend = causal ? min(nk, q0 + F2_BR) : nk;
	for (int k0 = 0; k0 < kend; k0 += FL_BC) {
		__syncthreads();
		att_load_tile<D>(kv_s, D + 1, Kh, k0, FL_BC, nk);
		__syncthreads();
#pragma unroll
		for (int r = 0; r < F2_RPW; r++) {
			int row = warp * F2_RPW + r;
			float s = att_score<D>(&q_s[row * D], kv_s, q0 + row, k0 + lane, nk, sl2, causal);
			float mn = fmaxf(m[r], att_warp_max(s)); // finite: key 0 is in the first block
			p[r] = exp2f(s - mn);
			float alpha = exp2f(m[r] - mn);
			l[r] = l[r] * alpha + att_warp_sum(p[r]);
			m[r] = mn;
#pragma unroll
			for (int t = 0; t < D / 32; t++)
				o[r][t] *= alpha;
		}
		__syncthreads();
		att_load_tile<D>(kv_s, D, Vh, k0, FL_BC, nk);
		__syncthreads();
#pragma unroll
		for (int r = 0; r < F2_RPW; r++) {
			float pv[D / 32];
			att_pv<D>(pv, p[r], kv_s, D);
#pragma unroll
			for (int t = 0; t < D / 32; t++)
				o[r][t] += pv[t];
		}
	}
#pragma unroll
	for (int r = 0; r < F2_RPW; r++) {
		int i = q0 + warp * F2_RPW + r;
		if (i < nq)
#pragma unroll
			for (int t = 0; t < D / 32; t++)
				O[(bh * nq + i) * D + lane + 32 * t] = o[r][t] / l[r];
	}
}

// ---- flash2_mma: 4 warps, each owning 16 query rows (a 64-row Q block), K/V blocks of 32 keys, fp16
// tiles in shared memory read by ldmatrix.  Fragment layouts are the PTX ISA's for m16n8k16: in a
// 16x8 fp32 accumulator, lane holds rows lane/4 and lane/4 + 8, columns 2*(lane%4) and +1.
#define MMA_BR 64
#define MMA_BC 32

// Shared tiles are rows of D halves in 16-byte chunks; chunk c of row r is stored at chunk c ^ f(r), so
// the 8 rows one ldmatrix phase reads (same chunk, consecutive rows) land in 8 different 16-byte bank
// groups.  With 8 or more chunks per row f(r) = r % 8; with 4 (D = 32: two rows per 128 bytes) the
// row's parity already separates pairs, so f(r) = (r / 2) % 4.
template <int D>
__device__ __forceinline__ int mma_swizzle(int r, int c)
{
	return D / 8 >= 8 ? c ^ (r & 7) : c ^ ((r >> 1) & 3);
}

template <int D>
__device__ __forceinline__ void mma_load_tile(unsigned short *dst, const unsigned short *src, int r0, int rows, int n)
{
	for (int e = threadIdx.x; e < rows * (D / 8); e += blockDim.x) {
		int r = e / (D / 8), c = e % (D / 8);
		uint4 v = make_uint4(0, 0, 0, 0);
		if (r0 + r < n)
			v = *reinterpret_cast<const uint4 *>(&src[(size_t)(r0 + r) * D + c * 8]);
		*reinterpret_cast<uint4 *>(&dst[r * D + mma_swizzle<D>(r, c) * 8]) = v;
	}
}

template <int D>
__device__ __forceinline__ unsigned mma_addr(const unsigned short *tile, int r, int c)
{
	return (unsigned)__cvta_generic_to_shared(&tile[r * D + mma_swizzle<D>(r, c) * 8]);
}

__device__ __forceinline__ void mma_ldmatrix_x4(unsigned x[4], unsigned addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
		     : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3])
		     : "r"(addr));
}

__device__ __forceinline__ void mma_ldmatrix_x4_trans(unsigned x[4], unsigned addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
		     : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3])
		     : "r"(addr));
}

__device__ __forceinline__ void mma_16816(float c[4], const unsigned a[4], unsigned b0, unsigned b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
		     "{%8, %9}, {%0, %1, %2, %3};"
		     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Two floats to an f16x2 register, lo in the low half.
__device__ __forceinline__ unsigned mma_pack(float lo, float hi)
{
	unsigned r;
	asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
	return r;
}

template <int D>
__device__ void flash2_mma_body(float *O, const unsigned short *Q, const unsigned short *K, const unsigned short *V,
				int nq, int nk, float sl2, int causal)
{
	__shared__ __align__(16) unsigned short q_s[MMA_BR * D];
	__shared__ __align__(16) unsigned short k_s[MMA_BC * D];
	__shared__ __align__(16) unsigned short v_s[MMA_BC * D];
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q0 = blockIdx.x * MMA_BR;
	size_t bh = blockIdx.y;
	const unsigned short *Kh = K + bh * nk * D, *Vh = V + bh * nk * D;
	mma_load_tile<D>(q_s, Q + bh * nq * D, q0, MMA_BR, nq);
	__syncthreads();
	// the warp's 16 Q rows as A fragments, one per 16 columns of d: matrices (rows 0-7 | 8-15) x (k 0-7 | 8-15)
	unsigned qa[D / 16][4];
	int mrow = warp * 16 + (lane / 8 % 2) * 8 + lane % 8;
#pragma unroll
	for (int ks = 0; ks < D / 16; ks++)
		mma_ldmatrix_x4(qa[ks], mma_addr<D>(q_s, mrow, 2 * ks + lane / 16));
	float o[D / 8][4], m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f};
#pragma unroll
	for (int n = 0; n < D / 8; n++)
		o[n][0] = o[n][1] = o[n][2] = o[n][3] = 0.0f;
	int row[2] = {q0 + warp * 16 + g, q0 + warp * 16 + g + 8};
	int kend = causal ? min(nk, q0 + MMA_BR) : nk;
	for (int k0 = 0; k0 < kend; k0 += MMA_BC) {
		__syncthreads();
		mma_load_tile<D>(k_s, Kh, k0, MMA_BC, nk);
		mma_load_tile<D>(v_s, Vh, k0, MMA_BC, nk);
		__syncthreads();
		// S = Q Kᵀ: 4 n-tiles of 8 keys; one ldmatrix.x4 gives b0, b1 of two n-tiles
		float s[MMA_BC / 8][4];
#pragma unroll
		for (int n = 0; n < MMA_BC / 8; n++)
			s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.0f;
#pragma unroll
		for (int ks = 0; ks < D / 16; ks++)
#pragma unroll
			for (int n = 0; n < MMA_BC / 8; n += 2) {
				unsigned b[4];
				mma_ldmatrix_x4(b, mma_addr<D>(k_s, n * 8 + (lane / 16) * 8 + lane % 8, 2 * ks + lane / 8 % 2));
				mma_16816(s[n], qa[ks], b[0], b[1]);
				mma_16816(s[n + 1], qa[ks], b[2], b[3]);
			}
		// online softmax for the lane's two rows; the 4 lanes of a row combine by shuffles
		float alpha[2];
#pragma unroll
		for (int h = 0; h < 2; h++) {
			float mx = m[h];
#pragma unroll
			for (int n = 0; n < MMA_BC / 8; n++)
#pragma unroll
				for (int e = 0; e < 2; e++) {
					int j = k0 + n * 8 + 2 * (lane % 4) + e;
					float v = att_masked(row[h], j, nk, causal) ? -INFINITY : s[n][2 * h + e] * sl2;
					s[n][2 * h + e] = v;
					mx = fmaxf(mx, v);
				}
			mx = fmaxf(mx, __shfl_xor_sync(ATT_FULL, mx, 1));
			mx = fmaxf(mx, __shfl_xor_sync(ATT_FULL, mx, 2));
			alpha[h] = exp2f(m[h] - mx);
			float sum = 0.0f;
#pragma unroll
			for (int n = 0; n < MMA_BC / 8; n++)
#pragma unroll
				for (int e = 0; e < 2; e++) {
					float pe = exp2f(s[n][2 * h + e] - mx);
					s[n][2 * h + e] = pe;
					sum += pe;
				}
			sum += __shfl_xor_sync(ATT_FULL, sum, 1);
			sum += __shfl_xor_sync(ATT_FULL, sum, 2);
			l[h] = l[h] * alpha[h] + sum;
			m[h] = mx;
		}
#pragma unroll
		for (int n = 0; n < D / 8; n++) {
			o[n][0] *= alpha[0];
			o[n][1] *= alpha[0];
			o[n][2] *= alpha[1];
			o[n][3] *= alpha[1];
		}
		// O += P V: the accumulators of two key n-tiles are the A fragment of 16 keys, rounded to fp16
#pragma unroll
		for (int kk = 0; kk < MMA_BC / 16; kk++) {
			unsigned pa[4] = {mma_pack(s[2 * kk][0], s[2 * kk][1]), mma_pack(s[2 * kk][2], s[2 * kk][3]),
					  mma_pack(s[2 * kk + 1][0], s[2 * kk + 1][1]),
					  mma_pack(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
			for (int n = 0; n < D / 8; n += 2) {
				unsigned b[4]; // .trans: keys are the k index; matrices (keys 0-7 | 8-15) x (d chunk n | n+1)
				mma_ldmatrix_x4_trans(b, mma_addr<D>(v_s, kk * 16 + (lane / 8 % 2) * 8 + lane % 8,
								     n + lane / 16));
				mma_16816(o[n], pa, b[0], b[1]);
				mma_16816(o[n + 1], pa, b[2], b[3]);
			}
		}
	}
#pragma unroll
	for (int h = 0; h < 2; h++)
		if (row[h] < nq)
#pragma unroll
			for (int n = 0; n < D / 8; n++) {
				float2 v = make_float2(o[n][2 * h] / l[h], o[n][2 * h + 1] / l[h]);
				*reinterpret_cast<float2 *>(&O[(bh * nq + row[h]) * D + n * 8 + 2 * (lane % 4)]) = v;
			}
}

// ---- the entries, one per head dimension
#define ATT_FLASH_ENTRIES(D)                                                                                   \
	extern "C" __global__ void __launch_bounds__(32 * FL_WARPS)                                            \
		attention_flash1_d##D(float *O, float *M, float *L, const float *Q, const float *K, const float *V, \
				      int nq, int nk, float sl2, int causal)                                   \
	{                                                                                                      \
		flash1_body<D>(O, M, L, Q, K, V, nq, nk, sl2, causal);                                         \
	}                                                                                                      \
	extern "C" __global__ void __launch_bounds__(32 * FL_WARPS)                                            \
		attention_flash2_d##D(float *O, const float *Q, const float *K, const float *V, int nq, int nk,     \
				      float sl2, int causal)                                                   \
	{                                                                                                      \
		flash2_body<D>(O, Q, K, V, nq, nk, sl2, causal);                                               \
	}                                                                                                      \
	extern "C" __global__ void __launch_bounds__(32 * FL_WARPS)                                            \
		attention_flash2_mma_d##D(float *O, const unsigned short *Q, const unsigned short *K,             \
					  const unsigned short *V, int nq, int nk, float sl2, int causal)      \
	{                                                                                                      \
		flash2_mma_body<D>(O, Q, K, V, nq, nk, sl2, causal);                                           \
	}

ATT_FLASH_ENTRIES(32)
ATT_FLASH_ENTRIES(64)
ATT_FLASH_ENTRIES(128)
