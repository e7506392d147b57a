// multi/parts_scale.cu — a kernel and a __constant__ of its own, launched from this file.
#include "parts.h"

__constant__ int factor_c;

__global__ void scale(int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] *= factor_c;
}

cudaError_t scale_part(int *v, int n, int factor)
{
	cudaError_t e = cudaMemcpyToSymbol(factor_c, &factor, sizeof factor);
	if (e != cudaSuccess)
		return e;
	scale<<<(n + 255) / 256, 256>>>(v, n);
	return cudaGetLastError();
}
