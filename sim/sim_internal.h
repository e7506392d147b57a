/* sim_internal.h — simulator state shared by its files: the launch (read-only while CTAs run), the CTA
 * a worker is running, and its warps.  Registers are stored slot-major: r[slot*32 + lane]. */
#ifndef GL_SIM_INTERNAL_H
#define GL_SIM_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "common/util.h"
#include "memmodel.h"
#include "ptx_ops.h"
#include "sim_addr.h"
#include "sim_race.h"
#include "sim_simd.h"
#include "sim.h"

/* A cooperative launch's grid workspace (cooperative_groups::this_grid(): the barrier word of
 * grid.sync()), outside every other window of sim_addr.h. */
#define SIM_GRID_WS_BASE 0x0000320000000000ull
#define SIM_GRID_WS_SIZE 64u
/* Reserved shared memory (sm_80's 1 KiB per CTA), where cooperative_groups keeps the barriers and the
 * exchange slots of thread-block tiles wider than a warp: after the CTA's own shared memory, in two
 * halves that %reserved_smem_offset_0 and _1 name. */
#define SIM_RESERVED_SMEM 1024u
#define SIM_FINDINGS_PER_CTA 256 /* distinct findings one CTA keeps; further ones are only counted */
#define SIM_BARRIERS 16 /* named barriers 0..15 */
#define SIM_SHARED_POISON 0xA5 /* shared memory at CTA start: a recognisable garbage pattern */
#define SIM_PARAM_BYTES GL_SIM_PARAM_BYTES

#define SIM_CALL_OVERHEAD 16  /* stack bytes every call takes besides the callee's PTX frame (sim_frame.c) */
#define SIM_MAX_RETS 4        /* return values of one call */

struct sim_shadow;
struct sim_printf_fifo;

/* cp.async bookkeeping of one CTA (sim_async.c): per shared word, the copy that last wrote it; per
 * thread, its groups.  Valid while gen matches the CTA's. */
struct sim_async_word {
	uint32_t gen, group;
	uint32_t thread;      /* issuing thread + 1; 0 = landed and visible to all */
};
struct sim_async_thread {
	uint32_t committed;   /* groups closed by commit_group (the open group has this number) */
	uint32_t completed;   /* groups 0..completed-1 are complete for the thread itself */
	uint32_t completed_before; /* ... as of the start of wait_epoch's barrier interval */
	uint32_t wait_epoch;  /* the barrier interval of the thread's last wait */
	bool waited;
};
struct sim_async {
	uint32_t gen;
	struct sim_async_word *words;
	struct sim_async_thread *threads;
};

/* Everything about the launch that CTAs only read. */
/* The distinct 32-byte sectors of the launch's global buffers that loads and stores touched, one bit
 * each, set by every worker (atomically): the footprint the estimate's DRAM model reads (sim_touch.c). */
struct sim_touch {
	uint64_t first;            /* the lowest buffer's first sector */
	uint64_t nsect;            /* sectors covered, up to the highest buffer's last */
	_Atomic uint64_t *ld, *st; /* NULL when the launch has no buffers */
};

