// gemm.cu — SGEMM, C = alpha*A*B + beta*C with row-major floats (A is M x K, B is K x N, C is M x N),
// in the classic progression from one thread per output to CUTLASS-style warp tiling.  Each step
// changes one thing; `gpulab compare gemm` shows what that one thing bought.
//
//   variant      what it teaches                                                       sizes
//   naive        one thread per C element, lanes of a warp on consecutive *rows*:      any
//                every A load touches 32 sectors (one per lane)
//   coalesced    same loop, lanes on consecutive *columns*: A is a broadcast, B is     any
//                4 sectors per request; only the thread-to-element mapping changed
//   smem         32x32 tiles of A and B staged in shared memory: each global element   any
//                is loaded once per tile instead of once per thread
//   blocktile1d  64x64 block tile, each thread computes 8 outputs of a column: one    any
//                shared B value feeds 8 FFMAs, fewer blocks reload A and B
//   blocktile2d  128x128 block tile, 8x8 outputs per thread from registers: the outer  any
//                product of 8 A and 8 B values gives 64 FFMAs per 16 shared loads
//   vectorized   blocktile2d with float4 global loads/stores and a transposed A tile,  --n, --k
//                so the register fragments come from shared memory as float4 too       multiples of 4
//   warptile     the CUTLASS hierarchy: 128x128x16 block tile, 64x64 warp tiles,       --n, --k
//                2x2 iterations of 32x32 sub-tiles where each lane owns 8x4 outputs    multiples of 4
//
// Edges: naive and coalesced stop the threads past M or N.  The tiled variants zero-fill their shared
// tiles past M, N or K and guard their stores, so they take any size, but the zero-filled edge tiles
// still run their FFMAs: only sizes that are multiples of the tiles do exactly M*N*K of them.
// vectorized and warptile guard the same way, but move float4s: a row of A (K floats) and of B and C
// (N floats) must start on 16 bytes, so they refuse --n or --k that are not multiples of 4, as a
// CUTLASS kernel's can_implement() refuses a misaligned problem.
//
// Epilogue: alpha*acc + beta*c is written with __fmul_rn/__fadd_rn, so nvcc emits two mul and one add
// rather than contracting it into an fma; the FFMA count then is the K loop's alone (M*N*K).

__device__ __forceinline__ float gemm_epilogue(float alpha, float acc, float beta, float c)
{
	return __fadd_rn(__fmul_rn(alpha, acc), __fmul_rn(beta, c));
}

// ---- naive: thread (x, y) of a 32x32 block computes C[row][col] with row from x: the 32 lanes of a
// warp read 32 different rows of A at each k.
extern "C" __global__ void gemm_naive(float *C, const float *A, const float *B, int M, int N, int K, float alpha,
				      float beta)
{
	int row = blockIdx.x * 32 + threadIdx.x;
	int col = blockIdx.y * 32 + threadIdx.y;
	if (row >= M || col >= N)
		return;
	float acc = 0.0f;
	for (int k = 0; k < K; k++)
		acc += A[row * K + k] * B[k * N + col];
	C[row * N + col] = gemm_epilogue(alpha, acc, beta, C[row * N + col]);
}

// ---- coalesced: the same loop with col from x: a warp reads one A element (broadcast) and 32
// consecutive B elements, and writes 32 consecutive C elements.
extern "C" __global__ void gemm_coalesced(float *C, const float *A, const float *B, int M, int N, int K,
					  float alpha, float beta)
{
	int col = blockIdx.x * 32 + threadIdx.x;
	int row = blockIdx.y * 32 + threadIdx.y;
	if (row >= M || col >= N)
		return;
	float acc = 0.0f;
	for (int k = 0; k < K; k++)
		acc += A[row * K + k] * B[k * N + col];
	C[row * N + col] = gemm_epilogue(alpha, acc, beta, C[row * N + col]);
}

// ---- smem: a 32x32 block walks K in 32-wide steps; each thread stages one A and one B element, the
// block then reads the tiles 32 times each from shared memory.
#define SMEM_TILE 32

