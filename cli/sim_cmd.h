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

/* The PTX text of `path`: a .ptx file as is, or a .cu compiled with `nvcc -ptx -arch=sm_80 -O3
 * -lineinfo` in a temporary directory (nvcc's own messages go to stderr as they are).  The nvcc used is
 * $GPULAB_NVCC, else the one found at build time, else `nvcc` on PATH.  Caller frees *text. */
int gl_simsrc_load(const char *path, char **text, struct gl_err *err);

/* The kernel called `name`: an exact .entry name (extern "C" or mangled), or the base name of a mangled
 * C++ name when exactly one entry has it ("saxpy" finds _Z5saxpyifPfS_).  Ambiguous and unknown names
 * are GL_EUSAGE errors listing the candidates. */
int gl_simsrc_kernel(const struct ptx_module *m, const char *name, const struct ptx_function **fn,
		     struct gl_err *err);

/* The unqualified name inside an Itanium-mangled name ("_ZN2ns4gemmILi16EEEvPf" -> "gemm"), or the
 * name itself when it is not mangled. */
void gl_simsrc_base_name(const char *mangled, char *out, size_t n);

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
};

void gl_simprint_text(FILE *out, const struct gl_sim_report *r);
void gl_simprint_json(FILE *out, const struct gl_sim_report *r);
/* The lines about device printf: records dropped when its buffer was full, unsupported conversions. */
void gl_simprint_printf_notes(FILE *out, const struct gl_sim_result *res);

/* The compute-sanitizer-like headline of a finding: "Invalid __global__ read of size 4 bytes". */
void gl_simprint_headline(const struct gl_sim_finding *f, char *buf, size_t n);

#endif
