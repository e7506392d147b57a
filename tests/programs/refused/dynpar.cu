// refused/dynpar.cu — dynamic parallelism: a kernel launching a kernel (nvcc -rdc=true -lcudadevrt).
#include "../check.h"

__global__ void child(int *v)
{
	v[threadIdx.x] = threadIdx.x;
}

__global__ void parent(int *v)
{
	if (threadIdx.x == 0)
		child<<<1, 32>>>(v);
}

int main()
{
	int *v;
	CHECK(cudaMalloc(&v, 32 * sizeof(int)));
	parent<<<1, 32>>>(v);
	CHECK(cudaDeviceSynchronize());
	std::printf("ran\n");
	return 0;
}
