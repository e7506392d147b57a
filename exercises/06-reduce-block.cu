// The solution of exercise 06-reduce-block: a sequential-addressing tree down to 64 partial sums, then
// the last warp adds them with all 32 lanes active (shuffles, no shared memory, no divergence).
extern "C" __global__ void reduce_block(const float *x, float *out, int n)
{
	__shared__ float s[256];
	int tid = threadIdx.x, i = blockIdx.x * 256 + tid;
	s[tid] = i < n ? x[i] : 0.0f;
	__syncthreads();
	for (int stride = 128; stride >= 64; stride /= 2) {
		if (tid < stride)
			s[tid] += s[tid + stride];
		__syncthreads();
	}
	if (tid < 32) {
		float v = s[tid] + s[tid + 32];
		for (int off = 16; off > 0; off /= 2)
			v += __shfl_down_sync(0xffffffffu, v, off);
		if (tid == 0)
			out[blockIdx.x] = v;
	}
}
