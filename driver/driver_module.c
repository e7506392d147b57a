/* driver_module.c — modules: an image (PTX text, a fatbinary, the __fatBinC_Wrapper_t nvcc's host code
 * registers, or a cubin) becomes a parsed PTX module with its .global/.const data in memory the driver
 * owns, at the module's own slot of the simulator's module window, mapped at that same address on the
 * host (so __managed__ variables work from both sides).  A fatbinary's PTX is the one that fits the
 * modelled GPU (fatbin.c); an image with no PTX loads, and says why once, with
 * CUDA_ERROR_NO_BINARY_FOR_GPU, when one of its kernels or variables is asked for.  Functions, globals,
 * and the library API (cuLibrary*, cuKernel*: a library is a module, its kernels its functions). */
#define _GNU_SOURCE
#include "driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/numba_name.h"
#include "common/ptx_version.h"
#include "common/util.h"
#include "fatbin.h"

#define MODULE_SLOTS (PTX_WINDOW_SIZE / PTX_MAX_MODULE_DATA)

static struct CUmod_st *modules;
static bool slot_used[MODULE_SLOTS];
static int loaded; /* modules loaded so far, for names */

bool drv_module_valid(CUmodule m)
{
	for (struct CUmod_st *k = modules; k && m; k = k->next)
		if (k == m)
			return true;
	return false;
}

bool drv_func_valid(CUfunction f)
{
	return f && drv_module_valid(f->mod) && f->magic == DRV_FUNC;
}

/* ---- images */

static void jit_log(unsigned n, const CUjit_option *opts, void **vals, const char *text)
{
	for (unsigned i = 0; opts && vals && i < n; i++)
		if (opts[i] == CU_JIT_ERROR_LOG_BUFFER)
			for (unsigned k = 0; k < n; k++)
				if (opts[k] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES && vals[k] && (uintptr_t)vals[k] > 0)
					snprintf(vals[i], (size_t)(uintptr_t)vals[k], "%s", text);
}

/* The check every driver makes: PTX newer than the driver's CUDA version is refused. */
static CUresult check_version(const char *ptx, char *log, size_t n)
{
	int major, minor;
	if (!gl_ptx_text_version(ptx, &major, &minor)) {
		snprintf(log, n, "ptxas fatal   : the PTX has no .version directive");
		return CUDA_ERROR_INVALID_PTX;
	}
	int newest = gl_ptx_isa_for_driver(drv.version);
	if (major * 10 + minor > newest) {
		snprintf(log, n, "ptxas application ptx input, line 1; fatal   : Unsupported .version %d.%d; current "
			 "version is '%d.%d'", major, minor, newest / 10, newest % 10);
		return CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
	}
	return CUDA_SUCCESS;
}

/* What an image holds: its PTX text (malloc'd) and a name, or why it has none. */
struct image {
	char *ptx;
	char name[96];
	char why[sizeof(struct gl_err){0}.msg];
	CUresult error;        /* a malformed image: the load fails */
};

static void read_fatbin(const void *data, size_t avail, struct image *im)
{
	struct fatbin *fb = malloc(sizeof *fb);
	struct gl_err err = {0};
	int sm = drv.gpu->cc_major * 10 + drv.gpu->cc_minor;
	if (!fb) {
		im->error = CUDA_ERROR_OUT_OF_MEMORY;
		return;
	}
	const struct fatbin_image *pick = NULL;
	if (fatbin_parse(data, avail, fb, &err) != GL_OK) {
		drv_say("%s", err.msg);
		im->error = CUDA_ERROR_INVALID_IMAGE;
	} else if (!(pick = fatbin_pick_ptx(fb, sm, &err))) {
		snprintf(im->why, sizeof im->why, "%s", err.msg);
	} else {
		size_t len;
		static const char *codecs[] = {"stored", "LZ4-compressed", "zstd-compressed"};
		drv_trace("fatbinary of %d images: the compute_%d PTX picked for sm_%d, %s (%zu bytes, %zu uncompressed)",
			  fb->n, pick->sm, sm, codecs[pick->codec], pick->payload_size, pick->uncompressed_size);
		snprintf(im->name, sizeof im->name, "compute_%d PTX", pick->sm);
		if (fatbin_payload(pick, &im->ptx, &len, &err) != GL_OK) {
			drv_say("%s", err.msg);
			im->error = CUDA_ERROR_INVALID_IMAGE;
		}
	}
	free(fb);
}

