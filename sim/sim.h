/* sim.h — the SIMT simulator: runs one kernel launch of a parsed PTX module on the CPU, warp by warp,
 * and counts what Nsight Compute would (memmodel.h), checks what compute-sanitizer would, and can
 * record a trace of warp-level memory events.  The one header other folders include: with it come the
 * PTX front end (ptx.h), the counting rules the views share (memmodel.h), the number formats the
 * simulator computes in (sim_float.h) and the tensor-core fragment layouts; every other header of sim/
 * is the simulator's own (tools/check_layers.sh refuses them outside sim/). */
#ifndef GL_SIM_H
#define GL_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "common/buffers.h"
#include "common/err.h"
#include "common/findings.h"
#include "common/launch.h"
#include "common/metrics.h"
#include "common/record.h"
#include "common/trace.h"
#include "memmodel.h"
#include "ptx.h"
#include "sim_float.h"

/* ---- Device memory as a GPU maps it, and what an invalid access does (docs/sim.md, "Device memory:
 * mapped, allocated, faulting").  A GPU maps device memory in granules of GL_SIM_GRANULE bytes and
 * cudaMalloc/cuMemAlloc hand out allocations inside them (GL_SIM_ALLOC_ALIGN-aligned, small ones packed
 * several to a granule), so a kernel that reads a little past its buffer reads mapped memory: it does not
 * fault, and only compute-sanitizer says so.  An access outside every mapping faults, and the context's
 * next synchronising call returns CUDA_ERROR_ILLEGAL_ADDRESS.
 *
 * The allocations a kernel may use are the launch's regions: its gl_launch buffers (gpulab sim) or the
 * regions of a caller that owns device memory (gpulab's driver library).  A caller that wants a GPU's
 * behaviour also lists the mappings around them (opts.mapped) and picks a policy (opts.faults). */
#define GL_SIM_GRANULE (2ull << 20) /* cuMemGetAllocationGranularity's minimum on current NVIDIA GPUs */
#define GL_SIM_ALLOC_ALIGN 256u     /* every cudaMalloc/cuMemAlloc address is a multiple of it */

/* Device addresses [base, base + size) that are mapped, backed by the host bytes at `host` (size bytes,
 * owned by the caller: what a kernel reads outside every allocation is what is there, so the caller
 * decides the fill; gpulab's driver zeroes a granule when it maps it).  An allocation inside a mapping
 * should have its host bytes at host + (allocation base - base). */
struct gl_sim_mapping {
	uint64_t base, size;
	uint8_t *host;
};

/* What an invalid access (out of bounds, misaligned, a store to read-only memory) does besides being
 * reported when its tool is selected. */
enum gl_sim_faults {
	GL_SIM_FAULTS_OFF,      /* gpulab sim: the access is refused (a load gives 0), and the launch goes on */
	GL_SIM_FAULTS_GPU,      /* as a GPU: a global access outside every allocation but inside opts.mapped
				 * goes ahead on the mapped bytes; any other invalid access faults: it is refused
				 * and the launch stops (res.fault) */
	GL_SIM_FAULTS_MEMCHECK, /* as under compute-sanitizer's memcheck: the first invalid access that memcheck
				 * reports stops the launch before it is made (res.fault); with memcheck not among
				 * opts.tools, as GL_SIM_FAULTS_GPU */
};

/* Why a launch stopped at an access, and the CUresult a driver returns for it from the context's next
 * synchronising call (sticky: every later call returns it too). */
enum gl_sim_fault_kind {
	GL_SIM_FAULT_NONE,
	GL_SIM_FAULT_ILLEGAL_ADDRESS,    /* GPU: global memory outside every mapping, shared/local/param/const
					  * memory outside its space, a store to param/const memory:
					  * CUDA_ERROR_ILLEGAL_ADDRESS (700, "an illegal memory access was
					  * encountered") */
	GL_SIM_FAULT_MISALIGNED_ADDRESS, /* GPU: an address not a multiple of the access size:
					  * CUDA_ERROR_MISALIGNED_ADDRESS (716, "misaligned address") */
	GL_SIM_FAULT_LAUNCH_FAILED,      /* memcheck: what compute-sanitizer's programs see after it terminates a
					  * kernel: CUDA_ERROR_LAUNCH_FAILED (719, "unspecified launch failure") */
};

