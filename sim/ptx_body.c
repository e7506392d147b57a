/* ptx_body.c — function bodies: register declarations and scopes, labels, instructions and their
 * operands, then the layout that turns names into slots and addresses. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "ptx_internal.h"

static const struct {
	const char *name;
	enum ptx_special sr;
} specials[] = {
	{"%tid.x", SR_TID_X},	    {"%tid.y", SR_TID_Y},	    {"%tid.z", SR_TID_Z},
	{"%ntid.x", SR_NTID_X},	    {"%ntid.y", SR_NTID_Y},	    {"%ntid.z", SR_NTID_Z},
	{"%ctaid.x", SR_CTAID_X},   {"%ctaid.y", SR_CTAID_Y},	    {"%ctaid.z", SR_CTAID_Z},
	{"%nctaid.x", SR_NCTAID_X}, {"%nctaid.y", SR_NCTAID_Y},   {"%nctaid.z", SR_NCTAID_Z},
	{"%laneid", SR_LANEID},	    {"%warpid", SR_WARPID},	    {"%nwarpid", SR_NWARPID},
	{"%smid", SR_SMID},	    {"%lanemask_eq", SR_LANEMASK_EQ}, {"%lanemask_lt", SR_LANEMASK_LT},
	{"%lanemask_le", SR_LANEMASK_LE}, {"%lanemask_gt", SR_LANEMASK_GT}, {"%lanemask_ge", SR_LANEMASK_GE},
	{"%clock", SR_CLOCK},	    {"%clock64", SR_CLOCK64},	    {"%globaltimer", SR_GLOBALTIMER},
	{"%dynamic_smem_size", SR_DYNSMEM},
	{"%envreg1", SR_ENVREG1},   {"%envreg2", SR_ENVREG2},
	{"%reserved_smem_offset_begin", SR_RSMEM_BEGIN}, {"%reserved_smem_offset_end", SR_RSMEM_END},
	{"%reserved_smem_offset_cap", SR_RSMEM_CAP}, {"%reserved_smem_offset_0", SR_RSMEM_0},
	{"%reserved_smem_offset_1", SR_RSMEM_1},
};

static int special_of(const struct ptx_token *t)
{
	for (size_t i = 0; i < GL_ARRAY_LEN(specials); i++) /* the letter after '%' rules out most at once */
		if (t->len > 1 && specials[i].name[1] == t->start[1] && ptx_tok_is(t, specials[i].name))
			return (int)specials[i].sr;
	return -1;
}

/* 0f3F800000 (f32 bits), 0d3FF0000000000000 (f64 bits), integers, or a decimal float (as f64). */
int ptx_parse_immediate(struct parser *ps, uint64_t *bits)
{
	int neg = ptx_tok_is(&ps->tok, "-");
	const struct ptx_token *t = &ps->tok;
	if (neg) {
		ptx_advance(ps);
		t = &ps->tok;
		if (t->kind != TK_NUMBER)
			return ptx_error(ps, "expected a number after '-' but found '%.*s'", t->len, t->start);
	}
	if (t->kind == TK_NUMBER && t->len > 1 && t->start[0] == '0' &&
	    (t->start[1] == 'f' || t->start[1] == 'F' || t->start[1] == 'd' || t->start[1] == 'D')) {
		int is_f32 = t->start[1] == 'f' || t->start[1] == 'F';
		int digits = is_f32 ? 8 : 16;
		for (int i = 2; i < t->len; i++)
			if (!isxdigit((unsigned char)t->start[i]))
				digits = -1;
		if (t->len - 2 != digits)
			return ptx_error(ps, "invalid float literal '%.*s' (0f takes 8 hex digits, 0d 16)", t->len,
					 t->start);
		char buf[20];
		memcpy(buf, t->start + 2, (size_t)t->len - 2);
		buf[t->len - 2] = '\0';
		uint64_t v = strtoull(buf, NULL, 16);
		if (neg)
			v ^= is_f32 ? 0x80000000ull : 0x8000000000000000ull;
		*bits = v;
		ptx_advance(ps);
		return 0;
	}
	if (t->kind == TK_NUMBER && (memchr(t->start, '.', (size_t)t->len) ||
				     ((memchr(t->start, 'e', (size_t)t->len) || memchr(t->start, 'E', (size_t)t->len)) &&
				      !(t->len > 1 && (t->start[1] == 'x' || t->start[1] == 'X'))))) {
		char buf[128], *end;
		if (t->len >= (int)sizeof buf)
			return ptx_error(ps, "number too long");
		memcpy(buf, t->start, (size_t)t->len);
		buf[t->len] = '\0';
		double d = strtod(buf, &end);
		if (*end)
			return ptx_error(ps, "invalid number '%s'", buf);
		if (neg)
			d = -d;
		memcpy(bits, &d, sizeof d);
		ptx_advance(ps);
		return 0;
	}
	int64_t v;
	if (ptx_parse_int(ps, &v))
		return -1;
	*bits = neg ? 0 - (uint64_t)v : (uint64_t)v;
	return 0;
}

