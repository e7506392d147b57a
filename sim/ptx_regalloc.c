/* ptx_regalloc.c — after a body is decoded, registers whose values are never needed at the same time
 * share one register slot.  nvcc's PTX declares a fresh virtual register for almost every value (1343
 * in the tiled GEMM), and the simulator keeps 32 lanes x 8 bytes for each: without sharing, a warp's
 * register file misses the CPU caches on every access.
 *
 * Liveness is per thread over the instructions' control-flow graph (standard backward dataflow).  That
 * is sound for SIMT here because every lane follows its own path and no instruction writes the registers
 * of lanes that do not execute it, except the warp collectives (mma, wmma, ldmatrix, ...), which write
 * or read all 32 lanes: their registers keep a slot of their own, as does every register that may be
 * read before it is written (registers start at zero, and that zero must not come from another one);
 * an atomic may leave its destination unwritten in a lane whose access is refused, so it ends no live
 * range (a refused load writes zero, so a load does end one).
 * An instruction's registers never share a slot with each other, so no instruction sees its source
 * overwritten by its own result half-way through the lanes.  docs/sim.md: "Registers and the rest of
 * a CTA". */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "ptx_internal.h"

/* Bodies with more registers than this keep one slot per register (the interference matrix grows as
 * the square of the count). */
#define REGALLOC_MAX_REGS 16384

struct bits {
	int words;
	uint64_t *w; /* rows of `words` words */
};

static inline uint64_t *row(const struct bits *b, int i)
{
	return b->w + (size_t)i * (size_t)b->words;
}

static inline void set_bit(uint64_t *r, int k)
{
	r[k >> 6] |= 1ull << (k & 63);
}

static inline bool get_bit(const uint64_t *r, int k)
{
	return r[k >> 6] >> (k & 63) & 1;
}

/* Operations whose operand 0 is only written (a value, a {vector} or a d|p pair) and whose other
 * operands are only read.  Every other operation counts all its registers as read (and maybe written). */
static bool dest_first(enum ptx_op op)
{
	switch (op) {
	case OP_MOV: case OP_LD: case OP_CVTA: case OP_CVT: case OP_PRMT:
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_MUL24: case OP_MAD24: case OP_SAD:
	case OP_DIV: case OP_REM: case OP_ABS: case OP_NEG: case OP_MIN: case OP_MAX: case OP_FMA:
	case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_LG2: case OP_EX2:
	case OP_TANH: case OP_COPYSIGN: case OP_TESTP: case OP_DP4A: case OP_DP2A:
	case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT: case OP_SHL: case OP_SHR: case OP_SHF:
	case OP_BFE: case OP_BFI: case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFIND: case OP_FNS:
	case OP_SETP: case OP_SET: case OP_SELP: case OP_SLCT: case OP_ATOM: case OP_ISSPACEP:
	case OP_TEX: case OP_TLD4: case OP_SULD: case OP_TXQ: case OP_SUQ: /* every lane gets a value (sim_tex_exec.c) */
		return true;
	default:
		return false;
	}
}

/* Warp collectives: the simulator reads or writes these registers in all 32 lanes. */
static bool collective(enum ptx_op op)
{
	switch (op) {
	case OP_SHFL: case OP_VOTE: case OP_MATCH: case OP_REDUX: case OP_ACTIVEMASK: case OP_MMA:
	case OP_LDMATRIX: case OP_STMATRIX: case OP_WMMA_LOAD: case OP_WMMA_STORE: case OP_WMMA_MMA:
		return true;
	default:
		return false;
	}
}

/* Per instruction: its registers, which of them it reads (gen), and whether its writes reach every lane
 * that runs it (then they kill). */
struct insn_regs {
	int n;
	bool kills;
	int reg[PTX_MAX_OPS * (PTX_MAX_VEC + 1) + 1];
	bool read[PTX_MAX_OPS * (PTX_MAX_VEC + 1) + 1];
};