/* The access that stopped the launch: the first one in the first CTA, in grid order, that stopped. */
struct gl_sim_fault {
	int kind;                /* enum gl_sim_fault_kind */
	uint64_t address;        /* in its space: a device address for global memory, an offset for the others */
	unsigned size;           /* bytes accessed */
	bool is_store;
	char space[8];           /* "global", "shared", "local", "param", "const" */
	unsigned block[3], thread[3];
	int line;                /* its PTX line (the findings name the CUDA line) */
};

/* A launch whose memory the caller owns and places (gpulab's driver library, driver/): instead of laying out
 * the launch's buffers, the simulator maps `regions` at their own addresses (the module's .global/.const
 * data among them, at m->global_base, so what one launch writes there the next one reads), copies the
 * parameter buffer the caller laid out from the entry's .param list, and ignores l->buffers and l->args. */
struct gl_sim_region {
	uint64_t base, size;
	uint8_t *host;           /* the bytes, owned by the caller */
	const char *name;        /* for findings and traces */
};
struct gl_sim_memory {
	const struct gl_sim_region *regions;
	int nregions;
	int ntouch;              /* the first ntouch regions are the global buffers whose distinct sectors the
				  * footprint counts (uniq_ld/uniq_st): keep them close together */
	const uint8_t *params;
	size_t params_size;      /* at most GL_SIM_PARAM_BYTES */
	long max_resident_ctas;  /* a cooperative launch's limit on the caller's GPU model; 0: the simulator's own */
};
#define GL_SIM_PARAM_BYTES 4096 /* the kernel parameter buffer (CUDA's classic 4 KiB limit) */

struct gl_sim_opts {
	int threads;             /* worker threads; 0 = one per core */
	long sample_ctas;        /* simulate this many CTAs spread over the grid and scale; 0 = all */
	long cta_first, cta_end; /* simulate only CTAs cta_first..cta_end-1 in grid order (a shard of the
				  * launch: partial counts, unscaled); cta_end 0 = all */
	uint64_t max_instructions; /* warp-instruction budget per CTA; 0 = GL_SIM_DEFAULT_BUDGET */
	bool trace;              /* record warp-level memory events */
	unsigned trace_ctas;     /* CTAs traced (the first N in grid order); 0 = GL_SIM_TRACE_CTAS */
	uint32_t trace_limit;    /* events kept per traced CTA; 0 = GL_SIM_TRACE_LIMIT */
	bool progress;           /* progress bar on stderr */
	const char *progress_label; /* what runs, at the bar's start ("gemm naive (2/3)"); NULL: "simulating" */
	int tools;               /* sanitizer checks run (GL_TOOL_* mask); 0 = all */
	uint64_t printf_buffer;  /* bytes of device printf output kept; 0 = GL_SIM_PRINTF_BUFFER */
	uint64_t stack_size;     /* call-stack bytes per thread for .func calls; 0 = GL_SIM_STACK_SIZE */
	int engine;              /* enum gl_sim_engine */
	const struct gl_sim_memory *memory; /* NULL: the simulator lays out the launch's buffers itself */
	int faults;              /* enum gl_sim_faults; 0 = GL_SIM_FAULTS_OFF */
	const struct gl_sim_mapping *mapped; /* GL_SIM_FAULTS_GPU: the mapped device memory, disjoint ranges */
	int nmapped;
};

/* Which engine runs the warps (docs/sim.md, "Engines").
 * auto: the launch's first CTA runs on the interpreter, and its thread-instructions x the CTAs not yet
 *   started measure the work left (loops included: static estimates cannot see them).  The rest of the
 *   launch runs compiled when the compiled kernel is already cached and that work is at least
 *   GL_SIM_JIT_AUTO_WORK, or when it is not cached but interpreting that work would take at least twice
 *   as long as compiling (sim_jit_auto_pick in sim_jit.h, with the rates below); the interpreter
 *   otherwise.  So the small launches of the tests and lessons never wait for a C compiler.
 * compiled: always try; both fall back to the interpreter with the reason in gl_sim_result. */
