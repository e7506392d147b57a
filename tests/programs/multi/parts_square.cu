// multi/parts_square.cu — a kernel launched from this file.
#include "parts.h"

__global__ void square(int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] *= v[i];
}

cudaError_t square_part(int *v, int n)
{
	square<<<(n + 255) / 256, 256>>>(v, n);
	return cudaDeviceSynchronize();
}
