/* test_sim_regalloc.c — registers share slots only where their live ranges are disjoint (ptx_regalloc.c):
 * a straight line, a loop with a loop-carried register and one live across it, if/else, vector
 * operands, a .func call, a register read before it is written, a load from memory, a guarded write
 * and the operands of a collective.  A lazily parsed module shares its .funcs' slots at once and a
 * kernel's at its first launch (ptx_share_slots), with the slots the strict parse gives. */
#include <stdio.h>
#include <stdlib.h>

#include "sim/ptx.h"
#include "sim/ptx_ops.h"
#include "tests/unit/check.h"
#include "tests/unit/sim_fixture.h"

#define HEADER ".version 9.0\n.target sm_80\n.address_size 64\n"

/* PTX text -> module; a parse failure fails the test (sim_fixture.h). */
static struct ptx_module *parse_ok(const char *text)
{
	return fx_parse(text, "t.ptx");
}

/* The slot of operand k of instruction i (a register, or a vector element e when e >= 0). */
static int slot(const struct ptx_function *f, int i, int k, int e)
{
	const struct ptx_operand *o = &f->code[i].ops[k];
	return e >= 0 ? o->vec[e] : o->slot;
}

static void test_straight_line(void)
{
	struct ptx_module *m = parse_ok(HEADER ".entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
					"ld.param.u64 %rd1, [p];\n"     /* 0 */
					"mov.u32 %r1, 1;\n"             /* 1 */
					"add.s32 %r2, %r1, 2;\n"        /* 2: the last use of %r1 */
					"add.s32 %r3, %r2, 3;\n"        /* 3: the last use of %r2 */
					"st.global.u32 [%rd1], %r3;\n"  /* 4 */
					"ret;\n}\n");
	if (!m)
		return;
	const struct ptx_function *f = &m->funcs[0];
	CHECK_EQ(f->declared_regs, 6); /* %r<4> and %rd<2> */
	int rd1 = slot(f, 0, 0, -1), r1 = slot(f, 1, 0, -1), r2 = slot(f, 2, 0, -1), r3 = slot(f, 3, 0, -1);
	CHECK_EQ(slot(f, 2, 1, -1), r1);
	CHECK_EQ(slot(f, 4, 0, -1), rd1); /* the address register of [%rd1] */
	CHECK_EQ(r3, r1);   /* %r1 is dead when %r3 is born */
	CHECK(r2 != r1);    /* one instruction: source and destination never share */
	CHECK(r3 != r2);
	CHECK(rd1 != r1 && rd1 != r2);
	CHECK_EQ(f->first_special, 3);
	CHECK_EQ(f->nslots, 3 + SR_COUNT);
	ptx_module_free(m);
}

static void test_loop(void)
{
	struct ptx_module *m = parse_ok(HEADER ".entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<5>;\n"
					".reg .b64 %rd<2>;\n"
					"ld.param.u64 %rd1, [p];\n"       /* 0 */
					"mov.u32 %r1, 0;\n"               /* 1: i */
					"mov.u32 %r2, 0;\n"               /* 2: acc, carried around the loop */
					"L:\nadd.s32 %r2, %r2, %r1;\n"    /* 3 */
					"add.s32 %r1, %r1, 1;\n"          /* 4 */
					"setp.lt.u32 %p1, %r1, 10;\n"     /* 5 */
					"@%p1 bra L;\n"                   /* 6 */
					"mov.u32 %r3, 7;\n"               /* 7: %r1 and %p1 are dead here */
					"add.s32 %r4, %r3, %r2;\n"        /* 8 */
					"st.global.u32 [%rd1], %r4;\n"    /* 9 */
					"ret;\n}\n");
	if (!m)
		return;
	const struct ptx_function *f = &m->funcs[0];
	int rd1 = slot(f, 0, 0, -1), r1 = slot(f, 1, 0, -1), r2 = slot(f, 2, 0, -1), p1 = slot(f, 5, 0, -1);
	int r3 = slot(f, 7, 0, -1), r4 = slot(f, 8, 0, -1);
	CHECK_EQ(slot(f, 3, 0, -1), r2);
	CHECK_EQ(f->code[6].guard, p1);
	CHECK(r1 != r2); /* both live around the whole loop */
	CHECK(p1 != r1 && p1 != r2 && p1 != rd1);
	CHECK(rd1 != r1 && rd1 != r2 && rd1 != r3 && rd1 != r4); /* %rd1 is live across the loop */
	CHECK_EQ(r3, r1); /* after the loop: a predicate's or a counter's slot serves another register */
	CHECK_EQ(r4, p1);
	CHECK(r3 != r2);
	CHECK_EQ(f->first_special, 4);
	ptx_module_free(m);
}