struct sim_launch {
	const struct ptx_module *m;
	const struct ptx_function *fn;
	struct sim_region *regions; /* the buffers (or the caller's regions), module globals, the grid workspace */
	int nregions;
	int owned_from;            /* regions from this index on were allocated by the launch (freed with it) */
	uint8_t params[SIM_PARAM_BYTES];
	unsigned grid[3], block[3];
	unsigned threads_per_cta, warps_per_cta;
	uint64_t shared_size;      /* static + dynamic */
	unsigned dyn_smem;
	uint64_t *konst;           /* constant slots broadcast to 32 lanes */
	uint64_t *specials;        /* per warp: the special-register slots that do not depend on the CTA */
	uint32_t specials_read;    /* bit sr: the kernel or a function it calls reads special register sr */
	const struct gl_sim_opts *opts;
	uint64_t budget;           /* warp instructions of the whole launch, all CTAs together */
	uint64_t cta_budget;       /* and of one CTA: the launch's, or GL_SIM_CTA_BUDGET without --max-instructions */
	uint64_t coop_executed;    /* a cooperative launch's warp instructions so far (its CTAs run on one thread) */
	uint64_t printf_buffer;    /* bytes of device printf output kept */
	unsigned trace_ctas;       /* CTAs 0..trace_ctas-1 record traces */
	int tools;                 /* sanitizer checks that run (GL_TOOL_* mask) */
	int faults;                /* enum gl_sim_faults (sim_fault.c) */
	const struct gl_sim_mapping *mapped; /* with faults on: mapped memory around the regions, else NULL */
	int nmapped;
	atomic_long stop_at;       /* run index of the first CTA (in grid order) that aborted; LONG_MAX = none */
	bool sass_phases;          /* some SASS vector covers several loop iterations (sim_cta.sass_phase) */
	struct sim_touch touch;
	_Atomic uint64_t *spots;   /* per instruction and sim_spot kind: the workers' sums (sim_spots.c) */
	bool cooperative;          /* the kernel reads the grid workspace (%envreg1/2): all CTAs run co-resident */
	uint64_t grid_ws;          /* its address (0 when not cooperative) */
	bool reserved_used;        /* the kernel reads %reserved_smem_offset_*: the CTA gets the reserved region */
	uint64_t reserved_smem;    /* its shared offset */
	/* calls to .func bodies (sim_frame.c) */
	bool calls;                /* the module has code that calls a .func (or takes a function's address) */
	uint64_t local_per_thread; /* the kernel's frame, then (with calls) the call stacks' frames */
	uint64_t stack_base;       /* where the first callee's frame starts: the kernel's frame rounded to 16 */
	uint64_t stack_size;       /* bytes of call stack per thread */
	int max_slots;             /* the most register slots of any .func of the module (a call's frame) */
	int *definition;           /* per function index: the index of its definition (a body), or -1 */
	uint32_t *frame_size;      /* per function: bytes of local memory its frame takes (all its .local
				    * and .param storage, rounded to 16) */
	uint32_t *stack_cost;      /* per function: bytes of the stack limit one call takes (its .local
				    * variables rounded to 16, plus SIM_CALL_OVERHEAD) */
	struct sim_jit *jit;       /* the compiled kernel (sim_jit.h) once loaded, or NULL */
	const struct gl_tex_object **tex; /* the launch's texture and surface objects by handle (sim_tex_exec.c) */
	int ntex;
};

void sim_touch_init(struct sim_touch *t, const struct sim_region *regions, int n);
void sim_touch_mark(struct sim_touch *t, bool is_store, const uint64_t addr[32], uint32_t mask, unsigned size);
/* The same for one access of `size` bytes at addr (a broadcast: every lane at one address). */
void sim_touch_mark_one(struct sim_touch *t, bool is_store, uint64_t addr, unsigned size);
/* The sectors of a full warp's aligned 4-byte access, lane l at a0 + rel[l]: `lanes` holds lane 0 and
 * each lane whose sector is not its predecessor's (the same bits as sim_touch_mark over the 32 words). */
void sim_touch_mark_lanes(struct sim_touch *t, bool is_store, uint64_t a0, const int64_t rel[32], uint32_t lanes);
void sim_touch_count(const struct sim_touch *t, uint64_t *ld, uint64_t *st);
void sim_touch_free(struct sim_touch *t);
void sim_spots_result(const struct sim_launch *L, struct gl_sim_result *res);

/* sim_spots.c: the waste of each instruction by kind (sim.h's gl_sim_spot) */
enum sim_spot { SIM_SPOT_GLD, SIM_SPOT_GST, SIM_SPOT_SLD, SIM_SPOT_SST, SIM_SPOT_KINDS };
struct sim_cta;
void sim_spots_add_waste(struct sim_cta *cta, const struct ptx_insn *ins, enum sim_spot kind, uint64_t waste);
/* Inline: most accesses waste nothing, and the hot forms make one per access. */
static inline void sim_spots_add(struct sim_cta *cta, const struct ptx_insn *ins, enum sim_spot kind, uint64_t waste)
{
	if (waste)
		sim_spots_add_waste(cta, ins, kind, waste);
}
void sim_spots_flush(struct sim_cta *cta); /* the worker's sums into the launch's; frees them */

/* sim_l1.c: the L1 model of global loads (docs/sim.md): look the sectors up in the CTA's L1, counting
 * misses in c.l1_miss; `bypass` (.cg, .volatile, cp.async.cg): every sector goes to the L2. */
#define GL_SIM_L1_BYTES (64 * 1024)
struct sim_l1;
void sim_l1_load(struct sim_cta *cta, const uint64_t addr[32], uint32_t mask, unsigned size, bool bypass);
/* The same for a full warp's aligned 4-byte load, lane l at a0 + rel[l], that touches `sectors` sectors:
 * `lanes` holds the lanes whose sector is not the sector of the lane before them (lane 0 always), the
 * lanes whose sectors sim_l1_load looks up, in the same order (sim_mem_hot.c keeps them per shape).
 * `key` and `pattern` (sim_l1_pattern(rel, a0's word in its sector)) are kept per shape by the caller:
 * they let loads of one shape skip lookups that must hit (sim_l1.c). */
