// conv2d.cu — forward 2-D convolution, y = conv(x, w), as cuDNN and CUTLASS see it: a GEMM in disguise.
//
//   x: input   N x C x H x W (nchw) or N x H x W x C (nhwc)
//   w: filter  K x C x R x S (nchw) or K x R x S x C (nhwc): in both, row k is the K-dimension "Kd"
//              of the GEMM below, contiguous, Kd = C*R*S
//   y: output  N x K x P x Q (nchw) or N x P x Q x K (nhwc), P = (H + 2 pad - dil (R-1) - 1) / stride + 1
//
// The GEMM view: M = N*P*Q (output pixels), Ngemm = K (output channels), Kgemm = Kd = C*R*S (taps).
//   A(m, kk) = x at the input pixel output pixel m reads through tap kk (0 in the padding),
//   B(kk, k) = w[k][kk], C(m, k) = y at pixel m, channel k.
// kk is ordered as the filter's row: (c, r, s) in nchw, (r, s, c) in nhwc.
//
//   variant           what it teaches
//   direct            one thread per output element, the seven nested loops collapsed to three
//   direct_smem       an input tile with its halo and the filter slice staged in shared memory
//   im2col_gemm       two launches: materialise A (M x Kd floats) in global memory, then a tiled SGEMM
//   implicit_gemm     the same SGEMM, A's tile gathered from x on the fly: no im2col buffer
//   implicit_gemm_mma implicit GEMM on tensor cores: fp16 x and w, mma.sync m16n8k16, ldmatrix
//
// Every variant takes any size and guards its edges; zero-filled edge tiles still run their FFMAs or
// HMMAs, so only sizes that fill the tiles do exactly the convolution's multiply-adds.

#include <cuda_fp16.h>

// ---- the layouts: index of an element of x, w and y, and the GEMM coordinates --------------------------
struct conv_shape {
	int N, C, H, W, K, R, S, P, Q, stride, pad, dil, nhwc;
};

#define CONV_PARAMS                                                                                      \
	int N, int C, int H, int W, int K, int R, int S, int P, int Q, int stride, int pad, int dil, int nhwc
#define CONV_SHAPE {N, C, H, W, K, R, S, P, Q, stride, pad, dil, nhwc}

__device__ __forceinline__ int x_index(const conv_shape &cv, int n, int c, int h, int w)
{
	return cv.nhwc ? ((n * cv.H + h) * cv.W + w) * cv.C + c : ((n * cv.C + c) * cv.H + h) * cv.W + w;
}

__device__ __forceinline__ int y_index(const conv_shape &cv, int n, int k, int p, int q)
{
	return cv.nhwc ? ((n * cv.P + p) * cv.Q + q) * cv.K + k : ((n * cv.K + k) * cv.P + p) * cv.Q + q;
}

// Tap kk of a filter row -> (c, r, s).
__device__ __forceinline__ void tap_of(const conv_shape &cv, int kk, int &c, int &r, int &s)
{
	if (cv.nhwc) {
		c = kk % cv.C;
		s = (kk / cv.C) % cv.S;
		r = kk / (cv.C * cv.S);
	} else {
		s = kk % cv.S;
		r = (kk / cv.S) % cv.R;
		c = kk / (cv.R * cv.S);
	}
}

// A(m, kk): the input element output pixel m sees through tap kk, or -1 in the padding.
__device__ __forceinline__ int a_index(const conv_shape &cv, int m, int kk)
{
	int q = m % cv.Q, p = (m / cv.Q) % cv.P, n = m / (cv.P * cv.Q);
	int c, r, s;
	tap_of(cv, kk, c, r, s);
	int h = p * cv.stride - cv.pad + r * cv.dil, w = q * cv.stride - cv.pad + s * cv.dil;
	if (h < 0 || h >= cv.H || w < 0 || w >= cv.W)
		return -1;
	return x_index(cv, n, c, h, w);
}

