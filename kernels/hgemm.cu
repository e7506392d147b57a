// hgemm.cu — half-precision GEMM on tensor cores, C = A*B with A (M x K) and B (K x N) row-major fp16
// and C (M x N) row-major fp32, accumulated in fp32.  From an FFMA baseline to a cp.async pipeline,
// each step fixing what the previous one measured (`gpulab compare hgemm`):
//
//   variant       what it teaches
//   simt          32x32 shared tiles, one fp32 FFMA per multiply-add: the baseline tensor cores replace
//   wmma          nvcuda::wmma 16x16x16 fragments loaded straight from global memory (2 HMMA each)
//   wmma_smem     the same fragments loaded from 64x32 / 32x64 tiles staged in shared memory
//   mma           inline mma.sync.m16n8k16 (1 HMMA each); fragments gathered by 32-bit shared loads
//                 from a row-major A tile and a transposed B tile
//   mma_ldmatrix  fragments loaded by ldmatrix.x4 (A) and ldmatrix.x4.trans (B) from row-major tiles:
//                 the rows of one 8x8 matrix sit 64 or 128 bytes apart and share bank groups
//   mma_swizzle   the same tiles with each 16-byte chunk XORed with its 128-byte line number (CUTLASS's
//                 Swizzle<3,4,3>), so the 8 rows of every 8x8 matrix hit 8 different bank groups
//   mma_pipeline  mma_swizzle fed by cp.async into a 3-stage ring of shared tiles: tiles k+1 and k+2
//                 are in flight while the tensor cores work on tile k
//
// Tiling of the tensor-core variants: a 128-thread CTA computes a 64x64 tile of C, K in steps of 32;
// its four warps (2x2) each own a 32x32 warp tile = 2 (m) x 4 (n) m16n8k16 tiles, two K steps of 16
// per CTA K step.  They need M and N multiples of 64 and K a multiple of 32 (the harness refuses the
// rest with that rule); simt guards its edges and takes any size.

#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

#define HG_BM 64
#define HG_BN 64
#define HG_BK 32
#define HG_THREADS 128
#define HG_STAGES 3

// ---- simt: C tile 32x32 per 32x32-thread block; the fp16 tiles are widened to fp32 in the FFMA.
#define S_TILE 32

extern "C" __global__ void hgemm_simt(float *C, const __half *A, const __half *B, int M, int N, int K)
{
	__shared__ __half As[S_TILE][S_TILE];
	__shared__ __half Bs[S_TILE][S_TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * S_TILE + ty, col = blockIdx.x * S_TILE + tx;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += S_TILE) {
		As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : __float2half(0.0f);
		Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : __float2half(0.0f);
		__syncthreads();
		for (int k = 0; k < S_TILE; k++)
			acc = fmaf(__half2float(As[ty][k]), __half2float(Bs[k][tx]), acc);
		__syncthreads();
	}
	if (row < M && col < N)
		C[row * N + col] = acc;
}

// ---- what the tensor-core variants share: the warp's place in the CTA tile.
struct hg_warp {
	int row, col; // of the warp tile inside the CTA tile
};

__device__ __forceinline__ hg_warp hg_warp_of(int warp)
{
	hg_warp w = {(warp / 2) * 32, (warp % 2) * 32};
	return w;
}

// ---- wmma: each warp keeps 2x2 accumulators of 16x16 and loads A and B fragments from global memory.
extern "C" __global__ void __launch_bounds__(HG_THREADS)
	hgemm_wmma(float *C, const __half *A, const __half *B, int M, int N, int K)
{
	using namespace nvcuda;
	hg_warp w = hg_warp_of(threadIdx.x / 32);
	int row0 = blockIdx.y * HG_BM + w.row, col0 = blockIdx.x * HG_BN + w.col;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			wmma::fill_fragment(acc[i][j], 0.0f);
	for (int k = 0; k < K; k += 16) {
		for (int i = 0; i < 2; i++)
			wmma::load_matrix_sync(a[i], A + (row0 + 16 * i) * K + k, K);
		for (int j = 0; j < 2; j++)
			wmma::load_matrix_sync(b[j], B + k * N + col0 + 16 * j, N);
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 2; j++)
				wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
	}
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			wmma::store_matrix_sync(C + (row0 + 16 * i) * N + col0 + 16 * j, acc[i][j], N, wmma::mem_row_major);
}

