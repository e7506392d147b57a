// oob.cu — a kernel that writes past the end of its buffer (one block too many, no bounds check), and
// a program that checks its errors as programs written for a GPU do: the launch itself succeeds, the
// next synchronising call returns the fault, and the program prints cudart's message and exits 1.  The
// buffer fills its 2 MiB granules exactly, so the writes past it leave mapped memory and fault, as they
// would on a GPU (a write a few bytes past a smaller buffer lands in mapped memory and does not).
#include "check.h"

__global__ void fill(int *v, int value)
{
	v[blockIdx.x * blockDim.x + threadIdx.x] = value; // no check against n
}

int main()
{
	const int n = 1 << 20; // 4 MiB; 4097 blocks of 256 threads: 256 writes past the end
	int *v;
	CHECK(cudaMalloc(&v, n * sizeof(int)));
	fill<<<n / 256 + 1, 256>>>(v, 7);
	CHECK(cudaGetLastError());
	std::printf("launched\n");
	CHECK(cudaDeviceSynchronize());
	std::printf("no error reported\n");
	return 0;
}