// C(m, k) -> y.
__device__ __forceinline__ int c_index(const conv_shape &cv, int m, int k)
{
	int q = m % cv.Q, p = (m / cv.Q) % cv.P, n = m / (cv.P * cv.Q);
	return y_index(cv, n, k, p, q);
}

// ---- direct: thread t computes the t-th element of y in memory order, so a warp's stores are
// consecutive in both layouts; what the layout changes is what the warp reads.  In nchw the lanes walk
// q: they read x along a row (stride `stride`) and one broadcast filter tap.  In nhwc the lanes walk k:
// they read one broadcast x element and 32 filter rows Kd floats apart.
extern "C" __global__ void conv2d_direct(float *y, const float *x, const float *w, CONV_PARAMS)
{
	conv_shape cv = CONV_SHAPE;
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= N * K * P * Q)
		return;
	int n, k, p, q;
	if (nhwc) {
		k = t % K, q = (t / K) % Q, p = (t / (K * Q)) % P, n = t / (K * Q * P);
	} else {
		q = t % Q, p = (t / Q) % P, k = (t / (Q * P)) % K, n = t / (Q * P * K);
	}
	int kd = C * R * S;
	float acc = 0.0f;
	for (int kk = 0; kk < kd; kk++) {
		int c, r, s;
		tap_of(cv, kk, c, r, s);
		int h = p * stride - pad + r * dil, wi = q * stride - pad + s * dil;
		if (h >= 0 && h < H && wi >= 0 && wi < W)
			acc += x[x_index(cv, n, c, h, wi)] * w[k * kd + kk];
	}
	y[t] = acc;
}

// ---- direct_smem: a 16x16 block of threads owns a 16x16 tile of output pixels of one image for 8 output
// channels.  For each input channel it stages the input patch those pixels read (the tile and its halo:
// ph x pw) and the 8 filters' R x S taps in shared memory, then every
// thread does its 8 x R x S multiply-adds from there.  Dynamic shared memory: (ph pw + 8 R S) floats,
// ph = 15 stride + (R-1) dil + 1 rows and pw = 15 stride + (S-1) dil + 1 columns of input.
#define DS_TILE 16
#define DS_KB 8

// The patch's row pitch in words.  A warp reads two rows of 16 threads, `stride` words apart in a row:
// at stride 1 a pitch of 16 (mod 32) puts the second row on the other 16 banks; at larger strides an
// odd pitch puts it on the banks of the other parity.  (kernels/conv2d.c sizes shared memory alike.)
__device__ __forceinline__ int ds_pitch(int pw, int stride)
{
	return stride == 1 ? pw + (48 - pw % 32) % 32 : pw | 1;
}

extern "C" __global__ void conv2d_direct_smem(float *y, const float *x, const float *w, CONV_PARAMS)
{
	extern __shared__ float smem[];
	conv_shape cv = CONV_SHAPE;
	int ph = (DS_TILE - 1) * stride + (R - 1) * dil + 1, pw = (DS_TILE - 1) * stride + (S - 1) * dil + 1;
	int pitch = ds_pitch(pw, stride);
	float *xs = smem, *ws = smem + ph * pitch;
	int tx = threadIdx.x, ty = threadIdx.y, tid = ty * DS_TILE + tx;
	int kgroups = (K + DS_KB - 1) / DS_KB;
	int n = blockIdx.z / kgroups, k0 = (blockIdx.z % kgroups) * DS_KB;
	int p = blockIdx.y * DS_TILE + ty, q = blockIdx.x * DS_TILE + tx;
	int h0 = blockIdx.y * DS_TILE * stride - pad, w0 = blockIdx.x * DS_TILE * stride - pad;
	float acc[DS_KB] = {0.0f};
	for (int c = 0; c < C; c++) {
		for (int i = tid; i < ph * pw; i += DS_TILE * DS_TILE) {
			int h = h0 + i / pw, wi = w0 + i % pw;
			xs[(i / pw) * pitch + i % pw] = (h >= 0 && h < H && wi >= 0 && wi < W) ? x[x_index(cv, n, c, h, wi)] : 0.0f;
		}
		for (int i = tid; i < DS_KB * R * S; i += DS_TILE * DS_TILE) {
			int kb = i / (R * S), r = (i / S) % R, s = i % S, k = k0 + kb;
			int kk = nhwc ? (r * S + s) * C + c : (c * R + r) * S + s;
			ws[i] = k < K ? w[k * (C * R * S) + kk] : 0.0f;
		}
		__syncthreads();
		for (int r = 0; r < R; r++)
			for (int s = 0; s < S; s++) {
				float xv = xs[(ty * stride + r * dil) * pitch + tx * stride + s * dil];
				for (int kb = 0; kb < DS_KB; kb++)
					acc[kb] += xv * ws[(kb * R + r) * S + s];
			}
		__syncthreads();
	}
	if (p >= P || q >= Q)
		return;
	for (int kb = 0; kb < DS_KB && k0 + kb < K; kb++)
		y[y_index(cv, n, k0 + kb, p, q)] = acc[kb];
}

