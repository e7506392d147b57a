// multi/main.cu — a program of three files compiled separately by one nvcc command (no -rdc): each file's
// kernels and __constant__ data are their own module, and main calls into the other two.
#include "../check.h"
#include "parts.h"

__constant__ int offset = 100;

__global__ void add_offset(int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] += offset;
}

int main()
{
	const int n = 2048;
	int *h = new int[n], *d;
	for (int i = 0; i < n; i++)
		h[i] = i;
	CHECK(cudaMalloc(&d, n * sizeof(int)));
	CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(scale_part(d, n, 3));    // parts_scale.cu: v *= 3 (its own __constant__)
	add_offset<<<n / 256, 256>>>(d, n);
	CHECK(cudaGetLastError());
	CHECK(square_part(d, n));       // parts_square.cu: v = v * v
	CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < n; i++) {
		long long v = 3LL * i + 100;
		bad += h[i] != (int)(v * v);
	}
	std::printf("three files, three modules: %s\n", bad ? "FAILED" : "matches the CPU");
	return bad ? 1 : 0;
}
