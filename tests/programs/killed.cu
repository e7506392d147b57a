// killed.cu — a program that dies mid-way: two kernel launches complete, then the process is killed
// (SIGKILL: no exit handler runs), as a crash or an out-of-memory kill would end it.  What completed is
// still gpulab's to store.
#include <csignal>
#include <unistd.h>
#include "check.h"

__global__ void twice(int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] *= 2;
}

int main()
{
	const int n = 256;
	int *v;
	CHECK(cudaMalloc(&v, n * sizeof(int)));
	CHECK(cudaMemset(v, 0, n * sizeof(int)));
	twice<<<2, 128>>>(v, n);
	twice<<<2, 128>>>(v, n);
	CHECK(cudaDeviceSynchronize());
	std::printf("two launches done\n");
	std::fflush(stdout);
	kill(getpid(), SIGKILL);
	twice<<<2, 128>>>(v, n); // never runs
	return 0;
}
