/* cuda_kernel.c — loading, running and timing one launch through the driver API. */
#include "profiler/cuda_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static int load_module(struct gl_cuda_kernel *k, const struct gl_launch *l, struct gl_err *err)
{
	char log[4096] = "";
	CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
	void *vals[] = {log, (void *)(uintptr_t)sizeof log};
	int driver = 0;
	/* a driver older than the PTX refuses it in the JIT; say which driver is needed instead */
	if (k->d->api.cuDriverGetVersion(&driver) == CUDA_SUCCESS &&
	    gl_cuda_ptx_check(driver, l->module, l->module_name, err) != GL_OK)
		return err->status;
	CUresult r = k->d->api.cuModuleLoadDataEx(&k->mod, l->module, 2, opts, vals);
	if (r != CUDA_SUCCESS) {
		char what[512];
		snprintf(what, sizeof what, "loading %.64s on the GPU%s%.400s", l->module_name ? l->module_name : "the PTX",
			 log[0] ? ": " : "", log);
		return gl_cuda_fail(&k->d->api, r, what, err);
	}
	r = k->d->api.cuModuleGetFunction(&k->fn, k->mod, l->entry);
	if (r != CUDA_SUCCESS)
		return gl_errf(err, GL_EINTERNAL, "%s has no kernel '%s' (the topic's variant table and its .cu differ)",
			       l->module_name ? l->module_name : "the PTX", l->entry);
	if (l->dyn_smem > 48 * 1024) /* above 48 KiB a kernel must opt in */
		return gl_cuda_fail(&k->d->api,
				    k->d->api.cuFuncSetAttribute(k->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
								 (int)l->dyn_smem),
				    "allowing the dynamic shared memory", err);
	return GL_OK;
}

static int alloc_buffers(struct gl_cuda_kernel *k, struct gl_launch *l, struct gl_err *err)
{
	for (int i = 0; i < l->nbuffers; i++) {
		struct gl_buffer *b = &l->buffers[i];
		size_t bytes = b->count * gl_dtype_size(b->dtype);
		char what[96];
		snprintf(what, sizeof what, "cuMemAlloc of buffer '%s' (%zu bytes)", b->name, bytes);
		int rc = gl_cuda_fail(&k->d->api, k->d->api.cuMemAlloc(&k->dptr[i], bytes ? bytes : 1), what, err);
		if (rc != GL_OK)
			return rc;
		b->device_addr = (uint64_t)k->dptr[i];
		k->pristine[i] = gl_xmalloc(bytes ? bytes : 1);
		memcpy(k->pristine[i], b->host, bytes);
	}
	return GL_OK;
}

static int make_params(struct gl_cuda_kernel *k, const struct gl_launch *l, struct gl_err *err)
{
	for (int i = 0; i < l->nargs; i++) {
		const struct gl_arg *a = &l->args[i];
		if (a->kind == GL_ARG_BUFFER) {
			if (a->buffer < 0 || a->buffer >= l->nbuffers)
				return gl_errf(err, GL_EINTERNAL, "argument %d names buffer %d of %d", i, a->buffer,
					       l->nbuffers);
			k->values[i] = (uint64_t)k->dptr[a->buffer];
		} else {
			k->values[i] = a->bits; /* little-endian: the low bytes hold 1-, 2- and 4-byte scalars */
		}
		k->params[i] = &k->values[i];
	}
	return GL_OK;
}

int gl_cuda_kernel_load(struct gl_cuda_kernel *k, struct gl_cuda_dev *d, struct gl_launch *l, struct gl_err *err)
{
	memset(k, 0, sizeof *k);
	k->d = d;
	k->l = l;
	int rc = load_module(k, l, err);
	if (rc == GL_OK)
		rc = alloc_buffers(k, l, err);
	if (rc == GL_OK)
		rc = make_params(k, l, err);
	if (rc != GL_OK)
		gl_cuda_kernel_free(k);
	return rc;
}

int gl_cuda_kernel_upload(struct gl_cuda_kernel *k, struct gl_err *err)
{
	for (int i = 0; i < k->l->nbuffers; i++) {
		const struct gl_buffer *b = &k->l->buffers[i];
		size_t bytes = b->count * gl_dtype_size(b->dtype);
		int rc = gl_cuda_fail(&k->d->api, k->d->api.cuMemcpyHtoD(k->dptr[i], k->pristine[i], bytes),
				      "cuMemcpyHtoD", err);
		if (rc != GL_OK)
			return rc;
	}
	return GL_OK;
}

static int launch(struct gl_cuda_kernel *k, struct gl_err *err)
{
	const struct gl_launch *l = k->l;
	char what[160];
	snprintf(what, sizeof what, "launching %s <<<(%u,%u,%u),(%u,%u,%u),%u>>>", l->entry, l->grid[0], l->grid[1],
		 l->grid[2], l->block[0], l->block[1], l->block[2], l->dyn_smem);
	return gl_cuda_fail(&k->d->api,
			    k->d->api.cuLaunchKernel(k->fn, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
						     l->block[2], l->dyn_smem, NULL, k->params, NULL),
			    what, err);
}

static int sync_after(struct gl_cuda_kernel *k, struct gl_err *err)
{
	char what[128];
	snprintf(what, sizeof what, "running %s", k->l->entry);
	return gl_cuda_fail(&k->d->api, k->d->api.cuCtxSynchronize(), what, err);
}

int gl_cuda_kernel_run(struct gl_cuda_kernel *k, struct gl_err *err)
{
	int rc = launch(k, err);
	return rc == GL_OK ? sync_after(k, err) : rc;
}

int gl_cuda_kernel_download(struct gl_cuda_kernel *k, struct gl_launch *l, struct gl_err *err)
{
	for (int i = 0; i < l->nbuffers; i++) {
		struct gl_buffer *b = &l->buffers[i];
		if (!b->is_output)
			continue;
		int rc = gl_cuda_fail(&k->d->api,
				      k->d->api.cuMemcpyDtoH(b->host, k->dptr[i], b->count * gl_dtype_size(b->dtype)),
				      "cuMemcpyDtoH", err);
		if (rc != GL_OK)
			return rc;
	}
	return GL_OK;
}

int gl_cuda_kernel_timed(struct gl_cuda_kernel *k, float *ms, struct gl_err *err)
{
	struct gl_cuda_api *api = &k->d->api;
	int rc = gl_cuda_kernel_upload(k, err);
	if (rc == GL_OK)
		rc = gl_cuda_l2_flush(k->d, err);
	if (rc == GL_OK)
		rc = gl_cuda_fail(api, api->cuEventRecord(k->d->start, NULL), "cuEventRecord", err);
	if (rc == GL_OK)
		rc = launch(k, err);
	if (rc == GL_OK)
		rc = gl_cuda_fail(api, api->cuEventRecord(k->d->stop, NULL), "cuEventRecord", err);
	if (rc == GL_OK)
		rc = sync_after(k, err);
	if (rc == GL_OK)
		rc = gl_cuda_fail(api, api->cuEventElapsedTime(ms, k->d->start, k->d->stop), "cuEventElapsedTime", err);
	return rc;
}

void gl_cuda_kernel_free(struct gl_cuda_kernel *k)
{
	for (int i = 0; i < GL_MAX_BUFFERS; i++) {
		if (k->dptr[i])
			k->d->api.cuMemFree(k->dptr[i]);
		free(k->pristine[i]);
		k->dptr[i] = 0;
		k->pristine[i] = NULL;
	}
	if (k->mod)
		k->d->api.cuModuleUnload(k->mod);
	k->mod = NULL;
}
