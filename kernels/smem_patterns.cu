// smem_patterns.cu — shared-memory reads in the patterns that decide bank conflicts.  Each warp
// reads 4 times; lane l reads word l*STRIDE (+k): 32 banks of 4 bytes, so the conflict degree is the
// number of distinct words one bank must serve.
//
//   variant    what it teaches
//   stride1    consecutive words: 1 wavefront per request, conflict-free
//   stride2    2-way conflicts (lanes l and l+16 share a bank)
//   stride4    4-way            stride8   8-way            stride16  16-way
//   stride32   every lane in bank 0: 32-way, the worst case
//   stride33   an odd stride visits every bank once: conflict-free (why padding works)
//   broadcast  every lane reads the same word: served once, no conflict
//   vec64      64-bit reads (double): two half-warp phases, 2 wavefronts, still conflict-free
//   vec128     128-bit reads (float4): four quarter-warp phases, 4 wavefronts, conflict-free
#define WORDS 2048
#define READS 4

__device__ __forceinline__ void fill(float *s, const float *in)
{
	for (int i = threadIdx.x; i < WORDS; i += blockDim.x)
		s[i] = in[i];
	__syncthreads();
}

template <int STRIDE> __device__ void strided(float *out, const float *in)
{
	__shared__ float s[WORDS];
	fill(s, in);
	int lane = threadIdx.x & 31;
	float acc = 0.0f;
#pragma unroll
	for (int k = 0; k < READS; k++)
		acc += s[(lane * STRIDE + k * 64) % WORDS];
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" __global__ void smem_stride1(float *out, const float *in) { strided<1>(out, in); }
extern "C" __global__ void smem_stride2(float *out, const float *in) { strided<2>(out, in); }
extern "C" __global__ void smem_stride4(float *out, const float *in) { strided<4>(out, in); }
extern "C" __global__ void smem_stride8(float *out, const float *in) { strided<8>(out, in); }
extern "C" __global__ void smem_stride16(float *out, const float *in) { strided<16>(out, in); }
extern "C" __global__ void smem_stride32(float *out, const float *in) { strided<32>(out, in); }
extern "C" __global__ void smem_stride33(float *out, const float *in) { strided<33>(out, in); }
extern "C" __global__ void smem_broadcast(float *out, const float *in) { strided<0>(out, in); }

extern "C" __global__ void smem_vec64(float *out, const float *in)
{
	__shared__ double s[WORDS / 2];
	for (int i = threadIdx.x; i < WORDS / 2; i += blockDim.x)
		s[i] = (double)in[2 * i] + (double)in[2 * i + 1];
	__syncthreads();
	int lane = threadIdx.x & 31;
	double acc = 0.0;
#pragma unroll
	for (int k = 0; k < READS; k++)
		acc += s[lane + k * 32];
	out[blockIdx.x * blockDim.x + threadIdx.x] = (float)acc;
}

extern "C" __global__ void smem_vec128(float *out, const float *in)
{
	__shared__ float4 s[WORDS / 4];
	for (int i = threadIdx.x; i < WORDS / 4; i += blockDim.x)
		s[i] = make_float4(in[4 * i], in[4 * i + 1], in[4 * i + 2], in[4 * i + 3]);
	__syncthreads();
	int lane = threadIdx.x & 31;
	float acc = 0.0f;
#pragma unroll
	for (int k = 0; k < READS; k++) {
		float4 v = s[lane + k * 32];
		acc += v.x + v.y + v.z + v.w;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
