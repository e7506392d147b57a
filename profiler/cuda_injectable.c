/* cuda_injectable.c — can a program be profiled on this machine's GPU: a usable NVIDIA driver (not
 * gpulab's own driver library, which runs kernels on the simulator), through which CUPTI reaches the GPU. */
#include "profiler/cuda_api.h"
#include "profiler/profiler.h"

bool gl_cuda_injectable(char *why, size_t n)
{
	struct gl_cuda_api api;
	if (!gl_cuda_probe(why, n) || !gl_cuda_api_open(&api, why, n))
		return false;
	bool ok = gl_cuda_profilable(&api, why, n);
	gl_cuda_api_unload(&api);
	return ok;
}
