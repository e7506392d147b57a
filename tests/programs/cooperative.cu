// cooperative.cu — a cooperative launch: every block of the grid is resident at once and grid.sync()
// separates two phases (each block sums its part, then block 0 adds the partial sums).  The grid is
// sized from the occupancy calculator, as the CUDA samples do.
#include <cooperative_groups.h>
#include "check.h"

namespace cg = cooperative_groups;

__global__ void grid_sum(const int *in, int n, int *partial, int *total)
{
	cg::grid_group grid = cg::this_grid();
	__shared__ int s[256];
	int sum = 0;
	for (int i = grid.thread_rank(); i < n; i += grid.size())
		sum += in[i];
	s[threadIdx.x] = sum;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k /= 2) {
		if (threadIdx.x < k)
			s[threadIdx.x] += s[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		partial[blockIdx.x] = s[0];
	grid.sync();
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		int t = 0;
		for (int b = 0; b < gridDim.x; b++)
			t += partial[b];
		*total = t;
	}
}

int main()
{
	int dev = 0, coop = 0, sms = 0, per_sm = 0;
	CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, 256, 0));
	int blocks = sms * per_sm < 64 ? sms * per_sm : 64;
	const int n = 100000;
	int *h = new int[n], want = 0;
	for (int i = 0; i < n; i++)
		want += h[i] = (i % 13) - 6;
	int *in, *partial, *total, got = 0;
	CHECK(cudaMalloc(&in, n * sizeof(int)));
	CHECK(cudaMalloc(&partial, blocks * sizeof(int)));
	CHECK(cudaMalloc(&total, sizeof(int)));
	CHECK(cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice));
	int nn = n;
	void *args[] = {&in, &nn, &partial, &total};
	CHECK(cudaLaunchCooperativeKernel((void *)grid_sum, blocks, 256, args, 0, nullptr));
	CHECK(cudaMemcpy(&got, total, sizeof(int), cudaMemcpyDeviceToHost));
	std::printf("cooperative launch supported: %d, %d blocks/SM x %d SMs; grid of %d blocks sums to %d (CPU %d)\n",
		    coop, per_sm, sms, blocks, got, want);
	return got == want && coop ? 0 : 1;
}
