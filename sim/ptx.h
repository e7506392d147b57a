/* ptx.h — a PTX module decoded once into compact instruction arrays (the simulator never re-reads text).
 * Every source operand is a slot index: a register, an immediate or a symbol address (constant slots),
 * or a special register (filled per warp at launch), so execution reads all operands the same way. */
#ifndef GL_PTX_H
#define GL_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

enum ptx_space { PS_NONE, PS_GENERIC, PS_GLOBAL, PS_SHARED, PS_LOCAL, PS_PARAM, PS_CONST };

enum ptx_type {
	PT_NONE, PT_PRED,
	PT_B8, PT_B16, PT_B32, PT_B64, PT_B128,
	PT_U8, PT_U16, PT_U32, PT_U64,
	PT_S8, PT_S16, PT_S32, PT_S64,
	PT_F16, PT_F16X2, PT_BF16, PT_BF16X2, PT_TF32, PT_F32, PT_F64,
};

/* Per-type facts as tables, because the interpreter asks for them on every memory instruction. */
extern const uint8_t ptx_type_size_table[];
extern const uint8_t ptx_type_flags_table[]; /* bit 0 float, bit 1 signed */

static inline unsigned ptx_type_bytes(enum ptx_type t)
{
	return ptx_type_size_table[t];
}

static inline bool ptx_type_is_float(enum ptx_type t)
{
	return ptx_type_flags_table[t] & 1;
}

static inline bool ptx_type_is_signed(enum ptx_type t)
{
	return ptx_type_flags_table[t] & 2;
}

/* Operand kinds after decoding. */
enum ptx_opnd_kind {
	PO_NONE,
	PO_SLOT,  /* register / immediate / special register / symbol address: one value per lane */
	PO_MEM,   /* [slot + offset] */
	PO_VEC,   /* {a, b, c, d}: up to 8 slots, -1 for the sink `_` */
	PO_LABEL, /* branch target: instruction index */
	PO_FUNC,  /* call target: function index */
};

#define PTX_MAX_VEC 8
#define PTX_MAX_OPS 6

struct ptx_operand {
	uint8_t kind;
	uint8_t nvec;
	uint8_t neg;     /* !%p */
	int32_t slot;    /* PO_SLOT / PO_MEM base (-1: absolute address in `offset`) */
	int64_t offset;  /* PO_MEM byte offset; PO_LABEL/PO_FUNC target */
	int32_t vec[PTX_MAX_VEC];
};

/* Modifier flags (ptx_insn.mods). */
enum {
	PM_WIDE = 1u << 0, PM_HI = 1u << 1, PM_LO = 1u << 2, PM_FTZ = 1u << 3, PM_SAT = 1u << 4,
	PM_APPROX = 1u << 5, PM_FULL = 1u << 6, PM_UNI = 1u << 7, PM_NC = 1u << 8, PM_TRANS = 1u << 9,
	PM_SHIFTAMT = 1u << 10, PM_CLAMP = 1u << 11, PM_WRAP = 1u << 12, PM_VOLATILE = 1u << 13,
	PM_RELU = 1u << 14, PM_NAN = 1u << 15, PM_XORSIGN = 1u << 16, PM_ABS = 1u << 17, PM_CC = 1u << 18,
	PM_CA = 1u << 19, PM_CG = 1u << 20, PM_ALIGNED = 1u << 21, PM_LEFT = 1u << 22, PM_RIGHT = 1u << 23,
	PM_CALLPARAM = 1u << 24, /* ld/st.param on a call-site .param: register passing, not memory traffic */
	PM_STRONG = 1u << 25,    /* .relaxed/.acquire/.release: with .volatile, a morally strong access */
};

/* Rounding modes (ptx_insn.rnd). */
enum ptx_rounding { PR_NONE, PR_RN, PR_RZ, PR_RM, PR_RP, PR_RNI, PR_RZI, PR_RMI, PR_RPI, PR_RNA };

