// launches.cu — many small launches: N launches (argv[1], default 2000) of a one-block kernel that adds
// one to 32 counters, so almost all of the time is the per-launch work around the kernel, not the
// kernel.  Checks every counter is N.  `make bench` (bench/launches.sh) times it on gpulab's driver.
#include <cstdlib>
#include "check.h"

__global__ void add_one(int *counter)
{
	counter[threadIdx.x] += 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 2000;
	const int threads = 32;
	int *d, h[threads];
	CHECK(cudaMalloc(&d, sizeof h));
	CHECK(cudaMemset(d, 0, sizeof h));
	for (int i = 0; i < n; i++)
		add_one<<<1, threads>>>(d);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	CHECK(cudaFree(d));
	for (int t = 0; t < threads; t++)
		if (h[t] != n) {
			std::printf("counter %d is %d, expected %d\n", t, h[t], n);
			return 1;
		}
	std::printf("%d launches: every counter is %d\n", n, n);
	return 0;
}