// ---- im2col: thread t writes element t of A (M x Kd, row-major), so the stores are consecutive; the
// same input pixel is copied once for every output pixel and tap that reads it (up to R*S times).
extern "C" __global__ void conv2d_im2col(float *col, const float *x, CONV_PARAMS)
{
	conv_shape cv = CONV_SHAPE;
	int kd = C * R * S;
	long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= (long)N * P * Q * kd)
		return;
	int m = (int)(t / kd), kk = (int)(t % kd);
	int i = a_index(cv, m, kk);
	col[t] = i < 0 ? 0.0f : x[i];
}

// ---- the SGEMM both GEMM variants share: C(m, k) = sum_kk A(m, kk) * w[k][kk], a 64x64 tile of C per
// block of 256 threads (16 x 16), each owning 4x4 outputs 16 apart (rows ty + 16i, channels tx + 16j),
// K-loop steps of 16.  A and B are both Kd-contiguous (the filter is stored K x Kd), so both tiles are
// loaded with lanes along kk and stored transposed (As[kk][m], Bs[kk][k]); a warp stores 16 kk of two
// rows, so rows are padded to 66 words (2 mod 32): word kk*66 + r is bank 2 kk + r, all 32 different.
// The inner loop reads a warp's two A words and sixteen consecutive B words per kk.  The A tile comes from the im2col buffer, or is gathered from x.
#define G_BM 64
#define G_BN 64
#define G_BK 16
#define G_DIM 16
#define G_T 4
#define G_PAD 2

template <bool implicit_a>
__device__ __forceinline__ void conv_gemm(float *y, const float *a, const float *w, const conv_shape &cv)
{
	__shared__ float As[G_BK][G_BM + G_PAD];
	__shared__ float Bs[G_BK][G_BN + G_PAD];
	int t = threadIdx.x, ty = t / G_DIM, tx = t % G_DIM;
	int M = cv.N * cv.P * cv.Q, kd = cv.C * cv.R * cv.S;
	int m0 = blockIdx.y * G_BM, n0 = blockIdx.x * G_BN;
	float acc[G_T][G_T] = {{0.0f}};
	for (int k0 = 0; k0 < kd; k0 += G_BK) {
		for (int i = t; i < G_BM * G_BK; i += G_DIM * G_DIM) {
			int r = i / G_BK, kk = i % G_BK, m = m0 + r, n = n0 + r, gk = k0 + kk;
			float av = 0.0f;
			if (m < M && gk < kd) {
				if (implicit_a) {
					int xi = a_index(cv, m, gk);
					av = xi < 0 ? 0.0f : a[xi];
				} else {
					av = a[(long)m * kd + gk];
				}
			}
			As[kk][r] = av;
			Bs[kk][r] = (n < cv.K && gk < kd) ? w[n * kd + gk] : 0.0f;
		}
		__syncthreads();
		for (int kk = 0; kk < G_BK; kk++) {
			float am[G_T], bn[G_T];
			for (int i = 0; i < G_T; i++)
				am[i] = As[kk][ty + i * G_DIM];
			for (int j = 0; j < G_T; j++)
				bn[j] = Bs[kk][tx + j * G_DIM];
			for (int i = 0; i < G_T; i++)
				for (int j = 0; j < G_T; j++)
					acc[i][j] += am[i] * bn[j];
		}
		__syncthreads();
	}
	for (int i = 0; i < G_T; i++)
		for (int j = 0; j < G_T; j++) {
			int m = m0 + ty + i * G_DIM, k = n0 + tx + j * G_DIM;
			if (m < M && k < cv.K)
				y[c_index(cv, m, k)] = acc[i][j];
		}
}