static void add_reg(struct insn_regs *ir, int nregs, int32_t slot, bool read)
{
	if (slot < 0 || slot >= nregs)
		return; /* a special register, a constant or the sink `_` */
	ir->reg[ir->n] = slot;
	ir->read[ir->n++] = read;
}

/* Whether the instruction writes its destination in every lane that runs it.  Not when it is guarded
 * (lanes whose guard is false keep the old value), nor for an atomic: a lane whose access is refused
 * (a sanitizer finding) keeps the old value, zero for a register not yet written, so such a register
 * must keep it.  A load writes zero in a lane whose access is refused (sim_mem.c), so it writes every
 * lane: a tiled kernel's loaded values can share slots. */
static bool writes_every_lane(const struct ptx_insn *ins)
{
	return ins->guard < 0 && ins->op != OP_ATOM;
}

static void insn_regs(const struct ptx_insn *ins, int nregs, struct insn_regs *ir)
{
	ir->n = 0;
	bool first_is_dest = dest_first((enum ptx_op)ins->op) && ins->nops > 0 &&
			     (ins->ops[0].kind == PO_SLOT || ins->ops[0].kind == PO_VEC);
	for (int k = 0; k < ins->nops; k++) {
		const struct ptx_operand *o = &ins->ops[k];
		bool read = !(k == 0 && first_is_dest);
		if (o->kind == PO_SLOT || o->kind == PO_MEM)
			add_reg(ir, nregs, o->slot, read);
		if (o->kind == PO_VEC || o->kind == PO_MEM) /* PO_MEM: a texture instruction's coordinates */
			for (int e = 0; e < o->nvec; e++)
				add_reg(ir, nregs, o->vec[e], read);
	}
	add_reg(ir, nregs, ins->guard, true);
	ir->kills = writes_every_lane(ins);
}

/* Successors of instruction i: -1 where there are none.  Returns false for control flow it cannot follow. */
static bool successors(const struct ptx_function *fn, int i, int succ[2])
{
	const struct ptx_insn *ins = &fn->code[i];
	int next = i + 1 < fn->ncode ? i + 1 : -1;
	succ[0] = next, succ[1] = -1;
	bool guarded = ins->guard >= 0;
	switch (ins->op) {
	case OP_BRA:
		if (ins->nops < 1 || ins->ops[0].kind != PO_LABEL || ins->ops[0].offset < 0 || ins->ops[0].offset >= fn->ncode)
			return false;
		succ[0] = (int)ins->ops[0].offset;
		succ[1] = guarded ? next : -1;
		return true;
	case OP_RET: case OP_EXIT: case OP_TRAP:
		succ[0] = guarded ? next : -1;
		return true;
	default:
		return true;
	}
}

/* Backward dataflow to a fixed point: live_out[i] = union of live_in[succ]; live_in = gen | (out - kill). */
static bool liveness(const struct ptx_function *fn, int nregs, const struct insn_regs *irs, struct bits *in,
		     struct bits *out)
{
	int (*succ)[2] = gl_xmalloc((size_t)fn->ncode * sizeof *succ);
	for (int i = 0; i < fn->ncode; i++)
		if (!successors(fn, i, succ[i])) {
			free(succ);
			return false;
		}
	int words = in->words;
	uint64_t *tmp = gl_xcalloc((size_t)words, sizeof *tmp);
	for (bool changed = true; changed;) {
		changed = false;
		for (int i = fn->ncode - 1; i >= 0; i--) {
			uint64_t *o = row(out, i), *li = row(in, i);
			for (int s = 0; s < 2; s++)
				if (succ[i][s] >= 0)
					for (int k = 0; k < words; k++)
						o[k] |= row(in, succ[i][s])[k];
			memcpy(tmp, o, (size_t)words * sizeof *tmp);
			const struct insn_regs *ir = &irs[i];
			if (ir->kills)
				for (int k = 0; k < ir->n; k++)
					if (!ir->read[k])
						tmp[ir->reg[k] >> 6] &= ~(1ull << (ir->reg[k] & 63));
			for (int k = 0; k < ir->n; k++)
				if (ir->read[k])
					set_bit(tmp, ir->reg[k]);
			for (int k = 0; k < words; k++)
				if ((tmp[k] | li[k]) != li[k]) {
					li[k] |= tmp[k];
					changed = true;
				}
		}
	}
	(void)nregs;
	free(tmp);
	free(succ);
	return true;
}

