/* toolchain.h — the CUDA toolchain gpulab drives and stands in for, the one public header of toolchain/:
 * loading a .cu (through nvcc, source.c and nvcc.c, and the PTX cache, ptx_cache.c) or .ptx source, the
 * sm_80 SASS of a module (sass.c: ptxas and nvdisasm), a kernel found by its C++ name (kernel_names.c,
 * with the Itanium demangler of demangle.c), and a launch built from --arg specs against a kernel's
 * .param list, with --dump files (launch_args.c).  `gpulab sim` and `gpulab exercise check` use it. */
#ifndef GL_TOOLCHAIN_H
#define GL_TOOLCHAIN_H

#include <stdio.h>

#include "common/launch.h"
#include "sim/sim.h"

/* source.c */

#define GL_NVCC_MAX_FLAGS 32

/* What `gpulab sim` passes on to nvcc for a .cu source. */
struct gl_nvcc_opts {
	const char *arch;                        /* sm_XX; NULL: sm_80 */
	const char *flags[2 * GL_NVCC_MAX_FLAGS]; /* "-I", DIR, "-D", MACRO[=V] ... in command-line order */
	int nflags;
	bool verbose;                            /* say on stderr whether the PTX cache answered */
	bool no_cache;
};

/* The PTX text of `path`: a .ptx file as is, or a .cu compiled with `nvcc -ptx -arch=sm_80 -O3
 * -lineinfo [flags]` (nvcc's own messages go to stderr as they are), through the PTX cache of
 * ptx_cache.c.  `nv` may be NULL (defaults).  Caller frees *text. */
int gl_simsrc_load(const char *path, const struct gl_nvcc_opts *nv, char **text, struct gl_err *err);

/* nvcc.c */

/* $GPULAB_NVCC, else the nvcc found at build time, else `nvcc` on PATH (execvp searches it). */
const char *gl_nvcc_path(void);
/* Seconds nvcc may run: $GPULAB_NVCC_TIMEOUT (1 to 86400), else 300. */
unsigned gl_nvcc_timeout(void);
/* Run argv (argv[0] is nvcc) in its own process group with stdout to `stdout_path` (NULL: stderr);
 * past gl_nvcc_timeout() it is killed and the result is GL_EENV.  `what` names the input in messages. */
int gl_nvcc_run(char *const argv[], const char *stdout_path, const char *what, struct gl_err *err);

/* ptx_cache.c */

/* `path` compiled to PTX by nvcc, or the PTX a previous compile left in $XDG_CACHE_HOME/gpulab/ptx when
 * the nvcc, its version, the flags, the working directory, the source and every file it includes are
 * unchanged. */
int gl_simcache_compile(const char *path, const struct gl_nvcc_opts *nv, char **text, struct gl_err *err);

/* sass.c: the sm_80 SASS of `ptx` as nvdisasm -gp text with gpulab's header line (sass_map.h), or
 * NULL with the reason in `why` ("nvdisasm not found; ...").  ptxas and nvdisasm are $GPULAB_PTXAS and
 * $GPULAB_NVDISASM, else those found at build time, else the ones on PATH.  Caller frees. */
char *gl_simsrc_sass(const char *ptx, char *why, size_t n);

/* kernel_names.c */

/* The kernel called `name`: an exact .entry name (extern "C" or mangled), or a C++ spelling of a mangled
 * one when exactly one entry has it: the signature as c++filt prints it, the qualified name with or
 * without template arguments, or the last component with or without them ("saxpy" finds
 * _Z5saxpyifPfS_, "MatrixMulCUDA<16>" finds _Z13MatrixMulCUDAILi16EEvPfS0_S0_ii).  White space does not
 * matter.  Ambiguous and unknown names are GL_EUSAGE errors listing the candidates. */
int gl_simsrc_kernel(const struct ptx_module *m, const char *name, const struct ptx_function **fn,
		     struct gl_err *err);

/* The unqualified name inside an Itanium-mangled name ("_ZN2ns4gemmILi16EEEvPf" -> "gemm"), or the
 * name itself when it is not mangled. */
void gl_simsrc_base_name(const char *mangled, char *out, size_t n);

/* demangle.c */

/* An Itanium-mangled kernel name taken apart, written as c++filt writes it. */
struct gl_demangled {
	char signature[512]; /* "lab::reduce<float, 256>(float const*, float*, int)" (no return type) */
	char name[512];      /* "lab::reduce<float, 256>" */
	char plain[512];     /* "lab::reduce" */
	char base[256];      /* "reduce" */
	char base_args[512]; /* "reduce<float, 256>" */
};

/* 0 and *out filled for a name in the subset kernels use (namespaces, templates with type and integer
 * arguments, builtin, pointer, reference and cv-qualified types, substitutions); -1 otherwise. */
int gl_demangle(const char *mangled, struct gl_demangled *out);

/* launch_args.c */

/* Fill the launch's buffers and arguments from one --arg spec per kernel parameter, in order:
 *   i32:V u32:V i64:V u64:V f32:V f64:V           scalars
 *   buf:NAME:DTYPE:COUNT[:INIT]                    a buffer; INIT zero (default), seq, rand[:SEED],
 *                                                  const:V or file:PATH (raw little-endian)
 *   tex:... surf:...                               a texture or surface object (launch_args_tex.c).
 * gl_simarg_free releases what it allocated besides the buffers. */
int gl_simarg_build(const struct ptx_function *fn, char *const *specs, int n, struct gl_launch *l,
		    struct gl_err *err);

/* Add a buffer named `name` of n elements of t, initialised by INIT (NULL: zero), as --arg `spec` asks;
 * *index gets its index.  Checks the name, the sizes, the buffer count and gpulab's host-memory rule. */
int gl_simarg_add_buffer(struct gl_launch *l, const char *spec, const char *name, enum gl_dtype t, long n,
			 const char *init, int *index, struct gl_err *err);

/* launch_args_tex.c: parameter i from tex:NAME:FORMAT:DIMS[:OPTIONS][:INIT] or surf:...: a texture or
 * surface object over a new buffer of texels, passed as its handle (launch.textures holds the objects). */
int gl_simarg_texture(const struct ptx_function *fn, int i, const char *spec, struct gl_launch *l,
		      struct gl_err *err);
/* Free what gl_simarg_build allocated besides the buffers (the texture objects). */
void gl_simarg_free(struct gl_launch *l);

/* Check "NAME=PATH" names a buffer of the launch; *buffer gets its index and *path the file. */
int gl_simarg_dump_target(const struct gl_launch *l, const char *spec, int *buffer, const char **path,
			  struct gl_err *err);
/* Write buffer `buffer`'s contents, raw little-endian, to `path`. */
int gl_simarg_dump(const struct gl_launch *l, int buffer, const char *path, struct gl_err *err);

/* The deterministic generator behind rand[:SEED] (splitmix64), exposed for tests. */
uint64_t gl_simarg_splitmix(uint64_t *state);

#endif
