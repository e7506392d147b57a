/* sim_jit.h — the compiled engine: each kernel's decoded PTX translated into C (gl_jit_run and the parts
 * it enters), compiled once by the system C compiler into a cached shared object and loaded with dlopen.
 * The code runs a full warp (32 lanes, all live and active): the common integer, compare, move and f32
 * instructions inline, as vector code where they have a form for it; everything else (memory,
 * collectives, barriers, divergent branches, exits) calls back into the interpreter's sim_exec for that
 * one instruction, so counts, checks and findings come from the same code.  The interpreter stays the
 * reference: it runs warps with fewer lanes (diverged, exited, a block not a multiple of 32), and whole
 * launches when there is no compiler or --engine interp asks for it. */
#ifndef GL_SIM_JIT_H
#define GL_SIM_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ptx_function;
struct ptx_module;
struct sim_cta;
struct sim_warp;

/* The interface between gpulab and a compiled kernel.  Its text is written into every generated source
 * (SIM_JIT_ABI_TEXT), so both sides see the same layout; changing it changes the cache key. */
#define SIM_JIT_ABI                                                                                         \
	struct sim_jit_warp {                                                                               \
		uint64_t *r;                   /* the warp's registers, slot-major (r[slot * 32 + lane]) */ \
		int *pc;                       /* the warp's PC */                                          \
		const uint32_t *active, *live; /* the warp's masks; active == live on entry */              \
		uint64_t *inst, *thread_inst, *sass_inst, *sass_thread_inst, *executed;                     \
		uint64_t *ffma, *fadd, *fmul;                                                               \
		uint64_t pending;  /* instructions since the last budget check (run_warp's) */              \
		unsigned loops;    /* backward branches taken in this turn (run_warp's) */                  \
		int multiwarp;     /* the CTA has more than one warp: the turn quantum applies */           \
		int last;          /* the last instruction executed */                                      \
		void *cta, *w;                                                                              \
		int (*exec)(void *cta, void *w, int pc, uint32_t mask); /* the interpreter, one insn */     \
		/* ld/st at pc with the lanes' addresses computed inline: counted, checked and moved */     \
		int (*mem)(void *cta, void *w, int pc, uint32_t mask, uint64_t *addr);                     \
		/* the same for a full warp's shared [register + off] of instruction ins (code + its offset, \
		 * which the generated code holds): lane l's address reg[l] + off, written out as needed;    \
		 * *tok: the register's shape token (sim_jit_gen.c, emit_mem_reg) */                         \
		int (*memr)(void *cta, void *w, const void *ins, const uint64_t *reg, uint64_t off,          \
			    uint64_t *tok);                                                                 \
		/* ld.param at pc from the constant address a, every lane in mask (sim_ld_param_at) */      \
		int (*param)(void *cta, void *w, int pc, uint32_t mask, uint64_t a);                        \
		const char *code; /* the function's decoded instructions */                                 \
	};
#define SIM_JIT_STR_(...) #__VA_ARGS__
#define SIM_JIT_STR(...) SIM_JIT_STR_(__VA_ARGS__)
#define SIM_JIT_ABI_TEXT SIM_JIT_STR(SIM_JIT_ABI)
SIM_JIT_ABI

/* What a compiled kernel returns to run_warp. */
enum {
	SIM_JIT_CONTINUE, /* *pc is where the warp goes on; nothing is owed */
	SIM_JIT_YIELD,    /* the warp's turn is over at *pc (SIM_WARP_QUANTUM backward branches) */
	SIM_JIT_ABORT,    /* an instruction (`last`) stopped the CTA */
	SIM_JIT_BUDGET,   /* pending reached SIM_JIT_BUDGET_STEP after `last`: check the budget */
	SIM_JIT_STEP,     /* `last` returned 0 but changed the warp's masks: the interpreter steps the PC */
	SIM_JIT_NO_ENTRY, /* *pc is not an entry of the compiled function: interpret one instruction */
};
#define SIM_JIT_BUDGET_STEP 4096 /* run_warp checks the budget every this many instructions */
#define SIM_JIT_QUANTUM 64       /* = SIM_WARP_QUANTUM */

