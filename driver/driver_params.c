/* driver_params.c — a launch's parameter buffer, laid out as the kernel's PTX declares it: each .param at
 * its offset (the front end applies each one's size and .align, so structs passed by value, arrays and
 * mixed sizes land where the kernel reads them), from kernelParams (a pointer per parameter) or from
 * extra's CU_LAUNCH_PARAM_BUFFER_POINTER (the caller's own packed buffer). */
#include "driver.h"

#include <string.h>

/* Bytes of the parameter buffer the kernel reads: up to the end of its last parameter. */
static size_t params_bytes(const struct ptx_function *fn)
{
	size_t n = 0;
	for (int i = 0; i < fn->nparams; i++)
		if ((size_t)fn->params[i].offset + fn->params[i].size > n)
			n = (size_t)fn->params[i].offset + fn->params[i].size;
	return n;
}

/* extra: {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END}. */
static CUresult from_extra(struct drv_launch *l, void **extra, size_t need)
{
	const void *buf = NULL;
	const size_t *size = NULL;
	for (int i = 0; i < 16 && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
		if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
			buf = extra[i + 1];
		else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
			size = extra[i + 1];
		else
			return CUDA_ERROR_INVALID_VALUE;
	}
	if (need && (!buf || !size || *size < need))
		return CUDA_ERROR_INVALID_VALUE;
	if (buf && size)
		memcpy(l->params, buf, need);
	l->params_size = need;
	return CUDA_SUCCESS;
}

CUresult drv_params_layout(struct drv_launch *l, void **params, void **extra)
{
	const struct ptx_function *fn = l->f->fn;
	size_t need = params_bytes(fn);
	if (need > sizeof l->params) {
		drv_say("kernel %s takes %zu bytes of parameters; gpulab's simulator holds %zu (CUDA's classic limit)",
			l->f->demangled, need, sizeof l->params);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	memset(l->params, 0, sizeof l->params);
	if (params && extra)
		return CUDA_ERROR_INVALID_VALUE;
	if (extra)
		return from_extra(l, extra, need);
	if (fn->nparams && !params)
		return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < fn->nparams; i++) {
		if (!params[i])
			return CUDA_ERROR_INVALID_VALUE;
		memcpy(l->params + fn->params[i].offset, params[i], fn->params[i].size);
	}
	l->params_size = need;
	return CUDA_SUCCESS;
}