struct sim_l1_key {
	uint64_t rel_hash; /* sim_l1_rel_hash(rel) */
	uint64_t cls;      /* 0, and sim_l1_load_words's name for rel after that */
};
void sim_l1_load_words(struct sim_cta *cta, uint64_t a0, const int64_t rel[32], uint32_t lanes, unsigned sectors,
		       bool bypass, struct sim_l1_key *key, unsigned pattern);
uint64_t sim_l1_rel_hash(const int64_t rel[32]);
/* For a shape rel (whole words, rel[0] = 0) whose lane 0 is at word `word` (0-7) of its sector: the
 * lowest word whose lanes' sectors lie the same way relative to lane 0's (a pattern for sim_l1_load_words). */
unsigned sim_l1_pattern(const int64_t rel[32], unsigned word);
/* Loads whose lookups the L1 model skipped because they had to hit (for tests and profiles). */
uint64_t sim_l1_skipped(const struct sim_cta *cta);
void sim_l1_free(struct sim_cta *cta);

enum warp_state { W_READY, W_BARRIER, W_DONE };

/* Where a lane returns to when the function it runs at depth d returns (sim_frame.c). */
struct sim_lane_frame {
	int32_t fn, ret_pc;   /* the caller and the instruction after its call */
	uint32_t sp, used;    /* the caller's frame and stack use */
	uint32_t nret;
	uint64_t ret_addr[SIM_MAX_RETS]; /* local addresses of the caller's return .param variables */
};

/* A warp's call stacks, one per lane; allocated at the warp's first call (sim_frame.c). */
struct sim_calls {
	int32_t fn[32];       /* the function each live lane runs */
	uint32_t sp[32];      /* the start of its frame in its local memory */
	uint32_t used[32];    /* stack bytes its calls take, against L->stack_size */
	uint16_t depth[32];   /* its call depth (0: the kernel) */
	unsigned max_depth;
	uint64_t **regs;      /* per depth 1..max_depth: a register file (max_slots x 32), lane columns */
	struct sim_lane_frame *frames; /* [depth * 32 + lane] */
};

struct sim_warp {
	uint64_t *r;          /* the register file of the active lanes' call depth */
	const struct ptx_function *fn; /* the function the active lanes run */
	const uint64_t *konst; /* its constant slots, frame addresses set for the active lanes' frame */
	int nslots;
	int fi;               /* fn's index in the module */
	int depth;            /* the active lanes' call depth and frame */
	uint32_t sp;
	bool reload;          /* fn/r/konst must be set from depth, sp and calls->fn before the next step */
	struct sim_calls *calls; /* NULL until the warp's first call in this CTA */
	uint64_t *r0;         /* the kernel's register file (depth 0) */
	uint32_t live;        /* lanes that exist and have not exited */
	uint32_t active;      /* lanes at pc */
	int pc;
	int lane_pc[32];      /* for live lanes not in `active` */
	int wait_pc;          /* the lowest of those lane_pc as reconverge left them (INT_MAX: none; 0: not known) */
	enum warp_state state;
	int bar_id;
	unsigned bar_count;   /* threads expected by bar.sync id, count; 0 = every thread of the CTA */
	unsigned id;
	uint64_t executed;
	uint32_t carry;       /* per-lane carry flag of add.cc / addc */
};

/* What the warps arriving at one bar.red contributed (valid while gen/epoch match the CTA's gen and
 * released count). */
struct sim_bar_red {
	uint32_t gen, epoch;
	uint32_t count;       /* lanes whose predicate was true */
	uint32_t arrived;     /* warps that arrived and have not yet read the result */
	bool all, any;
};

/* Beside the shadow (sim_trace.c): bitmaps with a bit per 4-byte word of shared memory, each
 * SIM_QUIET_ROWS(L) uint64_t long.  `full`: the words whose 4 bytes are initialised, in CTA generation
 * full_gen.  `reads`: one bitmap per warp, the words it read in interval reads_gen/reads_epoch without
 * touching their entries; `readers` has a bit for each warp whose bitmap is not empty.  wrote_gen and
 * wrote_epoch: the interval of the last write to shared memory.  ready_gen/ready_epoch: an interval
 * in which every per-interval condition of a quiet read held and the read bitmaps were current at a quiet
 * read (sim_quiet.h; 0: none), and rows, SIM_QUIET_ROWS of its launch. */
