/* driver.h — gpulab's CUDA driver library (libcuda.so.1): the driver API with NVIDIA's ABI (the toolkit's
 * cuda.h), every kernel launch run by gpulab's simulator.  This header is the library's inside: the one
 * process-wide state, the objects behind the API's handles, and the helpers the area files share.
 * docs/driver.md is the user's side (what is implemented, the environment, the model behind timings).
 *
 * Areas, one file each: init and devices (driver_init.c, driver_attr.c), contexts (driver_ctx.c), the
 * memory map (driver_mem.c: every allocation and what a launch sees of them), memory calls
 * (driver_memapi.c), memory pools (driver_pool.c), copies and memset (driver_copy.c), modules and
 * libraries (driver_module.c, fatbin.c), the JIT linker (driver_link.c), functions and occupancy
 * (driver_func.c), kernel parameters (driver_params.c), launches (driver_launch.c), the per-launch
 * record (driver_record.c), streams and events (driver_stream.c), graphs (driver_graph.c), textures,
 * surfaces and arrays (driver_tex.c), registers from ptxas (driver_ptxas.c), entry points by name
 * (driver_procaddr.c, driver_entries.h), cudart's export tables and integrity handshake
 * (driver_export.c, driver_integrity.c), the entry points gpulab does not implement
 * (driver_unsupported.c), error strings (driver_errors.c) and the stand-in's test hooks
 * (driver_testhooks.c).
 *
 * Execution model: one device of a GPU model from gpulab's table (GPULAB_GPU, default H100); every
 * operation runs when it is issued, in issue order, under one process-wide lock, so stream order and
 * event waits always hold; kernel time is the estimate model's (insights/estimate.c) on a clock per
 * stream, which is what events report. */
#ifndef GL_DRIVER_H
#define GL_DRIVER_H

#ifndef __CUDA_API_VERSION_INTERNAL
#define __CUDA_API_VERSION_INTERNAL 1 /* as NVIDIA's driver is built: every versioned symbol declared */
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#include "common/err.h"
#include "insights/gpu_models.h"
#include "sim/sim.h"

#define DRV_VERSION 13000         /* the CUDA version the library reports (cuDriverGetVersion) */
#define DRV_MAX_DEVICES 8
#define DRV_CTX_STACK 32          /* contexts one thread can push */
#define DRV_SHARED_DEFAULT (48u * 1024u) /* dynamic shared memory a kernel may take without opting in */

/* Magic numbers at the start of every object behind a handle, so a stale or foreign handle is refused
 * (CUDA_ERROR_INVALID_HANDLE) instead of followed. */
enum drv_magic {
	DRV_CTX = 0x67637478, DRV_STREAM = 0x67737472, DRV_EVENT = 0x67657674, DRV_MODULE = 0x676d6f64,
	DRV_FUNC = 0x6766756e, DRV_LIBRARY = 0x676c6962, DRV_GRAPH = 0x67677270, DRV_GRAPH_EXEC = 0x67657865,
	DRV_ARRAY = 0x67617272, DRV_NODE = 0x676e6f64,
};

/* ---- the process-wide state (driver_init.c) */

struct drv_state {
	pthread_mutex_t lock;           /* recursive: one API call at a time, host callbacks may re-enter */
	bool initialized;
	const struct gl_gpu_model *gpu; /* GPULAB_GPU, default H100 */
	int ndevices;
	int version;                    /* what cuDriverGetVersion reports */
	int threads;                    /* simulator worker threads (GPULAB_DRIVER_THREADS; 0: one per core) */
	bool trace;                     /* GPULAB_DRIVER_TRACE: every entry point looked up or called */
	bool log;                       /* GPULAB_DRIVER_LOG: one line per launch on stderr */
	struct CUctx_st *primary[DRV_MAX_DEVICES];
	long launches;                  /* kernel launches that ran */
	bool stats;                     /* GPULAB_DRIVER_STATS: the library's time per launch, said at exit */
	double in_calls, simulating;    /* seconds inside entry points (outermost lock held), in gl_sim_run */
	bool profiler_stopped;          /* between cuProfilerStop and cuProfilerStart (driver_record.c) */
};
extern struct drv_state drv;

