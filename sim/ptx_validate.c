/* ptx_validate.c — operand shapes checked once after decoding, so that execution can trust them:
 * destinations are registers (never constants or specials), sources are never the sink `_`, memory
 * operands sit where an instruction expects them, and each instruction has the operands it reads.
 * A PTX file that breaks these gets a name:line error instead of undefined behaviour at run time. */
#include <stdio.h>

#include "ptx_internal.h"

/* Operands each opcode needs at least, and whether operand 0 is written. */
struct op_shape {
	uint8_t min_ops;
	bool writes_first;
	int8_t mem_at, mem_at2; /* operand positions that must be [addresses], -1 none */
};

static struct op_shape shape_of_mbarrier(enum ptx_mbar sub)
{
	switch (sub) {
	case MBAR_INIT: case MBAR_EXPECT_TX: case MBAR_COMPLETE_TX: return (struct op_shape){2, false, 0, -1};
	case MBAR_INVAL: return (struct op_shape){1, false, 0, -1};
	case MBAR_ARRIVE: case MBAR_ARRIVE_DROP: return (struct op_shape){2, true, 1, -1}; /* state, [addr]{, n} */
	case MBAR_TEST_WAIT: case MBAR_TRY_WAIT: return (struct op_shape){3, true, 1, -1};
	default: return (struct op_shape){2, true, -1, -1}; /* pending_count count, state */
	}
}

static struct op_shape shape_of(const struct ptx_insn *ins)
{
	enum ptx_op op = (enum ptx_op)ins->op;
	switch (op) {
	case OP_MBARRIER: return shape_of_mbarrier((enum ptx_mbar)ins->sub);
	case OP_CP_ASYNC_MBAR_ARRIVE: return (struct op_shape){1, false, 0, -1};
	case OP_LD: case OP_LDMATRIX: return (struct op_shape){2, true, 1, -1};
	case OP_ST: return (struct op_shape){2, false, 0, -1};
	case OP_ATOM: return (struct op_shape){3, true, 1, -1};
	case OP_RED: return (struct op_shape){2, false, 0, -1};
	case OP_CP_ASYNC: return (struct op_shape){3, false, 0, 1};
	case OP_STMATRIX: case OP_WMMA_STORE: return (struct op_shape){2, false, 0, -1};
	case OP_WMMA_LOAD: return (struct op_shape){2, true, 1, -1};
	case OP_BRA: return (struct op_shape){1, false, -1, -1};
	case OP_TEX: case OP_TLD4: case OP_SULD: case OP_TXQ: case OP_SUQ: return (struct op_shape){2, true, 1, -1};
	case OP_SUST: case OP_SURED: return (struct op_shape){2, false, 0, -1};
	case OP_CALL: case OP_RET: case OP_EXIT: case OP_TRAP: case OP_BAR: case OP_MEMBAR: case OP_NOP:
	case OP_CP_ASYNC_COMMIT: case OP_CP_ASYNC_WAIT: case OP_CP_ASYNC_WAIT_ALL:
		return (struct op_shape){0, false, -1, -1};
	case OP_ACTIVEMASK: case OP_CLOCK: return (struct op_shape){1, true, -1, -1};
	case OP_MOV: case OP_CVTA: case OP_CVT: case OP_ABS: case OP_NEG: case OP_NOT: case OP_CNOT: case OP_POPC:
	case OP_CLZ: case OP_BREV: case OP_BFIND: case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS:
	case OP_LG2: case OP_EX2: case OP_TANH: case OP_TESTP: case OP_VOTE: case OP_MATCH: case OP_REDUX:
	case OP_ISSPACEP:
		return (struct op_shape){2, true, -1, -1};
	case OP_MAD: case OP_MAD24: case OP_FMA: case OP_SAD: case OP_SELP: case OP_SLCT: case OP_PRMT: case OP_SHF:
	case OP_BFE: case OP_MADC: case OP_DP4A: case OP_DP2A: case OP_FNS: case OP_SHFL: case OP_MMA:
	case OP_WMMA_MMA:
	case OP_VABSDIFF2: case OP_VABSDIFF4:
		return (struct op_shape){4, true, -1, -1};
	case OP_BFI: return (struct op_shape){5, true, -1, -1};
	default: return (struct op_shape){3, true, -1, -1}; /* binary arithmetic, bits, setp, set */
	}
}

static bool is_register(const struct ptx_function *fn, int32_t slot)
{
	return slot >= 0 && slot < fn->first_special;
}

static int check_dest(const struct ptx_function *fn, const struct ptx_operand *o)
{
	if (o->kind == PO_SLOT)
		return is_register(fn, o->slot) || o->slot == -1 ? 0 : -1;
	if (o->kind != PO_VEC)
		return -1;
	for (int k = 0; k < o->nvec; k++)
		if (o->vec[k] != -1 && !is_register(fn, o->vec[k]))
			return -1;
	return 0;
}

static int check_source(const struct ptx_operand *o)
{
	if (o->kind == PO_SLOT)
		return o->slot >= 0 ? 0 : -1;
	for (int k = 0; o->kind == PO_VEC && k < o->nvec; k++)
		if (o->vec[k] < 0)
			return -1;
	return 0;
}

static int insn_error(struct parser *ps, const struct ptx_insn *ins, const char *what)
{
	return ptx_error_loc(ps, ins->line, 0, ins->src_file, ins->src_line, "'%s' %s",
			     ptx_op_name((enum ptx_op)ins->op), what);
}

static int check_insn(struct parser *ps, const struct ptx_function *fn, const struct ptx_insn *ins)
{
	struct op_shape s = shape_of(ins);
	if (ins->nops < s.min_ops) {
		char what[64];
		snprintf(what, sizeof what, "needs at least %u operands, has %u", s.min_ops, ins->nops);
		return insn_error(ps, ins, what);
	}
	char what[160];
	if (ptx_op_is_texture((enum ptx_op)ins->op) && ptx_tex_check_operands(ins, what, sizeof what))
		return insn_error(ps, ins, what);
	for (int k = 0; k < ins->nops; k++) {
		const struct ptx_operand *o = &ins->ops[k];
		bool want_mem = k == s.mem_at || k == s.mem_at2;
		if (want_mem != (o->kind == PO_MEM) && ins->op != OP_CALL)
			return insn_error(ps, ins, want_mem ? "expects an [address] operand there"
							  : "takes an [address] only where it reads or writes memory");
		if (k == 0 && s.writes_first) {
			if (check_dest(fn, o))
				return insn_error(ps, ins, "needs a register (or _) as its destination");
		} else if (o->kind != PO_LABEL && o->kind != PO_FUNC && ins->op != OP_CALL && check_source(o)) {
			return insn_error(ps, ins, "cannot read the sink '_'");
		}
	}
	return 0;
}

int ptx_validate_function(struct parser *ps, const struct ptx_function *fn)
{
	for (int i = 0; i < fn->ncode; i++)
		if (check_insn(ps, fn, &fn->code[i]))
			return ps->err->status;
	return 0;
}