static void read_image(const void *data, size_t avail, struct image *im)
{
	uint32_t magic = 0;
	if (strnlen(data, sizeof magic) == sizeof magic) /* a shorter image is a (tiny) PTX string */
		memcpy(&magic, data, sizeof magic);
	if (magic == FATBIN_WRAPPER_MAGIC) { /* {magic, version, data, filename_or_fatbins} */
		const void *fatbin;
		memcpy(&fatbin, (const uint8_t *)data + 8, sizeof fatbin);
		if (!fatbin)
			im->error = CUDA_ERROR_INVALID_IMAGE;
		else
			read_fatbin(fatbin, SIZE_MAX, im);
	} else if (magic == FATBIN_MAGIC) {
		read_fatbin(data, avail, im);
	} else if (memcmp(data, "\177ELF", 4) == 0) {
		snprintf(im->why, sizeof im->why, "the image is a cubin (SASS only) and gpulab simulates PTX: load the "
			 "PTX instead, or build with nvcc -arch=sm_XX, which embeds PTX beside the SASS");
	} else {
		im->ptx = strdup(data); /* PTX text, NUL-terminated as cuModuleLoadData requires */
		snprintf(im->name, sizeof im->name, "module.ptx");
		if (!im->ptx)
			im->error = CUDA_ERROR_OUT_OF_MEMORY;
	}
}

/* ---- module data: the module's own slot of the module window, mapped at its address */

static int take_slot(void)
{
	for (int i = 0; i < (int)MODULE_SLOTS; i++)
		if (!slot_used[i]) {
			slot_used[i] = true;
			return i;
		}
	return -1;
}

