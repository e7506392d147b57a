// The solution of exercise 09-histogram: a private histogram per block in shared memory, merged with
// one global atomic per bin.
extern "C" __global__ void histogram(const unsigned *x, unsigned *hist, int n, int bins)
{
	__shared__ unsigned h[256];
	int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
	h[tid] = 0;
	__syncthreads();
	if (i < n && x[i] < (unsigned)bins)
		atomicAdd(&h[x[i]], 1u);
	__syncthreads();
	if (tid < bins && h[tid])
		atomicAdd(&hist[tid], h[tid]);
}