/* Registers that need a slot of their own: read before written on some path from the entry, or
 * operands of a warp collective. */
static void pinned_regs(const struct ptx_function *fn, int nregs, const struct insn_regs *irs,
			const struct bits *in, uint8_t *pinned)
{
	for (int i = 0; i < fn->ncode; i++)
		if (collective((enum ptx_op)fn->code[i].op))
			for (int k = 0; k < irs[i].n; k++)
				pinned[irs[i].reg[k]] = 1;
	for (int r = 0; r < nregs; r++)
		if (get_bit(row(in, 0), r))
			pinned[r] = 1;
}

/* adj[r]: registers that must not share r's slot.  Every register an instruction touches interferes
 * with everything live after it and with the instruction's other registers. */
static void interference(const struct ptx_function *fn, int nregs, const struct insn_regs *irs,
			 const struct bits *out, struct bits *adj)
{
	int words = adj->words;
	for (int i = 0; i < fn->ncode; i++) {
		const struct insn_regs *ir = &irs[i];
		for (int a = 0; a < ir->n; a++) {
			uint64_t *ra = row(adj, ir->reg[a]);
			for (int k = 0; k < words; k++)
				ra[k] |= row(out, i)[k];
			for (int b = 0; b < ir->n; b++)
				set_bit(ra, ir->reg[b]);
		}
	}
	for (int a = 0; a < nregs; a++) /* symmetric */
		for (int k = 0; k < words; k++)
			for (uint64_t m = row(adj, a)[k]; m; m &= m - 1)
				set_bit(row(adj, k * 64 + __builtin_ctzll(m)), a);
}

/* Greedy colouring in order of first appearance; pinned registers first, each with its own colour
 * (*npinned of them: slots [0, *npinned)).  Returns the number of slots; colour[r] = -1 for registers no
 * instruction names. */
static int colour_regs(const struct ptx_function *fn, int nregs, const struct insn_regs *irs, const uint8_t *pinned,
		       const struct bits *adj, int *colour, int *npinned)
{
	int *order = gl_xmalloc((size_t)nregs * sizeof *order), n = 0;
	uint8_t *seen = gl_xcalloc((size_t)nregs, 1);
	for (int i = 0; i < fn->ncode; i++)
		for (int k = 0; k < irs[i].n; k++)
			if (!seen[irs[i].reg[k]]) {
				seen[irs[i].reg[k]] = 1;
				order[n++] = irs[i].reg[k];
			}
	for (int r = 0; r < nregs; r++)
		colour[r] = -1;
	int ncol = 0;
	for (int k = 0; k < n; k++)
		if (pinned[order[k]])
			colour[order[k]] = ncol++;
	int first_shared = ncol;
	*npinned = ncol;
	/* used[c] == k + 1: colour c is taken by a neighbour of the k-th register (no clearing per register) */
	int *used = gl_xcalloc((size_t)nregs + 1, sizeof *used);
	for (int k = 0; k < n; k++) {
		int r = order[k];
		if (pinned[r])
			continue;
		const uint64_t *ar = row(adj, r);
		for (int w = 0; w < adj->words; w++) /* the set bits of r's row: its neighbours */
			for (uint64_t m = ar[w]; m; m &= m - 1) {
				int b = w * 64 + __builtin_ctzll(m);
				if (colour[b] >= first_shared)
					used[colour[b]] = k + 1;
			}
		int c = first_shared;
		while (used[c] == k + 1)
			c++;
		colour[r] = c;
		ncol = c + 1 > ncol ? c + 1 : ncol;
	}
	free(used);
	free(seen);
	free(order);
	return ncol;
}