static void test_if_else(void)
{
	struct ptx_module *m = parse_ok(HEADER ".entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
					".reg .b64 %rd<2>;\n"
					"ld.param.u64 %rd1, [p];\n"        /* 0 */
					"mov.u32 %r1, %tid.x;\n"           /* 1 */
					"setp.eq.u32 %p1, %r1, 0;\n"       /* 2 */
					"@%p1 bra ELSE;\n"                 /* 3 */
					"mov.u32 %r2, 1;\n"                /* 4 */
					"st.global.u32 [%rd1], %r2;\n"     /* 5 */
					"bra END;\n"                       /* 6 */
					"ELSE:\nmov.u32 %r3, 2;\n"         /* 7 */
					"st.global.u32 [%rd1], %r3;\n"     /* 8 */
					"END:\nst.global.u32 [%rd1+4], %r1;\n" /* 9: %r1 is live across both arms */
					"ret;\n}\n");
	if (!m)
		return;
	const struct ptx_function *f = &m->funcs[0];
	int rd1 = slot(f, 0, 0, -1), r1 = slot(f, 1, 0, -1), r2 = slot(f, 4, 0, -1), r3 = slot(f, 7, 0, -1);
	CHECK_EQ(slot(f, 9, 1, -1), r1);
	CHECK_EQ(r2, r3); /* the two arms never run one after the other */
	CHECK(r1 != r2 && r1 != r3);
	CHECK(rd1 != r2 && rd1 != r1);
	CHECK_EQ(f->first_special, 3); /* %rd1, %r1, and one slot for %p1, %r2 and %r3 */
	ptx_module_free(m);
}

static void test_vectors(void)
{
	struct ptx_module *m = parse_ok(HEADER ".entry k(.param .u64 p)\n{\n.reg .b32 %r<7>;\n.reg .b64 %rd<2>;\n"
					"ld.param.u64 %rd1, [p];\n"                          /* 0 */
					"mov.b64 {%r1, %r2}, %rd1;\n"                        /* 1 */
					"mov.b64 {%r3, %r4}, %rd1;\n"                        /* 2 */
					"add.s32 %r5, %r1, %r2;\n"                           /* 3 */
					"add.s32 %r6, %r3, %r4;\n"                           /* 4 */
					"st.global.v2.u32 [%rd1], {%r5, %r6};\n"             /* 5 */
					"ret;\n}\n");
	if (!m)
		return;
	const struct ptx_function *f = &m->funcs[0];
	int v[4] = {slot(f, 1, 0, 0), slot(f, 1, 0, 1), slot(f, 2, 0, 0), slot(f, 2, 0, 1)};
	for (int a = 0; a < 4; a++) /* all live at once */
		for (int b = a + 1; b < 4; b++)
			CHECK(v[a] != v[b]);
	int r5 = slot(f, 3, 0, -1), r6 = slot(f, 4, 0, -1);
	CHECK(r5 != v[2] && r5 != v[3] && r5 != v[0] && r5 != v[1]); /* %r3, %r4 still live */
	CHECK_EQ(r6, v[0]); /* %r1 is dead by then */
	CHECK_EQ(slot(f, 5, 1, 0), r5);
	CHECK_EQ(slot(f, 5, 1, 1), r6);
	CHECK_EQ(f->first_special, 6);
	ptx_module_free(m);
}

/* A load writes its destination in every lane, zero where the sanitizer refuses the access (sim_mem.c),
 * so a register loaded from memory shares slots like any other. */
static void test_load_from_memory(void)
{
	struct ptx_module *m = parse_ok(HEADER ".entry k(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n"
					"ld.param.u64 %rd1, [p];\n"        /* 0 */
					"ld.global.u32 %r1, [%rd1];\n"     /* 1 */
					"st.global.u32 [%rd1+4], %r1;\n"   /* 2 */
					"mov.u32 %r2, 5;\n"                /* 3 */
					"st.global.u32 [%rd1+8], %r2;\n"   /* 4 */
					"ret;\n}\n");
	if (!m)
		return;
	const struct ptx_function *f = &m->funcs[0];
	CHECK_EQ(slot(f, 3, 0, -1), slot(f, 1, 0, -1)); /* %r1 is dead when %r2 is born */
	CHECK_EQ(f->first_special, 2);
	CHECK_EQ(f->zero_slots, 0); /* nothing is read before it is written */
	ptx_module_free(m);
}

