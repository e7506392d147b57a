/* driver_entry.h — the table of entry points cuGetProcAddress answers from (driver_unsupported.c builds
 * it from driver_entries.h).  Kept apart from cuda.h: the table's file defines a weak stand-in for every
 * symbol under its own name, which cuda.h's prototypes would contradict. */
#ifndef GL_DRIVER_ENTRY_H
#define GL_DRIVER_ENTRY_H

struct drv_entry {
	const char *name;  /* what cuGetProcAddress is asked for: "cuMemAlloc" */
	int version;       /* the CUDA version this form appeared in */
	int per_thread;    /* 1: the per-thread default stream form */
	const char *symbol;/* "cuMemAlloc_v2" */
	void *fn;          /* the library's implementation, or the stub that says it is not supported */
	void *stub;        /* that stub: fn == stub when gpulab does not implement the entry point */
};

extern const struct drv_entry drv_entries[];
extern const int drv_nentries;

/* Says, once per name, that `name` is not implemented; the stubs call it and return
 * CUDA_ERROR_NOT_SUPPORTED. */
void drv_say_unsupported(const char *name);

#endif
