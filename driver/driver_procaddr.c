/* driver_procaddr.c — cuGetProcAddress: how cudart (static and shared) and newer driver-API programs get
 * every entry point.  A request names an entry point without its version suffix, the CUDA version the
 * caller was built for, and whether it wants the per-thread default stream form; the answer is the newest
 * form not newer than that version (driver_entries.h lists them all, driver_unsupported.c resolves each
 * to the implementation or to its "not supported" stub).  GPULAB_DRIVER_TRACE logs every request. */
#include "driver.h"

#include <string.h>

#include "driver_entry.h"

static CUresult lookup(const char *symbol, void **pfn, int version, bool per_thread,
		       CUdriverProcAddressQueryResult *status)
{
	const struct drv_entry *best = NULL, *best_legacy = NULL;
	bool known = false;
	for (int i = 0; i < drv_nentries; i++) {
		const struct drv_entry *e = &drv_entries[i];
		if (strcmp(e->name, symbol) != 0)
			continue;
		known = true;
		if (e->version > version)
			continue;
		const struct drv_entry **slot = e->per_thread ? &best : &best_legacy;
		if (!*slot || e->version > (*slot)->version)
			*slot = e;
	}
	const struct drv_entry *e = per_thread && best ? best : best_legacy;
	*pfn = e ? e->fn : NULL;
	if (status)
		*status = e ? CU_GET_PROC_ADDRESS_SUCCESS
			    : known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	drv_trace("cuGetProcAddress(\"%s\", CUDA %d%s) = %s%s", symbol, version, per_thread ? ", per-thread" : "",
		  e ? e->symbol : known ? "(newer than the caller)" : "(no such entry point)",
		  !e ? "" : e->fn == e->stub ? " (not implemented)" : " (implemented)");
	return e ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult CUDAAPI cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
				     CUdriverProcAddressQueryResult *status)
{
	if (!symbol || !pfn)
		return CUDA_ERROR_INVALID_VALUE;
	drv_configure();
	return lookup(symbol, pfn, version, (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0, status);
}

CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int version, cuuint64_t flags)
{
	return cuGetProcAddress_v2(symbol, pfn, version, flags, NULL);
}