/* A kernel calling a .func, with a register live across the call. */
static const char *const call_text =
	HEADER ".func (.param .b32 ret) inc(.param .b32 a)\n{\n.reg .b32 %r<3>;\n"
	"ld.param.b32 %r1, [a];\nadd.s32 %r2, %r1, 1;\nst.param.b32 [ret], %r2;\nret;\n}\n"
	".entry k(.param .u64 p)\n{\n.reg .b32 %r<5>;\n.reg .b64 %rd<2>;\n"
	"ld.param.u64 %rd1, [p];\n"                 /* 0 */
	"mov.u32 %r1, 5;\n"                         /* 1 */
	"{\n.param .b32 a0;\n.param .b32 r0;\n"
	"st.param.b32 [a0], %r1;\n"                 /* 2 */
	"call (r0), inc, (a0);\n"                   /* 3 */
	"ld.param.b32 %r2, [r0];\n}\n"              /* 4 */
	"add.s32 %r3, %r2, %r1;\n"                  /* 5: %r1 is live across the call */
	"mov.u32 %r4, 1;\n"                         /* 6 */
	"add.s32 %r3, %r3, %r4;\n"                  /* 7 */
	"st.global.u32 [%rd1], %r3;\n"              /* 8 */
	"ret;\n}\n";

static void test_call(void)
{
	struct ptx_module *m = parse_ok(call_text);
	if (!m)
		return;
	const struct ptx_function *callee = &m->funcs[0], *f = &m->funcs[1];
	CHECK_EQ(callee->declared_regs, 3);
	CHECK_EQ(callee->first_special, 2);
	CHECK(slot(callee, 1, 0, -1) != slot(callee, 1, 1, -1));
	int r1 = slot(f, 1, 0, -1), r2 = slot(f, 4, 0, -1), r3 = slot(f, 5, 0, -1), r4 = slot(f, 6, 0, -1);
	CHECK_EQ(f->code[3].op, OP_CALL);
	CHECK(r1 != r2);
	CHECK(r3 != r1 && r3 != r2);
	CHECK_EQ(r4, r1); /* %r1 and %r2 are dead after instruction 5 */
	CHECK_EQ(f->first_special, 4);
	ptx_module_free(m);
}

/* Registers start at zero: one read before any write keeps its own slot, so it still reads zero. */
static void test_read_before_write(void)
{
	struct ptx_module *m = parse_ok(HEADER ".entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
					"ld.param.u64 %rd1, [p];\n"       /* 0 */
					"add.s32 %r2, %r1, 1;\n"          /* 1: %r1 is never written */
					"st.global.u32 [%rd1], %r2;\n"    /* 2 */
					"mov.u32 %r3, 4;\n"               /* 3 */
					"st.global.u32 [%rd1+4], %r3;\n"  /* 4 */
					"ret;\n}\n");
	if (!m)
		return;
	const struct ptx_function *f = &m->funcs[0];
	int r1 = slot(f, 1, 1, -1), r2 = slot(f, 1, 0, -1), r3 = slot(f, 3, 0, -1);
	CHECK(r3 != r1);
	CHECK_EQ(r3, r2);
	ptx_module_free(m);
}

/* A guarded write leaves the old value in lanes whose guard is false: it does not end a live range. */
static void test_guarded_write(void)
{
	struct ptx_module *m = parse_ok(HEADER ".entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
					".reg .b64 %rd<2>;\n"
					"ld.param.u64 %rd1, [p];\n"        /* 0 */
					"mov.u32 %r1, %tid.x;\n"           /* 1 */
					"setp.eq.u32 %p1, %r1, 0;\n"       /* 2 */
					"mov.u32 %r2, 1;\n"                /* 3 */
					"mov.u32 %r3, 3;\n"                /* 4 */
					"@%p1 mov.u32 %r2, 2;\n"           /* 5 */
					"st.global.u32 [%rd1], %r2;\n"     /* 6 */
					"st.global.u32 [%rd1+4], %r3;\n"   /* 7 */
					"ret;\n}\n");
	if (!m)
		return;
	const struct ptx_function *f = &m->funcs[0];
	int r2 = slot(f, 3, 0, -1), r3 = slot(f, 4, 0, -1);
	CHECK_EQ(slot(f, 5, 0, -1), r2);
	CHECK(r2 != r3);
	ptx_module_free(m);
}