static int lookup_reg(struct parser *ps, const struct ptx_token *t, int *slot)
{
	int sr = special_of(t);
	if (sr >= 0) {
		*slot = TAG_SPECIAL | sr;
		return 0;
	}
	*slot = ptx_names_lookup(&ps->regs, t->start, t->len, NULL);
	if (*slot < 0)
		return ptx_error_at(ps, t, "undeclared register '%.*s'", t->len, t->start);
	return 0;
}

/* A name used as an address: function variable, module variable or kernel parameter.
 * Returns a var reference (TAG_VAR...) or, for parameters, sets *param_offset and returns 0. */
static int lookup_symbol(struct parser *ps, const struct ptx_token *t, int *ref, int64_t *param_offset)
{
	int i = ptx_names_lookup(&ps->vars, t->start, t->len, NULL);
	if (i >= 0) {
		*ref = TAG_VAR | i;
		return 0;
	}
	int k = ptx_strmap_find(&ps->module_vars, t->start, t->len, 0);
	if (k >= 0) {
		*ref = TAG_VAR | VAR_MODULE | ps->module_vars.keys[k].value;
		return 0;
	}
	k = ptx_strmap_find(&ps->params, t->start, t->len, 0);
	if (k >= 0) {
		*ref = -1;
		*param_offset = ps->params.keys[k].value;
		return 0;
	}
	return ptx_error_at(ps, t, "unknown symbol '%.*s'", t->len, t->start);
}

static int const_slot(struct parser *ps, uint64_t value, int var)
{
	return TAG_CONST | ptx_const_intern(&ps->consts, value, var);
}

/* Immediates follow the instruction's type: a decimal float literal is f64; an f32 operand wants f32. */
static uint64_t fit_immediate(const struct ptx_token *t, uint64_t bits, const struct ptx_insn *ins)
{
	int is_decimal_float = t->kind == TK_NUMBER && memchr(t->start, '.', (size_t)t->len) &&
			       !(t->len > 1 && t->start[0] == '0' && (t->start[1] == 'f' || t->start[1] == 'd'));
	int is_f32_literal = t->len > 1 && t->start[0] == '0' && (t->start[1] == 'f' || t->start[1] == 'F');
	if (is_decimal_float && ins->type == PT_F32) {
		double d;
		memcpy(&d, &bits, sizeof d);
		float f = (float)d;
		uint32_t u;
		memcpy(&u, &f, sizeof u);
		return u;
	}
	if (is_f32_literal && ins->type == PT_F64) {
		float f;
		uint32_t u = (uint32_t)bits;
		memcpy(&f, &u, sizeof f);
		double d = f;
		memcpy(&bits, &d, sizeof d);
	}
	return bits;
}

static int parse_value(struct parser *ps, struct ptx_insn *ins, struct ptx_operand *o, int is_target)
{
	struct ptx_token t = ps->tok;
	o->kind = PO_SLOT;
	if (t.kind == TK_NUMBER || ptx_tok_is(&t, "-")) {
		struct ptx_lexer peek = ps->lx; /* after a '-', the literal's own token decides its kind */
		struct ptx_token first = ptx_tok_is(&t, "-") ? ptx_lex_next(&peek) : t;
		uint64_t bits;
		if (ptx_parse_immediate(ps, &bits))
			return -1;
		o->slot = const_slot(ps, fit_immediate(&first, bits, ins), -1);
		return 0;
	}
	if (t.kind != TK_IDENT)
		return ptx_error(ps, "expected an operand but found '%.*s'", t.len, t.start);
	ptx_advance(ps);
	if (ptx_tok_is(&t, "_")) {
		o->slot = -1; /* sink */
		return 0;
	}
	if (t.start[0] == '%')
		return lookup_reg(ps, &t, &o->slot);
	/* inline asm scopes declare registers without '%': { .reg .f16 low, high; mov.b32 {low,high}, %r1; } */
	if (!is_target && (o->slot = ptx_names_lookup(&ps->regs, t.start, t.len, NULL)) >= 0)
		return 0;
	if (is_target) { /* label or function: resolved after the body */
		bool indirect = false; /* call (r), %rd, (args), prototype: the last name is a .callprototype label */
		for (const struct ptx_operand *k = ins->ops; k < o; k++)
			indirect |= k->kind == PO_SLOT;
		o->kind = ins->op == OP_CALL && !indirect ? PO_FUNC : PO_LABEL;
		if (ps->nrefs == ps->refs_cap) {
			ps->refs_cap = ps->refs_cap ? 2 * ps->refs_cap : 16;
			ps->refs = gl_xrealloc(ps->refs, (size_t)ps->refs_cap * sizeof *ps->refs);
		}
		ps->refs[ps->nrefs++] = (struct label_ref){ptx_tok_dup(&t), ps->fn->ncode, (int)(o - ins->ops), t.line,
							   t.col, ps->block};
		return 0;
	}
	/* WARP_SZ, the predefined identifier nvcc emits for warpSize: the constant 32 (PTX ISA, "Predefined
	 * Identifiers"), unless the file declares a symbol of that name itself */
	if (ptx_tok_is(&t, "WARP_SZ") && ptx_names_lookup(&ps->vars, t.start, t.len, NULL) < 0 &&
	    ptx_strmap_find(&ps->module_vars, t.start, t.len, 0) < 0) {
		o->slot = const_slot(ps, 32, -1);
		return 0;
	}
	int fk = ptx_strmap_find(&ps->funcs, t.start, t.len, 0);
	if (fk >= 0 && ptx_names_lookup(&ps->vars, t.start, t.len, NULL) < 0 &&
	    ptx_strmap_find(&ps->module_vars, t.start, t.len, 0) < 0) { /* a function's address */
		o->slot = const_slot(ps, ptx_function_address(ps->funcs.keys[fk].value), -1);
		return 0;
	}
	int ref;
	int64_t param_offset = 0;
	if (lookup_symbol(ps, &t, &ref, &param_offset))
		return -1;
	o->slot = const_slot(ps, (uint64_t)param_offset, ref < 0 ? -1 : ref);
	return 0;
}

