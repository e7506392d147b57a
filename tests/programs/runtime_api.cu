// runtime_api.cu — the runtime API a typical program uses beyond a vector add: device properties, memory
// information, memset, pitched 2D copies, device-to-device copies, mapped and registered host memory,
// pointer attributes, function attributes, the occupancy calculator, dynamic shared memory above 48 KiB
// after opting in, device printf, and events around a kernel.
#include <cstring>
#include "check.h"

__global__ void reverse_block(const int *in, int *out, int n)
{
	extern __shared__ int tile[];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	tile[threadIdx.x] = i < n ? in[i] : 0;
	__syncthreads();
	int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - threadIdx.x);
	if (j < n)
		out[j] = tile[threadIdx.x];
}

__global__ void big_shared(int *out)
{
	extern __shared__ int words[]; // 64 KiB: needs cudaFuncAttributeMaxDynamicSharedMemorySize
	for (int k = threadIdx.x; k < 16384; k += blockDim.x)
		words[k] = k;
	__syncthreads();
	if (threadIdx.x == 0)
		out[0] = words[16383] + words[1];
}

__global__ void add_mapped(int *p, int n, int add)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] += add;
	if (i == 0)
		printf("device printf: thread %d of block %d saw p[0] = %d\n", threadIdx.x, blockIdx.x, p[0]);
}

int main()
{
	cudaDeviceProp prop;
	int dev = -1, bad = 0;
	CHECK(cudaGetDevice(&dev));
	CHECK(cudaGetDeviceProperties(&prop, dev));
	size_t free_b = 0, total_b = 0;
	CHECK(cudaMemGetInfo(&free_b, &total_b));
	std::printf("device %d: %s, cc %d.%d, %d SMs, %zu KiB shared per block (%zu opt-in), warp %d\n", dev,
		    prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.sharedMemPerBlock / 1024,
		    prop.sharedMemPerBlockOptin / 1024, prop.warpSize);
	bad += !(free_b > 0 && free_b <= total_b);

	// memset, a kernel with dynamic shared memory, and a device-to-device copy
	const int n = 1000;
	int *a, *b, h[n];
	CHECK(cudaMalloc(&a, n * sizeof(int)));
	CHECK(cudaMalloc(&b, n * sizeof(int)));
	CHECK(cudaMemset(a, 0, n * sizeof(int)));
	for (int i = 0; i < n; i++)
		h[i] = i;
	CHECK(cudaMemcpy(a, h, n * sizeof(int), cudaMemcpyHostToDevice));
	cudaEvent_t t0, t1;
	CHECK(cudaEventCreate(&t0));
	CHECK(cudaEventCreate(&t1));
	CHECK(cudaEventRecord(t0));
	reverse_block<<<(n + 127) / 128, 128, 128 * sizeof(int)>>>(a, b, n);
	CHECK(cudaEventRecord(t1));
	CHECK(cudaEventSynchronize(t1));
	float ms = 0;
	CHECK(cudaEventElapsedTime(&ms, t0, t1));
	CHECK(cudaMemcpy(a, b, n * sizeof(int), cudaMemcpyDeviceToDevice));
	CHECK(cudaMemcpy(h, a, n * sizeof(int), cudaMemcpyDeviceToHost));
	for (int i = 0; i < 896; i++) /* the full blocks: each reversed */
		bad += h[i] != (i / 128) * 128 + 127 - i % 128;
	std::printf("blocks reversed through shared memory: %s (event time %s)\n", bad ? "FAILED" : "ok",
		    ms > 0 ? "positive" : "not positive");

	// pitched 2D: a 33 x 5 int matrix copied in, out, compared
	int m[5][33], back[5][33];
	for (int y = 0; y < 5; y++)
		for (int x = 0; x < 33; x++)
			m[y][x] = 100 * y + x;
	int *pm;
	size_t pitch;
	CHECK(cudaMallocPitch(&pm, &pitch, 33 * sizeof(int), 5));
	CHECK(cudaMemcpy2D(pm, pitch, m, sizeof m[0], sizeof m[0], 5, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy2D(back, sizeof back[0], pm, pitch, sizeof back[0], 5, cudaMemcpyDeviceToHost));
	bad += std::memcmp(m, back, sizeof m) != 0;
	std::printf("pitched 2D copy (pitch %zu): %s\n", pitch, std::memcmp(m, back, sizeof m) ? "FAILED" : "ok");

	// mapped host memory and registered host memory, written by kernels
	int *mapped, *dmapped;
	CHECK(cudaHostAlloc(&mapped, 64 * sizeof(int), cudaHostAllocMapped));
	CHECK(cudaHostGetDevicePointer(&dmapped, mapped, 0));
	for (int i = 0; i < 64; i++)
		mapped[i] = i;
	add_mapped<<<1, 64>>>(dmapped, 64, 1000);
	CHECK(cudaDeviceSynchronize());
	static int reg[256];
	CHECK(cudaHostRegister(reg, sizeof reg, cudaHostRegisterDefault));
	add_mapped<<<1, 256>>>(reg, 256, 7);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaHostUnregister(reg));
	bad += mapped[63] != 1063 || reg[255] != 7;
	cudaPointerAttributes attr;
	CHECK(cudaPointerGetAttributes(&attr, a));
	bad += attr.type != cudaMemoryTypeDevice;
	CHECK(cudaPointerGetAttributes(&attr, mapped));
	bad += attr.type != cudaMemoryTypeHost;
	std::printf("mapped host memory: %d, registered: %d, pointer types device/host: %s\n", mapped[63], reg[255],
		    bad ? "FAILED" : "ok");

	// function attributes, occupancy, and 64 KiB of dynamic shared memory after opting in
	cudaFuncAttributes fa;
	CHECK(cudaFuncGetAttributes(&fa, reverse_block));
	int min_grid = 0, block = 0, *out, got = 0;
	CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, reverse_block, 0, 0));
	bad += fa.numRegs <= 0 || block <= 0 || block % 32;
	CHECK(cudaMalloc(&out, sizeof(int)));
	cudaError_t refused = cudaSuccess;
	big_shared<<<1, 256, 65536>>>(out);
	refused = cudaGetLastError(); // too much without opting in
	CHECK(cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
	big_shared<<<1, 256, 65536>>>(out);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
	bad += refused == cudaSuccess || got != 16384;
	std::printf("reverse_block: %s registers, occupancy's block size %d; 64 KiB shared: refused before opting in "
		    "(%s), %d after\n", fa.numRegs > 0 ? "some" : "no", block, cudaGetErrorString(refused), got);
	CHECK(cudaFreeHost(mapped));
	std::printf("%s\n", bad ? "FAILED" : "runtime API: all checks passed");
	return bad ? 1 : 0;
}