static CUresult map_globals(struct CUmod_st *mod)
{
	const struct ptx_module *m = mod->m;
	if (!m->global_size)
		return CUDA_SUCCESS;
	size_t bytes = (m->global_size + 4095) / 4096 * 4096;
	void *p = mmap((void *)(uintptr_t)m->global_base, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED || p != (void *)(uintptr_t)m->global_base) {
		if (p != MAP_FAILED)
			munmap(p, bytes);
		drv_say("cannot map module data at 0x%llx (%zu bytes)", (unsigned long long)m->global_base, bytes);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	for (int i = 0; i < m->nvars; i++)
		if (m->vars[i].init && m->vars[i].space != PS_SHARED)
			memcpy((uint8_t *)p + m->vars[i].offset, m->vars[i].init, m->vars[i].size);
	CUresult r = drv_mem_enter(DRV_MEM_MODULE, m->global_base, p, m->global_size, 0, &mod->globals);
	if (r != CUDA_SUCCESS)
		munmap(p, bytes);
	return r;
}

static void unmap_globals(struct CUmod_st *mod)
{
	if (!mod->globals)
		return;
	munmap(mod->globals->host, (mod->globals->size + 4095) / 4096 * 4096);
	drv_mem_release(mod->globals);
	mod->globals = NULL;
}

static CUresult parse(struct CUmod_st *mod, const char *ptx, const char *name, char *log, size_t n)
{
	int slot = take_slot();
	if (slot < 0) {
		snprintf(log, n, "more than %llu modules are loaded at once", (unsigned long long)MODULE_SLOTS);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	struct gl_err err = {0};
	uint64_t base = PTX_MODULE_BASE + (uint64_t)slot * PTX_MAX_MODULE_DATA;
	if (ptx_parse_at(ptx, name, PTX_PARSE_LAZY | PTX_PARSE_EMPTY_OK, base, &mod->m, &err) != GL_OK) {
		slot_used[slot] = false;
		snprintf(log, n, "ptxas fatal   : %s", err.msg);
		return CUDA_ERROR_INVALID_PTX;
	}
	mod->sm = mod->m->target_sm;
	CUresult r = map_globals(mod);
	if (r != CUDA_SUCCESS) {
		ptx_module_free(mod->m);
		mod->m = NULL;
		slot_used[slot] = false;
	}
	return r;
}

static CUresult load(const void *data, size_t avail, struct CUmod_st **out, char *log, size_t n)
{
	struct image im = {0};
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	read_image(data, avail, &im);
	CUresult r = im.error;
	if (r == CUDA_SUCCESS && im.ptx)
		r = check_version(im.ptx, log, n);
	struct CUmod_st *mod = r == CUDA_SUCCESS ? calloc(1, sizeof *mod) : NULL;
	if (r == CUDA_SUCCESS && !mod)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r == CUDA_SUCCESS) {
		mod->magic = DRV_MODULE;
		mod->ptx = im.ptx;
		im.ptx = NULL;
		if (mod->ptx) {
			char name[128];
			snprintf(name, sizeof name, "%s #%d", im.name, ++loaded);
			r = parse(mod, mod->ptx, name, log, n);
		} else {
			mod->why = strdup(im.why);
		}
	}
	if (r != CUDA_SUCCESS) {
		if (mod)
			free(mod->ptx);
		free(mod);
		free(im.ptx);
		return r;
	}
	mod->next = modules;
	modules = mod;
	drv_trace("module loaded: %s", mod->m ? mod->m->name : mod->why);
	*out = mod;
	return CUDA_SUCCESS;
}

CUresult drv_module_load(const void *image, size_t avail, struct CUmod_st **out)
{
	char log[1200] = "";
	CUresult r = load(image, avail, out, log, sizeof log);
	if (r != CUDA_SUCCESS && log[0])
		drv_trace("module load failed: %s", log);
	return r;
}

CUresult drv_module_unload(struct CUmod_st *mod)
{
	struct CUmod_st **p = &modules;
	while (*p && *p != mod)
		p = &(*p)->next;
	if (!*p)
		return CUDA_ERROR_INVALID_HANDLE;
	*p = mod->next;
	while (mod->funcs) {
		struct CUfunc_st *f = mod->funcs;
		mod->funcs = f->next;
		f->magic = 0;
		free(f->demangled);
		free(f);
	}
	unmap_globals(mod);
	if (mod->m) {
		slot_used[(mod->m->global_base - PTX_MODULE_BASE) / PTX_MAX_MODULE_DATA] = false;
		ptx_module_free(mod->m);
	}
	free(mod->regs);
	free(mod->spills);
	free(mod->ptx);
	free(mod->why);
	mod->magic = 0;
	free(mod);
	return CUDA_SUCCESS;
}

/* A module without PTX: say why, once, and refuse what was asked for. */
static CUresult no_binary(struct CUmod_st *mod, const char *what)
{
	if (!mod->said)
		drv_say("cannot provide %s: %s", what, mod->why ? mod->why : "the module has no PTX");
	mod->said = true;
	return CUDA_ERROR_NO_BINARY_FOR_GPU;
}

/* ---- functions */

/* The C++ name of a kernel, with the C++ runtime's demangler when the program has one (every nvcc-built
 * program links libstdc++); a Numba kernel's Python name (common/numba_name.h); the PTX name otherwise. */
static char *demangle(const char *name)
{
	char python[256];
	if (gl_numba_name(name, python, sizeof python))
		return strdup(python);
	typedef char *(*demangler)(const char *, char *, size_t *, int *);
	demangler d = (demangler)dlsym(RTLD_DEFAULT, "__cxa_demangle");
	int status = -1;
	char *s = d && strncmp(name, "_Z", 2) == 0 ? d(name, NULL, NULL, &status) : NULL;
	return status == 0 && s ? s : strdup(name);
}

CUresult drv_module_function(struct CUmod_st *mod, const char *name, struct CUfunc_st **out)
{
	if (!mod->m)
		return no_binary(mod, name);
	const struct ptx_function *fn = ptx_find_function(mod->m, name);
	if (!fn || !fn->is_entry)
		return CUDA_ERROR_NOT_FOUND;
	for (struct CUfunc_st *f = mod->funcs; f; f = f->next)
		if (f->fn == fn) {
			*out = f;
			return CUDA_SUCCESS;
		}
	struct CUfunc_st *f = calloc(1, sizeof *f);
	if (!f)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*f = (struct CUfunc_st){.magic = DRV_FUNC, .mod = mod, .fn = fn, .max_dyn_smem = DRV_SHARED_DEFAULT - (int)
				fn->shared_static, .regs = -1, .spill_bytes = -1, .demangled = demangle(fn->name),
				.next = mod->funcs};
	if (f->max_dyn_smem < 0)
		f->max_dyn_smem = 0;
	mod->funcs = f;
	*out = f;
	return CUDA_SUCCESS;
}

CUresult drv_module_global(struct CUmod_st *mod, const char *name, CUdeviceptr *dptr, size_t *bytes)
{
	if (!mod->m)
		return no_binary(mod, name);
	for (int i = 0; i < mod->m->nvars; i++) {
		const struct ptx_var *v = &mod->m->vars[i];
		if ((v->space == PS_GLOBAL || v->space == PS_CONST) && strcmp(v->name, name) == 0) {
			if (dptr)
				*dptr = mod->m->global_base + v->offset;
			if (bytes)
				*bytes = v->size;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_NOT_FOUND;
}

void drv_func_resources(struct CUfunc_st *f)
{
	struct CUmod_st *mod = f->mod;
	if (!mod->regs_done) {
		mod->regs_done = true;
		int n = mod->m->nfuncs ? mod->m->nfuncs : 1;
		mod->regs = malloc((size_t)n * sizeof *mod->regs);
		mod->spills = malloc((size_t)n * sizeof *mod->spills);
		if (mod->regs && mod->spills)
			drv_ptxas_resources(mod->ptx, mod->m, drv.gpu->cc_major * 10 + drv.gpu->cc_minor, mod->regs,
					    mod->spills);
	}
	if (f->regs < 0 && mod->regs && mod->spills) {
		long i = f->fn - mod->m->funcs;
		f->regs = mod->regs[i];
		f->spill_bytes = mod->spills[i];
	}
}

/* ---- the entry points */

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int n, CUjit_option *opts,
				    void **vals)
{
	if (!module || !image)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	char log[1200] = "";
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS && (r = drv_fail("cuModuleLoadDataEx", CUDA_ERROR_INVALID_PTX)) != CUDA_SUCCESS)
		snprintf(log, sizeof log, "ptxas fatal   : failure injected by GPULAB_STANDIN_FAIL");
	if (r == CUDA_SUCCESS)
		r = load(image, SIZE_MAX, module, log, sizeof log);
	if (r == CUDA_SUCCESS)
		drv_vendor_why(*module, __builtin_return_address(0));
	jit_log(n, opts, vals, log);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image)
{
	return cuModuleLoadDataEx(module, image, 0, NULL, NULL);
}

CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *module, const void *fatbin)
{
	return cuModuleLoadDataEx(module, fatbin, 0, NULL, NULL);
}

CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *path)
{
	if (!module || !path)
		return CUDA_ERROR_INVALID_VALUE;
	char *text = NULL;
	size_t len = 0;
	if (gl_read_file(path, &text, &len) != 0)
		return CUDA_ERROR_FILE_NOT_FOUND;
	drv_lock();
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS)
		r = drv_module_load(text, len, module);
	drv_unlock();
	free(text);
	return r;
}

CUresult CUDAAPI cuModuleUnload(CUmodule mod)
{
	drv_lock();
	CUresult r = drv_module_unload(mod);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule mod, const char *name)
{
	if (!hfunc || !name)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS && !drv_module_valid(mod))
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		r = drv_module_function(mod, name, hfunc);
	if (r == CUDA_SUCCESS && drv_fail("cuModuleGetFunction", CUDA_ERROR_NOT_FOUND) != CUDA_SUCCESS)
		r = CUDA_ERROR_NOT_FOUND;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule mod, const char *name)
{
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_ready(NULL);
	if (r == CUDA_SUCCESS && !drv_module_valid(mod))
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		r = drv_module_global(mod, name, dptr, bytes);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
	if (!mode)
		return CUDA_ERROR_INVALID_VALUE;
	*mode = CU_MODULE_EAGER_LOADING; /* a module is parsed when it is loaded */
	return CUDA_SUCCESS;
}

static unsigned count_entries(const struct CUmod_st *mod)
{
	unsigned n = 0;
	for (int i = 0; mod->m && i < mod->m->nfuncs; i++)
		n += mod->m->funcs[i].is_entry && mod->m->funcs[i].code != NULL;
	return n;
}

/* The module's kernels, in PTX order, into out[0..max). */
static CUresult enumerate(struct CUmod_st *mod, CUfunction *out, unsigned max)
{
	unsigned k = 0;
	for (int i = 0; mod->m && i < mod->m->nfuncs && k < max; i++) {
		const struct ptx_function *fn = &mod->m->funcs[i];
		if (!fn->is_entry || !fn->code)
			continue;
		CUresult r = drv_module_function(mod, fn->name, &out[k++]);
		if (r != CUDA_SUCCESS)
			return r;
	}
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_module_valid(mod) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		*count = count_entries(mod);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction *functions, unsigned int n, CUmodule mod)
{
	if (!functions)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_module_valid(mod) ? enumerate(mod, functions, n) : CUDA_ERROR_INVALID_HANDLE;
	drv_unlock();
	return r;
}

/* ---- libraries and kernels */

static bool library_valid(CUlibrary lib)
{
	return lib && lib->magic == DRV_LIBRARY && drv_module_valid(lib->mod);
}