struct sim_quiet {
	uint64_t *full, *reads;
	uint32_t full_gen, reads_gen, reads_epoch, readers, wrote_gen, wrote_epoch;
	uint32_t ready_gen, ready_epoch;
	size_t rows;
	const struct ptx_insn **site; /* per warp: its latest quiet read of the interval (racecheck's other side) */
};
/* one spare word: a 64-bit window (sim_trace.c) may straddle the last */
#define SIM_QUIET_ROWS(L) ((size_t)(L)->shared_size / 256 + 2)

/* What a full warp's 4-byte shared- or global-memory access shape implies (sim_mem_hot.c), kept per call site:
 * rel[l] is lane l's address minus lane 0's (every one a multiple of 4); min and max the lowest and
 * highest; kind how the lanes lie (sim_mem_hot.c); units the wavefronts and conflicts the bank conflicts
 * of the PTX access; sass what ptxas made of it (enum ptx_sass_kind), with the wavefronts and conflicts
 * of each of its `parts` SASS accesses and the span of a vector; the words accessed as nwin 64-word
 * windows, window k's bit i standing for word win[k] + i (relative to lane 0's word). */
struct sim_shape {
	uintptr_t site;
	uint64_t id;         /* unique among the worker's shapes: (id, start) names an address set */
	int64_t rel[32];
	int64_t min, max;
	uint8_t kind, is_store, space, sass, span, parts;
	uint8_t size;          /* the bytes each lane moves: 4, or 8 (shared only) */
	uint8_t half_kind[2]; /* how each half-warp's lanes lie (sim_mem_hot.c), for a shape of neither kind */
	uint64_t cls;         /* shared: equal for shapes with equal rel (sim_mem_hot.c, shape_class); else 0 */
	/* a shared load whose accesses may be counted as hits (sim_mem_hot.c), the starts past `first` that stay
	 * inside shared memory, and whether its words are one window of a plain access that sim_quiet_take1
	 * reads in one go (quiet reads inline) */
	bool lean, quiet1;
	uint64_t range;
	uint64_t hits;        /* accesses of this shape not yet in the counters (sim_mem_hot.c, flush_hits) */
	/* shared */
	int64_t first, last; /* the starts (lane 0's address) at which every lane lies inside shared memory */
	uint32_t units, conflicts, nwin;
	uint32_t part_units[4], part_conflicts[4];
	int32_t win[32];
	uint64_t words[32];
	/* global: the region last accessed, the sectors and 128-byte lines for each start modulo a line (0: not
	 * worked out yet), whether the lanes are whole sectors apart, and the first sectors (+ 1) already
	 * marked touched */
	const struct sim_region *region;
	uint8_t sectors[32], lines[32];
	uint32_t l1_lanes[32]; /* for each start modulo a line: the lanes the L1 model looks up (sim_l1.h) */
	bool columns;
	uint64_t marked[32];
	uint8_t l1_pattern[8]; /* for lane 0 at each word of its sector: sim_l1_pattern + 1; 0: not yet */
	struct sim_l1_key l1_key; /* rel's key for sim_l1_load_words */
};
#define SIM_SHAPE_SLOTS 256

/* A shared shape's class: the rel it was given to (sim_mem_hot.c, shape_class). */
struct sim_shape_class {
	int64_t rel[32];
	uint64_t cls;
};
#define SIM_SHAPE_CLASSES 16

/* sim_mem_hot.c: add the accesses the shapes hold as hits to the CTA's counters (before they are read). */
void sim_mem_hot_flush(struct sim_cta *cta);

