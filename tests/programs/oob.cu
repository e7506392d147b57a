// oob.cu — a kernel that writes past the end of its buffer (one thread too many, no bounds check), and
// a program that checks its errors as programs written for a GPU do: the launch itself succeeds, the
// next synchronising call returns the fault, and the program prints cudart's message and exits 1.
#include "check.h"

__global__ void fill(int *v, int value)
{
	v[blockIdx.x * blockDim.x + threadIdx.x] = value; // no check against n
}

int main()
{
	const int n = 1000; // 4 blocks of 256 threads: 24 writes past the end
	int *v;
	CHECK(cudaMalloc(&v, n * sizeof(int)));
	fill<<<(n + 255) / 256, 256>>>(v, 7);
	CHECK(cudaGetLastError());
	std::printf("launched\n");
	CHECK(cudaDeviceSynchronize());
	std::printf("no error reported\n");
	return 0;
}