enum gl_sim_engine { GL_ENGINE_AUTO, GL_ENGINE_INTERP, GL_ENGINE_COMPILED };
#define GL_SIM_JIT_AUTO_WORK (1ull << 24) /* thread-instructions below which auto never uses the compiled engine */
/* The rates auto weighs a compile with, measured on a 2-core x86-64 machine (gcc 12, -O1): the interpreter
 * ran about 300 M thread-instructions per second per worker thread when this rule was set (the tiled
 * GEMM: 1.65 G in 5.7 s of CPU; since its FMA lanes run as SIMD, 2.7 s, and an integer loop runs at
 * 450 M/s), and cc takes about 5 ms per PTX instruction (934 instructions of gemm_blocktile2d: 5-7 s)
 * plus about 0.1 s to start (a 21-instruction kernel: 0.14 s).  The low rate and the factor of two in
 * sim_jit_auto_pick (sim_jit.h) err in opposite directions: the compiled engine gains 1.45x on the
 * tiled GEMM, whose time is in the shared ld/st checks, and 5x on an ALU-bound loop (loop.ptx).  With them the interpreted time of the work
 * left is W / (GL_SIM_JIT_INTERP_RATE x workers) and the compile takes GL_SIM_JIT_CC_START +
 * GL_SIM_JIT_CC_PER_INSN x PTX instructions. */
#define GL_SIM_JIT_INTERP_RATE 300e6
#define GL_SIM_JIT_CC_PER_INSN 5e-3
#define GL_SIM_JIT_CC_START 0.1
/* "auto", "interp" or "compiled" -> the enum; -1 for anything else. */
int gl_sim_engine_parse(const char *name);

#define GL_SIM_DEFAULT_BUDGET 20000000ull /* a few seconds of one stuck CTA */
#define GL_SIM_PRINTF_BUFFER 1048576ull /* the device's printf FIFO by default (cudaLimitPrintfFifoSize) */
#define GL_SIM_PRINTF_BUFFER_MAX (1ull << 30)
#define GL_SIM_STACK_SIZE 1024ull /* call stack per thread by default (cudaLimitStackSize's default) */
#define GL_SIM_STACK_SIZE_MAX (64ull << 10)
#define GL_SIM_TRACE_CTAS 2
#define GL_SIM_TRACE_LIMIT 50000
#define GL_SIM_GLOBAL_BASE 0x00007f0000000000ull /* first buffer, like a cudaMalloc address */

/* Raw counts of one launch (sums over simulated CTAs). */
struct gl_sim_counters {
	uint64_t gld_req, gld_sect, gst_req, gst_sect;
	uint64_t sld_inst, sst_inst, sld_wf, sst_wf, sld_conf, sst_conf;
	uint64_t inst, thread_inst;
	uint64_t ffma, fadd, fmul, dfma, dadd, dmul, hfma, hadd, hmul; /* thread-level, predicate on */
	uint64_t mma_inst, ldsm_inst, ldsm_wf;
	uint64_t imma_inst, dmma_inst; /* integer and f64 tensor-core instructions (mma_inst: HMMA) */
	/* tensor-path math ops (2 per multiply-add) by source and destination type */
	uint64_t tops_f16_f32, tops_f16_f16, tops_bf16_f32, tops_tf32_f32, tops_f64, tops_i8;
	uint64_t ldgsts_inst, ldgsts_sect, ldgsts_req, ldgsts_sst_wf;
	uint64_t gatom_req, gatom_sect, gred_req, gred_sect, satom_inst;
	uint64_t lld_req, lld_sect, lst_req, lst_sect;
	uint64_t gld_ideal, gst_ideal; /* the sectors the global requests' bytes need at best (full coalescing) */
	uint64_t uniq_ld, uniq_st;     /* distinct sectors of the buffers loaded / stored (atomics: stored) */
	uint64_t gld_lines, gst_lines; /* distinct 128-byte lines per global request, summed (L1 tag lookups) */
	uint64_t l1_miss;              /* load sectors (ld.global, cp.async) that miss in the L1 model */
	/* The same accesses counted once per PTX instruction, whatever ptxas made of them (sass_map.h); the
	 * fields above follow the SASS when the module has a mapping.  sass_inst*: SASS instructions
	 * estimated from the executed PTX instructions and the SASS the line info attributes to each. */
	uint64_t ptx_gld_req, ptx_gld_sect, ptx_gst_req, ptx_gst_sect;
	uint64_t ptx_sld_inst, ptx_sst_inst, ptx_sld_wf, ptx_sst_wf, ptx_sld_conf, ptx_sst_conf;
	uint64_t sass_inst, sass_thread_inst;
	/* Textures and surfaces (sim_tex_exec.c): warp-level tex and tld4, of which tex with float coordinates
	 * (TEX) and with integer ones (TLD); suld, sust and sured. */
	uint64_t tex_inst, tex_tex, tex_tld, surf_ld, surf_st, surf_red;
};



