/* sim_cmd.h — the parts of `gpulab sim` (cli/cmd_sim.c): loading a .cu (through nvcc) or .ptx source
 * and finding its kernel (sim_source.c), turning --arg specs into a launch checked against the kernel's
 * .param list and writing --dump files (sim_args.c), and printing the result (sim_print.c). */
#ifndef GL_SIM_CMD_H
#define GL_SIM_CMD_H

#include <stdio.h>

#include "cli.h"
#include "common/launch.h"
#include "sim/sim.h"

/* sim_source.c */

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
 * sim_cache.c.  `nv` may be NULL (defaults).  Caller frees *text. */
int gl_simsrc_load(const char *path, const struct gl_nvcc_opts *nv, char **text, struct gl_err *err);

/* sim_nvcc.c */

/* $GPULAB_NVCC, else the nvcc found at build time, else `nvcc` on PATH (execvp searches it). */
const char *gl_nvcc_path(void);
/* Seconds nvcc may run: $GPULAB_NVCC_TIMEOUT (1 to 86400), else 300. */
unsigned gl_nvcc_timeout(void);
/* Run argv (argv[0] is nvcc) in its own process group with stdout to `stdout_path` (NULL: stderr);
 * past gl_nvcc_timeout() it is killed and the result is GL_EENV.  `what` names the input in messages. */
int gl_nvcc_run(char *const argv[], const char *stdout_path, const char *what, struct gl_err *err);

/* sim_cache.c */

/* `path` compiled to PTX by nvcc, or the PTX a previous compile left in $XDG_CACHE_HOME/gpulab/ptx when
 * the nvcc, its version, the flags, the working directory, the source and every file it includes are
 * unchanged. */
int gl_simcache_compile(const char *path, const struct gl_nvcc_opts *nv, char **text, struct gl_err *err);

/* sim_sass.c: the sm_80 SASS of `ptx` as nvdisasm -gp text with gpulab's header line (sass_map.h), or
 * NULL with the reason in `why` ("nvdisasm not found; ...").  ptxas and nvdisasm are $GPULAB_PTXAS and
 * $GPULAB_NVDISASM, else those found at build time, else the ones on PATH.  The text comes from the SASS
 * cache when it holds this PTX for these tools (`nv`: --no-cache skips it, --verbose says whether it
 * answered; NULL: the defaults).  Caller frees. */
char *gl_simsrc_sass(const char *ptx, const struct gl_nvcc_opts *nv, char *why, size_t n);

/* sim_sass_cache.c: the cached SASS text of `key` (64 hex digits; caller frees), or NULL; and storing
 * one.  Entries are checked when read back (see the file). */
char *gl_sasscache_load(const char *key, bool verbose);
void gl_sasscache_store(const char *key, const char *text, bool verbose);

/* sim_names.c */

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

/* sim_demangle.c */

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

/* sim_args.c */

/* Fill the launch's buffers and arguments from one --arg spec per kernel parameter, in order:
 *   i32:V u32:V i64:V u64:V f32:V f64:V           scalars
 *   buf:NAME:DTYPE:COUNT[:INIT]                    a buffer; INIT zero (default), seq, rand[:SEED],
 *                                                  const:V or file:PATH (raw little-endian). */
int gl_simarg_build(const struct ptx_function *fn, char *const *specs, int n, struct gl_launch *l,
		    struct gl_err *err);

/* Check "NAME=PATH" names a buffer of the launch; *buffer gets its index and *path the file. */
int gl_simarg_dump_target(const struct gl_launch *l, const char *spec, int *buffer, const char **path,
			  struct gl_err *err);
/* Write buffer `buffer`'s contents, raw little-endian, to `path`. */
int gl_simarg_dump(const struct gl_launch *l, int buffer, const char *path, struct gl_err *err);

/* The deterministic generator behind rand[:SEED] (splitmix64), exposed for tests. */
uint64_t gl_simarg_splitmix(uint64_t *state);

/* sim_print.c */

struct gl_sim_report {
	const char *source;      /* the SOURCE argument */
	const char *kernel;      /* the entry name run */
	const struct gl_launch *launch;
	const struct gl_sim_result *res;
	const struct gl_metrics *metrics;
	int print_limit;         /* distinct findings printed as text; 0 = all */
	const char *counts_mode; /* "SASS-mapped (ptxas 13.0 sm_80)" or "PTX-level (why)" */
};

void gl_simprint_text(FILE *out, const struct gl_sim_report *r);
void gl_simprint_json(FILE *out, const struct gl_sim_report *r);
/* The lines about device printf: records dropped when its buffer was full, unsupported conversions. */
void gl_simprint_printf_notes(FILE *out, const struct gl_sim_result *res);

/* The compute-sanitizer-like headline of a finding: "Invalid __global__ read of size 4 bytes". */
void gl_simprint_headline(const struct gl_finding *f, char *buf, size_t n);

/* Findings of one launch and their occurrence counts. */
struct gl_sanitizer_summary {
	const struct gl_finding *findings; /* distinct, errors first */
	int nfindings;
	long errors, warnings, dropped;    /* occurrences */
	bool aborted;
	bool cuda_places; /* a .cu source: name the CUDA file and line first (nvcc's PTX is temporary) */
};

/* The findings in compute-sanitizer's layout: the first `print_limit` distinct findings (0: all) with
 * their occurrence counts and first coordinates, a line for those not shown, and the ERROR SUMMARY line
 * counting every occurrence. */
void gl_simprint_findings(FILE *out, const struct gl_sanitizer_summary *s, int print_limit);

/* One finding as a JSON object (kind, tool, space, address, size, block, thread, line, cuda_line,
 * warning, count, samples, message). */
struct gl_json;
void gl_simprint_json_finding(struct gl_json *j, const struct gl_finding *f);

/* sim_store.c */

/* One simulated launch to store as a run (topic and variant as the store shows them). */
struct gl_simstore_in {
	const char *topic, *variant;
	const char *params_json;          /* NULL: "{}" */
	const struct ptx_function *fn;
	const struct gl_launch *launch;
	const struct gl_sim_result *res;
	const struct gl_metrics *metrics;
	bool verified;
	char db_file[4096];               /* out: the database it went to */
};

/* Store it in ctx's database as one run; *run_id gets the run's id. */
int gl_simstore_save(struct gl_ctx *ctx, struct gl_simstore_in *in, long *run_id);

#endif