// Copy the CTA's A tile (64 x 32 halves) and B tile (32 x 64 halves) into shared memory row-major, in
// 16-byte chunks: 256 chunks each, two per thread.
__device__ __forceinline__ void hg_stage_plain(__half *As, __half *Bs, const __half *A, const __half *B, int N,
					       int K, int row0, int col0, int k0)
{
	for (int c = threadIdx.x; c < HG_BM * HG_BK / 8; c += HG_THREADS) {
		int r = c / (HG_BK / 8), ch = c % (HG_BK / 8);
		*reinterpret_cast<uint4 *>(&As[r * HG_BK + ch * 8]) =
			*reinterpret_cast<const uint4 *>(&A[(row0 + r) * K + k0 + ch * 8]);
	}
	for (int c = threadIdx.x; c < HG_BK * HG_BN / 8; c += HG_THREADS) {
		int r = c / (HG_BN / 8), ch = c % (HG_BN / 8);
		*reinterpret_cast<uint4 *>(&Bs[r * HG_BN + ch * 8]) =
			*reinterpret_cast<const uint4 *>(&B[(k0 + r) * N + col0 + ch * 8]);
	}
}

// ---- wmma_smem: the wmma fragments come from the staged tiles.
extern "C" __global__ void __launch_bounds__(HG_THREADS)
	hgemm_wmma_smem(float *C, const __half *A, const __half *B, int M, int N, int K)
{
	using namespace nvcuda;
	__shared__ __align__(16) __half As[HG_BM * HG_BK];
	__shared__ __align__(16) __half Bs[HG_BK * HG_BN];
	hg_warp w = hg_warp_of(threadIdx.x / 32);
	int row0 = blockIdx.y * HG_BM, col0 = blockIdx.x * HG_BN;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			wmma::fill_fragment(acc[i][j], 0.0f);
	for (int k0 = 0; k0 < K; k0 += HG_BK) {
		hg_stage_plain(As, Bs, A, B, N, K, row0, col0, k0);
		__syncthreads();
		for (int k = 0; k < HG_BK; k += 16) {
			for (int i = 0; i < 2; i++)
				wmma::load_matrix_sync(a[i], &As[(w.row + 16 * i) * HG_BK + k], HG_BK);
			for (int j = 0; j < 2; j++)
				wmma::load_matrix_sync(b[j], &Bs[k * HG_BN + w.col + 16 * j], HG_BN);
			for (int i = 0; i < 2; i++)
				for (int j = 0; j < 2; j++)
					wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
		}
		__syncthreads();
	}
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			wmma::store_matrix_sync(C + (row0 + w.row + 16 * i) * N + col0 + w.col + 16 * j, acc[i][j], N,
						wmma::mem_row_major);
}

// ---- the mma.sync variants: D = A*B + D on one m16n8k16 tile.  Fragments (PTX ISA, "Matrix fragments
// for mma.m16n8k16"), with g = lane / 4 and t = lane % 4:
//   A a0..a7 (4 registers of 2 halves): rows g (a0 a1 a4 a5) and g+8 (a2 a3 a6 a7), columns 2t, 2t+1
//            (a0..a3) and 2t+8, 2t+9 (a4..a7);
//   B b0..b3 (2 registers): k rows 2t, 2t+1 (b0 b1) and 2t+8, 2t+9 (b2 b3), column g;
//   C/D c0..c3: rows g (c0 c1) and g+8 (c2 c3), columns 2t, 2t+1.
__device__ __forceinline__ void hg_mma(float d[4], const uint32_t a[4], const uint32_t b[2])
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
		     "{%0,%1,%2,%3};\n"
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// The warp's 32x32 tile of C from its 2x4 m16n8k16 accumulators (c0 c1 and c2 c3 as float2s).
__device__ __forceinline__ void hg_store_acc(float *C, int N, int row0, int col0, float acc[2][4][4])
{
	int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 4; j++) {
			float *p = &C[(row0 + 16 * i + g) * N + col0 + 8 * j + 2 * t];
			*reinterpret_cast<float2 *>(p) = make_float2(acc[i][j][0], acc[i][j][1]);
			*reinterpret_cast<float2 *>(p + 8 * N) = make_float2(acc[i][j][2], acc[i][j][3]);
		}
}