static int parse_tex_coords(struct parser *ps, struct ptx_insn *ins, struct ptx_operand *o);

/* [reg], [reg+imm], [symbol+imm], [imm]; a texture or surface instruction's [handle, coordinates] */
static int parse_address(struct parser *ps, struct ptx_insn *ins, struct ptx_operand *o)
{
	o->kind = PO_MEM;
	o->slot = -1;
	struct ptx_token t = ps->tok;
	if (ptx_op_is_texture((enum ptx_op)ins->op) && (t.kind != TK_IDENT || t.start[0] != '%'))
		return ptx_error(ps, "a texture or surface operand is a .u64 register holding a texture or surface object "
				 "(cudaTextureObject_t, cudaSurfaceObject_t); '%.*s' is not one: texture references "
				 "(.texref/.surfref variables) are not simulated", t.len, t.start);
	if (t.kind == TK_IDENT) {
		ptx_advance(ps);
		if (t.start[0] == '%') {
			if (lookup_reg(ps, &t, &o->slot))
				return -1;
		} else if ((o->slot = ptx_names_lookup(&ps->regs, t.start, t.len, NULL)) >= 0) {
			/* a register declared without '%' in an inline asm scope */
		} else {
			int ref;
			int64_t param_offset = 0;
			if (lookup_symbol(ps, &t, &ref, &param_offset))
				return -1;
			o->slot = ref; /* -1 for parameters: absolute offset */
			o->offset = param_offset;
			if (ref < 0 && !ps->fn->is_entry) { /* a .func's own parameter: in its frame */
				o->slot = const_slot(ps, (uint64_t)param_offset, VAR_FRAME);
				o->offset = 0;
			}
		}
	} else {
		int64_t v;
		if (ptx_parse_int(ps, &v))
			return -1;
		o->offset = v;
	}
	while (ptx_tok_is(&ps->tok, "+") || ptx_tok_is(&ps->tok, "-")) {
		int minus = ptx_tok_is(&ps->tok, "-");
		ptx_advance(ps);
		int64_t v;
		if (ptx_parse_int(ps, &v))
			return -1;
		/* two's complement wrap, as the address arithmetic does at run time */
		o->offset = (int64_t)((uint64_t)o->offset + (minus ? 0 - (uint64_t)v : (uint64_t)v));
	}
	if (ptx_op_is_texture((enum ptx_op)ins->op) && ptx_accept(ps, ","))
		return parse_tex_coords(ps, ins, o);
	return ptx_expect(ps, "]");
}

static int parse_list(struct parser *ps, struct ptx_insn *ins, struct ptx_operand *o, const char *close)
{
	o->kind = PO_VEC;
	o->nvec = 0;
	while (!ptx_accept(ps, close)) {
		if (o->nvec > 0 && ptx_expect(ps, ","))
			return -1;
		if (o->nvec >= PTX_MAX_VEC)
			return ptx_error(ps, "too many elements in a vector operand (at most %d)", PTX_MAX_VEC);
		struct ptx_operand e = {0};
		if (parse_value(ps, ins, &e, 0))
			return -1;
		o->vec[o->nvec++] = e.slot;
	}
	return 0;
}

/* [handle, {c, ...}] or [handle, c]: the coordinates go into the memory operand's vector, its base being
 * the handle.  [texture, sampler, coordinates] is independent texture mode, which is not simulated. */
