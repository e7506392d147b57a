// constant.cu — __constant__ and __device__ variables: a filter's taps in constant memory, filled with
// cudaMemcpyToSymbol and read by every thread; a __device__ counter updated with atomics and read back
// with cudaMemcpyFromSymbol; cudaGetSymbolAddress's pointer passed to a kernel.  Checked against the CPU.
#include <cmath>
#include "check.h"

#define TAPS 9
__constant__ float taps[TAPS];
__device__ unsigned int clipped;
__device__ float bias[4] = {0.5f, -0.25f, 1.0f, 2.0f};

__global__ void convolve(const float *in, float *out, int n, float limit)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float s = bias[i % 4];
	for (int k = 0; k < TAPS; k++) {
		int j = i + k - TAPS / 2;
		if (j >= 0 && j < n)
			s += taps[k] * in[j];
	}
	if (s > limit) {
		s = limit;
		atomicAdd(&clipped, 1u);
	}
	out[i] = s;
}

__global__ void scale_through(float *p, int n, float f)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] *= f;
}

int main()
{
	const int n = 3000;
	const float limit = 6.0f, h_bias[4] = {0.5f, -0.25f, 1.0f, 2.0f};
	float h_taps[TAPS], *in = new float[n], *out = new float[n], *ref = new float[n];
	for (int k = 0; k < TAPS; k++)
		h_taps[k] = 1.0f / (1 + (k - TAPS / 2) * (k - TAPS / 2));
	for (int i = 0; i < n; i++)
		in[i] = (float)((i * 7919) % 1000) / 250.0f;
	unsigned ref_clipped = 0;
	for (int i = 0; i < n; i++) {
		float s = h_bias[i % 4];
		for (int k = 0; k < TAPS; k++) {
			int j = i + k - TAPS / 2;
			if (j >= 0 && j < n)
				s += h_taps[k] * in[j];
		}
		if (s > limit) {
			s = limit;
			ref_clipped++;
		}
		ref[i] = s;
	}
	float *d_in, *d_out;
	CHECK(cudaMalloc(&d_in, n * sizeof(float)));
	CHECK(cudaMalloc(&d_out, n * sizeof(float)));
	CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpyToSymbol(taps, h_taps, sizeof h_taps));
	unsigned zero = 0, got_clipped = 0;
	CHECK(cudaMemcpyToSymbol(clipped, &zero, sizeof zero));
	convolve<<<(n + 127) / 128, 128>>>(d_in, d_out, n, limit);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpyFromSymbol(&got_clipped, clipped, sizeof got_clipped));
	int bad = 0;
	for (int i = 0; i < n; i++)
		if (std::fabs(out[i] - ref[i]) > 1e-5f * (1 + std::fabs(ref[i])) && bad++ < 5)
			std::printf("mismatch at %d: %f vs %f\n", i, out[i], ref[i]);
	std::printf("convolution with %d constant taps: %s, %u of %d clipped (CPU: %u)\n", TAPS,
		    bad ? "FAILED" : "matches the CPU", got_clipped, n, ref_clipped);
	// the bias table through its device address: scale it, read it back
	float *d_bias, h_back[4];
	CHECK(cudaGetSymbolAddress((void **)&d_bias, bias));
	scale_through<<<1, 4>>>(d_bias, 4, 2.0f);
	CHECK(cudaMemcpyFromSymbol(h_back, bias, sizeof h_back));
	for (int k = 0; k < 4; k++)
		if (h_back[k] != 2.0f * h_bias[k])
			bad++;
	std::printf("__device__ bias through cudaGetSymbolAddress: %g %g %g %g\n", h_back[0], h_back[1], h_back[2],
		    h_back[3]);
	return bad || got_clipped != ref_clipped ? 1 : 0;
}