/* Every entry point that touches state takes the lock first; with GPULAB_DRIVER_TRACE the outermost
 * acquisition names the entry point called. */
#define drv_lock() drv_lock_at(__func__)
void drv_lock_at(const char *caller);
void drv_unlock(void);
/* Read the environment once (the first cuInit, or any entry point before it that needs it). */
void drv_configure(void);
/* CUDA_SUCCESS when `dev` is a device, else NOT_INITIALIZED / INVALID_DEVICE. */
CUresult drv_valid_device(CUdevice dev);
/* A line on stderr prefixed "gpulab driver: " (always shown: what the program must know). */
void drv_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, only with GPULAB_DRIVER_TRACE. */
void drv_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A monotonic clock in seconds, for the library's own time (GPULAB_DRIVER_STATS). */
double drv_now(void);

/* ---- contexts (driver_ctx.c) */

struct drv_storage { /* cudart's context-local storage (driver_export.c) */
	void *key, *value;
	void (*dtor)(CUcontext, void *, void *);
};

struct CUstream_st {
	uint32_t magic;
	struct CUctx_st *ctx;
	unsigned flags;                /* CU_STREAM_NON_BLOCKING */
	int priority;
	unsigned long long id;
	double clock_us;               /* model time at which its last operation ends */
	struct drv_capture *capture;   /* non-NULL while it records into a graph (driver_graph.c) */
	struct CUstream_st *next;
};

struct CUctx_st {
	uint32_t magic;
	CUdevice dev;
	bool primary;
	int refs;                      /* primary: retains; created: 1 until destroyed */
	unsigned flags;
	CUresult sticky;               /* a kernel's fault poisons the context, as on a GPU */
	size_t limits[CU_LIMIT_MAX];
	CUfunc_cache cache_config;
	struct CUstream_st null_stream; /* the default stream (legacy and per-thread alike) */
	struct CUstream_st *streams;
	double legacy_barrier_us;      /* blocking streams' work starts after the legacy stream's last op */
	struct drv_storage storage[16];
	unsigned long long next_stream_id;
	struct CUctx_st *next;         /* created contexts */
};

CUcontext drv_ctx_current(void);
/* CUDA_SUCCESS with the current context, or NOT_INITIALIZED / INVALID_CONTEXT / its sticky error. */
CUresult drv_ready(CUcontext *ctx);
/* The same without the sticky error (calls that work after a fault: frees, destroys, queries). */
CUresult drv_ready_unpoisoned(CUcontext *ctx);
bool drv_ctx_valid(CUcontext c);
/* The primary context of `dev`, created inactive on first use. */
struct CUctx_st *drv_primary(CUdevice dev);

/* ---- streams, events and the model clock (driver_stream.c) */

struct CUevent_st {
	uint32_t magic;
	struct CUctx_st *ctx;
	unsigned flags;
	bool recorded;
	double us;                     /* its stream's clock when it was recorded */
	unsigned long long capture_id; /* recorded while a stream captured (driver_graph.c): that capture */
	struct CUgraphNode_st **capture_deps; /* ... and the nodes a wait on it depends on */
	int ncapture_deps;
	struct CUevent_st *next;
};

/* The stream a handle names: NULL, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD are the context's default
 * stream; NULL when the handle is not a stream of `ctx`. */
struct CUstream_st *drv_stream(CUcontext ctx, CUstream h);
/* Model time at which an operation issued now on `s` starts (after the stream's previous work and, for
 * the default stream and blocking streams, the legacy synchronisation), and its end. */
double drv_stream_begin(struct CUstream_st *s);
void drv_stream_end(struct CUstream_st *s, double end_us);

/* ---- the memory map (driver_mem.c): every allocation a kernel may reach, in one table */

enum drv_mem_kind {
	DRV_MEM_DEVICE,      /* cuMemAlloc, cuMemAllocPitch, cuMemAllocAsync */
	DRV_MEM_HOST,        /* cuMemAllocHost, cuMemHostAlloc: pinned, mapped (device address == host address) */
	DRV_MEM_MANAGED,     /* cuMemAllocManaged */
	DRV_MEM_REGISTERED,  /* cuMemHostRegister: the program's memory, at its own address */
	DRV_MEM_MODULE,      /* a module's .global/.const data (driver_module.c) */
};

