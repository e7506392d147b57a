/* driver_attr.c — cuDeviceGetAttribute: every attribute of the modelled GPU.  Counts and limits that
 * differ between GPUs come from gpulab's GPU table (insights/gpu_models.c: SMs, clocks, L2, threads,
 * registers and shared memory per SM and block); the limits every compute capability >= 8.0 shares
 * (grid and block dimensions, texture and surface sizes, constant memory, alignments) are the CUDA
 * Programming Guide's "Technical Specifications per Compute Capability"; features the simulator does
 * not model (IPC, virtual memory management, clusters, tensor maps, ...) read 0 so programs do not take
 * those paths.  The memory clock is the one that gives the model's DRAM bandwidth on a 4096-bit bus
 * (bandwidth = 2 x clock x bus width / 8, as deviceQuery computes it). */
#include "driver.h"

#define BUS_BITS 4096

/* Texture and surface limits (cc >= 5.0; the Programming Guide's table). */
static int texture_limit(CUdevice_attribute a)
{
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH: return 131072;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH: return 131072;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT: return 65536;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH: return 16384;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE: return 8192;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE: return 32768;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH: return 32768;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT: return 65536;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH: return 16384;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS: return 2048;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS: return 2046;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH: return 1 << 27;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT: return 131072;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH: return 2097120;
	default: return -1;
	}
}

/* What the GPU model decides. */
static int model_value(const struct gl_gpu_model *g, CUdevice_attribute a)
{
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: return g->cc_major;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: return g->cc_minor;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return g->sm_count;
	case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: return (int)(g->clock_mhz * 1000);
	case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: /* kHz: dram_gbs = 2 * clock * BUS_BITS / 8 */
		return (int)(g->dram_gbs * 1e6 / (2.0 * BUS_BITS / 8));
	case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: return BUS_BITS;
	case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: return (int)g->l2_bytes;
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return g->max_threads_per_block;
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: return g->max_threads_per_sm;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: return g->max_blocks_per_sm;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: return g->regs_per_block;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: return g->regs_per_sm;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: return g->smem_per_block;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: return g->smem_per_block_optin;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: return g->smem_per_sm;
	case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: return g->smem_reserved_per_block;
	case CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT: return g->cc_major >= 9 ? 4 : 1;
	default: return -1;
	}
}

/* What every modelled GPU (cc >= 8.0 on a Linux host, one device) has, and the features left out. */
static int fixed_value(CUdevice dev, CUdevice_attribute a)
{
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: return 1024;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: return 64;
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: return 2147483647;
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: return 65535;
	case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: return 65536;
	case CU_DEVICE_ATTRIBUTE_WARP_SIZE: return 32;
	case CU_DEVICE_ATTRIBUTE_MAX_PITCH: return 2147483647;
	case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT:
	case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT: return 512;
	case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: return 32;
	case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: return 2;
	case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: return dev + 1;
	case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO: return 2;
	case CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID: return 0x10de; /* NVIDIA's vendor id, device id 0 */
	case CU_DEVICE_ATTRIBUTE_NUMA_ID:
	case CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID: return -1;
	/* what the library does: map and register host memory at the same address, unified addressing,
	 * managed memory, cooperative launches, streams with priorities, concurrent kernels (in issue order) */
	case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP:
	case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
	case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS:
	case CU_DEVICE_ATTRIBUTE_ECC_ENABLED:
	case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
	case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
	case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
	case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
	case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
	case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: return 1;
	default: return 0; /* the rest: flags of features the model leaves out, ids of zero */
	}
}

CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	if (!pi)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS && (attrib <= 0 || attrib >= CU_DEVICE_ATTRIBUTE_MAX))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS) {
		int v = model_value(drv.gpu, attrib);
		if (v == -1)
			v = texture_limit(attrib);
		if (v == -1)
			v = fixed_value(dev, attrib);
		*pi = v;
		r = drv_fail("cuDeviceGetAttribute", CUDA_ERROR_INVALID_VALUE);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
	if (!prop)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS) {
		const struct gl_gpu_model *g = drv.gpu;
		*prop = (CUdevprop){.maxThreadsPerBlock = g->max_threads_per_block,
				    .maxThreadsDim = {1024, 1024, 64},
				    .maxGridSize = {2147483647, 65535, 65535},
				    .sharedMemPerBlock = g->smem_per_block,
				    .totalConstantMemory = 65536,
				    .SIMDWidth = 32,
				    .memPitch = 2147483647,
				    .regsPerBlock = g->regs_per_block,
				    .clockRate = (int)(g->clock_mhz * 1000),
				    .textureAlign = 512};
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
	if (!major || !minor)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_valid_device(dev);
	if (r == CUDA_SUCCESS) {
		*major = drv.gpu->cc_major;
		*minor = drv.gpu->cc_minor;
	}
	drv_unlock();
	return r;
}