/* The instruction with the most waste of one kind (global load / store sectors beyond the ideal, shared
 * load / store bank conflicts): where the guidance points (sim_spots.c). */
struct gl_sim_spot {
	int ptx_line, src_line; /* 0 when no instruction had any */
	double share;           /* its part of the kind's waste in the launch */
	uint64_t waste;
};
#define GL_SIM_SPOTS 4

struct gl_sim_result {
	struct gl_sim_counters c;
	struct gl_sim_spot spots[GL_SIM_SPOTS]; /* global loads, global stores, shared loads, shared stores */
	double scale;             /* counts multiply by this when CTAs were sampled */
	long ctas_total, ctas_run;
	long cta_first, cta_end;  /* the range run (opts' cta_first/cta_end); cta_end 0: not a range */
	bool cooperative;         /* the kernel used the grid workspace: all CTAs ran co-resident */
	struct gl_finding *findings; /* distinct findings, errors first (common/findings.h) */
	int nfindings;
	long nerrors;             /* error occurrences (every one counted) */
	long findings_total;      /* occurrences of errors and warnings */
	long findings_dropped;    /* occurrences of distinct findings beyond GL_FINDINGS_MAX */
	char *printf_out;
	uint64_t printf_buffer;   /* its size in bytes */
	uint64_t printf_dropped;  /* printf records that did not fit in it */
	uint64_t printf_unsupported; /* conversions gpulab does not support, printed as written */
	char printf_first_unsupported[24];
	bool aborted;             /* budget, deadlock or a fault stopped the launch */
	long aborted_cta;         /* grid index of the CTA that stopped it (the first in grid order) */
	struct gl_sim_fault fault; /* the access that stopped it (opts.faults); kind GL_SIM_FAULT_NONE: none did, and
				    * the invalid accesses there were are findings only */
	double wall_seconds;
	int threads;
	struct gl_trace_event *trace;
	uint32_t ntrace;
	uint64_t trace_dropped;
	bool sass_mapped;         /* the counts follow a SASS mapping (ptx_module.counts_mode says which) */
	char engine[12];          /* the engine that ran the warps: "interp", or "compiled" when it ran any CTA */
	char engine_note[320];    /* why the interpreter ran where compiled was possible or asked for, or how
				   * auto chose the compiled engine after measuring a CTA; "" */
	long jit_ctas;            /* CTAs merged that the compiled engine ran (auto: those started after its
				   * decision; the rest ran on the interpreter) */
	long jit_measured_cta;    /* auto: the grid index of the CTA whose work decided; -1 when none did */
	double jit_compile_seconds; /* time spent compiling (0 when the cache answered) */
	int jit_native, jit_ncode; /* instructions the compiled function translates inline, of all */
};

/* Run `entry` of `m` with the launch's geometry, buffers and arguments.  Output buffers are written back
 * into the launch.  Sanitizer findings are results, not errors: the return value is GL_OK unless the
 * launch could not start (bad arguments, unknown entry, resources: GL_EUSAGE when the launch would need
 * more host memory than gpulab allows itself, GL_EENV when memory runs out).  CTAs stream through the
 * workers with a bounded window of finished, not yet merged ones, so memory does not grow with the
 * grid.  A CTA that aborts (budget, deadlock, trap) stops the launch there: CTAs before it in grid order
 * complete, later ones are discarded, so counts do not depend on the number of threads. */