static int parse_tex_coords(struct parser *ps, struct ptx_insn *ins, struct ptx_operand *o)
{
	struct ptx_operand c = {0};
	if (ptx_accept(ps, "{")) {
		if (parse_list(ps, ins, &c, "}"))
			return -1;
	} else {
		struct ptx_lexer peek = ps->lx;
		struct ptx_token after = ptx_lex_next(&peek);
		if (ptx_tok_is(&after, ","))
			return ptx_error(ps, "an explicit sampler operand ([texture, sampler, coordinates]: independent "
					 "texture mode) is not simulated");
		if (parse_value(ps, ins, &c, 0))
			return -1;
		c.vec[0] = c.slot;
		c.nvec = 1;
	}
	for (int k = 0; k < c.nvec; k++)
		if (c.vec[k] < 0)
			return ptx_error(ps, "a coordinate cannot be the sink '_'");
	memcpy(o->vec, c.vec, sizeof o->vec);
	o->nvec = c.nvec;
	return ptx_expect(ps, "]");
}

static int parse_operand(struct parser *ps, struct ptx_insn *ins, struct ptx_operand *o, int is_target)
{
	if (ptx_accept(ps, "{")) {
		if (parse_list(ps, ins, o, "}"))
			return -1;
		if (ptx_op_is_texture((enum ptx_op)ins->op) && ptx_accept(ps, "|")) { /* {d...}|p: residency */
			struct ptx_operand p = {0};
			if (o->nvec >= PTX_MAX_VEC)
				return ptx_error(ps, "too many elements in a vector operand (at most %d)", PTX_MAX_VEC);
			if (parse_value(ps, ins, &p, 0))
				return -1;
			o->vec[o->nvec++] = p.slot;
		}
		return 0;
	}
	if (ptx_accept(ps, "("))
		return parse_list(ps, ins, o, ")");
	if (ptx_accept(ps, "["))
		return parse_address(ps, ins, o);
	if (ptx_accept(ps, "!")) {
		o->neg = 1;
		return parse_value(ps, ins, o, 0);
	}
	if (parse_value(ps, ins, o, is_target))
		return -1;
	if (ptx_accept(ps, "|")) { /* d|p: a value and a predicate (shfl, setp, match) */
		struct ptx_operand p = {0};
		if (parse_value(ps, ins, &p, 0))
			return -1;
		int first = o->slot;
		o->kind = PO_VEC;
		o->nvec = 2;
		o->vec[0] = first;
		o->vec[1] = p.slot;
	}
	return 0;
}

static int append_insn(struct parser *ps, const struct ptx_insn *ins)
{
	struct ptx_function *fn = ps->fn;
	if ((fn->ncode & (fn->ncode - 1)) == 0) /* grow at powers of two */
		fn->code = gl_xrealloc(fn->code, (size_t)(fn->ncode ? 2 * fn->ncode : 1) * sizeof *fn->code);
	fn->code[fn->ncode++] = *ins;
	return 0;
}

static int parse_instruction(struct parser *ps)
{
	struct ptx_insn ins = {.guard = -1, .line = ps->tok.line, .src_line = ps->src_line,
			       .src_file = (uint16_t)ps->src_file};
	if (ptx_accept(ps, "@")) {
		ins.guard_neg = (uint8_t)ptx_accept(ps, "!");
		if (ps->tok.kind != TK_IDENT || lookup_reg(ps, &ps->tok, &ins.guard))
			return ptx_error(ps, "expected a predicate register after '@'");
		ptx_advance(ps);
	}
	struct ptx_token op = ps->tok;
	if (op.kind != TK_IDENT)
		return ptx_error(ps, "expected an instruction but found '%.*s'", op.len, op.start);
	char msg[256];
	if (ptx_decode_opcode(op.start, op.len, &ins, msg, sizeof msg))
		return ptx_error(ps, "%s", msg);
	ptx_advance(ps);
	int nops = 0;
	while (!ptx_accept(ps, ";")) {
		if (nops > 0 && ptx_expect(ps, ","))
			return -1;
		if (nops >= PTX_MAX_OPS)
			return ptx_error(ps, "too many operands for '%.*s'", op.len, op.start);
		int is_target = (ins.op == OP_BRA && nops == 0) || (ins.op == OP_CALL && ps->tok.kind == TK_IDENT &&
								     ps->tok.start[0] != '%' && !ptx_tok_is(&ps->tok, "_"));
		if (parse_operand(ps, &ins, &ins.ops[nops], is_target))
			return -1;
		nops++;
	}
	ins.nops = (uint8_t)nops;
	if (ins.op == OP_BRA && (nops != 1 || ins.ops[0].kind != PO_LABEL))
		return ptx_error_at(ps, &op, "'%.*s' takes one label", op.len, op.start);
	/* mov %r, %clock64 reads a clock: give it its own op so the warp's count can be used */
	if (ins.op == OP_MOV && nops == 2 && ins.ops[1].kind == PO_SLOT &&
	    (ins.ops[1].slot == (TAG_SPECIAL | SR_CLOCK) || ins.ops[1].slot == (TAG_SPECIAL | SR_CLOCK64) ||
	     ins.ops[1].slot == (TAG_SPECIAL | SR_GLOBALTIMER)))
		ins.op = OP_CLOCK;
	return append_insn(ps, &ins);
}