static CUresult library_load(CUlibrary *lib, const void *code, size_t avail, const char *api)
{
	if (!lib || !code)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock_at(api);
	/* context-independent: a library may be loaded before any context exists */
	CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
	struct CUlib_st *l = r == CUDA_SUCCESS ? calloc(1, sizeof *l) : NULL;
	if (r == CUDA_SUCCESS && !l)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r == CUDA_SUCCESS)
		r = drv_module_load(code, avail, &l->mod);
	if (r == CUDA_SUCCESS) {
		l->magic = DRV_LIBRARY;
		l->mod->lib = l;
		*lib = l;
	} else {
		free(l);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuLibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *jit_opts, void **jit_vals,
				   unsigned int njit, CUlibraryOption *lib_opts, void **lib_vals, unsigned int nlib)
{
	(void)jit_opts;
	(void)jit_vals;
	(void)njit;
	(void)lib_opts;
	(void)lib_vals;
	(void)nlib;
	CUresult r = library_load(lib, code, SIZE_MAX, __func__);
	if (r == CUDA_SUCCESS)
		drv_vendor_why((*lib)->mod, __builtin_return_address(0));
	return r;
}

CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary *lib, const char *path, CUjit_option *jit_opts, void **jit_vals,
				       unsigned int njit, CUlibraryOption *lib_opts, void **lib_vals, unsigned int nlib)
{
	(void)jit_opts;
	(void)jit_vals;
	(void)njit;
	(void)lib_opts;
	(void)lib_vals;
	(void)nlib;
	char *text = NULL;
	size_t len = 0;
	if (!path || gl_read_file(path, &text, &len) != 0)
		return CUDA_ERROR_FILE_NOT_FOUND;
	CUresult r = library_load(lib, text, len, __func__);
	free(text);
	return r;
}

CUresult CUDAAPI cuLibraryUnload(CUlibrary lib)
{
	drv_lock();
	CUresult r = library_valid(lib) ? drv_module_unload(lib->mod) : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS) {
		lib->magic = 0;
		free(lib);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuLibraryGetKernel(CUkernel *kernel, CUlibrary lib, const char *name)
{
	if (!kernel || !name)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = library_valid(lib) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	struct CUfunc_st *f = NULL;
	if (r == CUDA_SUCCESS)
		r = drv_module_function(lib->mod, name, &f);
	if (r == CUDA_SUCCESS)
		*kernel = (CUkernel)f;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
	drv_lock();
	CUresult r = library_valid(lib) ? cuModuleGetFunctionCount(count, lib->mod) : CUDA_ERROR_INVALID_HANDLE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int n, CUlibrary lib)
{
	drv_lock();
	CUresult r = library_valid(lib) ? cuModuleEnumerateFunctions((CUfunction *)kernels, n, lib->mod)
				     : CUDA_ERROR_INVALID_HANDLE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuLibraryGetModule(CUmodule *mod, CUlibrary lib)
{
	if (!mod)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = library_valid(lib) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		*mod = lib->mod;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary lib, const char *name)
{
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = library_valid(lib) ? drv_module_global(lib->mod, name, dptr, bytes) : CUDA_ERROR_INVALID_HANDLE;
	drv_unlock();
	return r;
}

/* A __managed__ variable is module data mapped at its own address, so the host reaches it there too. */
CUresult CUDAAPI cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary lib, const char *name)
{
	return cuLibraryGetGlobal(dptr, bytes, lib, name);
}

CUresult CUDAAPI cuKernelGetFunction(CUfunction *func, CUkernel kernel)
{
	if (!func)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_func_valid((CUfunction)kernel) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		*func = (CUfunction)kernel;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuKernelGetLibrary(CUlibrary *lib, CUkernel kernel)
{
	if (!lib)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUfunction f = (CUfunction)kernel;
	CUresult r = drv_func_valid(f) && f->mod->lib ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		*lib = f->mod->lib;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuKernelGetName(const char **name, CUkernel kernel)
{
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUfunction f = (CUfunction)kernel;
	CUresult r = drv_func_valid(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		*name = f->fn->name;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuFuncGetName(const char **name, CUfunction f)
{
	return cuKernelGetName(name, (CUkernel)f);
}

CUresult CUDAAPI cuFuncGetParamInfo(CUfunction f, size_t index, size_t *offset, size_t *size)
{
	drv_lock();
	CUresult r = drv_func_valid(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS && index >= (size_t)f->fn->nparams)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS) {
		if (offset)
			*offset = f->fn->params[index].offset;
		if (size)
			*size = f->fn->params[index].size;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel, size_t index, size_t *offset, size_t *size)
{
	return cuFuncGetParamInfo((CUfunction)kernel, index, offset, size);
}

CUresult CUDAAPI cuFuncGetModule(CUmodule *mod, CUfunction f)
{
	if (!mod)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_func_valid(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		*mod = f->mod;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction f)
{
	if (!state)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = drv_func_valid(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		*state = CU_FUNCTION_LOADING_STATE_LOADED;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuFuncLoad(CUfunction f)
{
	drv_lock();
	CUresult r = drv_func_valid(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	drv_unlock();
	return r;
}