__device__ __forceinline__ uint32_t hg_u32(const __half *p)
{
	return *reinterpret_cast<const uint32_t *>(p);
}

// ---- mma: A row-major in shared memory (As[m][k]) and B transposed (Bt[n][k]), so that each register
// of a fragment is two consecutive halves: one 32-bit shared load.
extern "C" __global__ void __launch_bounds__(HG_THREADS)
	hgemm_mma(float *C, const __half *A, const __half *B, int M, int N, int K)
{
	__shared__ __align__(16) __half As[HG_BM * HG_BK];
	__shared__ __align__(16) __half Bt[HG_BN * HG_BK];
	hg_warp w = hg_warp_of(threadIdx.x / 32);
	int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
	int row0 = blockIdx.y * HG_BM, col0 = blockIdx.x * HG_BN;
	float acc[2][4][4] = {};
	for (int k0 = 0; k0 < K; k0 += HG_BK) {
		for (int c = threadIdx.x; c < HG_BM * HG_BK / 8; c += HG_THREADS) {
			int r = c / (HG_BK / 8), ch = c % (HG_BK / 8);
			*reinterpret_cast<uint4 *>(&As[r * HG_BK + ch * 8]) =
				*reinterpret_cast<const uint4 *>(&A[(row0 + r) * K + k0 + ch * 8]);
		}
		for (int c = threadIdx.x; c < HG_BK * HG_BN / 8; c += HG_THREADS) {
			int r = c / (HG_BN / 8), ch = c % (HG_BN / 8);
			uint4 v = *reinterpret_cast<const uint4 *>(&B[(k0 + r) * N + col0 + ch * 8]);
			const __half *h = reinterpret_cast<const __half *>(&v);
			for (int e = 0; e < 8; e++)
				Bt[(ch * 8 + e) * HG_BK + r] = h[e];
		}
		__syncthreads();
		for (int k = 0; k < HG_BK; k += 16) {
			uint32_t a[2][4], b[4][2];
			for (int i = 0; i < 2; i++) {
				const __half *p = &As[(w.row + 16 * i + g) * HG_BK + k + 2 * t];
				a[i][0] = hg_u32(p);
				a[i][1] = hg_u32(p + 8 * HG_BK);
				a[i][2] = hg_u32(p + 8);
				a[i][3] = hg_u32(p + 8 * HG_BK + 8);
			}
			for (int j = 0; j < 4; j++) {
				const __half *p = &Bt[(w.col + 8 * j + g) * HG_BK + k + 2 * t];
				b[j][0] = hg_u32(p);
				b[j][1] = hg_u32(p + 8);
			}
			for (int i = 0; i < 2; i++)
				for (int j = 0; j < 4; j++)
					hg_mma(acc[i][j], a[i], b[j]);
		}
		__syncthreads();
	}
	hg_store_acc(C, N, row0 + w.row, col0 + w.col, acc);
}

// ---- ldmatrix: lanes 8q..8q+7 give the row addresses of the 8x8 matrix q; each lane gets two halves
// of every matrix (row lane/4, columns 2(lane%4), +1; with .trans the transposed element).
__device__ __forceinline__ void hg_ldmatrix_x4(uint32_t r[4], const __half *p)
{
	uint32_t s = (uint32_t)__cvta_generic_to_shared(p);
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(s));
}

__device__ __forceinline__ void hg_ldmatrix_x4_trans(uint32_t r[4], const __half *p)
{
	uint32_t s = (uint32_t)__cvta_generic_to_shared(p);
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(s));
}