struct sim_cta {
	struct sim_launch *L;
	struct sim_jit *jit;  /* the compiled kernel this CTA runs on, or NULL: the interpreter runs it */
	unsigned ctaid[3];
	unsigned linear;      /* CTA index in the grid */
	long run_index;       /* position among the CTAs run (grid order) */
	uint8_t *shared;
	struct sim_shadow *shadow; /* one per 4-byte word of shared memory (sim_trace.h) */
	const struct ptx_insn **shadow_site; /* two per word: the instructions of its writer and reader */
	struct sim_quiet quiet;    /* what lets most reads skip their shadow entries (sim_trace.c) */
	struct sim_race race; /* global-memory accesses of this CTA's barrier interval (sim_race.h) */
	struct sim_async async; /* cp.async groups and the shared words they write (sim_async.c) */
	struct sim_l1 *l1;      /* the L1 model (sim_l1.c), allocated at the first global load */
	uint64_t *spots;        /* per instruction and sim_spot kind, this worker's CTAs (sim_spots.c) */
	uint32_t gen;         /* CTA generation: shadow entries of older CTAs are stale */
	uint32_t epoch;       /* barrier intervals completed in this CTA (bar.sync releases, mbarrier phases) */
	uint32_t released;    /* bar.sync releases in this CTA */
	struct sim_bar_red bar_red[2]; /* bar.red.{popc,and,or} accumulators by release parity (sim_exec.c) */
	unsigned current_warp; /* the warp being run, for findings */
	uint64_t executed;    /* warp instructions in this CTA, for the budget */
	uint64_t full_warp_inst; /* instructions the interpreter ran for a full warp: what compiled code could run */
	int budget_line;      /* the PTX line of the instruction the budget was last checked at */
	unsigned bar_arrived[SIM_BARRIERS]; /* warps that passed bar.arrive since the barrier last opened */
	uint8_t *local;       /* threads_per_cta * fn->local_size */
	struct sim_warp *warps;
	uint64_t *regs;
	uint8_t *sass_phase;  /* per warp and instruction: executions mod the SASS span (ptx_sass.span) */
	struct gl_sim_counters c;
	struct gl_findings findings; /* deduplicated by (kind, PTX line); cleared for each CTA */
	struct gl_sim_fault fault;   /* the first access that faulted (sim_fault.c); kind NONE: none */
	bool aborted;
	struct sim_printf_fifo *pf; /* this CTA's device printf records (sim_printf.h) */
	struct sim_calls **calls;   /* per warp, kept for the worker's next CTAs (sim_frame.c) */
	const uint64_t **frame_konst; /* per (function, frame start): constant slots (sim_frame.c) */
	struct gl_mm_memo wf_memo;     /* shared-memory wavefront counts by call site and shape (memmodel.h) */
	struct sim_shape *shapes;      /* SIM_SHAPE_SLOTS, by call site (sim_mem_hot.c) */
	uint64_t shape_serial;         /* the last shape id or class given */
	struct sim_shape_class shape_classes[SIM_SHAPE_CLASSES]; /* the latest classes, by a hash of rel */
	struct gl_trace_event *trace;  /* per worker buffer, appended in CTA order by the grid */
	uint32_t ntrace, trace_cap;
	uint64_t trace_dropped;
	uint32_t trace_seq;
};

/* sim_cta.c: CTA scheduling and per-warp control flow */
int sim_cta_run(struct sim_cta *cta);
/* The same in steps, for CTAs that run co-resident (a cooperative launch): start, then resume until it
 * returns 1 (finished) or -1 (aborted); 0 means every warp had a turn and the CTA can wait. */
void sim_cta_start(struct sim_cta *cta);
int sim_cta_resume(struct sim_cta *cta);
void sim_specials_template(const struct sim_launch *L, uint64_t *out);
void sim_branch(struct sim_warp *w, uint32_t taken, int target);
void sim_exit_lanes(struct sim_warp *w, uint32_t gone);
void sim_step_diverged(struct sim_warp *w);
/* The active lanes moved to next_pc (other lanes moved through w->calls); pick the lanes to run next. */
void sim_reschedule(struct sim_warp *w, int next_pc);

