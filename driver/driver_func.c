/* driver_func.c — a kernel's attributes (registers and local memory from ptxas for the modelled GPU,
 * shared and constant sizes from its PTX, the dynamic shared memory it opted into) and the occupancy
 * calculator's entry points, answered by gpulab's own calculator (insights/occupancy.c) on the GPU model. */
#include "driver.h"

#include "insights/occupancy.h"

static int const_bytes(const struct ptx_module *m)
{
	uint64_t n = 0;
	for (int i = 0; i < m->nvars; i++)
		if (m->vars[i].space == PS_CONST)
			n += m->vars[i].size;
	return (int)n;
}

/* The most threads a block of f can have: the device's limit, or fewer when its registers run out. */
static int max_threads(const struct CUfunc_st *f)
{
	const struct gl_gpu_model *g = drv.gpu;
	if (f->regs <= 0)
		return g->max_threads_per_block;
	int per_warp = (f->regs * 32 + g->reg_alloc_unit - 1) / g->reg_alloc_unit * g->reg_alloc_unit;
	int warps = g->regs_per_block / per_warp;
	return warps * 32 < g->max_threads_per_block ? warps * 32 : g->max_threads_per_block;
}

static CUresult get_attribute(int *pi, CUfunction_attribute a, struct CUfunc_st *f)
{
	drv_func_resources(f);
	const struct ptx_module *m = f->mod->m;
	switch (a) {
	case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = max_threads(f); break;
	case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)f->fn->shared_static; break;
	case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = const_bytes(m); break;
	case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = f->spill_bytes >= 0 ? f->spill_bytes : (int)f->fn->local_size; break;
	case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = f->regs > 0 ? f->regs : 0; break; /* 0: no ptxas to ask */
	case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = f->mod->sm; break; /* the virtual architecture: 75 for compute_75
									* (CUB picks its tuning by it) */
	case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = drv.gpu->cc_major * 10 + drv.gpu->cc_minor; break;
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = f->max_dyn_smem; break;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = f->carveout; break;
	case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
	case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
	case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
	case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *pi = 0; break;
	default: return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction f)
{
	if (!pi)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_func_valid(f) ? get_attribute(pi, attrib, f) : CUDA_ERROR_INVALID_HANDLE;
	drv_unlock();
	return r;
}

static CUresult set_attribute(struct CUfunc_st *f, CUfunction_attribute a, int value)
{
	switch (a) {
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		if (value < 0 || (uint64_t)value + f->fn->shared_static > (uint64_t)drv.gpu->smem_per_block_optin)
			return CUDA_ERROR_INVALID_VALUE;
		f->max_dyn_smem = value;
		return drv_fail("cuFuncSetAttribute", CUDA_ERROR_INVALID_VALUE);
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		if (value < -1 || value > 100)
			return CUDA_ERROR_INVALID_VALUE;
		f->carveout = value; /* a preference: the model always has the largest carveout */
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
	case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
	case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		return drv_unsupported("cuFuncSetAttribute of a thread-block cluster attribute");
	default:
		return CUDA_ERROR_INVALID_VALUE; /* read-only attributes */
	}
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction f, CUfunction_attribute attrib, int value)
{
	drv_lock();
	CUresult r = drv_func_valid(f) ? set_attribute(f, attrib, value) : CUDA_ERROR_INVALID_HANDLE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction f, CUfunc_cache config)
{
	(void)config; /* a preference; the model's limits do not change */
	drv_lock();
	CUresult r = drv_func_valid(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuFuncSetSharedMemConfig(CUfunction f, CUsharedconfig config)
{
	(void)config;
	return cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_NONE);
}

CUresult CUDAAPI cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
	(void)dev;
	return cuFuncGetAttribute(pi, attrib, (CUfunction)kernel);
}

CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attrib, int value, CUkernel kernel, CUdevice dev)
{
	(void)dev;
	return cuFuncSetAttribute((CUfunction)kernel, attrib, value);
}

CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
	(void)dev;
	return cuFuncSetCacheConfig((CUfunction)kernel, config);
}

/* ---- occupancy */

int drv_occupancy_blocks(struct CUfunc_st *f, int threads, size_t dyn)
{
	drv_func_resources(f);
	struct gl_occ_input in = {.threads_per_block = threads, .regs_per_thread = f->regs > 0 ? f->regs : 0,
				  .static_smem = (int)f->fn->shared_static, .dyn_smem = (int)dyn};
	struct gl_occupancy o;
	gl_occupancy_compute(drv.gpu, &in, &o);
	return o.blocks_per_sm;
}

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, CUfunction f, int threads,
								       size_t dyn, unsigned int flags)
{
	(void)flags; /* CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE: the model has no cache carveout to override */
	if (!blocks || threads <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_func_valid(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		*blocks = drv_occupancy_blocks(f, threads, dyn);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction f, int threads, size_t dyn)
{
	return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, f, threads, dyn, 0);
}

/* cuda_occupancy.h's search: from the largest block size down in warps, the first block size with the
 * most resident warps wins; the grid that fills the GPU once is blocks per SM times SMs. */
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(int *min_grid, int *block, CUfunction f,
							   CUoccupancyB2DSize smem_of, size_t dyn, int limit,
							   unsigned int flags)
{
	(void)flags;
	if (!min_grid || !block)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_func_valid(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS) {
		drv_func_resources(f);
		int top = max_threads(f), best = 0, best_warps = 0, best_blocks = 0;
		if (limit > 0 && limit < top)
			top = limit;
		for (int t = (top + 31) / 32 * 32; t > 0; t -= 32) {
			int size = t > top ? top : t;
			int b = drv_occupancy_blocks(f, size, smem_of ? smem_of(size) : dyn);
			if (b * ((size + 31) / 32) > best_warps) {
				best_warps = b * ((size + 31) / 32);
				best = size;
				best_blocks = b;
			}
		}
		*block = best;
		*min_grid = best_blocks * drv.gpu->sm_count;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block, CUfunction f, CUoccupancyB2DSize smem_of,
						  size_t dyn, int limit)
{
	return cuOccupancyMaxPotentialBlockSizeWithFlags(min_grid, block, f, smem_of, dyn, limit, 0);
}

/* The most dynamic shared memory per block that still lets `nblocks` blocks of `threads` reside on an SM. */
CUresult CUDAAPI cuOccupancyAvailableDynamicSMemPerBlock(size_t *dyn, CUfunction f, int nblocks, int threads)
{
	if (!dyn || nblocks <= 0 || threads <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_func_valid(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS) {
		const struct gl_gpu_model *g = drv.gpu;
		long per_block = (long)g->smem_per_sm / nblocks / g->smem_alloc_unit * g->smem_alloc_unit -
				 g->smem_reserved_per_block - (long)f->fn->shared_static;
		long optin = (long)g->smem_per_block_optin - (long)f->fn->shared_static;
		if (per_block > optin)
			per_block = optin;
		*dyn = per_block > 0 && drv_occupancy_blocks(f, threads, 0) >= nblocks ? (size_t)per_block : 0;
	}
	drv_unlock();
	return r;
}