extern "C" __global__ void conv2d_gemm(float *y, const float *col, const float *w, CONV_PARAMS)
{
	conv_shape cv = CONV_SHAPE;
	conv_gemm<false>(y, col, w, cv);
}

extern "C" __global__ void conv2d_implicit_gemm(float *y, const float *x, const float *w, CONV_PARAMS)
{
	conv_shape cv = CONV_SHAPE;
	conv_gemm<true>(y, x, w, cv);
}

// ---- implicit_gemm_mma: fp16 x and w, fp32 y.  A 64x64 tile of C per block of 4 warps, each warp a
// 32x32 quarter: 2 (m16) x 4 (n8) mma.sync.m16n8k16 per 16-wide step of Kd, two steps per 32-wide K
// tile.  The tiles are stored in shared memory as 64-byte rows of Kd (As[m][kk], Bs[k][kk]), XOR-
// swizzled in 16-byte chunks as CUTLASS does: chunk c of row r is stored at chunk c ^ ((r / 2) % 4).
// Two rows share a 128-byte bank line, so the eight rows an ldmatrix phase reads (rows 8i..8i+7, one
// logical chunk) land in eight different 16-byte bank groups, and so do the four chunks of the two rows
// a quarter-warp stores: no conflicts either way.  ldmatrix.x4 gives the A fragment of one m16 tile, or
// the B fragments of two n8 tiles (Bs rows are B's columns: the .col operand needs no .trans).
// A chunk of 8 taps is copied as one 16-byte load when it is contiguous and aligned in global memory
// (nhwc with C a multiple of 8: the 8 taps are 8 channels of one pixel; a filter row with Kd a multiple
// of 8), else element by element with guards — which is why this kernel wants nhwc.
#define H_BM 64
#define H_BN 64
#define H_BK 32
#define H_ROW H_BK // halves per shared row: 64 bytes

// Offset in halves of chunk `chunk` (8 halves) of shared row `row`, swizzled.
__device__ __forceinline__ int swz(int row, int chunk)
{
	return row * H_ROW + ((chunk ^ ((row >> 1) & 3)) << 3);
}

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void ldmatrix_x4(unsigned *r, const __half *p)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(smem_addr(p)));
}

