/* driver_link.c — the JIT linker (cuLink*) as far as gpulab can honour it: a program that hands it one
 * module (PTX text, or a fatbinary) gets back an "image" that is that module, which cuModuleLoadData
 * takes like any other.  A second input would need device code linked across modules, and cubins,
 * objects, libraries and NVVM IR are not PTX the simulator can run: both are refused with a sentence. */
#include "driver.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

struct CUlinkState_st {
	uint8_t *image;
	size_t size;
};

CUresult CUDAAPI cuLinkCreate_v2(unsigned int nopts, CUjit_option *opts, void **vals, CUlinkState *out)
{
	(void)nopts;
	(void)opts;
	(void)vals; /* optimisation levels, logs, targets: nothing is compiled */
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	*out = calloc(1, sizeof **out);
	return *out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult CUDAAPI cuLinkCreate(unsigned int nopts, CUjit_option *opts, void **vals, CUlinkState *out)
{
	return cuLinkCreate_v2(nopts, opts, vals, out);
}

CUresult CUDAAPI cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
				  unsigned int nopts, CUjit_option *opts, void **vals)
{
	(void)name;
	(void)nopts;
	(void)opts;
	(void)vals;
	if (!state || !data || !size)
		return CUDA_ERROR_INVALID_VALUE;
	if (type != CU_JIT_INPUT_PTX && type != CU_JIT_INPUT_FATBINARY)
		return drv_unsupported("cuLinkAddData of a cubin, object, library or NVVM IR (gpulab links PTX only)");
	if (state->image)
		return drv_unsupported("cuLinkAddData of a second module (linking device code across modules)");
	state->image = malloc(size + 1);
	if (!state->image)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(state->image, data, size);
	state->image[size] = 0; /* PTX text without its NUL still loads */
	state->size = size;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
			       unsigned int nopts, CUjit_option *opts, void **vals)
{
	return cuLinkAddData_v2(state, type, data, size, name, nopts, opts, vals);
}

CUresult CUDAAPI cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned int nopts,
				  CUjit_option *opts, void **vals)
{
	char *text = NULL;
	size_t len = 0;
	if (!path || gl_read_file(path, &text, &len) != 0)
		return CUDA_ERROR_FILE_NOT_FOUND;
	CUresult r = cuLinkAddData_v2(state, type, text, len, path, nopts, opts, vals);
	free(text);
	return r;
}

CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned int nopts,
			       CUjit_option *opts, void **vals)
{
	return cuLinkAddFile_v2(state, type, path, nopts, opts, vals);
}

CUresult CUDAAPI cuLinkComplete(CUlinkState state, void **image, size_t *size)
{
	if (!state || !image || !size || !state->image)
		return CUDA_ERROR_INVALID_VALUE;
	*image = state->image; /* owned by the state until cuLinkDestroy, as the driver's image is */
	*size = state->size;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLinkDestroy(CUlinkState state)
{
	if (!state)
		return CUDA_ERROR_INVALID_HANDLE;
	free(state->image);
	free(state);
	return CUDA_SUCCESS;
}
