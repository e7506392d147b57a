/* driver_export.c — cuGetExportTable: the undocumented function tables NVIDIA's runtime asks its driver
 * for by UUID.  What cudart 13 needs was found by tracing it against this library (GPULAB_DRIVER_TRACE=1
 * logs every request and every call into a table, docs/driver.md lists them), and what the tables' slots
 * mean was learned from public reimplementations (ZLUDA's dark API, gpgpu-sim's runtime, cuda_hook-style
 * projects).  A table is an array of pointers whose slot 0 holds its size in bytes.  Only what cudart
 * calls is implemented; every other slot is a stub that names itself on stderr and returns
 * CUDA_ERROR_NOT_SUPPORTED, so a new use shows up as a sentence, never as a jump through a null pointer.
 * A table gpulab does not know is refused (CUDA_ERROR_NOT_FOUND), and said in the trace: cudart copes
 * with that for the tables it treats as optional (the first one it asks for, f8cff951..., is one). */
#include "driver.h"
#include "driver_integrity.h"

#include <stdio.h>
#include <string.h>

#define SLOTS 16

/* ---- the runtime interface table (6bd5fb6c-5bf4-e74a-8987-d93912fd9df9) */

/* Slot 1: a module from a __fatBinC_Wrapper_t (what __cudaRegisterFatBinary was given). */
static CUresult CUDAAPI module_from_wrapper(CUmodule *out, const void *wrapper)
{
	drv_trace("export table: cudart loads the fatbinary wrapper %p", wrapper);
	if (!out || !wrapper)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_module_load(wrapper, SIZE_MAX, out);
	drv_unlock();
	return r;
}

/* Slot 2: the device's primary context, retained. */
static CUresult CUDAAPI primary_context(CUcontext *ctx, CUdevice dev)
{
	drv_trace("export table: cudart retains the primary context of device %d", dev);
	return cuDevicePrimaryCtxRetain(ctx, dev);
}

/* Slot 6: as slot 1, with options cudart passes for JIT (ignored: nothing is compiled for a GPU). */
static CUresult CUDAAPI module_from_wrapper_ex(CUmodule *out, const void *wrapper, void *a3, void *a4, unsigned a5)
{
	(void)a3;
	(void)a4;
	(void)a5;
	return module_from_wrapper(out, wrapper);
}

/* Slot 7: called with a size when cudart sets up; nothing to do. */
static CUresult CUDAAPI runtime_setup(size_t n)
{
	drv_trace("export table: cudart slot 7 (%zu)", n);
	return CUDA_SUCCESS;
}

/* Slot 8: a module from a fatbinary itself (its header), with options as slot 6. */
static CUresult CUDAAPI module_from_fatbin(const void *fatbin, CUmodule *out, void *a3, void *a4, unsigned a5)
{
	(void)a3;
	(void)a4;
	(void)a5;
	drv_trace("export table: cudart loads the fatbinary at %p", fatbin);
	if (!out || !fatbin)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_module_load(fatbin, SIZE_MAX, out);
	drv_unlock();
	return r;
}

/* ---- the tools' runtime callback hooks (a094798c-2e74-2e74-93f2-0800200c0a66): two buffers cudart
 * keeps its callback state in (no tool reads them here) */

static uintptr_t hooks_words[1024];
static uint8_t hooks_bytes[14];

static void CUDAAPI hooks_buffer(void **ptr, size_t *size)
{
	*ptr = hooks_words;
	*size = sizeof hooks_words / sizeof hooks_words[0];
}

static void CUDAAPI hooks_flags(void **ptr, size_t *size)
{
	*ptr = hooks_bytes;
	*size = sizeof hooks_bytes;
}

/* ---- context-local storage (c693336e-1121-df11-a8c3-68f355d89593): cudart keeps its per-context state
 * under a key of its own; slot 0 stores (with a destructor run when the context goes), slot 1 forgets,
 * slot 2 fetches.  This table has no size slot. */

static struct CUctx_st *storage_ctx(CUcontext ctx)
{
	CUcontext c = ctx ? ctx : drv_ctx_current();
	return c && drv_ctx_valid(c) ? c : NULL;
}