struct ptx_insn {
	uint16_t op;       /* enum ptx_op (ptx_ops.h) */
	uint8_t type;      /* main type */
	uint8_t type2;     /* second type: cvt source, mma A/B type */
	uint8_t type3;     /* third type: mma C type */
	uint8_t space;     /* memory space */
	uint8_t vec;       /* .v2 / .v4 -> 2 / 4, else 1 */
	uint8_t rnd;       /* rounding mode */
	uint8_t sub;       /* op-specific: compare op, shfl mode, atom op, bool op, prmt mode... */
	uint8_t sub2;      /* op-specific second selector (setp's and/or/xor combiner, mma shape...) */
	uint8_t nops;
	uint8_t btype;     /* mma / wmma.mma B type */
	int32_t guard;     /* predicate slot, -1 when unguarded */
	uint8_t guard_neg;
	uint16_t src_file; /* .file number of src_line (ptx_source_file), 0 when unknown */
	uint32_t mods;
	int line;          /* PTX source line */
	int src_line;      /* CUDA source line from .loc, 0 when unknown */
	struct ptx_operand ops[PTX_MAX_OPS];
};

/* What ptxas made of one PTX ld/st (sass_map.c derives it from nvdisasm's line info). */
enum ptx_sass_kind {
	SASS_NONE,    /* not a ld/st, or no mapping: counted as PTX */
	SASS_SAME,    /* one SASS access of the PTX width */
	SASS_VECTOR,  /* the access that carries a merged vector: `width` bytes starting `delta` bytes before it */
	SASS_MEMBER,  /* merged into another PTX access's vector: counts nothing */
	SASS_REMOVED, /* no SASS access (folded, forwarded or dead): counts nothing */
	SASS_SPLIT,   /* `count` SASS accesses of `width` bytes each, one after another */
	SASS_DUP,     /* `count` SASS copies of the same access on different paths (ptxas duplicated code) */
};

struct ptx_sass {
	uint8_t kind;    /* enum ptx_sass_kind */
	uint8_t width;   /* bytes of each SASS access */
	uint8_t count;   /* SASS accesses (SPLIT, DUP) */
	int16_t delta;   /* VECTOR: this PTX access's offset minus the vector's first byte */
	uint8_t span;    /* VECTOR: loop iterations one SASS access covers (ptxas unrolled and merged across
			  * them): it executes on every span-th execution of the PTX access; else 1 */
	uint32_t weight; /* SASS instructions per execution, in 1/PTX_SASS_WEIGHT_ONE: those the line info
			  * attributes to this PTX instruction over the copies ptxas made of its block */
};
#define PTX_SASS_WEIGHT_ONE 256u

/* A variable in .shared/.local/.global/.const space. */
struct ptx_var {
	char *name;
	enum ptx_space space;
	unsigned align;
	uint64_t size;       /* bytes; 0 for extern (dynamic) shared */
	bool is_extern;
	bool call_param;     /* a call-site .param: per-thread storage */
	uint64_t offset;     /* within its space: CTA shared offset, per-thread local offset, module global */
	uint8_t *init;       /* initial bytes (module .global/.const), or NULL */
};

struct ptx_param {
	char *name;
	enum ptx_type type;
	unsigned size, align, offset; /* in the param buffer */
	bool is_array;       /* .param .align 8 .b8 name[16] (by-value struct) */
};

/* The CUDA runtime functions a kernel calls without a body in its module; the simulator carries them out
 * itself (sim_call.c). */
enum ptx_builtin {
	PTX_BUILTIN_NONE,       /* an ordinary function: its body runs (or it has none, and a call is refused) */
	PTX_BUILTIN_VPRINTF,    /* device printf: .extern .func (.param .b32 r) vprintf(.param .b64, .param .b64) */
	PTX_BUILTIN_ASSERTFAIL, /* a failed assert(): .extern .func __assertfail(.b64, .b64, .b32, .b64, .b64) */
};