__device__ __forceinline__ void mma_16816(float *d, const unsigned *a, unsigned b0, unsigned b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
		     "{%8, %9}, {%0, %1, %2, %3};"
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Eight halves of row `row` of A (taps k0..k0+7) into dst: one 16-byte load when contiguous and aligned.
__device__ __forceinline__ void load_a8(__half *dst, const __half *x, const conv_shape &cv, int m, int k0, int M,
					int kd)
{
	if (m >= M) { // past the last output pixel: zeros, stored as one vector like the rest
		*reinterpret_cast<uint4 *>(dst) = make_uint4(0, 0, 0, 0);
		return;
	}
	if (cv.nhwc && (cv.C & 7) == 0 && k0 + 8 <= kd) {
		int xi = a_index(cv, m, k0); // 8 channels of one pixel: in or out of the padding together
		*reinterpret_cast<uint4 *>(dst) = xi < 0 ? make_uint4(0, 0, 0, 0) : *reinterpret_cast<const uint4 *>(x + xi);
		return;
	}
	for (int e = 0; e < 8; e++) {
		int xi = k0 + e < kd ? a_index(cv, m, k0 + e) : -1;
		dst[e] = xi < 0 ? __float2half(0.0f) : x[xi];
	}
}

__device__ __forceinline__ void load_b8(__half *dst, const __half *w, int k, int k0, int K, int kd)
{
	if (k >= K || ((kd & 7) == 0 && k0 + 8 <= kd)) {
		*reinterpret_cast<uint4 *>(dst) =
			k < K ? *reinterpret_cast<const uint4 *>(w + (long)k * kd + k0) : make_uint4(0, 0, 0, 0);
		return;
	}
	for (int e = 0; e < 8; e++)
		dst[e] = k0 + e < kd ? w[(long)k * kd + k0 + e] : __float2half(0.0f);
}

extern "C" __global__ void conv2d_implicit_gemm_mma(float *y, const __half *x, const __half *w, CONV_PARAMS)
{
	__shared__ __align__(16) __half As[H_BM * H_ROW];
	__shared__ __align__(16) __half Bs[H_BN * H_ROW];
	conv_shape cv = CONV_SHAPE;
	int t = threadIdx.x, lane = t % 32, warp = t / 32;
	int wm = (warp / 2) * 32, wn = (warp % 2) * 32;
	int M = N * P * Q, kd = C * R * S;
	int m0 = blockIdx.y * H_BM, n0 = blockIdx.x * H_BN;
	float acc[2][4][4] = {{{0.0f}}};
	for (int k0 = 0; k0 < kd; k0 += H_BK) {
		// 64 rows x 4 chunks of 8 halves, for A and for B: 256 chunks each, 2 per thread
		for (int i = t; i < H_BM * (H_BK / 8); i += 128) {
			int row = i / (H_BK / 8), chunk = i % (H_BK / 8);
			load_a8(&As[swz(row, chunk)], x, cv, m0 + row, k0 + chunk * 8, M, kd);
			load_b8(&Bs[swz(row, chunk)], w, n0 + row, k0 + chunk * 8, K, kd);
		}
		__syncthreads();
		#pragma unroll
		for (int ks = 0; ks < H_BK; ks += 16) {
			unsigned a[2][4], b[4][2];
			#pragma unroll
			for (int i = 0; i < 2; i++) // lanes 0-15: rows 0-15 at k 0; lanes 16-31: rows 0-15 at k 8
				ldmatrix_x4(a[i], &As[swz(wm + i * 16 + lane % 16, ks / 8 + lane / 16)]);
			#pragma unroll
			for (int j = 0; j < 4; j += 2) { // lanes 0-7, 8-15: n 0-7 at k 0, 8; lanes 16-31: n 8-15
				unsigned r[4];
				ldmatrix_x4(r, &Bs[swz(wn + j * 8 + (lane / 16) * 8 + lane % 8, ks / 8 + (lane / 8) % 2)]);
				b[j][0] = r[0], b[j][1] = r[1], b[j + 1][0] = r[2], b[j + 1][1] = r[3];
			}
			#pragma unroll
			for (int i = 0; i < 2; i++)
				#pragma unroll
				for (int j = 0; j < 4; j++)
					mma_16816(acc[i][j], a[i], b[j][0], b[j][1]);
		}
		__syncthreads();
	}
	// (every loop over fragments is unrolled: acc must stay in registers, not in a local-memory array)
	// the accumulator fragment: c0, c1 at row lane/4, columns 2 (lane%4) and +1; c2, c3 eight rows down
	#pragma unroll
	for (int i = 0; i < 2; i++)
		#pragma unroll
		for (int j = 0; j < 4; j++)
			#pragma unroll
			for (int e = 0; e < 4; e++) {
				int m = m0 + wm + i * 16 + lane / 4 + (e / 2) * 8;
				int k = n0 + wn + j * 8 + (lane % 4) * 2 + e % 2;
				if (m < M && k < K)
					y[c_index(cv, m, k)] = acc[i][j][e];
			}
}