typedef int (*sim_jit_fn)(struct sim_jit_warp *W);

/* A loaded kernel. */
struct sim_jit {
	void *handle;
	sim_jit_fn run;
	int native;      /* instructions translated inline (the others call the interpreter) */
	int ncode;
	double compile_seconds; /* 0 when the cache answered */
	char key[65];
	char note[200];  /* what happened to a bad cache entry ("deleted and compiled again: ..."), else "" */
};

/* The largest kernel the compiled engine compiles, in PTX instructions: the C compile grows faster than
 * the kernel (5,208 instructions took 160 s and 1.2 GB at -O1), so past this the interpreter runs it, and
 * auto (sim_jit_auto_pick) never picks the compiled engine. */
#define SIM_JIT_MAX_INSNS 3000

/* C source of `fn`'s compiled function (malloc'd), and how many instructions it translates inline; NULL
 * with the reason in `why` for a function the compiled engine does not take. */
char *sim_jit_source(const struct ptx_module *m, const struct ptx_function *fn, int *native, char *why, size_t whyn);

/* Load (compiling on a cache miss) the compiled form of `fn` of `m`.  GL_OK and *out, or an error status and
 * a sentence in `why` saying why the interpreter must run it (no compiler, the compile failed, ...). */
int sim_jit_load(const struct ptx_module *m, const struct ptx_function *fn, struct sim_jit **out, char *why, size_t whyn);
void sim_jit_free(struct sim_jit *j);

/* Whether the compiled form of `fn` is in the cache, without compiling: generates the C and hashes it
 * into the key (this runs the compiler's --version).  0 when it is not, or cannot be had (no compiler, a
 * function the compiled engine does not take, no cache directory). */
bool sim_jit_cached(const struct ptx_module *m, const struct ptx_function *fn);

/* auto's decision for the rest of a launch (docs/sim.md, "Engines"), a pure function: `cta_work` is the
 * thread-instructions the measured CTA executed, `ctas_left` the CTAs not started yet, `ncode` the
 * kernel's PTX instructions, `workers` the threads running CTAs, `cached` whether the compiled kernel
 * is in the cache.  With W = cta_work x ctas_left:
 *   W < GL_SIM_JIT_AUTO_WORK or ncode > SIM_JIT_MAX_INSNS        -> SIM_JIT_PICK_INTERP, cached or not
 *   cached                                                        -> SIM_JIT_PICK_CACHED
 *   W / (GL_SIM_JIT_INTERP_RATE x workers) >= 2 x compile seconds -> SIM_JIT_PICK_COMPILE
 *   otherwise                                                     -> SIM_JIT_PICK_INTERP
 * with compile seconds = GL_SIM_JIT_CC_START + GL_SIM_JIT_CC_PER_INSN x ncode (sim.h).  Twice: the
 * compiled engine runs loop-heavy kernels about 2x faster, so a compile that costs T must save T,
 * which takes 2T of interpreted work; the other workers keep interpreting while one compiles, which
 * leaves a margin with more than one.  With the default rates that is
 * W >= 1.8 M x workers x (ncode + 200/3).  `cta_work` counts only full warps' instructions: the compiled
 * function runs full warps, and leaves any other to the interpreter.
 * The answer for cached = true is the one to check first: when it is SIM_JIT_PICK_INTERP the cache need
 * not be asked. */
enum sim_jit_pick { SIM_JIT_PICK_INTERP, SIM_JIT_PICK_CACHED, SIM_JIT_PICK_COMPILE };
enum sim_jit_pick sim_jit_auto_pick(uint64_t cta_work, long ctas_left, int ncode, int workers, bool cached);
/* The compile seconds that decision assumes for a kernel of ncode PTX instructions. */
double sim_jit_compile_estimate(int ncode);

/* The directory compiled kernels are cached in ($XDG_CACHE_HOME/gpulab/jit or ~/.cache/gpulab/jit): its
 * path only (-1 when neither variable is set); sim_jit_load creates and checks it. */
int sim_jit_cache_dir(char *out, size_t n);


#endif