/* A collective reads or writes all 32 lanes: its registers keep their own slots. */
static void test_collective(void)
{
	struct ptx_module *m = parse_ok(HEADER ".entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
					"ld.param.u64 %rd1, [p];\n"                        /* 0 */
					"mov.u32 %r1, %tid.x;\n"                           /* 1 */
					"shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;\n"        /* 2 */
					"st.global.u32 [%rd1], %r2;\n"                     /* 3 */
					"mov.u32 %r3, 3;\n"                                /* 4 */
					"st.global.u32 [%rd1+4], %r3;\n"                   /* 5 */
					"ret;\n}\n");
	if (!m)
		return;
	const struct ptx_function *f = &m->funcs[0];
	int rd1 = slot(f, 0, 0, -1), r1 = slot(f, 1, 0, -1), r2 = slot(f, 2, 0, -1), r3 = slot(f, 4, 0, -1);
	CHECK(r3 != r1 && r3 != r2 && r3 != rd1);
	CHECK_EQ(f->first_special, 4);
	ptx_module_free(m);
}

/* GPULAB_SIM_REGALLOC=0: one slot per declared register, as the parser numbers them. */
static void test_off(void)
{
	setenv("GPULAB_SIM_REGALLOC", "0", 1);
	struct ptx_module *m = parse_ok(HEADER ".entry k()\n{\n.reg .b32 %r<4>;\n"
					"mov.u32 %r1, 1;\nmov.u32 %r2, %r1;\nmov.u32 %r3, %r2;\nret;\n}\n");
	unsetenv("GPULAB_SIM_REGALLOC");
	if (!m)
		return;
	const struct ptx_function *f = &m->funcs[0];
	CHECK_EQ(f->first_special, 4);
	CHECK_EQ(slot(f, 2, 0, -1), 3);
	ptx_module_free(m);
}

/* Every operand's slot, the guard's and the slot counts of f equal g's. */
static void same_slots(const struct ptx_function *f, const struct ptx_function *g)
{
	CHECK_EQ(f->ncode, g->ncode);
	CHECK_EQ(f->nslots, g->nslots);
	CHECK_EQ(f->first_special, g->first_special);
	CHECK_EQ(f->zero_slots, g->zero_slots);
	for (int i = 0; i < f->ncode && i < g->ncode; i++) {
		CHECK_EQ(f->code[i].guard, g->code[i].guard);
		for (int k = 0; k < f->code[i].nops; k++) {
			CHECK_EQ(f->code[i].ops[k].slot, g->code[i].ops[k].slot);
			for (int e = 0; e < f->code[i].ops[k].nvec; e++)
				CHECK_EQ(f->code[i].ops[k].vec[e], g->code[i].ops[k].vec[e]);
		}
	}
}

static void test_lazy_sharing(void)
{
	struct ptx_module *strict = parse_ok(call_text), *lazy = NULL;
	struct gl_err err = {0};
	CHECK_EQ(ptx_parse_lazy(call_text, "t.ptx", &lazy, &err), GL_OK);
	if (!strict || !lazy)
		return;
	const struct ptx_function *callee = &lazy->funcs[0], *k = &lazy->funcs[1];
	CHECK(callee->slots_shared); /* any kernel may call it: shared at once */
	same_slots(callee, &strict->funcs[0]);
	CHECK(!k->slots_shared); /* one slot per declared register until its first launch */
	CHECK_EQ(k->first_special, 7);
	CHECK_EQ(k->declared_regs, 7);
	ptx_share_slots(k);
	CHECK(k->slots_shared);
	same_slots(k, &strict->funcs[1]);
	ptx_share_slots(k); /* once only */
	same_slots(k, &strict->funcs[1]);
	ptx_module_free(lazy);

	lazy = NULL; /* a launch shares them */
	CHECK_EQ(ptx_parse_lazy(call_text, "t.ptx", &lazy, &err), GL_OK);
	if (lazy) {
		struct gl_launch l = {0};
		fx_geometry(&l, "k", 1, 1, 32, 1);
		int32_t *out = fx_buffer(&l, "out", GL_I32, 1);
		struct gl_sim_result res;
		fx_run_clean(lazy, &l, &res);
		CHECK_EQ(out[0], 5 + 6 + 1); /* inc(5) + 5 + 1 */
		CHECK(lazy->funcs[1].slots_shared);
		same_slots(&lazy->funcs[1], &strict->funcs[1]);
		gl_sim_result_free(&res);
		gl_launch_free(&l);
		ptx_module_free(lazy);
	}
	ptx_module_free(strict);
}

int main(void)
{
	test_straight_line();
	test_loop();
	test_if_else();
	test_vectors();
	test_load_from_memory();
	test_call();
	test_read_before_write();
	test_guarded_write();
	test_collective();
	test_off();
	test_lazy_sharing();
	CHECK_DONE();
}