static int parse_reg_decl(struct parser *ps)
{
	enum ptx_type type = PT_NONE;
	unsigned vec = 1;
	for (;;) {
		if (ptx_accept(ps, ".v2"))
			vec = 2;
		else if (ptx_accept(ps, ".v4"))
			vec = 4;
		else if (ptx_type_from_token(&ps->tok, &type) == 0)
			ptx_advance(ps);
		else
			break;
	}
	if (type == PT_NONE || vec != 1)
		return ptx_error(ps, "expected a scalar register type such as .b32");
	do {
		if (ps->tok.kind != TK_IDENT)
			return ptx_error(ps, "expected a register name but found '%.*s'", ps->tok.len, ps->tok.start);
		struct ptx_token name = ps->tok;
		ptx_advance(ps);
		int count = 0;
		if (ptx_accept(ps, "<")) {
			int64_t n;
			struct ptx_token at = ps->tok;
			if (ptx_parse_int(ps, &n) || ptx_expect(ps, ">"))
				return -1;
			if (n <= 0 || n > 1000000)
				return ptx_error_at(ps, &at, "register count %lld out of range (1 to 1000000)", (long long)n);
			count = (int)n;
		}
		if (ptx_names_in_scope(&ps->regs, name.start, name.len, count > 0))
			return ptx_error_at(ps, &name, "register '%.*s' is already declared in this scope", name.len,
					    name.start);
		if (ps->nregs + (count ? count : 1) > 4000000)
			return ptx_error_at(ps, &name, "too many registers (at most 4000000 in a function)");
		ptx_names_add(&ps->regs, name.start, name.len, ps->nregs, count, (uint8_t)type);
		ps->nregs += count ? count : 1;
	} while (ptx_accept(ps, ","));
	return ptx_expect(ps, ";");
}

/* `.param .b64 param0;` inside a body declares call arguments: per-thread storage, like registers. */
static int parse_call_param(struct parser *ps)
{
	int first = ps->fn->nvars;
	if (ptx_parse_var(ps, PS_LOCAL, false, false))
		return -1;
	for (int i = first; i < ps->fn->nvars; i++)
		ps->fn->vars[i].call_param = true;
	return 0;
}

static int is_label(struct parser *ps)
{
	if (ps->tok.kind != TK_IDENT)
		return 0;
	struct ptx_lexer peek = ps->lx;
	struct ptx_token next = ptx_lex_next(&peek);
	return ptx_tok_is(&next, ":");
}

static void open_block(struct parser *ps)
{
	if ((ps->nblocks & (ps->nblocks - 1)) == 0) /* grow at powers of two */
		ps->block_parent = gl_xrealloc(ps->block_parent, (size_t)(ps->nblocks ? 2 * ps->nblocks : 1) * sizeof(int));
	ps->block_parent[ps->nblocks] = ps->block;
	ps->block = ps->nblocks++;
}

