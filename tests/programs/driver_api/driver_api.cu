// driver_api/driver_api.cu — a driver-API program (cuda.h, linked with -lcuda): its own context, modules
// loaded from a PTX file, a fatbinary file and a cubin file, parameters passed as kernelParams and as
// one packed buffer (CU_LAUNCH_PARAM_BUFFER_POINTER), pitched memory, a module global, occupancy,
// function attributes and error strings.  Usage: driver_api KERNELS.ptx KERNELS.fatbin KERNELS.cubin
#include <cstdio>
#include <cstring>
#include <cuda.h>

#define CU(call)                                                                                           \
	do {                                                                                               \
		CUresult r_ = (call);                                                                      \
		if (r_ != CUDA_SUCCESS) {                                                                  \
			const char *s_ = "?";                                                              \
			cuGetErrorString(r_, &s_);                                                         \
			std::printf("%s failed at line %d: %s\n", #call, __LINE__, s_);                    \
			return 1;                                                                          \
		}                                                                                          \
	} while (0)

static int axpy_twice(CUmodule mod, const char *what)
{
	const int n = 1000;
	float x[n], y[n];
	for (int i = 0; i < n; i++) {
		x[i] = i;
		y[i] = 1;
	}
	CUfunction f;
	CUdeviceptr dx, dy;
	CU(cuModuleGetFunction(&f, mod, "axpy"));
	CU(cuMemAlloc(&dx, sizeof x));
	CU(cuMemAlloc(&dy, sizeof y));
	CU(cuMemcpyHtoD(dx, x, sizeof x));
	CU(cuMemcpyHtoD(dy, y, sizeof y));
	float a = 2;
	int nn = n;
	void *params[] = {&a, &dx, &dy, &nn};
	CU(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
	// the same kernel with its parameters packed by hand, at the offsets its .param list gives
	struct {
		float a;
		int pad;
		CUdeviceptr x, y;
		int n;
	} packed = {3, 0, dx, dy, n};
	size_t size = sizeof packed;
	void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
	CU(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, nullptr, extra));
	CU(cuMemcpyDtoH(y, dy, sizeof y));
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += y[i] != 1 + 5.0f * i;
	std::printf("%s: axpy with kernelParams then a packed buffer: %s\n", what, bad ? "FAILED" : "matches the CPU");
	CU(cuMemFree(dx));
	CU(cuMemFree(dy));
	return bad;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		std::printf("usage: driver_api KERNELS.ptx KERNELS.fatbin KERNELS.cubin\n");
		return 2;
	}
	int version = 0, count = 0, major = 0, sms = 0;
	char name[128];
	CUdevice dev;
	CUcontext ctx;
	CU(cuInit(0));
	CU(cuDriverGetVersion(&version));
	CU(cuDeviceGetCount(&count));
	CU(cuDeviceGet(&dev, 0));
	CU(cuDeviceGetName(name, sizeof name, dev));
	CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
	CU(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
	std::printf("driver %d, %d device(s): %s, cc %d.x, %d SMs\n", version, count, name, major, sms);
	CU(cuCtxCreate(&ctx, nullptr, 0, dev));

	CUmodule ptx, fatbin, cubin;
	CU(cuModuleLoad(&ptx, argv[1]));
	CU(cuModuleLoad(&fatbin, argv[2]));
	int bad = axpy_twice(ptx, "PTX module") + axpy_twice(fatbin, "fatbinary module");

	// pitched memory filled by a 2D grid
	CUfunction fill;
	CUdeviceptr base;
	size_t pitch;
	const int width = 100, height = 7;
	CU(cuModuleGetFunction(&fill, ptx, "fill_pitched"));
	CU(cuMemAllocPitch(&base, &pitch, width * sizeof(float), height, 4));
	int w = width, h = height;
	float v = 0.5f;
	void *fargs[] = {&base, &pitch, &w, &h, &v};
	CU(cuLaunchKernel(fill, 1, height, 1, 128, 1, 1, 0, nullptr, fargs, nullptr));
	float row[width];
	CUDA_MEMCPY2D copy;
	std::memset(&copy, 0, sizeof copy);
	copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	copy.srcDevice = base;
	copy.srcPitch = pitch;
	copy.srcY = height - 1;
	copy.dstMemoryType = CU_MEMORYTYPE_HOST;
	copy.dstHost = row;
	copy.dstPitch = sizeof row;
	copy.WidthInBytes = sizeof row;
	copy.Height = 1;
	CU(cuMemcpy2D(&copy));
	bad += row[0] != 6.5f || row[width - 1] != 6.5f;
	std::printf("pitched rows (pitch %zu bytes): last row reads %g\n", pitch, row[0]);

	// a module global, and the kernel's attributes and occupancy
	CUfunction counter;
	CUdeviceptr hits;
	size_t bytes;
	int n = 777, got = -1, regs = -1, blocks = 0;
	CU(cuModuleGetFunction(&counter, fatbin, "count"));
	CU(cuModuleGetGlobal(&hits, &bytes, fatbin, "hits"));
	CU(cuMemsetD32(hits, 0, 1));
	void *cargs[] = {&n};
	CU(cuLaunchKernel(counter, 4, 1, 1, 256, 1, 1, 0, nullptr, cargs, nullptr));
	CU(cuCtxSynchronize());
	CU(cuMemcpyDtoH(&got, hits, sizeof got));
	CU(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, counter));
	CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, counter, 256, 0));
	bad += got != n || bytes != sizeof(int) || regs <= 0 || blocks <= 0;
	std::printf("module global 'hits' (%zu bytes) counted %d; count uses %s registers, %d blocks of 256 per SM\n",
		    bytes, got, regs > 0 ? "some" : "no", blocks);

	// a cubin holds SASS only: gpulab refuses it with a sentence
	CUresult r = cuModuleLoad(&cubin, argv[3]);
	CUfunction none;
	if (r == CUDA_SUCCESS)
		r = cuModuleGetFunction(&none, cubin, "axpy");
	const char *text = "?";
	cuGetErrorString(r, &text);
	std::printf("cubin: %s\n", text);

	CU(cuModuleUnload(ptx));
	CU(cuModuleUnload(fatbin));
	CU(cuCtxDestroy(ctx));
	std::printf("%s\n", bad ? "FAILED" : "driver API: all checks passed");
	return bad ? 1 : 0;
}