static int32_t remap(int32_t slot, const int *colour, int nregs, int nslots, int new_regs)
{
	if (slot < 0)
		return slot;
	if (slot < nregs)
		return colour[slot];
	if (slot < nslots)
		return new_regs + (slot - nregs); /* a special register */
	return new_regs + SR_COUNT + (slot - nslots); /* a constant */
}

static void apply(struct ptx_function *fn, const int *colour, int new_regs, int npinned)
{
	int nregs = fn->first_special, nslots = fn->nslots;
	for (int i = 0; i < fn->ncode; i++) {
		struct ptx_insn *ins = &fn->code[i];
		ins->guard = remap(ins->guard, colour, nregs, nslots, new_regs);
		for (int k = 0; k < ins->nops; k++) {
			struct ptx_operand *o = &ins->ops[k];
			if (o->kind == PO_SLOT || o->kind == PO_MEM)
				o->slot = remap(o->slot, colour, nregs, nslots, new_regs);
			if (o->kind == PO_VEC || o->kind == PO_MEM) /* PO_MEM: a texture instruction's coordinates */
				for (int e = 0; e < o->nvec; e++)
					o->vec[e] = remap(o->vec[e], colour, nregs, nslots, new_regs);
		}
	}
	fn->first_special = new_regs;
	fn->zero_slots = npinned;
	fn->nslots = new_regs + SR_COUNT;
}

void ptx_regalloc(struct ptx_function *fn)
{
	int nregs = fn->first_special;
	fn->declared_regs = nregs;
	fn->slots_shared = true; /* or left one per register, for good */
	const char *off = getenv("GPULAB_SIM_REGALLOC");
	if ((off && strcmp(off, "0") == 0) || nregs <= 0 || nregs > REGALLOC_MAX_REGS || fn->ncode <= 0)
		return;
	struct insn_regs *irs = gl_xmalloc((size_t)fn->ncode * sizeof *irs);
	for (int i = 0; i < fn->ncode; i++)
		insn_regs(&fn->code[i], nregs, &irs[i]);
	int words = (nregs + 63) / 64;
	struct bits in = {words, gl_xcalloc((size_t)fn->ncode * (size_t)words, sizeof(uint64_t))};
	struct bits out = {words, gl_xcalloc((size_t)fn->ncode * (size_t)words, sizeof(uint64_t))};
	struct bits adj = {words, NULL};
	uint8_t *pinned = NULL;
	int *colour = NULL;
	if (!liveness(fn, nregs, irs, &in, &out))
		goto done; /* control flow it cannot follow: one slot per register, as declared */
	pinned = gl_xcalloc((size_t)nregs, 1);
	pinned_regs(fn, nregs, irs, &in, pinned);
	adj.w = gl_xcalloc((size_t)nregs * (size_t)words, sizeof(uint64_t));
	interference(fn, nregs, irs, &out, &adj);
	colour = gl_xmalloc((size_t)nregs * sizeof *colour);
	int npinned;
	int ncol = colour_regs(fn, nregs, irs, pinned, &adj, colour, &npinned);
	apply(fn, colour, ncol, npinned);
done:
	free(colour);
	free(adj.w);
	free(pinned);
	free(out.w);
	free(in.w);
	free(irs);
}

/* One lock for every module: the sharing happens once per kernel, at its first launch. */
static pthread_mutex_t share_lock = PTHREAD_MUTEX_INITIALIZER;

void ptx_share_slots(const struct ptx_function *fn)
{
	if (!fn || !fn->code)
		return;
	pthread_mutex_lock(&share_lock);
	if (!fn->slots_shared)
		ptx_regalloc((struct ptx_function *)fn); /* the module's own copy, changed once (ptx.h) */
	pthread_mutex_unlock(&share_lock);
}
