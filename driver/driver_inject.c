/* driver_inject.c — CUDA_INJECTION64_PATH, honoured as NVIDIA's driver honours it: after the first
 * cuInit that succeeds, the shared library it names is loaded and its `int InitializeInjection(void)`
 * called, once per process, before the program goes on.  Tools written for NVIDIA's driver (gpulab's own
 * CUPTI injection library among them, which then finds it runs on this library and says so) behave here
 * as they would there; a path that does not load or has no InitializeInjection is named and skipped. */
#define _GNU_SOURCE
#include "driver.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

static void load_injection(void)
{
	const char *path = getenv("CUDA_INJECTION64_PATH");
	if (!path || !*path)
		return;
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *why = dlerror();
		drv_say("CUDA_INJECTION64_PATH=%s cannot be loaded (%s); the program runs without it", path,
			why ? why : "dlopen failed");
		return;
	}
	int (*init)(void) = (int (*)(void))dlsym(lib, "InitializeInjection");
	if (!init) {
		drv_say("CUDA_INJECTION64_PATH=%s has no InitializeInjection; the program runs without it", path);
		return;
	}
	init(); /* kept loaded: it may have registered callbacks and exit handlers */
}

void drv_injection_load(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, load_injection);
}
