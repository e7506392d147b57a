// reduce.cu — sum and argmax of a float vector: how the partial results of many threads, warps and
// blocks are brought together.  Every variant computes both at once (the two share the combining
// structure and the loads of x): sum into *sum, argmax into *best as a 64-bit key (below).
//
//   variant       what it teaches
//   atomic        one atomicAdd (red.global.add.f32) and one atomicMax per element: simplest, and
//                 every element becomes a global atomic, all on the same address
//   shared_tree   each thread sums a grid-stride slice, then a shared-memory tree per block (halving
//                 strides, a __syncthreads per level); one atomic per block
//   warp_shuffle  the tree inside each warp in registers with __shfl_down_sync, shared memory only to
//                 hand the 8 warp results to warp 0; one atomic per block
//   two_stage     block partials to a buffer, then the last block to finish (a global ticket counter,
//                 after __threadfence) reduces them in a fixed order: no float atomics at all, so the
//                 sum is the same bit for bit on every run, unlike the three above
//
// The two stages of two_stage are one launch (the "last block done" pattern of the CUDA samples'
// threadFenceReduction), because a gpulab variant is one kernel; the counter is reset by the last block
// so the kernel can run again.
//
// argmax key: the float's bits mapped to an unsigned integer that orders like the floats (negative
// values flipped, positive ones with the sign bit set) in the high 32 bits, and 0xFFFFFFFF - index in
// the low 32 bits, so the largest key is the largest value and, among equal values, the lowest index.
// Keys then combine with a plain max, in registers, shared memory or atomicMax on 64 bits.
#define REDUCE_THREADS 256
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ unsigned long long argmax_key(float v, unsigned i)
{
	unsigned b = __float_as_uint(v);
	unsigned ordered = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
	return ((unsigned long long)ordered << 32) | (0xffffffffu - i);
}

__device__ __forceinline__ unsigned long long key_max(unsigned long long a, unsigned long long b)
{
	return a > b ? a : b;
}

// ---- atomic: one thread per element, two global atomics each.
extern "C" __global__ void reduce_atomic(float *sum, unsigned long long *best, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i];
	atomicAdd(sum, v);
	atomicMax(best, argmax_key(v, i));
}

// Each thread's serial share: a grid-stride loop, so consecutive threads read consecutive elements.
__device__ __forceinline__ void thread_partial(const float *x, int n, float *s, unsigned long long *k)
{
	float acc = 0.0f;
	unsigned long long key = 0;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		float v = x[i];
		acc += v;
		key = key_max(key, argmax_key(v, i));
	}
	*s = acc;
	*k = key;
}

// ---- shared_tree: per block, 256 partials in shared memory halved eight times.
extern "C" __global__ void reduce_shared_tree(float *sum, unsigned long long *best, const float *x, int n)
{
	__shared__ float ssum[REDUCE_THREADS];
	__shared__ unsigned long long skey[REDUCE_THREADS];
	int t = threadIdx.x;
	thread_partial(x, n, &ssum[t], &skey[t]);
	__syncthreads();
	for (int stride = REDUCE_THREADS / 2; stride > 0; stride /= 2) {
		if (t < stride) {
			ssum[t] += ssum[t + stride];
			skey[t] = key_max(skey[t], skey[t + stride]);
		}
		__syncthreads();
	}
	if (t == 0) {
		atomicAdd(sum, ssum[0]);
		atomicMax(best, skey[0]);
	}
}

// A warp's 32 values folded into lane 0: five shuffles, each halving the distance.
__device__ __forceinline__ void warp_reduce(float *s, unsigned long long *k)
{
	for (int offset = 16; offset > 0; offset /= 2) {
		*s += __shfl_down_sync(FULL_MASK, *s, offset);
		*k = key_max(*k, __shfl_down_sync(FULL_MASK, *k, offset));
	}
}

// The block's values folded into thread 0: warps reduce in registers, warp 0 reduces their results.
__device__ __forceinline__ void block_reduce(float *s, unsigned long long *k)
{
	__shared__ float wsum[REDUCE_THREADS / 32];
	__shared__ unsigned long long wkey[REDUCE_THREADS / 32];
	int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	warp_reduce(s, k);
	if (lane == 0) {
		wsum[warp] = *s;
		wkey[warp] = *k;
	}
	__syncthreads();
	if (warp == 0) {
		*s = lane < REDUCE_THREADS / 32 ? wsum[lane] : 0.0f;
		*k = lane < REDUCE_THREADS / 32 ? wkey[lane] : 0ull;
		warp_reduce(s, k);
	}
}

// ---- warp_shuffle: registers and shuffles instead of a shared-memory tree.
extern "C" __global__ void reduce_warp_shuffle(float *sum, unsigned long long *best, const float *x, int n)
{
	float s;
	unsigned long long k;
	thread_partial(x, n, &s, &k);
	block_reduce(&s, &k);
	if (threadIdx.x == 0) {
		atomicAdd(sum, s);
		atomicMax(best, k);
	}
}

// ---- two_stage: partials[b], keys[b] per block; the last block to take a ticket reduces them.
extern "C" __global__ void reduce_two_stage(float *sum, unsigned long long *best, const float *x, int n,
					    float *partials, unsigned long long *keys, unsigned *ticket)
{
	__shared__ bool last;
	float s;
	unsigned long long k;
	thread_partial(x, n, &s, &k);
	block_reduce(&s, &k);
	if (threadIdx.x == 0) {
		partials[blockIdx.x] = s;
		keys[blockIdx.x] = k;
		__threadfence(); // the partial is visible to every block before the ticket is taken
		last = atomicAdd(ticket, 1u) == gridDim.x - 1;
	}
	__syncthreads();
	if (!last)
		return;
	// stage two, in the last block: fixed order, so the same bits on every run
	s = 0.0f;
	k = 0;
	for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
		s += __ldcg(&partials[b]); // from L2: other blocks wrote them
		k = key_max(k, __ldcg(&keys[b]));
	}
	block_reduce(&s, &k);
	if (threadIdx.x == 0) {
		*sum = s;
		*best = k;
		*ticket = 0;
	}
}