static CUresult CUDAAPI storage_put(CUcontext ctx, void *key, void *value, void (*dtor)(CUcontext, void *, void *))
{
	drv_lock();
	struct CUctx_st *c = storage_ctx(ctx);
	CUresult r = c ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_CONTEXT;
	for (int i = 0; c && i < 16 && r != CUDA_SUCCESS; i++)
		if (c->storage[i].key == key || !c->storage[i].key) {
			c->storage[i] = (struct drv_storage){key, value, dtor};
			r = CUDA_SUCCESS;
		}
	drv_trace("export table: cudart stores its state for context %p under %p = %d", (void *)c, key, (int)r);
	drv_unlock();
	return r;
}

static CUresult CUDAAPI storage_remove(CUcontext ctx, void *key)
{
	drv_lock();
	struct CUctx_st *c = storage_ctx(ctx);
	for (int i = 0; c && i < 16; i++)
		if (c->storage[i].key == key)
			c->storage[i] = (struct drv_storage){0};
	drv_unlock();
	return CUDA_SUCCESS;
}

static CUresult CUDAAPI storage_get(void **value, CUcontext ctx, void *key)
{
	drv_lock();
	struct CUctx_st *c = storage_ctx(ctx);
	CUresult r = c ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_INVALID_CONTEXT;
	for (int i = 0; c && i < 16; i++)
		if (key && c->storage[i].key == key) {
			*value = c->storage[i].value;
			r = CUDA_SUCCESS;
		}
	drv_unlock();
	return r;
}

/* ---- context checks (263e8860-7cd2-6143-92f6-bbd5006dfa7e): asked of every context cudart uses; NVIDIA's
 * driver is observed to write 0 to the flag, leave the pointer as it was and succeed (a context that
 * needs no special treatment), and its slot 3 to return 0. */

static CUresult CUDAAPI context_check(CUcontext ctx, uint32_t *flag, const void **unused)
{
	(void)ctx;
	(void)unused;
	if (flag)
		*flag = 0;
	return CUDA_SUCCESS;
}

static uint32_t CUDAAPI context_check_zero(void)
{
	return 0;
}

/* ---- integrity check (d4082055-bde6-704b-8d34-ba123c66e1f2) */

static const void *table_of(int i);

static CUresult CUDAAPI integrity(uint32_t version, uint64_t seconds, uint64_t result[2])
{
	drv_trace("export table: integrity check, version %u", version);
	return drv_integrity(version, seconds, result, table_of(0), table_of(5), (const void *)integrity);
}

/* ---- unknown slots: named stubs */

struct table {
	const char *name;
	CUuuid id;
	const void *slots[SLOTS];
	int nslots;
	bool unsized;            /* slot 0 is a function, not the table's size */
};

static CUresult unknown_slot(int table, int slot);

#define SLOT_STUB(t, s)                                   \
	static CUresult CUDAAPI stub_##t##_##s(void)      \
	{                                                 \
		return unknown_slot(t, s);                \
	}
#define TABLE_STUBS(t)                                                                                          \
	SLOT_STUB(t, 1) SLOT_STUB(t, 2) SLOT_STUB(t, 3) SLOT_STUB(t, 4) SLOT_STUB(t, 5) SLOT_STUB(t, 6)       \
	SLOT_STUB(t, 7) SLOT_STUB(t, 8) SLOT_STUB(t, 9) SLOT_STUB(t, 10) SLOT_STUB(t, 11) SLOT_STUB(t, 12)    \
	SLOT_STUB(t, 13) SLOT_STUB(t, 14) SLOT_STUB(t, 15)
TABLE_STUBS(0)
TABLE_STUBS(1)
TABLE_STUBS(2)
TABLE_STUBS(3)
TABLE_STUBS(4)
TABLE_STUBS(5)