struct ptx_function {
	char *name;
	bool is_entry;
	bool is_extern;      /* declared .extern (a declaration; the definition is elsewhere) */
	/* Decided once, from the declarations, when the module is parsed (ptx_parse.c, mark_builtins): a
	 * built-in is the .extern declaration with the CUDA prototype of a name the module defines no body
	 * for; a function of that name with a body, or another prototype, is ordinary.  Every declaration of
	 * a name carries the same answer. */
	enum ptx_builtin builtin;
	struct ptx_param *params;
	int nparams;
	struct ptx_param *rets;  /* .func return values */
	int nrets;
	struct ptx_insn *code;
	int ncode;
	int nslots;          /* per-warp register slots (registers + specials) */
	int first_special;   /* specials occupy [first_special, nslots) */
	int zero_slots;      /* registers [0, zero_slots) must start at zero in a CTA: read before written on
			      * some path, or a collective's (ptx_regalloc puts them first); every other register is
			      * written before it is read, so its starting value is never seen */
	int declared_regs;   /* registers the body declares (before ptx_regalloc made them share slots) */
	/* Its registers share slots already (ptx_regalloc).  A lazily parsed module leaves a kernel's to its
	 * first launch (ptx_share_slots): of a module's many kernels a run usually launches one, and the
	 * sharing costs more than the rest of the parse.  Read and set under ptx_share_slots' lock. */
	bool slots_shared;
	uint64_t *consts;    /* constant slot values: slot s >= nslots holds consts[s - nslots] */
	int nconsts;
	struct ptx_var *vars; /* function-scope shared/local variables */
	int nvars;
	uint64_t shared_static; /* bytes of static shared memory (module + function scope) */
	int sass_regs;          /* registers per thread in the SASS mapping's ptxas build; 0 unknown */
	uint64_t local_size;    /* bytes of local memory per thread */
	int ptx_line;        /* line of the .entry/.func */
	char *error;         /* lazy parse: why this body cannot run ("name:line:col: ..."), else NULL */
	int error_status;
	struct ptx_sass *sass; /* per instruction: what ptxas made of it (sass_map.h); NULL = PTX-level counts */
	/* A .func's frame (sim_frame.c): its parameters, then its return values, then its .local variables,
	 * from the frame's start; args_size is the bytes of the first two. */
	uint64_t args_size;
	uint8_t *const_frame;   /* per constant slot: 1 when it is an address inside the frame (the frame's
				 * start is added at run time), 0 for a plain value */
};

struct ptx_module {
	char *name;          /* for messages */
	char *text;          /* source, kept for messages */
	int version_major, version_minor;
	int target_sm;
	struct ptx_function *funcs;
	int nfuncs;
	struct ptx_var *vars; /* module-scope variables */
	int nvars;
	uint64_t global_size; /* bytes of module .global/.const data */
	uint64_t global_base; /* their device address: PTX_MODULE_BASE, or where ptx_parse_at put them */
	struct ptx_src_file { int id; char *path; } *files; /* .file directives: number -> path */
	int nfiles;
	char counts_mode[128]; /* "SASS-mapped (ptxas 13.0)" or "PTX-level (why)"; set by sass_map_apply */
};

/* Generic address windows of the simulated device (cudaMalloc'd buffers start at GL_SIM_GLOBAL_BASE).
 * .shared/.local addresses are offsets inside their window; cvta adds or removes the window base.  A
 * window is as large as its state space (PTX ISA, "Generic Addressing"): .shared and .local addresses
 * are 32 bits wide (sim_addr.h), so each window is 4 GiB, and its base is 4 GiB-aligned. */
#define PTX_SHARED_WINDOW 0x0000500000000000ull
#define PTX_LOCAL_WINDOW 0x0000400000000000ull
#define PTX_PARAM_WINDOW 0x0000200000000000ull /* cvta.param: the kernel's parameter buffer */
#define PTX_MODULE_BASE 0x0000300000000000ull /* module-scope .global and .const variables */
#define PTX_WINDOW_SIZE 0x0000000100000000ull
/* Function addresses (function pointers, `mov.u64 %rd, func;`, initializers of function-pointer tables):
 * the index of the function's first declaration in funcs[], times 16, in their own window. */