struct drv_alloc {
	uint64_t base;       /* device address */
	size_t size;
	uint8_t *host;       /* its bytes (== base except for module data) */
	size_t span;         /* bytes of address space it holds (granularity-rounded), 0 outside the arena */
	enum drv_mem_kind kind;
	unsigned flags;      /* the CU_MEMHOSTALLOC_* / CU_MEM_ATTACH_* flags it was made with */
	struct CUctx_st *ctx;
	unsigned long long id; /* CU_POINTER_ATTRIBUTE_BUFFER_ID */
	bool from_pool;      /* stream-ordered: counted in the device's default pool (driver_pool.c) */
	bool graph_owned;    /* a graph's allocation (driver_graph.c): freeing it unmaps it and keeps its
			      * address for the graph's next launch */
	bool unmapped;       /* such an allocation between a free and the next launch: invisible to lookups */
	char name[48];       /* for findings: "cudaMalloc#3 (4000 bytes)" */
};

/* Allocation granularity: every allocation starts on its own granule of the arena, with an unmapped
 * granule after it (docs/driver.md, "Memory"). */
#define DRV_GRANULARITY (2ull << 20)

int drv_mem_alloc(enum drv_mem_kind kind, size_t size, unsigned flags, struct drv_alloc **out);
/* Enter memory the caller owns at its own address (DRV_MEM_REGISTERED, DRV_MEM_MODULE). */
int drv_mem_enter(enum drv_mem_kind kind, uint64_t base, uint8_t *host, size_t size, unsigned flags,
		  struct drv_alloc **out);
void drv_mem_release(struct drv_alloc *a);
/* A graph's allocation freed (unmapped, its address kept) and mapped again at the graph's next launch. */
void drv_mem_unmap(struct drv_alloc *a);
int drv_mem_remap(struct drv_alloc *a);
/* The allocation starting at addr, mapped or not. */
struct drv_alloc *drv_mem_reserved_at(uint64_t addr);
/* The allocation holding [addr, addr + bytes), or NULL. */
struct drv_alloc *drv_mem_find(uint64_t addr, size_t bytes);
/* The allocation starting at addr, or NULL. */
struct drv_alloc *drv_mem_at(uint64_t addr);
/* Bytes held by device, host and managed allocations. */
size_t drv_mem_used(void);
/* What the device offers: what gpulab allows itself on this host (gl_check_host_memory's rule). */
size_t drv_mem_total(void);
/* The default pool's byte counts follow its allocations and frees. */
void drv_pool_account(CUdevice dev, size_t bytes, bool freed);
/* Free every allocation of `ctx` (context destroyed or reset). */
void drv_mem_release_ctx(struct CUctx_st *ctx);
/* The launch's view of memory: every allocation as a simulator region, the arena's first (for the
 * footprint count), those in `first` (a kernel's pointer arguments) ahead of the rest; and what is mapped
 * around them (sim.h's gl_sim_mapping: an arena allocation's whole granules, which a kernel may read past
 * its end without a fault, as on a GPU; other entries exactly).  Caller frees *out and *mapped.  The one
 * place a launch's address map is built. */
void drv_mem_regions(const uint64_t *first, int nfirst, struct gl_sim_region **out, int *n, int *ntouch);
void drv_mem_mapped(struct gl_sim_mapping **mapped, int *n);

/* Host bytes for a copy: a device-side address inside an allocation, or (when `host_ok`) any other
 * address taken as the program's own host memory.  NULL when neither. */
uint8_t *drv_mem_bytes(uint64_t addr, size_t bytes, bool host_ok);

/* ---- modules and functions (driver_module.c, driver_func.c) */

struct CUmod_st {
	uint32_t magic;
	struct ptx_module *m;         /* NULL when the image has no PTX gpulab can run (see why) */
	char *why;                    /* why there is no PTX, said when a kernel or variable is asked for */
	bool said;                    /* `why` was printed */
	char *ptx;                    /* the PTX text (for ptxas) */
	int sm;                       /* its .target */
	struct drv_alloc *globals;    /* its .global/.const data, NULL when it has none */
	struct CUfunc_st *funcs;
	bool regs_done;               /* ptxas ran (or could not) for the modelled GPU */
	int *regs, *spills;           /* per function of m: what ptxas said (-1 unknown) */
	struct CUlib_st *lib;         /* loaded through cuLibraryLoad*, else NULL */
	struct CUmod_st *next;
};

