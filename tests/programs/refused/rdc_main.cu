// refused/rdc_main.cu — device code linked across files (nvcc -rdc=true): main's kernel calls a device
// function defined in rdc_part.cu.  gpulab does not link device code, and says so.
#include "../check.h"

__device__ int twice(int x); // rdc_part.cu

__global__ void apply(int *v)
{
	v[threadIdx.x] = twice(threadIdx.x);
}

int main()
{
	int *v;
	CHECK(cudaMalloc(&v, 32 * sizeof(int)));
	apply<<<1, 32>>>(v);
	CHECK(cudaDeviceSynchronize());
	std::printf("ran\n");
	return 0;
}