/* sim_frame.c: calls to .func bodies, ret from them, and the warp's view of the active lanes' frame */
int sim_frame_call(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
int sim_frame_ret(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
int sim_frame_switch(struct sim_cta *cta, struct sim_warp *w);
/* Among live lanes: the deepest call, then the lowest frame, function and PC run first. */
void sim_frame_pick(struct sim_warp *w);
void sim_frame_release(struct sim_cta *cta);

/* sim_exec.c: one instruction for the lanes in `mask` (active and guard true).  Returns 0 for a
 * straight-line instruction (the caller advances the PC), 1 when the instruction moved the PC or
 * stopped the warp itself (branch, exit, barrier), -1 when the CTA must abort. */
int sim_exec(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_jit_run.c: the compiled engine's hooks (sim_jit.h) */
bool sim_jit_choose(struct sim_launch *L, struct gl_sim_result *res);
/* auto, once CTA `cta` (grid index) has run on the interpreter with `cta_work` thread-instructions, `full_work`
 * of them in full warps (the compiled engine runs only those), and ctas_left CTAs are not started yet:
 * loads (compiling if sim_jit_auto_pick says so for full_work) the compiled kernel for the rest of the
 * launch into L->jit and returns it, or NULL for the interpreter; says why in `note` when it returns one,
 * or when a refusal or failed compile left the interpreter.  Called by the worker that ran the CTA while
 * the others go on; writes nothing but L->jit and note. */
struct sim_jit *sim_jit_auto(struct sim_launch *L, long cta, uint64_t cta_work, uint64_t full_work, long ctas_left,
			     int workers, char *note, size_t n);
int sim_jit_turn(struct sim_cta *cta, struct sim_warp *w, uint64_t *pending, unsigned *loops,
		 const struct ptx_insn **last);
/* sim_jit_mem.c: a compiled kernel's ld/st (sim_jit_warp.mem) */
int sim_jit_mem(void *cta, void *w, int pc, uint32_t mask, uint64_t *addr);
/* ... and one whose addresses are a register's lanes plus off (sim_jit_warp.memr) */
int sim_jit_mem_reg(void *cta, void *w, const void *ins, const uint64_t *reg, uint64_t off, uint64_t *tok);
/* ... and a kernel-parameter load from a constant address (sim_jit_warp.param) */
int sim_jit_param(void *cta, void *w, int pc, uint32_t mask, uint64_t a);

/* sim_tex_exec.c: the launch's texture and surface objects by handle (the table passed
 * gl_tex_check_table first); freed with the launch */
void sim_tex_setup(struct sim_launch *L, const struct gl_launch *l);
void sim_tex_free(struct sim_launch *L);

/* sim_mem.c */
int sim_exec_mem(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* Host pointer for `size` bytes at a generic/space address of one lane, or NULL after recording a
 * finding.  `space` is updated to the resolved space.  The check is sim_addr_translate's (sim_addr.h). */
uint8_t *sim_translate(struct sim_cta *cta, struct sim_warp *w, int lane, enum ptx_space *space, uint64_t addr,
		       unsigned size, bool is_store, const struct ptx_insn *ins);

/* sim_fault.c: what an invalid access does besides its finding (sim.h, enum gl_sim_faults).  Called
 * after the finding with the translation that missed: returns the mapped bytes a GPU would access, or
 * NULL (refused), having recorded a fault that stops the CTA when the policy says so. */
uint8_t *sim_fault_miss(struct sim_cta *cta, const struct ptx_insn *ins, int lane, const struct sim_xlat *x,
			unsigned size, bool is_store);
/* The policy and mappings of gl_sim_opts: GL_EUSAGE naming what is wrong (an unknown policy, a mapping
 * without host memory, past 2^64, over one of the generic windows, or over another mapping)... */
int sim_fault_check(const struct gl_sim_opts *opts, struct gl_err *err);
/* ... and, checked, kept in L. */
void sim_fault_setup(struct sim_launch *L, const struct gl_sim_opts *opts);

/* sim_warpops.c: collectives */
int sim_exec_collective(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_report.c */
void sim_finding(struct sim_cta *cta, const struct ptx_insn *ins, int lane, const char *kind, enum ptx_space space,
		 uint64_t addr, unsigned size, bool warning, const char *fmt, ...) __attribute__((format(printf, 9, 10)));
/* The same for a place that is not a state space ("surface"). */
void sim_finding_at(struct sim_cta *cta, const struct ptx_insn *ins, int lane, const char *kind, const char *place,
		    uint64_t addr, unsigned size, bool warning, const char *fmt, ...) __attribute__((format(printf, 9, 10)));
const char *sim_space_name(enum ptx_space s);

/* Operand access. */
static inline uint64_t *sim_reg(struct sim_warp *w, int slot)
{
	return w->r + (size_t)slot * 32;
}

static inline const uint64_t *sim_src(const struct sim_cta *cta, const struct sim_warp *w, int slot)
{
	(void)cta;
	int n = w->nslots;
	return slot < n ? w->r + (size_t)slot * 32 : w->konst + (size_t)(slot - n) * 32;
}

/* Lanes in a mask: a full warp without a popcount (a libgcc call on CPUs the build does not assume). */
static inline unsigned sim_lanes(uint32_t mask)
{
	return mask == 0xffffffffu ? 32u : (unsigned)__builtin_popcount(mask);
}

#define FOR_LANES(mask, l) for (uint32_t m_ = (mask), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

#endif