static int parse_statement(struct parser *ps, int *depth)
{
	if (ptx_accept(ps, "{")) {
		ptx_names_push(&ps->regs);
		ptx_names_push(&ps->vars);
		open_block(ps);
		(*depth)++;
		return 0;
	}
	if (ptx_accept(ps, "}")) {
		ptx_names_pop(&ps->regs);
		ptx_names_pop(&ps->vars);
		ps->block = ps->block_parent[ps->block];
		(*depth)--;
		return 0;
	}
	if (ptx_accept(ps, ".reg"))
		return parse_reg_decl(ps);
	if (ps->tok.kind == TK_IDENT && ps->tok.len > 5 && memcmp(ps->tok.start, ".reg.", 5) == 0) {
		ps->tok.start += 4; /* ".reg.b32 f;" in cuda_fp16.h's asm: the lexer kept the dots together */
		ps->tok.len -= 4;
		ps->tok.col += 4;
		return parse_reg_decl(ps);
	}
	if (ptx_accept(ps, ".shared"))
		return ptx_parse_var(ps, PS_SHARED, false, false);
	if (ptx_accept(ps, ".local"))
		return ptx_parse_var(ps, PS_LOCAL, false, false);
	if (ptx_accept(ps, ".param"))
		return parse_call_param(ps);
	if (ptx_accept(ps, ".loc")) {
		int64_t file, line;
		if (ptx_parse_int(ps, &file) || ptx_parse_int(ps, &line))
			return -1;
		ps->src_line = line > 0 && line <= INT32_MAX ? (int)line : 0;
		ps->src_file = file > 0 && file <= UINT16_MAX ? (int)file : 0;
		ps->src_at_file = ps->src_at_line = 0;
		int l = ps->tok.line; /* the column and inlining details that may follow */
		while (ps->tok.kind != TK_EOF && ps->tok.line == l && !ptx_tok_is(&ps->tok, "}")) {
			if (ptx_accept(ps, "inlined_at")) { /* inlined_at FILE LINE COL: the call site */
				int64_t f, n;
				if (ps->tok.kind == TK_NUMBER && ptx_parse_int(ps, &f) == 0 && ps->tok.kind == TK_NUMBER &&
				    ptx_parse_int(ps, &n) == 0 && f > 0 && f <= UINT16_MAX && n > 0 && n <= INT32_MAX) {
					ps->src_at_file = (int)f;
					ps->src_at_line = (int)n;
				}
				continue;
			}
			ptx_advance(ps);
		}
		return 0;
	}
	if (ptx_accept(ps, ".callprototype")) { /* the signature of an indirect call: checked at the call */
		while (ps->tok.kind != TK_EOF && !ptx_accept(ps, ";"))
			ptx_advance(ps);
		return 0;
	}
	if (ptx_accept(ps, ".pragma")) {
		while (ps->tok.kind != TK_EOF && !ptx_accept(ps, ";"))
			ptx_advance(ps);
		return 0;
	}
	if (is_label(ps)) {
		int n = ps->labels.n;
		ptx_strmap_add(&ps->labels, ps->tok.start, ps->tok.len, ps->block, ps->fn->ncode);
		if (ps->labels.n == n)
			return ptx_error(ps, "duplicate label '%.*s'", ps->tok.len, ps->tok.start);
		ptx_advance(ps);
		ptx_advance(ps);
		return 0;
	}
	if (ps->tok.kind == TK_IDENT && ps->tok.start[0] == '.')
		return ptx_error(ps, "unsupported directive '%.*s' in a function body", ps->tok.len, ps->tok.start);
	return parse_instruction(ps);
}

