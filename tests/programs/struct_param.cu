// struct_param.cu — structs passed to kernels by value: mixed member sizes and alignments (char, short,
// double, float3, int4), a struct holding device pointers, and one of 512 bytes (an array member).  Each
// kernel writes what it received; the host checks every field against what it passed.
#include <cstring>
#include "check.h"

struct Mixed {
	char tag;
	short count;
	double scale;
	float3 offset;
	int4 lanes;
	char last;
};

struct Buffers {
	const float *src;
	float *dst;
	int n;
	float gain;
};

struct Table {
	int values[128];
};

__global__ void read_mixed(Mixed m, double *out)
{
	out[0] = m.tag;
	out[1] = m.count;
	out[2] = m.scale;
	out[3] = m.offset.x + 10 * m.offset.y + 100 * m.offset.z;
	out[4] = m.lanes.x + m.lanes.y + m.lanes.z + m.lanes.w;
	out[5] = m.last;
}

__global__ void saxpy_struct(Buffers b, float add)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < b.n)
		b.dst[i] = b.gain * b.src[i] + add;
}

__global__ void sum_table(Table t, int *out)
{
	int s = 0;
	for (int i = threadIdx.x; i < 128; i += blockDim.x)
		s += t.values[i];
	atomicAdd(out, s);
}

int main()
{
	Mixed m = {'g', -1234, 3.25, make_float3(1.5f, 2.0f, 3.0f), make_int4(1, 20, 300, 4000), 'z'};
	double *d_out, out[6];
	CHECK(cudaMalloc(&d_out, sizeof out));
	read_mixed<<<1, 1>>>(m, d_out);
	CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
	double want[6] = {'g', -1234, 3.25, 1.5 + 20 + 300, 4321, 'z'};
	int bad = std::memcmp(out, want, sizeof want) != 0;
	std::printf("Mixed by value: tag %c count %g scale %g offset %g lanes %g last %c\n", (char)out[0], out[1],
		    out[2], out[3], out[4], (char)out[5]);

	const int n = 1000;
	float *h = new float[n], *r = new float[n];
	for (int i = 0; i < n; i++)
		h[i] = 0.5f * i;
	Buffers b = {nullptr, nullptr, n, 3.0f};
	CHECK(cudaMalloc((void **)&b.src, n * sizeof(float)));
	CHECK(cudaMalloc(&b.dst, n * sizeof(float)));
	CHECK(cudaMemcpy((void *)b.src, h, n * sizeof(float), cudaMemcpyHostToDevice));
	saxpy_struct<<<(n + 255) / 256, 256>>>(b, 1.0f);
	CHECK(cudaMemcpy(r, b.dst, n * sizeof(float), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		bad += r[i] != 3.0f * h[i] + 1.0f;
	std::printf("Buffers by value: r[999] = %g (CPU %g)\n", r[n - 1], 3.0f * h[n - 1] + 1.0f);

	Table t;
	int want_sum = 0, got_sum = 0, *d_sum;
	for (int i = 0; i < 128; i++)
		want_sum += t.values[i] = i * i - 50;
	CHECK(cudaMalloc(&d_sum, sizeof(int)));
	CHECK(cudaMemset(d_sum, 0, sizeof(int)));
	sum_table<<<1, 64>>>(t, d_sum);
	CHECK(cudaMemcpy(&got_sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost));
	bad += got_sum != want_sum;
	std::printf("Table (%zu bytes) by value: sum %d (CPU %d)\n", sizeof t, got_sum, want_sum);
	std::printf("%s\n", bad ? "FAILED" : "all struct parameters arrived intact");
	return bad ? 1 : 0;
}