#define STUBS(t)                                                                                          \
	{NULL, (const void *)stub_##t##_1, (const void *)stub_##t##_2, (const void *)stub_##t##_3,        \
	 (const void *)stub_##t##_4, (const void *)stub_##t##_5, (const void *)stub_##t##_6,             \
	 (const void *)stub_##t##_7, (const void *)stub_##t##_8, (const void *)stub_##t##_9,             \
	 (const void *)stub_##t##_10, (const void *)stub_##t##_11, (const void *)stub_##t##_12,          \
	 (const void *)stub_##t##_13, (const void *)stub_##t##_14, (const void *)stub_##t##_15}

static struct table tables[] = {
    {"cudart interface",
     {{0x6b, (char)0xd5, (char)0xfb, 0x6c, 0x5b, (char)0xf4, (char)0xe7, 0x4a, (char)0x89, (char)0x87, (char)0xd9,
       0x39, 0x12, (char)0xfd, (char)0x9d, (char)0xf9}},
     STUBS(0),
     13,
     false},
    {"tools runtime callback hooks",
     {{(char)0xa0, (char)0x94, 0x79, (char)0x8c, 0x2e, 0x74, 0x2e, 0x74, (char)0x93, (char)0xf2, 0x08, 0x00, 0x20, 0x0c,
       0x0a, 0x66}},
     STUBS(1),
     7,
     false},
    {"tools thread-local state",
     {{0x42, (char)0xd8, 0x5a, (char)0x81, 0x23, (char)0xf6, (char)0xcb, 0x47, (char)0x82, (char)0x98, (char)0xf6,
       (char)0xe7, (char)0x8a, 0x3a, (char)0xec, (char)0xdc}},
     STUBS(2),
     4,
     false},
    {"context-local storage",
     {{(char)0xc6, (char)0x93, 0x33, 0x6e, 0x11, 0x21, (char)0xdf, 0x11, (char)0xa8, (char)0xc3, 0x68, (char)0xf3,
       0x55, (char)0xd8, (char)0x95, (char)0x93}},
     STUBS(3),
     4,
     true},
    {"context checks",
     {{0x26, 0x3e, (char)0x88, 0x60, 0x7c, (char)0xd2, 0x61, 0x43, (char)0x92, (char)0xf6, (char)0xbb, (char)0xd5, 0x00,
       0x6d, (char)0xfa, 0x7e}},
     STUBS(4),
     4,
     false},
    {"integrity check",
     {{(char)0xd4, 0x08, 0x20, 0x55, (char)0xbd, (char)0xe6, 0x70, 0x4b, (char)0x8d, 0x34, (char)0xba, 0x12, 0x3c,
       0x66, (char)0xe1, (char)0xf2}},
     STUBS(5),
     3,
     false},
};

static void fill(struct table *t)
{
	if (!t->unsized)
		t->slots[0] = (const void *)(uintptr_t)(t->nslots * sizeof(void *));
	if (t == &tables[0]) {
		t->slots[1] = (const void *)module_from_wrapper;
		t->slots[2] = (const void *)primary_context;
		t->slots[6] = (const void *)module_from_wrapper_ex;
		t->slots[7] = (const void *)runtime_setup;
		t->slots[8] = (const void *)module_from_fatbin;
	} else if (t == &tables[1]) {
		t->slots[2] = (const void *)hooks_buffer;
		t->slots[6] = (const void *)hooks_flags;
	} else if (t == &tables[5]) {
		t->slots[1] = (const void *)integrity;
	} else if (t == &tables[4]) {
		t->slots[2] = (const void *)context_check;
		t->slots[3] = (const void *)context_check_zero;
	} else if (t == &tables[3]) {
		t->slots[0] = (const void *)storage_put;
		t->slots[1] = (const void *)storage_remove;
		t->slots[2] = (const void *)storage_get;
	}
}

static const void *table_of(int i)
{
	return tables[i].slots;
}

static void uuid_text(const CUuuid *id, char *out, size_t n)
{
	const unsigned char *b = (const unsigned char *)id->bytes;
	snprintf(out, n, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
		 b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static CUresult unknown_slot(int table, int slot)
{
	char what[160], id[40];
	uuid_text(&tables[table].id, id, sizeof id);
	snprintf(what, sizeof what, "slot %d of the runtime's export table %s (%s)", slot, id, tables[table].name);
	return drv_unsupported(what);
}

CUresult CUDAAPI cuGetExportTable(const void **table, const CUuuid *id)
{
	if (!table || !id)
		return CUDA_ERROR_INVALID_VALUE;
	char text[40];
	uuid_text(id, text, sizeof text);
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
		if (memcmp(tables[i].id.bytes, id->bytes, sizeof id->bytes) == 0) {
			fill(&tables[i]);
			*table = tables[i].slots;
			drv_trace("cuGetExportTable(%s) = the %s table", text, tables[i].name);
			return CUDA_SUCCESS;
		}
	*table = NULL;
	drv_trace("cuGetExportTable(%s) = not found", text);
	return CUDA_ERROR_NOT_FOUND;
}