static int resolve_refs(struct parser *ps)
{
	for (int i = 0; i < ps->nrefs; i++) {
		struct label_ref *r = &ps->refs[i];
		struct ptx_operand *o = &ps->fn->code[r->insn].ops[r->opnd];
		int found = -1;
		int len = (int)strlen(r->name);
		if (o->kind == PO_LABEL) { /* the innermost enclosing block that defines it */
			for (int b = r->block; b >= 0 && found < 0; b = ps->block_parent[b]) {
				int k = ptx_strmap_find(&ps->labels, r->name, len, b);
				found = k >= 0 ? ps->labels.keys[k].value : -1;
			}
		} else {
			int k = ptx_strmap_find(&ps->funcs, r->name, len, 0);
			found = k >= 0 ? ps->funcs.keys[k].value : -1;
		}
		if (found < 0)
			return ptx_error_loc(ps, r->line, r->col, ps->fn->code[r->insn].src_file,
					     ps->fn->code[r->insn].src_line, "unknown %s '%s'",
					     o->kind == PO_LABEL ? "label" : "function", r->name);
		o->offset = found;
	}
	return 0;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

/* The module-scope .shared variables the function names in an address operand or a symbol constant. */
static void module_shared_used(struct parser *ps, bool *used)
{
	const struct ptx_function *fn = ps->fn;
	for (int i = 0; i < fn->ncode; i++)
		for (int k = 0; k < fn->code[i].nops; k++) {
			int32_t s = fn->code[i].ops[k].slot;
			if (fn->code[i].ops[k].kind == PO_MEM && s >= 0 && (s & TAG_MASK) == TAG_VAR && (s & VAR_MODULE))
				used[s & ~(TAG_MASK | VAR_MODULE)] = true;
		}
	for (int i = 0; i < ps->consts.n; i++) {
		int var = ps->consts.var[i];
		if (var >= 0 && (var & VAR_MODULE))
			used[var & ~(TAG_MASK | VAR_MODULE)] = true;
	}
}

static uint64_t place_module_shared(struct parser *ps, uint64_t shared, const bool *used, uint64_t *module_shared)
{
	for (int i = 0; i < ps->m->nvars; i++) {
		struct ptx_var *v = &ps->m->vars[i];
		if (v->space != PS_SHARED || v->is_extern || (used && !used[i]))
			continue;
		shared = align_up(shared, v->align);
		module_shared[i] = shared;
		shared += v->size;
	}
	return shared;
}

/* Shared offsets as ptxas lays them out for a kernel: its own .shared variables in order, then the
 * module-scope ones it names, in declaration order (a kernel gets no other kernel's arrays), then the
 * dynamic (extern) region, which every extern declaration aliases, at the largest extern alignment.
 * When a .func body uses shared memory (parser.shared_module_wide) its baked addresses must be the same
 * for every caller: every function then places all module-scope variables first, as one region. */
static void layout_vars(struct parser *ps, uint64_t *module_shared)
{
	struct ptx_function *fn = ps->fn;
	uint64_t shared = 0, local = fn->is_entry ? 0 : fn->args_size, dyn_align = 16;
	bool *used = NULL;
	if (ps->shared_module_wide) {
		shared = place_module_shared(ps, 0, NULL, module_shared);
	} else {
		used = gl_xcalloc((size_t)ps->m->nvars + 1, sizeof *used);
		module_shared_used(ps, used);
	}
	bool has_extern = false;
	for (int i = 0; i < fn->nvars; i++) {
		struct ptx_var *v = &fn->vars[i];
		if (v->space == PS_SHARED && !v->is_extern) {
			shared = align_up(shared, v->align);
			v->offset = shared;
			shared += v->size;
		} else if (v->space == PS_LOCAL) {
			local = align_up(local, v->align);
			v->offset = local;
			local += v->size;
		} else if (v->is_extern) {
			has_extern = true;
			dyn_align = v->align > dyn_align ? v->align : dyn_align;
		}
	}
	if (used)
		shared = place_module_shared(ps, shared, used, module_shared);
	for (int i = 0; i < ps->m->nvars; i++)
		if (ps->m->vars[i].space == PS_SHARED && ps->m->vars[i].is_extern && (!used || used[i])) {
			has_extern = true;
			dyn_align = ps->m->vars[i].align > dyn_align ? ps->m->vars[i].align : dyn_align;
		}
	uint64_t dyn = align_up(shared, dyn_align);
	for (int i = 0; i < fn->nvars; i++)
		if (fn->vars[i].space == PS_SHARED && fn->vars[i].is_extern)
			fn->vars[i].offset = dyn;
	for (int i = 0; i < ps->m->nvars; i++)
		if (ps->m->vars[i].space == PS_SHARED && ps->m->vars[i].is_extern)
			module_shared[i] = dyn;
	/* ptxas reports the static bytes; with a dynamic region they end where it starts */
	fn->shared_static = has_extern ? dyn : shared;
	fn->local_size = align_up(local, 16);
	free(used);
}

static const struct ptx_var *var_of(struct parser *ps, int ref)
{
	int i = ref & ~(TAG_MASK | VAR_MODULE);
	return (ref & VAR_MODULE) ? &ps->m->vars[i] : &ps->fn->vars[i];
}

static uint64_t var_address(struct parser *ps, int ref, const uint64_t *module_shared)
{
	const struct ptx_var *v = var_of(ps, ref);
	if (ref & VAR_MODULE)
		return v->space == PS_SHARED ? module_shared[ref & ~(TAG_MASK | VAR_MODULE)] : ps->m->global_base + v->offset;
	return v->offset;
}

static int32_t final_slot(struct parser *ps, int32_t s)
{
	if (s < 0)
		return s;
	if ((s & TAG_MASK) == TAG_CONST)
		return ps->nregs + SR_COUNT + (s & ~TAG_MASK);
	if ((s & TAG_MASK) == TAG_SPECIAL)
		return ps->nregs + (s & ~TAG_MASK);
	return s;
}

static void fix_operand(struct parser *ps, struct ptx_insn *ins, struct ptx_operand *o, const uint64_t *mshared)
{
	if (o->kind == PO_MEM && o->slot >= 0 && (o->slot & TAG_MASK) == TAG_VAR) {
		const struct ptx_var *v = var_of(ps, o->slot);
		if (v->call_param && ins->space == PS_PARAM) {
			ins->space = PS_LOCAL;
			ins->mods |= PM_CALLPARAM;
		}
		if (!ps->fn->is_entry && !(o->slot & VAR_MODULE) && v->space == PS_LOCAL) {
			/* in a .func the frame moves with the call depth: the base is a frame constant */
			o->slot = final_slot(ps, const_slot(ps, 0, o->slot));
			return;
		}
		o->offset = (int64_t)((uint64_t)o->offset + var_address(ps, o->slot, mshared));
		o->slot = -1;
		return;
	}
	if (o->kind == PO_MEM && o->slot >= 0 && (o->slot & TAG_MASK) == TAG_CONST &&
	    ps->consts.var[o->slot & ~TAG_MASK] == VAR_FRAME && ins->space == PS_PARAM) {
		ins->space = PS_LOCAL; /* ld/st.param of the .func's own parameters and return values */
		ins->mods |= PM_CALLPARAM;
	}
	o->slot = final_slot(ps, o->slot);
	for (int k = 0; (o->kind == PO_VEC || o->kind == PO_MEM) && k < o->nvec; k++) { /* PO_MEM: coordinates */
		int32_t e = o->vec[k];
		if (e >= 0 && (e & TAG_MASK) == TAG_VAR) /* call argument list: local addresses, frame-relative */
			o->vec[k] = final_slot(ps, const_slot(ps, 0, e));
		else
			o->vec[k] = final_slot(ps, e);
	}
}

static void layout(struct parser *ps)
{
	struct ptx_function *fn = ps->fn;
	uint64_t *mshared = gl_xcalloc((size_t)ps->m->nvars + 1, sizeof *mshared);
	layout_vars(ps, mshared);
	for (int i = 0; i < fn->ncode; i++) {
		struct ptx_insn *ins = &fn->code[i];
		ins->guard = final_slot(ps, ins->guard);
		for (int k = 0; k < ins->nops; k++)
			fix_operand(ps, ins, &ins->ops[k], mshared);
	}
	fn->nconsts = ps->consts.n;
	fn->consts = gl_xcalloc((size_t)fn->nconsts + 1, sizeof *fn->consts);
	fn->const_frame = gl_xcalloc((size_t)fn->nconsts + 1, 1);
	for (int i = 0; i < fn->nconsts; i++) {
		int var = ps->consts.var[i];
		fn->consts[i] = ps->consts.value[i] + (var >= 0 ? var_address(ps, var, mshared) : 0);
		fn->const_frame[i] = var == VAR_FRAME ||
				     (var >= 0 && !(var & VAR_MODULE) && var_of(ps, var)->space == PS_LOCAL);
	}
	fn->first_special = ps->nregs;
	fn->zero_slots = ps->nregs; /* all, until ptx_regalloc knows better */
	fn->declared_regs = ps->nregs;
	fn->nslots = ps->nregs + SR_COUNT;
	free(mshared);
}

void ptx_parser_reset_function(struct parser *ps)
{
	ptx_names_free(&ps->regs);
	ptx_names_free(&ps->vars);
	ptx_strmap_free(&ps->params);
	ptx_consts_free(&ps->consts);
	ptx_strmap_free(&ps->labels);
	for (int i = 0; i < ps->nrefs; i++)
		free(ps->refs[i].name);
	free(ps->refs);
	free(ps->block_parent);
	ps->refs = NULL;
	ps->block_parent = NULL;
	ps->nrefs = ps->refs_cap = ps->nregs = ps->vars_cap = ps->nblocks = 0;
	ps->block = -1;
	ps->fn = NULL;
}

/* A .func's parameters and return values, laid out one after the other at the start of its frame. */
static void frame_args(struct ptx_function *fn)
{
	uint64_t at = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < (pass ? fn->nrets : fn->nparams); i++) {
			struct ptx_param *p = pass ? &fn->rets[i] : &fn->params[i];
			at = align_up(at, p->align ? p->align : 1);
			p->offset = (unsigned)at;
			at += p->size;
		}
	fn->args_size = at;
}