#define PTX_FUNC_WINDOW 0x0000600000000000ull
static inline uint64_t ptx_function_address(int index)
{
	return PTX_FUNC_WINDOW + 16 * (uint64_t)index;
}
/* What the parser accepts: module .global/.const bytes (allocated at every launch), and local bytes per
 * thread (CUDA's own limit). */
#define PTX_MAX_MODULE_DATA (256ull << 20)
#define PTX_MAX_LOCAL (512ull << 10)

/* Special registers: a warp fills its slots for these at launch. */
enum ptx_special {
	SR_TID_X, SR_TID_Y, SR_TID_Z, SR_NTID_X, SR_NTID_Y, SR_NTID_Z,
	SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z,
	SR_LANEID, SR_WARPID, SR_NWARPID, SR_SMID, SR_LANEMASK_EQ, SR_LANEMASK_LT, SR_LANEMASK_LE,
	SR_LANEMASK_GT, SR_LANEMASK_GE, SR_CLOCK, SR_CLOCK64, SR_GLOBALTIMER, SR_DYNSMEM,
	SR_ENVREG1, SR_ENVREG2, /* the grid workspace address of a cooperative launch (high, low 32 bits) */
	SR_RSMEM_BEGIN, SR_RSMEM_END, SR_RSMEM_CAP, SR_RSMEM_0, SR_RSMEM_1, /* %reserved_smem_offset_* */
	SR_COUNT
};

/* Flags of ptx_parse_ex. */
enum {
	PTX_PARSE_LAZY = 1,       /* as ptx_parse_lazy */
	PTX_PARSE_CUDA_LINES = 2, /* the text is nvcc's output for a .cu file called `name`: errors in a body
				   * with .loc line info say "FILE:LINE: ... (nvcc's PTX line L:C)" */
	PTX_PARSE_EMPTY_OK = 4,   /* a module without functions (only variables, or nothing) is not an error,
				   * as nvcc writes one for a .cu file without device code */
};
int ptx_parse_ex(const char *text, const char *name, unsigned flags, struct ptx_module **out, struct gl_err *err);
/* The same with the module's .global/.const data at `global_base` instead of PTX_MODULE_BASE: a caller
 * that loads several modules into one address space (gpulab's driver library) gives each its own
 * PTX_MAX_MODULE_DATA-sized slot of the PTX_MODULE_BASE window. */
int ptx_parse_at(const char *text, const char *name, unsigned flags, uint64_t global_base, struct ptx_module **out,
		 struct gl_err *err);
/* The path a .file directive gave number `id`, or NULL. */
const char *ptx_source_file(const struct ptx_module *m, int id);
/* Whether the instruction is a call (its PO_FUNC operand names the callee): for callers outside sim/ that
 * walk a kernel's call graph without the opcode table. */
bool ptx_insn_is_call(const struct ptx_insn *ins);

/* Parse PTX text.  Errors carry name:line:col. */
int ptx_parse(const char *text, const char *name, struct ptx_module **out, struct gl_err *err);
/* The same, but a function body that cannot be decoded or validated (an unsupported instruction or
 * directive, a bad operand) does not stop the module: the function keeps its header, no code, and
 * the message in ->error, and the rest of the file loads.  Only module-level problems fail. */
int ptx_parse_lazy(const char *text, const char *name, struct ptx_module **out, struct gl_err *err);
/* Let the registers of `fn` share slots (ptx_regalloc) if its module was parsed lazily and this has not
 * been done yet: gl_sim_run does it before a launch.  Until then every register has a slot of its own,
 * which runs the same, only with a larger register file.  Thread-safe: only the first call changes the
 * function, and a kernel is read by nothing but its own launches, which all come through here first. */
void ptx_share_slots(const struct ptx_function *fn);
/* GL_OK when `fn` and every function it calls, directly or through other functions, decoded; else the
 * first problem found, naming the function that has it (GL_EUSAGE). */
int ptx_check_function(const struct ptx_module *m, const struct ptx_function *fn, struct gl_err *err);
void ptx_module_free(struct ptx_module *m);
const struct ptx_function *ptx_find_function(const struct ptx_module *m, const char *name);

#endif
