// managed.cu — managed memory: cudaMallocManaged buffers and a __managed__ variable, written by kernels
// and read by the host directly after cudaDeviceSynchronize, with prefetch and advice calls as programs
// tuned for unified memory make them.
#include "check.h"

__managed__ int launches;

__global__ void square(int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] = v[i] * v[i];
	if (i == 0)
		atomicAdd(&launches, 1);
}

int main()
{
	const int n = 4096;
	int *v;
	CHECK(cudaMallocManaged(&v, n * sizeof(int)));
	for (int i = 0; i < n; i++)
		v[i] = i - 2048; // the host writes managed memory directly
	launches = 0;
	int dev = 0, concurrent = 0;
	CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, dev));
	if (concurrent) {
		cudaMemLocation loc = {cudaMemLocationTypeDevice, dev};
		CHECK(cudaMemAdvise(v, n * sizeof(int), cudaMemAdviseSetPreferredLocation, loc));
		CHECK(cudaMemPrefetchAsync(v, n * sizeof(int), loc, 0, 0));
	}
	square<<<n / 256, 256>>>(v, n);
	square<<<n / 256, 256>>>(v, n);
	CHECK(cudaDeviceSynchronize());
	long long bad = 0;
	for (int i = 0; i < n; i++) {
		long long x = (long long)(i - 2048) * (i - 2048);
		bad += v[i] != (int)(x * x);
	}
	std::printf("managed buffer squared twice: %s; __managed__ launches = %d\n", bad ? "FAILED" : "matches the CPU",
		    launches);
	CHECK(cudaFree(v));
	return bad || launches != 2 ? 1 : 0;
}