struct CUfunc_st {
	uint32_t magic;
	struct CUmod_st *mod;
	const struct ptx_function *fn;
	int max_dyn_smem;             /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
	int carveout;
	int regs;                     /* ptxas for the modelled GPU; -1 unknown */
	int spill_bytes;              /* local memory ptxas reports; -1 unknown */
	char *demangled;              /* the C++ name, or the entry's */
	struct CUfunc_st *next;
};

/* CUlibrary: a module loaded context-independently; its kernels (CUkernel) are its CUfunctions. */
struct CUlib_st {
	uint32_t magic;
	struct CUmod_st *mod;
};

bool drv_func_valid(CUfunction f);
bool drv_module_valid(CUmodule m);
/* Load a module from an image: PTX text, a fatbinary, a __fatBinC_Wrapper_t, or an ELF cubin. */
CUresult drv_module_load(const void *image, size_t avail, struct CUmod_st **out);
CUresult drv_module_unload(struct CUmod_st *mod);
CUresult drv_module_function(struct CUmod_st *mod, const char *name, struct CUfunc_st **out);
CUresult drv_module_global(struct CUmod_st *mod, const char *name, CUdeviceptr *dptr, size_t *bytes);
/* Registers of the function's kernel on the modelled GPU (ptxas, once per module). */
void drv_func_resources(struct CUfunc_st *f);
/* Run ptxas for `sm` on `ptx`; fills regs[i]/spills[i] for the module's entries (-1 unknown). */
void drv_ptxas_resources(const char *ptx, const struct ptx_module *m, int sm, int *regs, int *spills);
/* Theoretical active blocks per SM of f with `threads` per block and `dyn` bytes of dynamic shared memory. */
int drv_occupancy_blocks(struct CUfunc_st *f, int threads, size_t dyn);

/* ---- launches (driver_params.c, driver_launch.c, driver_record.c) */

/* A kernel launch as issued: what a stream runs now or a graph keeps for later. */
struct drv_launch {
	struct CUfunc_st *f;
	unsigned grid[3], block[3];
	unsigned dyn_smem;
	bool cooperative;
	uint8_t params[GL_SIM_PARAM_BYTES];
	size_t params_size;
};

/* Lay the kernel's parameter buffer out from its .param list: kernelParams (one pointer per parameter,
 * each copied with the parameter's size at its offset) or extra (CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE). */
CUresult drv_params_layout(struct drv_launch *l, void **params, void **extra);
/* Check and describe a launch (geometry, shared memory, parameters) before it is run or captured. */
CUresult drv_launch_prepare(struct drv_launch *l, CUfunction f, const unsigned grid[3], const unsigned block[3],
			    unsigned smem, void **params, void **extra, bool cooperative);
/* Run it now: simulate, record, advance s's clock. */
CUresult drv_launch_run(const struct drv_launch *l, struct CUstream_st *s);
/* Build the launch's record, hand it to the hook (driver_record.h); the estimate model's time in us. */
double drv_record_launch(const struct drv_launch *l, const struct gl_launch *gl, const struct CUstream_st *s,
			 const struct gl_sim_result *res, double start_us, bool selected, int error);
/* The function's name as ncu's default --kernel-name-base "function" has it: the demangled name without
 * its parameter list, template arguments and return type ("void ns::scale<float>(float*)" -> "ns::scale"). */
void drv_function_name(const char *demangled, char *out, size_t n);
/* The profile's settings from the environment (driver_profile.c), read with the rest by drv_configure. */
void drv_profile_configure(void);
/* CUDA_INJECTION64_PATH's InitializeInjection, once, after the first cuInit that succeeds (driver_inject.c). */
void drv_injection_load(void);
/* A module without PTX loaded by one of NVIDIA's SASS-only libraries (cuBLAS, ...; `caller`: the return
 * address of the entry point that loaded it) says so in its why (driver_vendor.c). */
