// templates.cu — kernels with C++ names: function templates over types and integers, a kernel in a
// namespace, one in an anonymous namespace, and a functor template argument.  The results are checked
// against the CPU; GPULAB_DRIVER_LOG=1 shows each launch under its C++ name.
#include "check.h"

namespace lab {
template <typename T, int Width>
__global__ void stride_sum(const T *in, T *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i * Width >= n)
		return;
	T s = 0;
	for (int k = 0; k < Width && i * Width + k < n; k++)
		s += in[i * Width + k];
	out[i] = s;
}
} // namespace lab

namespace {
struct Twice {
	__device__ float operator()(float x) const { return 2 * x; }
};
struct Negate {
	__device__ float operator()(float x) const { return -x; }
};
template <typename F>
__global__ void apply(float *v, int n, F f)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] = f(v[i]);
}
} // namespace

template <typename T, int Width>
static int check_sum(int n)
{
	T *h = new T[n], *o = new T[(n + Width - 1) / Width], *din, *dout;
	for (int i = 0; i < n; i++)
		h[i] = (T)(i % 17);
	int m = (n + Width - 1) / Width, bad = 0;
	CHECK(cudaMalloc(&din, n * sizeof(T)));
	CHECK(cudaMalloc(&dout, m * sizeof(T)));
	CHECK(cudaMemcpy(din, h, n * sizeof(T), cudaMemcpyHostToDevice));
	lab::stride_sum<T, Width><<<(m + 127) / 128, 128>>>(din, dout, n);
	CHECK(cudaMemcpy(o, dout, m * sizeof(T), cudaMemcpyDeviceToHost));
	for (int i = 0; i < m; i++) {
		T s = 0;
		for (int k = 0; k < Width && i * Width + k < n; k++)
			s += h[i * Width + k];
		bad += o[i] != s;
	}
	return bad;
}

int main()
{
	int bad = check_sum<int, 4>(1001) + check_sum<double, 3>(999) + check_sum<float, 8>(4096);
	const int n = 300;
	float h[n], *d;
	for (int i = 0; i < n; i++)
		h[i] = i * 0.5f;
	CHECK(cudaMalloc(&d, sizeof h));
	CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
	apply<<<2, 256>>>(d, n, Twice());
	apply<<<2, 256>>>(d, n, Negate());
	CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		bad += h[i] != -(float)i;
	std::printf("template kernels: %s\n", bad ? "FAILED" : "all match the CPU");
	return bad ? 1 : 0;
}