int ptx_parse_body(struct parser *ps, struct ptx_function *fn)
{
	ptx_parser_reset_function(ps);
	if (!fn->is_entry)
		frame_args(fn);
	ps->fn = fn;
	ps->src_line = ps->src_file = ps->src_at_line = ps->src_at_file = 0;
	for (int i = 0; i < fn->nparams; i++) /* names: parameters first, as a lookup tries them */
		ptx_strmap_add(&ps->params, fn->params[i].name, (int)strlen(fn->params[i].name), 0, (int)fn->params[i].offset);
	for (int i = 0; i < fn->nrets; i++)
		ptx_strmap_add(&ps->params, fn->rets[i].name, (int)strlen(fn->rets[i].name), 0, (int)fn->rets[i].offset);
	if (ptx_expect(ps, "{"))
		return -1;
	open_block(ps); /* block 0: the body */
	int depth = 1;
	while (depth > 0) {
		if (ps->tok.kind == TK_EOF)
			return ptx_error(ps, "function '%s' is not closed with '}'", fn->name);
		if (parse_statement(ps, &depth))
			return -1;
	}
	if (resolve_refs(ps))
		return -1;
	/* a body that can run off its end gets an implicit ret, as ptxas does */
	struct ptx_insn ret = {.op = OP_RET, .guard = -1, .line = ps->tok.line, .vec = 1};
	append_insn(ps, &ret);
	layout(ps);
	ptx_parser_reset_function(ps);
	if (ptx_validate_function(ps, fn))
		return -1;
	if (fn->local_size > PTX_MAX_LOCAL)
		return ptx_error_loc(ps, fn->ptx_line, 1, 0, 0, "function '%s' needs %llu bytes of local memory per "
				     "thread; the limit is %llu", fn->name, (unsigned long long)fn->local_size,
				     (unsigned long long)PTX_MAX_LOCAL);
	if (!ps->lazy || !fn->is_entry) /* a .func may be called from any kernel: its slots are shared now */
		ptx_regalloc(fn);
	return 0;
}