void drv_vendor_why(struct CUmod_st *mod, const void *caller);
/* Whether `gpulab profile` selected this launch of f, and the simulator's options for it (tools, fault
 * policy, sampling, budget, trace); counts the launch for --launch-skip/--launch-count. */
bool drv_profile_select(const struct CUfunc_st *f, struct gl_sim_opts *opts);

/* ---- copies and memset (driver_copy.c), arrays (driver_tex.c) */

/* Copy n bytes: a side in device_sides (DRV_DST_DEVICE, DRV_SRC_DEVICE) must lie inside one allocation;
 * the others may also be the program's host memory. */
enum { DRV_DST_DEVICE = 1, DRV_SRC_DEVICE = 2 };
CUresult drv_copy(uint64_t dst, uint64_t src, size_t n, unsigned device_sides);
/* A 2D/3D copy between host, device, unified and array memory, every row checked. */
CUresult drv_copy3d(const CUDA_MEMCPY3D *p);
CUresult drv_memset(const CUDA_MEMSET_NODE_PARAMS *p);
/* An array's bytes (rows of `pitch` bytes, `height` rows per slice, `depth` slices); NULL when `a` is not
 * an array. */
uint8_t *drv_array_data(CUarray a, size_t *pitch, size_t *height, size_t *depth);

/* ---- stream operations and graphs (driver_stream.c, driver_graph.c) */

/* One operation a stream runs, or a graph keeps as a node. */
enum drv_op_kind { DRV_OP_KERNEL, DRV_OP_COPY, DRV_OP_COPY3D, DRV_OP_MEMSET, DRV_OP_HOST, DRV_OP_RECORD,
		   DRV_OP_WAIT, DRV_OP_EMPTY, DRV_OP_MAP, DRV_OP_UNMAP };
struct drv_op {
	enum drv_op_kind kind;
	struct drv_launch launch;        /* KERNEL */
	uint64_t dst, src;               /* COPY; MAP, UNMAP: dst */
	size_t bytes;
	unsigned sides;                  /* COPY: DRV_DST_DEVICE | DRV_SRC_DEVICE */
	CUDA_MEMCPY3D copy3d;            /* COPY3D */
	CUDA_MEMSET_NODE_PARAMS memset;  /* MEMSET */
	CUhostFn fn;                     /* HOST */
	void *data;
	struct CUevent_st *event;        /* RECORD, WAIT */
};

/* Issue `op` on the stream handle h of the current context: recorded when the stream captures, run
 * now otherwise.  Checks the context (and its sticky error) first. */
CUresult drv_issue(CUstream h, const struct drv_op *op);
/* Run one operation on stream s now. */
CUresult drv_op_run(const struct drv_op *op, struct CUstream_st *s);
/* Append `op` to the graph s is capturing into (driver_graph.c). */
CUresult drv_capture_add(struct CUstream_st *s, const struct drv_op *op);
/* A stream that waits for an event recorded inside a capture joins that capture (true when it did). */
bool drv_capture_join(struct CUstream_st *s, const struct CUevent_st *ev);
/* The capture a stream is part of ends: forget its state. */
void drv_capture_leave(struct CUstream_st *s);

/* ---- test hooks (driver_testhooks.c): the stand-in's failure injection, off unless asked for */

/* The failure GPULAB_STANDIN_FAIL asks for on this call of `name`, else CUDA_SUCCESS; counts the call. */
CUresult drv_fail(const char *name, CUresult typical);
/* 1 when GPULAB_STANDIN_FAIL names pseudo-fault `what` ("ulp", "nan") for launch number `launch`. */
bool drv_fault(const char *what, long launch);
/* Start counting again (a fresh primary context). */
void drv_fail_reset(void);
/* The pseudo-faults "ulp@N"/"nan@N": alter the first word of the launch's first pointer argument. */
void drv_alter_output(const struct drv_launch *l, long launch);

/* ---- entry points (driver_unsupported.c) */

/* CUDA_ERROR_NOT_SUPPORTED, naming `name` on stderr the first time. */
CUresult drv_unsupported(const char *name);

#endif
