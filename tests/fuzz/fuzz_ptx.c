/* fuzz_ptx.c — libFuzzer harness for the PTX parser (sim/ptx_*.c).  Each input is parsed as PTX text;
 * a failed parse must leave a GL_EUSAGE message that starts with the file name, and a successful one
 * must pass a structural walk (every slot, label, function index and variable inside its bounds).
 * Any violation aborts, so libFuzzer reports it with the input.  Build and run: tests/fuzz/README.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "sim/ptx.h"
#include "sim/ptx_ops.h"

#define NAME "fuzz.ptx"

static void fail(const char *what, const char *fn, int insn)
{
	fprintf(stderr, "fuzz_ptx: validation failed: %s (function %s, instruction %d)\n", what,
		fn ? fn : "?", insn);
	abort();
}

#define REQUIRE(cond, fn, insn)                      \
	do {                                         \
		if (!(cond))                         \
			fail(#cond, (fn), (insn));   \
	} while (0)

static int pow2(uint64_t a)
{
	return a && !(a & (a - 1));
}

static void check_source_slot(const struct ptx_function *f, int32_t s, int i)
{
	REQUIRE(s == -1 || (s >= 0 && s < f->nslots + f->nconsts), f->name, i);
}

static void check_operand(const struct ptx_module *m, const struct ptx_function *f, const struct ptx_operand *o, int i)
{
	switch (o->kind) {
	case PO_SLOT:
		check_source_slot(f, o->slot, i);
		break;
	case PO_MEM: /* a base register or special, a frame constant (a .func's own .local or .param
		      * variable, sim_frame.c), or -1 for an absolute address */
		REQUIRE(o->slot == -1 || (o->slot >= 0 && o->slot < (f->is_entry ? f->nslots : f->nslots + f->nconsts)),
			f->name, i);
		REQUIRE(o->nvec <= PTX_MAX_VEC, f->name, i); /* a texture instruction's coordinates */
		for (int k = 0; k < o->nvec; k++)
			check_source_slot(f, o->vec[k], i);
		break;
	case PO_VEC:
		REQUIRE(o->nvec <= PTX_MAX_VEC, f->name, i);
		for (int k = 0; k < o->nvec; k++)
			check_source_slot(f, o->vec[k], i);
		break;
	case PO_LABEL:
		REQUIRE(o->offset >= 0 && o->offset < f->ncode, f->name, i);
		break;
	case PO_FUNC:
		REQUIRE(o->offset >= 0 && o->offset < m->nfuncs, f->name, i);
		break;
	default:
		fail("operand kind", f->name, i);
	}
}

static void check_vars(const struct ptx_var *v, int n, const char *fn)
{
	for (int i = 0; i < n; i++) {
		REQUIRE(v[i].name != NULL, fn, -1);
		REQUIRE(pow2(v[i].align), fn, -1);
		REQUIRE(v[i].space >= PS_GLOBAL && v[i].space <= PS_CONST, fn, -1);
		REQUIRE(v[i].offset + v[i].size >= v[i].offset, fn, -1);
		if (v[i].init)
			v[i].init[v[i].size ? v[i].size - 1 : 0] ^= 0; /* ASan: init covers size bytes */
	}
}

static void check_function(const struct ptx_module *m, const struct ptx_function *f)
{
	REQUIRE(f->name != NULL, "?", -1);
	REQUIRE(f->nparams >= 0 && f->nrets >= 0 && f->nvars >= 0, f->name, -1);
	for (int i = 0; i < f->nparams; i++)
		REQUIRE(f->params[i].name && pow2(f->params[i].align) &&
				f->params[i].offset + f->params[i].size >= f->params[i].offset,
			f->name, -1);
	for (int i = 0; i < f->nrets; i++)
		REQUIRE(f->rets[i].name && pow2(f->rets[i].align), f->name, -1);
	check_vars(f->vars, f->nvars, f->name);
	for (int i = 0; i < f->nvars; i++) {
		const struct ptx_var *v = &f->vars[i];
		if (v->space == PS_SHARED && !v->is_extern)
			REQUIRE(v->offset + v->size <= f->shared_static, f->name, -1);
		if (v->space == PS_LOCAL)
			REQUIRE(v->offset + v->size <= f->local_size, f->name, -1);
	}
	if (!f->code) { /* a declaration: no body */
		REQUIRE(f->ncode == 0, f->name, -1);
		return;
	}
	REQUIRE(f->ncode >= 1 && f->code[f->ncode - 1].op == OP_RET, f->name, -1);
	REQUIRE(f->first_special >= 0 && f->nslots == f->first_special + SR_COUNT, f->name, -1);
	REQUIRE(f->nconsts >= 0 && f->consts != NULL, f->name, -1);
	for (int i = 0; i < f->ncode; i++) {
		const struct ptx_insn *ins = &f->code[i];
		REQUIRE(ins->op > OP_INVALID && ins->op < OP_COUNT, f->name, i);
		REQUIRE(ins->nops <= PTX_MAX_OPS, f->name, i);
		REQUIRE(ins->type <= PT_F64 && ins->type2 <= PT_F64 && ins->type3 <= PT_F64, f->name, i);
		REQUIRE(ins->space <= PS_CONST && ins->rnd <= PR_RNA, f->name, i);
		REQUIRE(ins->vec == 1 || ins->vec == 2 || ins->vec == 4 || ins->vec == 8, f->name, i);
		REQUIRE(ins->guard == -1 || (ins->guard >= 0 && ins->guard < f->nslots), f->name, i);
		for (int k = 0; k < ins->nops; k++)
			check_operand(m, f, &ins->ops[k], i);
		for (int k = ins->nops; k < PTX_MAX_OPS; k++)
			REQUIRE(ins->ops[k].kind == PO_NONE, f->name, i);
		if (ins->op == OP_BRA)
			REQUIRE(ins->nops >= 1 && ins->ops[0].kind == PO_LABEL, f->name, i);
	}
}

static void check_module(const struct ptx_module *m)
{
	REQUIRE(m->name && m->text, "?", -1);
	REQUIRE(m->nfuncs >= 1 && m->nvars >= 0, "?", -1);
	check_vars(m->vars, m->nvars, "(module)");
	for (int i = 0; i < m->nvars; i++)
		if (m->vars[i].space != PS_SHARED)
			REQUIRE(m->vars[i].offset + m->vars[i].size <= m->global_size, "(module)", -1);
	for (int i = 0; i < m->nfuncs; i++)
		check_function(m, &m->funcs[i]);
	/* the lookup the simulator uses must find every function by its name */
	for (int i = 0; i < m->nfuncs; i++)
		REQUIRE(ptx_find_function(m, m->funcs[i].name) != NULL, m->funcs[i].name, -1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct gl_err err = {0};
	struct ptx_module *m = NULL;
	int rc = ptx_parse(text, NAME, &m, &err);
	if (rc == GL_OK) {
		if (!m)
			fail("ptx_parse returned GL_OK without a module", NULL, -1);
		check_module(m);
		ptx_module_free(m);
	} else {
		/* a clean refusal: usage status, a message naming the file, no module */
		if (rc != GL_EUSAGE || err.status != GL_EUSAGE || m != NULL ||
		    strncmp(err.msg, NAME ":", sizeof NAME) != 0) {
			fprintf(stderr, "fuzz_ptx: bad error: rc=%d status=%d msg=%s\n", rc, err.status, err.msg);
			abort();
		}
	}
	free(text);
	return 0;
}