int gl_sim_run(const struct ptx_module *m, struct gl_launch *l, const struct gl_sim_opts *opts,
	       struct gl_sim_result *res, struct gl_err *err);
void gl_sim_result_free(struct gl_sim_result *res);

/* The first line of a SASS text gpulab builds: "// gpulab-sass: ptxas 13.0 ..." names the compiler. */
#define SASS_HEADER "// gpulab-sass: "

/* Count memory accesses as the SASS in `sass_text` (nvdisasm -gp output, sass_map.h) executes them; with
 * no text, or none of the module's functions in it, counts stay PTX-level and `why` goes into
 * m->counts_mode. */
void gl_sim_apply_sass(struct ptx_module *m, const char *sass_text, const char *why);

/* Counters -> metrics under Nsight Compute's names (scaled when sampled). */
void gl_sim_metrics(const struct gl_sim_result *res, struct gl_metrics *out);
/* The name of the i-th metric the simulator can store (NULL past the last): the one list of them. */
const char *gl_sim_metric_name(size_t i);
/* Its unit ("sector", "inst", ...). */
const char *gl_sim_metric_unit(size_t i);

/* Device address of buffer i as the simulator lays them out (256-byte aligned, guard gaps between). */
uint64_t gl_sim_buffer_address(const struct gl_launch *l, int i);

/* A shared array's name as traces and buffer maps show it: "tile" for nvcc's _ZZ19transpose_coalescedE4tile. */
void gl_sim_plain_name(const char *name, char *out, size_t n);

/* ---- tensor-core fragments (sim_mma_frag.c; docs/sim.md, "Tensor-core fragments"): which matrix element
 * each register of each lane holds, for the executors and the mma view alike */

enum sim_frag_role { FRAG_A, FRAG_B, FRAG_C };

/* One matrix operand: A is rows x cols = M x K, B is K x N, C/D is M x N. */
struct sim_frag {
	enum sim_frag_role role;
	unsigned rows, cols;
	enum ptx_type type; /* element type (f16, bf16, tf32, s8, u8, f32, s32, f64) */
	unsigned per_reg;   /* elements packed in one register: 2 for 16-bit, 4 for 8-bit, else 1 */
	unsigned unique;    /* registers per lane that hold distinct elements */
};

/* The fragment of `role` for a rows x cols matrix of `type`. */
struct sim_frag sim_frag_make(enum sim_frag_role role, unsigned rows, unsigned cols, enum ptx_type type);
/* Row and column of element j (< per_reg) of register r (< unique) of `lane`. */
void sim_frag_pos(const struct sim_frag *f, unsigned lane, unsigned r, unsigned j, unsigned *row, unsigned *col);

/* The launch record (common/record.h) of a launch of `fn` (may be NULL) that gl_sim_run ran: geometry,
 * static shared memory, the counts under Nsight Compute's names, sanitizer counts and findings, which CTAs
 * ran, the trace with its buffer map, and a note naming the first sanitizer error (else a CTA range).
 * Registers are unknown (-1) and the verdict -1: the caller knows them.  res keeps what it owns. */
void gl_sim_record(const struct ptx_function *fn, const struct gl_launch *l, const struct gl_sim_result *res,
		   struct gl_launch_record *rec);
/* "sanitizer: 3 errors, first: MESSAGE (PTX line N)", the one wording of a launch's sanitizer errors in
 * its note; "" when the sanitizer found no error. */
void gl_sim_sanitizer_note(const struct gl_sim_result *res, char *buf, size_t n);

/* The launch's buffer map: its global buffers where the simulator places them (vectors of their element
 * type), then the .shared arrays of `fn` (the entry; NULL: none) (offset, bytes, 4-byte words).  The
 * caller frees *map. */
void gl_sim_buffer_map(const struct ptx_function *fn, const struct gl_launch *l, struct gl_buffer_desc **map,
		       int *n);

#endif