// Where element (r, c) of a tile with `ld` halves per row lives.  Plain: r * ld + c.  Swizzled, as
// CUTLASS's Swizzle<3,4,3> does it on byte offsets: the 16-byte chunk (bits 4-6) is XORed with the
// 128-byte line (bits 7-9), o ^ (((o >> 7) & 7) << 4).  Chunks move only inside their 128-byte line, and
// the 8 rows of any 8x8 matrix (8 consecutive rows of 128 bytes, or of 64 bytes: 4 lines) land in 8
// different bank groups ((address / 16) % 8), so ldmatrix needs one wavefront per matrix.
__device__ __forceinline__ int hg_swizzle(int byte)
{
	return byte ^ (((byte >> 7) & 7) << 4);
}

template <int LD, bool SWIZZLE> __device__ __forceinline__ int hg_at(int r, int c)
{
	int e = r * LD + c;
	return SWIZZLE ? hg_swizzle(2 * e) / 2 : e;
}

// The same chunk copies as hg_stage_plain, to swizzled (or plain) addresses.
template <bool SWIZZLE>
__device__ __forceinline__ void hg_stage(__half *As, __half *Bs, const __half *A, const __half *B, int N, int K,
					 int row0, int col0, int k0)
{
	for (int c = threadIdx.x; c < HG_BM * HG_BK / 8; c += HG_THREADS) {
		int r = c / (HG_BK / 8), col = (c % (HG_BK / 8)) * 8;
		*reinterpret_cast<uint4 *>(&As[hg_at<HG_BK, SWIZZLE>(r, col)]) =
			*reinterpret_cast<const uint4 *>(&A[(row0 + r) * K + k0 + col]);
	}
	for (int c = threadIdx.x; c < HG_BK * HG_BN / 8; c += HG_THREADS) {
		int r = c / (HG_BN / 8), col = (c % (HG_BN / 8)) * 8;
		*reinterpret_cast<uint4 *>(&Bs[hg_at<HG_BN, SWIZZLE>(r, col)]) =
			*reinterpret_cast<const uint4 *>(&B[(k0 + r) * N + col0 + col]);
	}
}

// One CTA K step (32) of a warp on staged tiles: per 16 of K, two ldmatrix.x4 for the A fragments of
// its two m tiles, two ldmatrix.x4.trans for the B fragments of its four n tiles, eight mma.
// A: lane l points at row l%16, column (l/16)*8 of the 16x16 A tile, so matrices 0..3 are a0a1, a2a3,
// a4a5, a6a7.  B (row-major k x n): lane l points at k row (l%8) + 8*((l/8)%2), column (l/16)*8, so
// the transposed matrices 0, 1 are b0b1, b2b3 of n tile 2p and matrices 2, 3 those of n tile 2p+1.
template <bool SWIZZLE>
__device__ __forceinline__ void hg_warp_step(const __half *As, const __half *Bs, hg_warp w, float acc[2][4][4])
{
	int lane = threadIdx.x % 32;
	for (int k = 0; k < HG_BK; k += 16) {
		uint32_t a[2][4], b[4][2];
		for (int i = 0; i < 2; i++)
			hg_ldmatrix_x4(a[i], &As[hg_at<HG_BK, SWIZZLE>(w.row + 16 * i + lane % 16, k + (lane / 16) * 8)]);
		for (int p = 0; p < 2; p++) {
			uint32_t r[4];
			int kr = k + lane % 8 + 8 * ((lane / 8) % 2), nc = w.col + 16 * p + (lane / 16) * 8;
			hg_ldmatrix_x4_trans(r, &Bs[hg_at<HG_BN, SWIZZLE>(kr, nc)]);
			b[2 * p][0] = r[0];
			b[2 * p][1] = r[1];
			b[2 * p + 1][0] = r[2];
			b[2 * p + 1][1] = r[3];
		}
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 4; j++)
				hg_mma(acc[i][j], a[i], b[j]);
	}
}