extern "C" __global__ void gemm_smem(float *C, const float *A, const float *B, int M, int N, int K, float alpha,
				     float beta)
{
	__shared__ float As[SMEM_TILE][SMEM_TILE];
	__shared__ float Bs[SMEM_TILE][SMEM_TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * SMEM_TILE + ty;
	int col = blockIdx.x * SMEM_TILE + tx;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += SMEM_TILE) {
		As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
		Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
		__syncthreads();
		for (int k = 0; k < SMEM_TILE; k++)
			acc += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	if (row < M && col < N)
		C[row * N + col] = gemm_epilogue(alpha, acc, beta, C[row * N + col]);
}

// ---- blocktile1d: a 64x64 tile of C per block of 512 threads; thread t owns rows 8*(t/64)..+7 of
// column t%64.  The K loop steps by 8: a 64x8 slice of A and an 8x64 slice of B per step.
#define T1_BM 64
#define T1_BN 64
#define T1_BK 8
#define T1_TM 8

extern "C" __global__ void gemm_blocktile1d(float *C, const float *A, const float *B, int M, int N, int K,
					    float alpha, float beta)
{
	__shared__ float As[T1_BM * T1_BK];
	__shared__ float Bs[T1_BK * T1_BN];
	int t = threadIdx.x;
	int row0 = blockIdx.y * T1_BM, col0 = blockIdx.x * T1_BN;
	int a_row = t / T1_BK, a_col = t % T1_BK; // 512 threads cover the 64x8 A slice once
	int b_row = t / T1_BN, b_col = t % T1_BN; // and the 8x64 B slice once
	int my_col = t % T1_BN, my_row = (t / T1_BN) * T1_TM;
	float acc[T1_TM] = {0.0f};
	for (int k0 = 0; k0 < K; k0 += T1_BK) {
		int ar = row0 + a_row, ac = k0 + a_col, br = k0 + b_row, bc = col0 + b_col;
		As[a_row * T1_BK + a_col] = (ar < M && ac < K) ? A[ar * K + ac] : 0.0f;
		Bs[b_row * T1_BN + b_col] = (br < K && bc < N) ? B[br * N + bc] : 0.0f;
		__syncthreads();
		for (int k = 0; k < T1_BK; k++) {
			float b = Bs[k * T1_BN + my_col];
			for (int i = 0; i < T1_TM; i++)
				acc[i] += As[(my_row + i) * T1_BK + k] * b;
		}
		__syncthreads();
	}
	int col = col0 + my_col;
	for (int i = 0; i < T1_TM; i++) {
		int row = row0 + my_row + i;
		if (row < M && col < N)
			C[row * N + col] = gemm_epilogue(alpha, acc[i], beta, C[row * N + col]);
	}
}

// ---- blocktile2d: a 128x128 tile of C per block of 256 threads (16 x 16), each owning 8x8 outputs.
// Per k a thread loads 8 A values and 8 B values into registers and does their 64 products.  The 8
// rows and 8 columns of a thread are 16 apart (rows ty + 16i, columns tx + 16j): a warp (two values of
// ty, sixteen of tx) then reads 16 consecutive B words and two A words in different banks, and its
// epilogue touches two runs of 16 consecutive floats of C, as coalesced as a thread-per-element kernel.
#define T2_BM 128
#define T2_BN 128
#define T2_BK 8
#define T2_TM 8
#define T2_TN 8
#define T2_DIM_M (T2_BM / T2_TM) // 16 threads down, 16 across
#define T2_DIM_N (T2_BN / T2_TN)
#define T2_THREADS (T2_DIM_M * T2_DIM_N)

extern "C" __global__ void gemm_blocktile2d(float *C, const float *A, const float *B, int M, int N, int K,
					    float alpha, float beta)
{
	__shared__ float As[T2_BM * T2_BK];
	__shared__ float Bs[T2_BK * T2_BN];
	int t = threadIdx.x, ty = t / T2_DIM_N, tx = t % T2_DIM_N;
	int row0 = blockIdx.y * T2_BM, col0 = blockIdx.x * T2_BN;
	float acc[T2_TM][T2_TN] = {{0.0f}};
	float am[T2_TM], bn[T2_TN];
	for (int k0 = 0; k0 < K; k0 += T2_BK) {
		// 1024 floats of each slice, 256 threads: four passes
		for (int p = 0; p < T2_BM * T2_BK; p += T2_THREADS) {
			int i = p + t;
			int ar = row0 + i / T2_BK, ac = k0 + i % T2_BK;
			int br = k0 + i / T2_BN, bc = col0 + i % T2_BN;
			As[i] = (ar < M && ac < K) ? A[ar * K + ac] : 0.0f;
			Bs[i] = (br < K && bc < N) ? B[br * N + bc] : 0.0f;
		}
		__syncthreads();
		for (int k = 0; k < T2_BK; k++) {
			for (int i = 0; i < T2_TM; i++)
				am[i] = As[(ty + i * T2_DIM_M) * T2_BK + k];
			for (int j = 0; j < T2_TN; j++)
				bn[j] = Bs[k * T2_BN + tx + j * T2_DIM_N];
			for (int i = 0; i < T2_TM; i++)
				for (int j = 0; j < T2_TN; j++)
					acc[i][j] += am[i] * bn[j];
		}
		__syncthreads();
	}
	for (int i = 0; i < T2_TM; i++)
		for (int j = 0; j < T2_TN; j++) {
			int row = row0 + ty + i * T2_DIM_M, col = col0 + tx + j * T2_DIM_N;
			if (row < M && col < N)
				C[row * N + col] = gemm_epilogue(alpha, acc[i][j], beta, C[row * N + col]);
		}
}

// ---- vectorized: blocktile2d's tiles with every global access a float4 (a warp request moves 512
// bytes instead of 128), and A stored transposed (As[k][m]) so that a thread's A values are contiguous
// in shared memory and load as float4s, like its B values.  A thread's 8x8 outputs are now 2x2 groups
// of 4x4, 64 apart: each group's rows and columns are one float4.
#define V_GROUP 4
#define V_GROUPS 2
#define V_SPAN (T2_BM / V_GROUPS) // 64: distance between a thread's two groups

__device__ __forceinline__ float4 gemm_load4(const float *p, bool ok)
{
	return ok ? *reinterpret_cast<const float4 *>(p) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

__device__ __forceinline__ void gemm_store4(float *C, int M, int N, int row, int col, float4 acc, float alpha,
					    float beta)
{
	if (row >= M || col >= N) // N is a multiple of 4: a float4 is wholly inside or outside
		return;
	float4 *p = reinterpret_cast<float4 *>(&C[row * N + col]);
	float4 c = *p;
	c.x = gemm_epilogue(alpha, acc.x, beta, c.x);
	c.y = gemm_epilogue(alpha, acc.y, beta, c.y);
	c.z = gemm_epilogue(alpha, acc.z, beta, c.z);
	c.w = gemm_epilogue(alpha, acc.w, beta, c.w);
	*p = c;
}

// The 4 floats of a float4 from global memory into column `m` of a transposed tile As[k][m].
__device__ __forceinline__ void gemm_store_transposed(float *As, int ld, int k, int m, float4 a)
{
	As[(k + 0) * ld + m] = a.x;
	As[(k + 1) * ld + m] = a.y;
	As[(k + 2) * ld + m] = a.z;
	As[(k + 3) * ld + m] = a.w;
}

extern "C" __global__ void gemm_vectorized(float *C, const float *A, const float *B, int M, int N, int K,
					   float alpha, float beta)
{
	__shared__ __align__(16) float As[T2_BK * T2_BM]; // transposed: As[k * BM + m]
	__shared__ __align__(16) float Bs[T2_BK * T2_BN];
	int t = threadIdx.x, ty = t / T2_DIM_N, tx = t % T2_DIM_N;
	int row0 = blockIdx.y * T2_BM, col0 = blockIdx.x * T2_BN;
	int a_row = t / (T2_BK / 4), a_col = (t % (T2_BK / 4)) * 4; // 128 rows x 2 float4s
	int b_row = t / (T2_BN / 4), b_col = (t % (T2_BN / 4)) * 4; // 8 rows x 32 float4s
	float acc[T2_TM][T2_TN] = {{0.0f}};
	float am[T2_TM], bn[T2_TN];
	for (int k0 = 0; k0 < K; k0 += T2_BK) {
		int ar = row0 + a_row, ac = k0 + a_col, br = k0 + b_row, bc = col0 + b_col;
		gemm_store_transposed(As, T2_BM, a_col, a_row, gemm_load4(&A[ar * K + ac], ar < M && ac < K));
		*reinterpret_cast<float4 *>(&Bs[b_row * T2_BN + b_col]) = gemm_load4(&B[br * N + bc], br < K && bc < N);
		__syncthreads();
		for (int k = 0; k < T2_BK; k++) {
			for (int g = 0; g < V_GROUPS; g++) {
				*reinterpret_cast<float4 *>(&am[g * V_GROUP]) =
					*reinterpret_cast<const float4 *>(&As[k * T2_BM + g * V_SPAN + ty * V_GROUP]);
				*reinterpret_cast<float4 *>(&bn[g * V_GROUP]) =
					*reinterpret_cast<const float4 *>(&Bs[k * T2_BN + g * V_SPAN + tx * V_GROUP]);
			}
			for (int i = 0; i < T2_TM; i++)
				for (int j = 0; j < T2_TN; j++)
					acc[i][j] += am[i] * bn[j];
		}
		__syncthreads();
	}
	for (int i = 0; i < T2_TM; i++)
		for (int g = 0; g < V_GROUPS; g++) {
			int row = row0 + (i / V_GROUP) * V_SPAN + ty * V_GROUP + i % V_GROUP;
			int col = col0 + g * V_SPAN + tx * V_GROUP;
			const float *a = &acc[i][g * V_GROUP];
			gemm_store4(C, M, N, row, col, make_float4(a[0], a[1], a[2], a[3]), alpha, beta);
		}
}

// ---- warptile: three levels, as CUTLASS arranges them.  Block tile 128x128 (K step 16), four warps
// in 2x2 each owning a 64x64 warp tile, which a warp covers in 2x2 iterations of a 32x32 sub-tile; in a
// sub-tile the lanes sit 4 (rows) x 8 (columns) and each owns an 8x4 thread tile.  A warp's fragment
// loads from shared memory are then a few distinct float4 rows shared by many lanes.
#define W_BM 128
#define W_BN 128
#define W_BK 16
#define W_WM 64
#define W_WN 64
#define W_ITER_M 2
#define W_ITER_N 2
#define W_SUB_M (W_WM / W_ITER_M) // 32
#define W_SUB_N (W_WN / W_ITER_N) // 32
#define W_TM 8
#define W_TN 4
#define W_LANES_N (W_SUB_N / W_TN) // 8 lanes across a sub-tile row, 4 down
#define W_THREADS ((W_BM / W_WM) * (W_BN / W_WN) * 32)

extern "C" __global__ void __launch_bounds__(W_THREADS)
	gemm_warptile(float *C, const float *A, const float *B, int M, int N, int K, float alpha, float beta)
{
	__shared__ __align__(16) float As[W_BK * W_BM]; // transposed: As[k * BM + m]
	__shared__ __align__(16) float Bs[W_BK * W_BN];
	int t = threadIdx.x, warp = t / 32, lane = t % 32;
	int row0 = blockIdx.y * W_BM, col0 = blockIdx.x * W_BN;
	int warp_row = (warp / (W_BN / W_WN)) * W_WM, warp_col = (warp % (W_BN / W_WN)) * W_WN;
	int lane_row = (lane / W_LANES_N) * W_TM, lane_col = (lane % W_LANES_N) * W_TN;
	float acc[W_ITER_M * W_TM][W_ITER_N * W_TN] = {{0.0f}};
	float am[W_ITER_M * W_TM], bn[W_ITER_N * W_TN];
	for (int k0 = 0; k0 < K; k0 += W_BK) {
		// A slice 128x16 and B slice 16x128: 512 float4s each, four per thread
		for (int p = t; p < W_BM * W_BK / 4; p += W_THREADS) {
			int a_row = p / (W_BK / 4), a_col = (p % (W_BK / 4)) * 4;
			int ar = row0 + a_row, ac = k0 + a_col;
			gemm_store_transposed(As, W_BM, a_col, a_row, gemm_load4(&A[ar * K + ac], ar < M && ac < K));
			int b_row = p / (W_BN / 4), b_col = (p % (W_BN / 4)) * 4;
			int br = k0 + b_row, bc = col0 + b_col;
			*reinterpret_cast<float4 *>(&Bs[b_row * W_BN + b_col]) =
				gemm_load4(&B[br * N + bc], br < K && bc < N);
		}
		__syncthreads();
		for (int k = 0; k < W_BK; k++) {
			for (int wm = 0; wm < W_ITER_M; wm++)
				for (int i = 0; i < W_TM; i += 4)
					*reinterpret_cast<float4 *>(&am[wm * W_TM + i]) = *reinterpret_cast<const float4 *>(
						&As[k * W_BM + warp_row + wm * W_SUB_M + lane_row + i]);
			for (int wn = 0; wn < W_ITER_N; wn++)
				*reinterpret_cast<float4 *>(&bn[wn * W_TN]) = *reinterpret_cast<const float4 *>(
					&Bs[k * W_BN + warp_col + wn * W_SUB_N + lane_col]);
			for (int i = 0; i < W_ITER_M * W_TM; i++)
				for (int j = 0; j < W_ITER_N * W_TN; j++)
					acc[i][j] += am[i] * bn[j];
		}
		__syncthreads();
	}
	for (int wm = 0; wm < W_ITER_M; wm++)
		for (int i = 0; i < W_TM; i++)
			for (int wn = 0; wn < W_ITER_N; wn++) {
				const float *a = &acc[wm * W_TM + i][wn * W_TN];
				gemm_store4(C, M, N, row0 + warp_row + wm * W_SUB_M + lane_row + i,
					    col0 + warp_col + wn * W_SUB_N + lane_col, make_float4(a[0], a[1], a[2], a[3]),
					    alpha, beta);
			}
}
