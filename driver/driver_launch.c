/* driver_launch.c — kernel launches: the checks a GPU's driver makes before a launch (geometry, shared
 * memory, registers, a cooperative grid that fits on the GPU at once), the refusals gpulab owes the
 * program a sentence for (dynamic parallelism, device code linked across files), and the run itself: the
 * memory map's regions and the laid-out parameters go to the simulator (sim.h), device printf output to
 * the program's stdout, and a fault the sanitizer found becomes the context's sticky error, as a GPU's
 * would (out of bounds: CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered"). */
#include "driver.h"
#include "driver_tex.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The error a GPU raises for how the launch ended: an access that faulted under the simulator's fault
 * policy (res.fault: outside every mapping, misaligned, or memcheck's first error), else a trap the
 * sanitizer reported.  An out-of-bounds access that lands in mapped memory does not fault on a GPU and
 * does not here; races, uninitialised reads and divergent barriers do not trap on hardware either. */
static CUresult fault_of(const struct gl_sim_result *res)
{
	switch (res->fault.kind) {
	case GL_SIM_FAULT_ILLEGAL_ADDRESS: return CUDA_ERROR_ILLEGAL_ADDRESS;
	case GL_SIM_FAULT_MISALIGNED_ADDRESS: return CUDA_ERROR_MISALIGNED_ADDRESS;
	case GL_SIM_FAULT_LAUNCH_FAILED: return CUDA_ERROR_LAUNCH_FAILED;
	default: break;
	}
	static const struct {
		const char *kind;
		CUresult r;
	} traps[] = {
	    {"stack-overflow", CUDA_ERROR_ILLEGAL_ADDRESS}, {"assert", CUDA_ERROR_ASSERT},
	    {"trap", CUDA_ERROR_LAUNCH_FAILED},            {"invalid-pc", CUDA_ERROR_INVALID_PC},
	    {"invalid-call", CUDA_ERROR_INVALID_PC},        {"budget", CUDA_ERROR_LAUNCH_TIMEOUT},
	    {"deadlock", CUDA_ERROR_LAUNCH_TIMEOUT},        {"unsupported", CUDA_ERROR_NOT_SUPPORTED},
	};
	for (int i = 0; i < res->nfindings; i++)
		for (size_t k = 0; k < sizeof traps / sizeof traps[0]; k++)
			if (!res->findings[i].warning && strcmp(res->findings[i].kind, traps[k].kind) == 0)
				return traps[k].r;
	return CUDA_SUCCESS;
}

/* Does fn, or a function it calls, call something named like `prefix`?  Which one (else NULL); with
 * `bodiless`, any function without a body that is not a simulator built-in counts. */
static const char *reaches(const struct ptx_module *m, const struct ptx_function *fn, const char *prefix, bool bodiless,
			   bool *seen)
{
	seen[fn - m->funcs] = true;
	for (int i = 0; i < fn->ncode; i++) {
		const struct ptx_insn *ins = &fn->code[i];
		for (int k = 0; ptx_insn_is_call(ins) && k < ins->nops; k++) {
			if (ins->ops[k].kind != PO_FUNC)
				continue;
			const struct ptx_function *t = &m->funcs[ins->ops[k].offset];
			const struct ptx_function *def = ptx_find_function(m, t->name);
			bool builtin = strcmp(t->name, "vprintf") == 0 || strcmp(t->name, "__assertfail") == 0;
			if (prefix && strncmp(t->name, prefix, strlen(prefix)) == 0)
				return t->name;
			if (bodiless && !builtin && (!def || !def->code) && strncmp(t->name, "cuda", 4) != 0)
				return t->name;
			const char *deeper = def && def->code && !seen[def - m->funcs] ? reaches(m, def, prefix, bodiless, seen) : NULL;
			if (deeper)
				return deeper;
		}
	}
	return NULL;
}

/* Dynamic parallelism, the device heap and separately compiled device code: refused with a sentence. */
static CUresult refused(struct CUfunc_st *f)
{
	const struct ptx_module *m = f->mod->m;
	bool *seen = calloc((size_t)m->nfuncs + 1, 1);
	if (!seen)
		return CUDA_ERROR_OUT_OF_MEMORY;
	const char *dp = reaches(m, f->fn, "cudaLaunchDevice", false, seen);
	memset(seen, 0, (size_t)m->nfuncs + 1);
	const char *heap = dp ? NULL : reaches(m, f->fn, "malloc", false, seen);
	memset(seen, 0, (size_t)m->nfuncs + 1);
	const char *ext = dp || heap ? NULL : reaches(m, f->fn, NULL, true, seen);
	free(seen);
	if (dp)
		drv_say("kernel %s launches kernels from the device (dynamic parallelism, %s), which gpulab's simulator "
			"does not run", f->demangled, dp);
	else if (heap)
		drv_say("kernel %s allocates memory on the device (malloc, new: the device heap), which gpulab's "
			"simulator does not provide", f->demangled);
	else if (ext)
		drv_say("kernel %s calls %s, which is defined in another file's device code (nvcc -rdc=true, separate "
			"compilation): gpulab does not link device code across files; build without -rdc", f->demangled,
			ext);
	return dp || heap || ext ? CUDA_ERROR_NOT_SUPPORTED : CUDA_SUCCESS;
}

static CUresult check_geometry(struct CUfunc_st *f, const unsigned g[3], const unsigned b[3], unsigned smem)
{
	if (!g[0] || !g[1] || !g[2] || g[0] > 2147483647u || g[1] > 65535 || g[2] > 65535)
		return CUDA_ERROR_INVALID_VALUE;
	unsigned long threads = (unsigned long)b[0] * b[1] * b[2];
	if (!threads || b[0] > 1024 || b[1] > 1024 || b[2] > 64 || threads > (unsigned long)drv.gpu->max_threads_per_block)
		return CUDA_ERROR_INVALID_VALUE;
	if (smem > (unsigned)f->max_dyn_smem) /* above 48 KiB only after cuFuncSetAttribute */
		return CUDA_ERROR_INVALID_VALUE;
	drv_func_resources(f);
	if (f->regs > 0 && drv_occupancy_blocks(f, (int)threads, smem) == 0)
		return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES; /* its registers do not fit one block on an SM */
	return CUDA_SUCCESS;
}

CUresult drv_launch_prepare(struct drv_launch *l, CUfunction f, const unsigned grid[3], const unsigned block[3],
			    unsigned smem, void **params, void **extra, bool cooperative)
{
	if (!drv_func_valid(f))
		return CUDA_ERROR_INVALID_HANDLE;
	CUresult r = check_geometry(f, grid, block, smem);
	if (r == CUDA_SUCCESS)
		r = refused(f);
	if (r != CUDA_SUCCESS)
		return r;
	l->f = f;
	memcpy(l->grid, grid, sizeof l->grid);
	memcpy(l->block, block, sizeof l->block);
	l->dyn_smem = smem;
	l->cooperative = cooperative;
	if (cooperative) {
		long resident = (long)drv_occupancy_blocks(f, (int)(block[0] * block[1] * block[2]), smem) * drv.gpu->sm_count;
		if ((long)grid[0] * grid[1] * grid[2] > resident)
			return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
	}
	return drv_params_layout(l, params, extra);
}

/* The 8-byte parameters that hold a device address: the kernel's buffers, looked up first. */
static int pointer_args(const struct drv_launch *l, uint64_t *out, int max)
{
	int n = 0;
	const struct ptx_function *fn = l->f->fn;
	for (int i = 0; i < fn->nparams && n < max; i++)
		if (fn->params[i].size == 8) {
			uint64_t v;
			memcpy(&v, l->params + fn->params[i].offset, 8);
			if (drv_mem_find(v, 0))
				out[n++] = v;
		}
	return n;
}

/* Say once per kernel why the simulator could not run it. */
static CUresult cannot_run(struct CUfunc_st *f, const struct gl_err *err)
{
	static struct CUfunc_st *said[64];
	static int nsaid;
	bool again = false;
	for (int i = 0; i < nsaid; i++)
		again |= said[i] == f;
	if (!again) {
		drv_say("kernel %s cannot run on gpulab's simulator: %s", f->demangled, err->msg);
		if (nsaid < 64)
			said[nsaid++] = f;
	}
	return err->status == GL_EENV ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_NOT_SUPPORTED;
}

/* The launch's memory as the simulator sees it: the map's regions, what is mapped around them, the laid-out
 * parameters, the texture and surface objects. */
struct launch_memory {
	struct gl_sim_memory mem;
	struct gl_sim_region *regions;
	struct gl_sim_mapping *mapped;
	struct gl_tex_object *tex;
	int nmapped, ntex;
};

static CUresult memory_of(const struct drv_launch *l, struct launch_memory *m)
{
	uint64_t first[32];
	int nfirst = pointer_args(l, first, 32);
	m->mem = (struct gl_sim_memory){.params = l->params, .params_size = l->params_size};
	int blocks = drv_occupancy_blocks(l->f, (int)(l->block[0] * l->block[1] * l->block[2]), l->dyn_smem);
	m->mem.max_resident_ctas = (long)blocks * drv.gpu->sm_count;
	drv_mem_regions(first, nfirst, &m->regions, &m->mem.nregions, &m->mem.ntouch);
	m->mem.regions = m->regions;
	drv_mem_mapped(&m->mapped, &m->nmapped);
	m->ntex = drv_tex_table(&m->tex);
	return m->ntex < 0 ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}

static void memory_free(struct launch_memory *m)
{
	free(m->regions);
	free(m->mapped);
	free(m->tex);
}

CUresult drv_launch_run(const struct drv_launch *l, struct CUstream_st *s)
{
	struct CUfunc_st *f = l->f;
	struct launch_memory lm;
	if (memory_of(l, &lm) != CUDA_SUCCESS) {
		memory_free(&lm);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	size_t stack = s->ctx->limits[CU_LIMIT_STACK_SIZE];
	struct gl_sim_opts opts = {.threads = drv.threads, .memory = &lm.mem, .mapped = lm.mapped, .nmapped = lm.nmapped,
				   .printf_buffer = s->ctx->limits[CU_LIMIT_PRINTF_FIFO_SIZE],
				   .stack_size = stack && stack <= GL_SIM_STACK_SIZE_MAX ? stack : 0};
	bool selected = drv_profile_select(f, &opts);
	struct gl_launch gl = {.module_name = f->mod->m->name, .entry = f->fn->name, .dyn_smem = l->dyn_smem,
			       .textures = lm.tex, .ntextures = lm.ntex};
	memcpy(gl.grid, l->grid, sizeof gl.grid);
	memcpy(gl.block, l->block, sizeof gl.block);
	struct gl_sim_result res;
	struct gl_err err = {0};
	double began = drv_now();
	int rc = gl_sim_run(f->mod->m, &gl, &opts, &res, &err);
	drv.simulating += drv_now() - began;
	memory_free(&lm);
	if (rc != GL_OK)
		return cannot_run(f, &err);
	if (res.printf_out) {
		fputs(res.printf_out, stdout);
		fflush(stdout);
	}
	CUresult fault = fault_of(&res);
	if (fault != CUDA_SUCCESS && s->ctx->sticky == CUDA_SUCCESS)
		s->ctx->sticky = fault;
	if (fault == CUDA_ERROR_NOT_SUPPORTED)
		cannot_run(f, &(struct gl_err){.status = GL_EUSAGE, .msg = "it uses an instruction the simulator does not "
					       "implement (GPULAB_DRIVER_LOG=1 shows the finding)"});
	double start = drv_stream_begin(s);
	double us = drv_record_launch(l, &gl, s, &res, start, selected, (int)fault);
	drv_stream_end(s, start + (isnan(us) ? 0 : us));
	drv.launches++;
	drv_alter_output(l, drv.launches);
	gl_sim_result_free(&res);
	return CUDA_SUCCESS;
}

/* ---- the entry points */

static CUresult launch(CUfunction f, const unsigned grid[3], const unsigned block[3], unsigned smem, CUstream h,
		       void **params, void **extra, bool cooperative, const char *api)
{
	drv_lock_at(api);
	CUcontext c = NULL;
	CUresult r = drv_ready(&c);
	if (r == CUDA_SUCCESS)
		r = drv_fail("cuLaunchKernel", CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
	struct drv_op *op = r == CUDA_SUCCESS ? calloc(1, sizeof *op) : NULL;
	if (r == CUDA_SUCCESS && !op)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r == CUDA_SUCCESS) {
		op->kind = DRV_OP_KERNEL;
		r = drv_launch_prepare(&op->launch, f, grid, block, smem, params, extra, cooperative);
	}
	if (r == CUDA_SUCCESS)
		r = drv_issue(h, op);
	drv_trace("launch %s grid %u,%u,%u block %u,%u,%u smem %u = %d", drv_func_valid(f) ? f->demangled : "?",
		  grid[0], grid[1], grid[2], block[0], block[1], block[2], smem, (int)r);
	free(op);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
				unsigned int by, unsigned int bz, unsigned int smem, CUstream stream, void **params,
				void **extra)
{
	return launch(f, (unsigned[3]){gx, gy, gz}, (unsigned[3]){bx, by, bz}, smem, stream, params, extra, false, __func__);
}

CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
				     unsigned int by, unsigned int bz, unsigned int smem, CUstream stream, void **params,
				     void **extra)
{
	return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, stream, params, extra);
}

CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
					   unsigned int bx, unsigned int by, unsigned int bz, unsigned int smem,
					   CUstream stream, void **params)
{
	return launch(f, (unsigned[3]){gx, gy, gz}, (unsigned[3]){bx, by, bz}, smem, stream, params, NULL, true, __func__);
}

CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
						unsigned int bx, unsigned int by, unsigned int bz, unsigned int smem,
						CUstream stream, void **params)
{
	return cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, smem, stream, params);
}

/* cuLaunchKernelEx: the attributes that change what runs (cooperative; a cluster of one block) are
 * honoured, scheduling hints are accepted and change nothing, clusters of several blocks are refused. */
CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params, void **extra)
{
	if (!config)
		return CUDA_ERROR_INVALID_VALUE;
	bool cooperative = false;
	for (unsigned i = 0; i < config->numAttrs; i++) {
		const CUlaunchAttribute *a = &config->attrs[i];
		if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
			cooperative = a->value.cooperative != 0;
		else if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
			 a->value.clusterDim.x * a->value.clusterDim.y * a->value.clusterDim.z > 1)
			return drv_unsupported("cuLaunchKernelEx with thread-block clusters");
	}
	return launch(f, (unsigned[3]){config->gridDimX, config->gridDimY, config->gridDimZ},
		      (unsigned[3]){config->blockDimX, config->blockDimY, config->blockDimZ}, config->sharedMemBytes,
		      config->hStream, params, extra, cooperative, __func__);
}

CUresult CUDAAPI cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **params, void **extra)
{
	return cuLaunchKernelEx(config, f, params, extra);
}