template <bool SWIZZLE> __device__ __forceinline__ void hg_ldmatrix_gemm(float *C, const __half *A, const __half *B,
									  int N, int K)
{
	__shared__ __align__(128) __half As[HG_BM * HG_BK];
	__shared__ __align__(128) __half Bs[HG_BK * HG_BN];
	hg_warp w = hg_warp_of(threadIdx.x / 32);
	int row0 = blockIdx.y * HG_BM, col0 = blockIdx.x * HG_BN;
	float acc[2][4][4] = {};
	for (int k0 = 0; k0 < K; k0 += HG_BK) {
		hg_stage<SWIZZLE>(As, Bs, A, B, N, K, row0, col0, k0);
		__syncthreads();
		hg_warp_step<SWIZZLE>(As, Bs, w, acc);
		__syncthreads();
	}
	hg_store_acc(C, N, row0 + w.row, col0 + w.col, acc);
}

extern "C" __global__ void __launch_bounds__(HG_THREADS)
	hgemm_mma_ldmatrix(float *C, const __half *A, const __half *B, int M, int N, int K)
{
	hg_ldmatrix_gemm<false>(C, A, B, N, K);
}

extern "C" __global__ void __launch_bounds__(HG_THREADS)
	hgemm_mma_swizzle(float *C, const __half *A, const __half *B, int M, int N, int K)
{
	hg_ldmatrix_gemm<true>(C, A, B, N, K);
}

// ---- mma_pipeline: cp.async (16 bytes, .cg: bypassing L1) into stage s of a 3-stage ring.  Before the
// loop, tiles 0 and 1 are in flight (one commit group each); at step kt the CTA waits until at most one
// group is pending (tile kt has landed), syncs, issues tile kt+2 into the stage tile kt-1 used (every warp
// finished it before that sync), and computes on tile kt.  Every step commits a group, empty or not, so
// "at most one pending" always means "tile kt is complete".
__device__ __forceinline__ void hg_cp_async16(__half *dst, const __half *src)
{
	uint32_t s = (uint32_t)__cvta_generic_to_shared(dst);
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src));
}

__device__ __forceinline__ void hg_stage_async(__half *As, __half *Bs, const __half *A, const __half *B, int N, int K,
					       int row0, int col0, int k0)
{
	for (int c = threadIdx.x; c < HG_BM * HG_BK / 8; c += HG_THREADS) {
		int r = c / (HG_BK / 8), col = (c % (HG_BK / 8)) * 8;
		hg_cp_async16(&As[hg_at<HG_BK, true>(r, col)], &A[(row0 + r) * K + k0 + col]);
	}
	for (int c = threadIdx.x; c < HG_BK * HG_BN / 8; c += HG_THREADS) {
		int r = c / (HG_BN / 8), col = (c % (HG_BN / 8)) * 8;
		hg_cp_async16(&Bs[hg_at<HG_BN, true>(r, col)], &B[(k0 + r) * N + col0 + col]);
	}
}

extern "C" __global__ void __launch_bounds__(HG_THREADS)
	hgemm_mma_pipeline(float *C, const __half *A, const __half *B, int M, int N, int K)
{
	__shared__ __align__(128) __half As[HG_STAGES][HG_BM * HG_BK];
	__shared__ __align__(128) __half Bs[HG_STAGES][HG_BK * HG_BN];
	hg_warp w = hg_warp_of(threadIdx.x / 32);
	int row0 = blockIdx.y * HG_BM, col0 = blockIdx.x * HG_BN;
	int ktiles = K / HG_BK;
	float acc[2][4][4] = {};
	for (int s = 0; s < HG_STAGES - 1; s++) {
		if (s < ktiles)
			hg_stage_async(As[s], Bs[s], A, B, N, K, row0, col0, s * HG_BK);
		asm volatile("cp.async.commit_group;\n" ::);
	}
	for (int kt = 0; kt < ktiles; kt++) {
		asm volatile("cp.async.wait_group %0;\n" ::"n"(HG_STAGES - 2));
		__syncthreads();
		int next = kt + HG_STAGES - 1;
		if (next < ktiles)
			hg_stage_async(As[next % HG_STAGES], Bs[next % HG_STAGES], A, B, N, K, row0, col0, next * HG_BK);
		asm volatile("cp.async.commit_group;\n" ::);
		hg_warp_step<true>(As[kt % HG_STAGES], Bs[kt % HG_STAGES], w, acc);
	}
	asm volatile("cp.async.wait_all;\n" ::);
	hg_store_acc(C, N, row0 + w.row, col0 + w.col, acc);
}
