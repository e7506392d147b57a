// driver_api/kernels.cu — the kernels driver_api.cu loads at run time, compiled by the test to PTX
// (nvcc -ptx), to a fatbinary (nvcc -fatbin) and to a cubin (nvcc -cubin, which gpulab refuses).
extern "C" __global__ void axpy(float a, const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

extern "C" __global__ void fill_pitched(char *base, size_t pitch, int width, int height, float value)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	if (x < width && y < height)
		((float *)(base + y * pitch))[x] = value + y;
}

__device__ int hits;

extern "C" __global__ void count(int n)
{
	if (blockIdx.x * blockDim.x + threadIdx.x < n)
		atomicAdd(&hits, 1);
}
