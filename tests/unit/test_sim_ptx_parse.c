/* test_sim_ptx_parse.c — the PTX parser on its own: a valid module decodes into the expected functions,
 * instructions, parameters, slots and constants; every error names file:line:col; labels follow brace
 * scopes; and each input the fuzzer (tests/fuzz/) found is refused cleanly or parsed correctly. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx.h"
#include "sim/ptx_ops.h"
#include "tests/unit/check.h"

#define HEADER ".version 9.0\n.target sm_80\n.address_size 64\n"

static struct ptx_module *parse_ok(const char *text)
{
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	int rc = ptx_parse(text, "t.ptx", &m, &err);
	if (rc != GL_OK)
		fprintf(stderr, "unexpected parse error: %s\n", err.msg);
	CHECK_EQ(rc, GL_OK);
	return rc == GL_OK ? m : NULL;
}

/* The parse must fail with GL_EUSAGE and a message that starts with `prefix` ("t.ptx:LINE:COL: ..."). */
static void parse_fails(const char *text, const char *prefix, int line)
{
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	int rc = ptx_parse(text, "t.ptx", &m, &err);
	check_count++;
	if (rc != GL_EUSAGE || err.status != GL_EUSAGE || m != NULL || strncmp(err.msg, prefix, strlen(prefix)) != 0) {
		fprintf(stderr, "%s:%d: expected a parse error starting \"%s\", got rc=%d \"%s\"\n", __FILE__, line,
			prefix, rc, err.msg);
		check_failures++;
	}
	ptx_module_free(m);
}
#define PARSE_FAILS(text, prefix) parse_fails(text, prefix, __LINE__)

/* The value of a source slot that holds a constant. */
static uint64_t const_of(const struct ptx_function *f, int32_t slot)
{
	return slot >= f->nslots && slot < f->nslots + f->nconsts ? f->consts[slot - f->nslots] : 0xBADull;
}

static const char *saxpy = HEADER
	"// a comment line\n"
	".visible .entry saxpy(\n"
	"\t.param .u64 saxpy_param_0,\n"
	"\t.param .f32 saxpy_param_1,\n"
	"\t.param .u32 saxpy_param_2\n"
	")\n"
	"{\n"
	"\t.reg .pred %p<2>;\n"
	"\t.reg .f32 %f<3>;\n"
	"\t.reg .b32 %r<4>;\n"
	"\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [saxpy_param_0];\n"          /* 0 */
	"\tld.param.f32 %f1, [saxpy_param_1];\n"           /* 1 */
	"\tld.param.u32 %r1, [saxpy_param_2];\n"           /* 2 */
	"\tmov.u32 %r2, %tid.x;\n"                         /* 3 */
	"\tsetp.ge.u32 %p1, %r2, %r1;\n"                   /* 4 */
	"\t@%p1 bra $L__done;\n"                           /* 5 */
	"\tmul.wide.u32 %rd2, %r2, 4;\n"                   /* 6 */
	"\tadd.s64 %rd3, %rd1, %rd2;\n"                    /* 7 */
	"\tld.global.f32 %f2, [%rd3+-4];\n"                /* 8 */
	"\tfma.rn.f32 %f2, %f1, %f2, 0f3F800000;\n"        /* 9 */
	"\tst.global.f32 [%rd3], %f2;\n"                   /* 10 */
	"$L__done:\n"
	"\tret;\n"                                         /* 11 */
	"}\n"
	".func helper() { ret; }\n";

static void test_valid_kernel(void)
{
	struct ptx_module *m = parse_ok(saxpy);
	if (!m)
		return;
	CHECK_EQ(m->version_major, 9);
	CHECK_EQ(m->version_minor, 0);
	CHECK_EQ(m->target_sm, 80);
	CHECK_EQ(m->nfuncs, 2);
	const struct ptx_function *f = ptx_find_function(m, "saxpy");
	CHECK(f != NULL);
	CHECK(ptx_find_function(m, "helper") != NULL);
	CHECK(ptx_find_function(m, "nothere") == NULL);
	if (!f) {
		ptx_module_free(m);
		return;
	}
	CHECK(f->is_entry);
	CHECK(!m->funcs[1].is_entry);
	CHECK_EQ(f->ncode, 13); /* 12 instructions and the implicit ret */
	CHECK_EQ(m->funcs[1].ncode, 2);
	CHECK_EQ(f->nparams, 3);
	CHECK_EQ(f->params[0].offset, 0);
	CHECK_EQ(f->params[1].offset, 8);
	CHECK_EQ(f->params[2].offset, 12);
	CHECK_EQ(f->params[2].size, 4);
	CHECK_EQ(f->first_special, 2 + 3 + 4 + 4); /* %p<2> %f<3> %r<4> %rd<4> */
	CHECK_EQ(f->declared_regs, f->first_special);
	CHECK_EQ(f->nslots, f->first_special + SR_COUNT);
	CHECK_EQ(f->code[0].op, OP_LD);
	CHECK_EQ(f->code[0].space, PS_PARAM);
	CHECK_EQ(f->code[0].ops[1].kind, PO_MEM);
	CHECK_EQ(f->code[0].ops[1].slot, -1); /* a parameter: an absolute offset */
	CHECK_EQ(f->code[1].ops[1].offset, 8);
	CHECK_EQ(f->code[3].ops[1].slot, f->first_special + SR_TID_X);
	CHECK_EQ(f->code[4].op, OP_SETP);
	CHECK_EQ(f->code[4].sub, CMP_GE);
	CHECK_EQ(f->code[5].op, OP_BRA);
	CHECK_EQ(f->code[5].guard, 1); /* %p1: the second slot */
	CHECK_EQ(f->code[5].ops[0].kind, PO_LABEL);
	CHECK_EQ(f->code[5].ops[0].offset, 11);
	CHECK_EQ(f->code[6].mods & PM_WIDE, PM_WIDE);
	CHECK_EQ(const_of(f, f->code[6].ops[2].slot), 4);
	CHECK_EQ(f->code[8].ops[1].offset, -4);
	CHECK_EQ(f->code[9].op, OP_FMA);
	CHECK_EQ(f->code[9].rnd, PR_RN);
	CHECK_EQ(const_of(f, f->code[9].ops[3].slot), 0x3F800000);
	CHECK_EQ(f->code[8].line, 23);
	CHECK_EQ(f->code[12].op, OP_RET);
	ptx_module_free(m);
}

static void test_errors_name_line_col(void)
{
	const char *pre = HEADER ".visible .entry k()\n{\n.reg .b32 %r<3>;\n"; /* body starts on line 7 */
	char buf[512];
	snprintf(buf, sizeof buf, "%s\tfrobnicate.b32 %%r1, %%r2;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:2: unsupported instruction 'frobnicate.b32'");
	snprintf(buf, sizeof buf, "%s\tmov.u32 %%r1, %%r9;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:15: undeclared register '%r9'");
	snprintf(buf, sizeof buf, "%s\tmov.u32 %%rd1, 1;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:10: undeclared register '%rd1'");
	snprintf(buf, sizeof buf, "%s\tbra $L__nowhere;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:6: unknown label '$L__nowhere'");
	snprintf(buf, sizeof buf, "%s\tmov.u32 %%r1, 1;\n", pre);
	PARSE_FAILS(buf, "t.ptx:8:1: function 'k' is not closed with '}'");
	snprintf(buf, sizeof buf, "%s\tmov.u32 %%r1, 12abc;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:15: invalid integer '12abc'");
	snprintf(buf, sizeof buf, "%s\tmov.f32 %%r1, 1.5.5;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:15: invalid number '1.5.5'");
	snprintf(buf, sizeof buf, "%s\tmov.f32 %%r1, 0f3F80;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:15: invalid float literal '0f3F80'");
	snprintf(buf, sizeof buf, "%s\tmov.f64 %%r1, 0d3FF00000000000000;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:15: invalid float literal");
	snprintf(buf, sizeof buf, "%s\tmov.f32 %%r1, 0f3F80000G;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:15: invalid float literal");
	snprintf(buf, sizeof buf, "%s\tmov.u64 %%r1, 18446744073709551616;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:15: integer '18446744073709551616' does not fit in 64 bits");
	snprintf(buf, sizeof buf, "%s\tmov.u32 %%r1, - -5;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:17: expected a number after '-'");
	snprintf(buf, sizeof buf, "%s\tld.global.u32 %%r1, [nosuch];\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:22: unknown symbol 'nosuch'");
	snprintf(buf, sizeof buf, "%s\tadd.s32 %%r1, %%r2\n\tret;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:8:2: expected ',' but found 'ret'");
	snprintf(buf, sizeof buf, "%s\tld.global.zz.u32 %%r1, [%%r2];\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:2: unsupported modifier '.zz'");
	snprintf(buf, sizeof buf, "%s$L1:\n$L1:\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:8:1: duplicate label '$L1'");
	snprintf(buf, sizeof buf, "%s\tbra %%r1;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:2: 'bra' takes one label");
	snprintf(buf, sizeof buf, "%s\tbra;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:2: 'bra' takes one label");
	snprintf(buf, sizeof buf, "%s\tcall.uni nosuchfn;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:11: unknown function 'nosuchfn'");
	snprintf(buf, sizeof buf, "%s.reg .b32 %%r<5>;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:7:11: register '%r' is already declared in this scope");
	snprintf(buf, sizeof buf, "%s.reg .pred a;\n.reg .b32 a;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:8:11: register 'a' is already declared in this scope");
	snprintf(buf, sizeof buf, "%s.shared .b8 s[4];\n.shared .b8 s[8];\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:8:13: 's' is already declared in this scope");
	PARSE_FAILS(HEADER ".bogus 1;\n", "t.ptx:4:1: unexpected '.bogus' at module level");
	PARSE_FAILS(HEADER, "t.ptx: no .entry or .func in this PTX");
	PARSE_FAILS(".version 9.0\n.address_size 32\n.entry k() {}\n", "t.ptx:2:1: only .address_size 64");
	PARSE_FAILS(HEADER ".entry k(.param .u32 a\n{}\n", "t.ptx:5:1: expected ',' but found '{'");
	PARSE_FAILS(HEADER ".shared .u32 s = 1;\n.entry k() {}\n", "t.ptx:4:16: only .global and .const variables");
}

/* Labels belong to their brace block (and the blocks inside it), as ptxas scopes them: the same
 * inline-asm block pasted twice has two `L1`s, each branch going to its own. */
static void test_label_scopes(void)
{
	struct ptx_module *m = parse_ok(HEADER ".entry k(.param .u32 n)\n{\n"
					      ".reg .b32 %r<2>;\n"
					      "ld.param.u32 %r1, [n];\n"                    /* 0 */
					      "{ .reg .pred P;\nL1:\nsetp.eq.u32 P, %r1, 0;\n" /* 1 */
					      "@P bra L1;\nbra OUT;\n}\n"                   /* 2, 3 */
					      "{ .reg .pred P;\nL1:\nsetp.eq.u32 P, %r1, 1;\n" /* 4 */
					      "@P bra L1;\n}\n"                             /* 5 */
					      "OUT:\nret;\n}\n");                           /* 6 */
	if (m) {
		const struct ptx_function *f = &m->funcs[0];
		CHECK_EQ(f->code[2].ops[0].offset, 1);
		CHECK_EQ(f->code[3].ops[0].offset, 6); /* a label of an enclosing block, defined later */
		CHECK_EQ(f->code[5].ops[0].offset, 4);
		ptx_module_free(m);
	}
	/* a label inside a block is not visible outside it */
	PARSE_FAILS(HEADER ".entry k()\n{\nbra IN;\n{\nIN:\nret;\n}\n}\n", "t.ptx:6:5: unknown label 'IN'");
	/* registers and function variables leave scope with their block */
	PARSE_FAILS(HEADER ".entry k()\n{\n{ .reg .b32 t; }\nmov.u32 t, 1;\n}\n", "t.ptx:7:9: unknown symbol 't'");
	m = parse_ok(HEADER ".entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd1;\n"
			    "{ .reg .b32 %r<2>; mov.u32 %r1, 5; mov.u32 %r2, 6; }\n" /* %r2: the outer range */
			    "{ .param .b64 p; st.param.b64 [p], %rd1; }\n"
			    "{ .param .b64 p; st.param.b64 [p], %rd1; }\n"
			    "}\n");
	if (m) {
		const struct ptx_function *f = &m->funcs[0];
		CHECK_EQ(f->code[0].ops[0].slot, 5); /* inner %r1: %r<3> and %rd1 come first */
		CHECK_EQ(f->code[1].ops[0].slot, 2); /* outer %r2 */
		CHECK_EQ(f->nvars, 2);
		CHECK_EQ(f->code[2].ops[0].offset, (int64_t)f->vars[0].offset);
		CHECK_EQ(f->code[3].ops[0].offset, (int64_t)f->vars[1].offset); /* each block its own p */
		CHECK(f->vars[0].offset != f->vars[1].offset);
		ptx_module_free(m);
	}
}

static void test_immediates_and_globals(void)
{
	struct ptx_module *m = parse_ok(HEADER
		".global .align 4 .b8 g_bytes[6] = {1, 2, 255, -1, 0x10, 010};\n"
		".global .align 8 .f64 g_d = 0d400921FB54442D18;\n"
		".const .align 4 .u32 c_tab[2][2] = {{1, 2}, {3, 4}};\n"
		".global .align 4 .u32 g_inferred[] = {7, 8, 9};\n"
		".global .align 16 .b128 g_wide = 5;\n"
		".extern .shared .align 16 .b8 dyn[];\n"
		".entry k()\n{\n.reg .b64 %rd<8>;\n.reg .f32 %f1;\n.reg .f64 %fd1;\n"
		"mov.b64 %rd1, -9223372036854775808;\n"
		"mov.b64 %rd2, 18446744073709551615;\n"
		"mov.b64 %rd3, -0x10;\n"
		"mov.f32 %f1, -0f3F800000;\n"
		"mov.f32 %f1, 1.5;\n"
		"mov.f64 %fd1, -2.5e-1;\n"
		"mov.b64 %rd4, 0b101;\n"
		"mov.u64 %rd5, g_inferred;\n"
		"mov.u64 %rd6, dyn;\n"
		"}\n");
	if (!m)
		return;
	CHECK_EQ(m->nvars, 6);
	CHECK_EQ(m->vars[0].size, 6);
	CHECK_EQ(m->vars[0].init[2], 255);
	CHECK_EQ(m->vars[0].init[3], 255);
	CHECK_EQ(m->vars[0].init[4], 16);
	CHECK_EQ(m->vars[0].init[5], 8);
	uint64_t d;
	memcpy(&d, m->vars[1].init, 8);
	CHECK_EQ(d, 0x400921FB54442D18ull);
	CHECK_EQ(m->vars[2].size, 16);
	CHECK_EQ(m->vars[2].init[12], 4);
	CHECK_EQ(m->vars[3].size, 12); /* sized by its initializer */
	CHECK(!m->vars[3].is_extern);
	CHECK_EQ(m->vars[3].init[8], 9);
	CHECK_EQ(m->vars[4].size, 16);
	CHECK_EQ(m->vars[4].init[0], 5);
	CHECK_EQ(m->vars[4].init[15], 0);
	CHECK(m->vars[5].is_extern);
	CHECK(m->global_size >= m->vars[4].offset + 16);
	const struct ptx_function *f = &m->funcs[0];
	CHECK_EQ(const_of(f, f->code[0].ops[1].slot), 0x8000000000000000ull);
	CHECK_EQ(const_of(f, f->code[1].ops[1].slot), UINT64_MAX);
	CHECK_EQ(const_of(f, f->code[2].ops[1].slot), (uint64_t)-16);
	CHECK_EQ(const_of(f, f->code[3].ops[1].slot), 0xBF800000u);
	CHECK_EQ(const_of(f, f->code[4].ops[1].slot), 0x3FC00000u); /* 1.5 as f32 */
	double v;
	uint64_t bits = const_of(f, f->code[5].ops[1].slot);
	memcpy(&v, &bits, 8);
	CHECK_NEAR(v, -0.25, 0);
	CHECK_EQ(const_of(f, f->code[6].ops[1].slot), 5);
	CHECK_EQ(const_of(f, f->code[7].ops[1].slot), PTX_MODULE_BASE + m->vars[3].offset);
	ptx_module_free(m);
}

/* Inputs from fuzzing and from declared sizes: each is refused with a message, none crashes, none
 * allocates what it declares. */
static void test_fuzz_regressions(void)
{
	/* UBSan: negating INT64_MIN (the literal now wraps as two's complement, as ptxas reads it) */
	struct ptx_module *m = parse_ok(HEADER ".entry k()\n{\n.reg .b64 %rd<3>;\n"
					      "mov.b64 %rd2, -9223372036854775808;\nld.global.u64 %rd1, "
					      "[%rd2+-9223372036854775808];\n}\n");
	if (m) {
		CHECK_EQ(m->funcs[0].code[1].ops[1].offset, INT64_MIN);
		ptx_module_free(m);
	}
	/* address offsets that overflow int64 wrap instead of overflowing */
	m = parse_ok(HEADER ".global .u32 g[4];\n.entry k()\n{\n.reg .b32 %r1;\n"
			    "ld.global.u32 %r1, [g+9223372036854775807+9223372036854775807];\n}\n");
	ptx_module_free(m);
	/* .b128 initializers: no shift by 64 or more */
	m = parse_ok(HEADER ".global .b128 w[2] = {1, -1};\n.entry k() {}\n");
	if (m) {
		CHECK_EQ(m->vars[0].init[16], 255);
		CHECK_EQ(m->vars[0].init[31], 0);
		ptx_module_free(m);
	}
	PARSE_FAILS(HEADER ".entry k()\n{\n.reg .b32 %r<1000000000>;\n}\n", "t.ptx:6:14: register count 1000000000 out of range");
	PARSE_FAILS(HEADER ".global .b8 x[4294967295] = {1};\n.entry k() {}\n",
		    "t.ptx:4:13: 'x' is larger than 268435456 bytes of module data");
	PARSE_FAILS(HEADER ".global .b8 x[200000000];\n.global .b8 y[200000000];\n.entry k() {}\n",
		    "t.ptx:5:13: module .global/.const data exceeds");
	PARSE_FAILS(HEADER ".global .b8 x[4294967296][4294967296];\n.entry k() {}\n", "t.ptx:4:27: array too large");
	PARSE_FAILS(HEADER ".global .b8 x[-1];\n.entry k() {}\n", "t.ptx:4:15: array size -1 out of range");
	PARSE_FAILS(HEADER ".entry k()\n{\n.local .b8 x[4294967295];\n}\n",
		    "t.ptx:4:1: function 'k' needs 4294967296 bytes of local memory");
	/* shared memory as large as declared parses; the launch refuses it (more than a CTA has) */
	m = parse_ok(HEADER ".entry k()\n{\n.shared .b8 x[4294967295];\n}\n");
	if (m) {
		CHECK(m->funcs[0].shared_static >= 4294967295ull);
		ptx_module_free(m);
	}
	PARSE_FAILS(HEADER ".entry k(.param .b8 p[4097]) {}\n", "t.ptx:4:21: parameter 'p' takes more than 4096 bytes");
	m = parse_ok(".version 99999999999999999999.99999999999\n.target sm_99999999999\n.address_size 64\n.entry k() {}\n");
	if (m) { /* saturated, not overflowed */
		CHECK_EQ(m->version_major, 1000000);
		CHECK_EQ(m->version_minor, 1000000);
		CHECK_EQ(m->target_sm, 1000000);
		ptx_module_free(m);
	}
	/* deep nesting is iterative: 100000 braces parse */
	size_t n = 100000;
	char *deep = malloc(2 * n + 64);
	strcpy(deep, HEADER ".entry k()\n");
	size_t at = strlen(deep);
	memset(deep + at, '{', n);
	memset(deep + at + n, '}', n);
	deep[at + 2 * n] = '\0';
	m = parse_ok(deep);
	ptx_module_free(m);
	deep[at + 2 * n - 1] = '\0'; /* one brace short */
	PARSE_FAILS(deep, "t.ptx:5:");
	free(deep);
}

/* Pathological but plausible sizes parse in linear time (each of these took seconds when lookups
 * were linear scans); the CTest timeout catches a regression. */
static void test_large_inputs(void)
{
	size_t cap = 8u << 20, len = 0;
	char *s = malloc(cap);
	len += (size_t)snprintf(s + len, cap - len, HEADER);
	for (int i = 0; i < 10000; i++)
		len += (size_t)snprintf(s + len, cap - len, ".global .align 4 .u32 g%d = %d;\n", i, i);
	len += (size_t)snprintf(s + len, cap - len, ".entry k()\n{\n.reg .pred %%p1;\n.reg .b32 %%r1;\n");
	for (int i = 0; i < 10000; i++)
		len += (size_t)snprintf(s + len, cap - len, ".reg .b32 %%v%d;\n", i);
	for (int i = 0; i < 20000; i++)
		len += (size_t)snprintf(s + len, cap - len, "$L%d:\n@%%p1 bra $L%d;\nld.global.u32 %%v%d, [g%d];\n", i,
					(i * 7919) % 20000, (i * 31) % 10000, (i * 17) % 10000);
	for (int i = 0; i < 60000; i++)
		len += (size_t)snprintf(s + len, cap - len, "add.s32 %%v%d, %%v%d, %d;\n", i % 10000, (i * 13) % 10000, i);
	snprintf(s + len, cap - len, "}\n");
	struct ptx_module *m = parse_ok(s);
	if (m) {
		const struct ptx_function *f = &m->funcs[0];
		CHECK_EQ(f->ncode, 2 * 20000 + 60000 + 1);
		CHECK_EQ(f->code[2].ops[0].offset, 2 * ((1 * 7919) % 20000));
		ptx_module_free(m);
	}
	free(s);
}

/* Operand shapes are checked once, so execution never writes a constant or reads the sink. */
static void test_operand_validation(void)
{
	const char *pre = HEADER ".visible .entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n"; /* body: line 8 */
	char buf[512];
	snprintf(buf, sizeof buf, "%s\tmov.u32 5, %%r1;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:8: 'mov' needs a register (or _) as its destination");
	snprintf(buf, sizeof buf, "%s\tmov.u32 %%tid.x, %%r1;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:8: 'mov' needs a register (or _) as its destination");
	snprintf(buf, sizeof buf, "%s\tadd.s32 %%r1, _, %%r2;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:8: 'add' cannot read the sink '_'");
	snprintf(buf, sizeof buf, "%s\tld.global.u32 %%r1, %%rd1;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:8: 'ld' expects an [address] operand there");
	snprintf(buf, sizeof buf, "%s\tadd.s32 %%r1, [%%rd1], %%r2;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:8: 'add' takes an [address] only where it reads or writes memory");
	snprintf(buf, sizeof buf, "%s\tfma.rn.f32 %%r1, %%r2;\n}\n", pre);
	PARSE_FAILS(buf, "t.ptx:8: 'fma' needs at least 4 operands, has 2");
}

/* Which callee is the CUDA runtime's vprintf or __assertfail is decided once, from the declarations: the
 * .extern declaration with the CUDA prototype and no body anywhere in the module.  A function of the
 * module named vprintf (issue 27: a user's `.func vprintf()` crashed the simulator) is ordinary. */
static const struct ptx_function *only(const struct ptx_module *m, const char *name)
{
	return m ? ptx_find_function(m, name) : NULL;
}

static void test_builtins(void)
{
	static const char head[] = ".version 8.0\n.target sm_80\n.address_size 64\n";
	static const char kernel[] = ".visible .entry k() { ret; }\n";
	char text[1024];
	snprintf(text, sizeof text, "%s.extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n"
		 ".extern .func __assertfail(.param .b64 a, .param .b64 b, .param .b32 c, .param .b64 d, .param .b64 e);\n"
		 "%s", head, kernel);
	struct ptx_module *m = parse_ok(text);
	CHECK(only(m, "vprintf") && only(m, "vprintf")->builtin == PTX_BUILTIN_VPRINTF);
	CHECK(only(m, "__assertfail") && only(m, "__assertfail")->builtin == PTX_BUILTIN_ASSERTFAIL);
	CHECK(only(m, "k") && only(m, "k")->builtin == PTX_BUILTIN_NONE);
	ptx_module_free(m);
	/* a definition named vprintf, with or without an .extern declaration before it: ordinary */
	snprintf(text, sizeof text, "%s.func vprintf() { ret; }\n%s", head, kernel);
	m = parse_ok(text);
	CHECK(only(m, "vprintf") && only(m, "vprintf")->builtin == PTX_BUILTIN_NONE);
	ptx_module_free(m);
	snprintf(text, sizeof text, "%s.extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n"
		 ".func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b) { ret; }\n%s", head, kernel);
	m = parse_ok(text);
	for (int i = 0; m && i < m->nfuncs; i++)
		CHECK(m->funcs[i].builtin == PTX_BUILTIN_NONE);
	ptx_module_free(m);
	/* .extern with another prototype: not CUDA's vprintf, so an ordinary function without a body */
	snprintf(text, sizeof text, "%s.extern .func vprintf(.param .b64 a);\n"
		 ".extern .func (.param .b64 r) __assertfail(.param .b64 a);\n%s", head, kernel);
	m = parse_ok(text);
	CHECK(only(m, "vprintf") && only(m, "vprintf")->builtin == PTX_BUILTIN_NONE);
	CHECK(only(m, "__assertfail") && only(m, "__assertfail")->builtin == PTX_BUILTIN_NONE);
	ptx_module_free(m);
	/* not .extern: a declaration of a function the module should define */
	snprintf(text, sizeof text, "%s.func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n%s", head, kernel);
	m = parse_ok(text);
	CHECK(only(m, "vprintf") && only(m, "vprintf")->builtin == PTX_BUILTIN_NONE);
	ptx_module_free(m);
}

int main(void)
{
	/* the slots asserted here are the parser's numbering of the declared registers; how they come to
	 * share slots afterwards is test_sim_regalloc's subject */
	setenv("GPULAB_SIM_REGALLOC", "0", 1);
	test_valid_kernel();
	test_operand_validation();
	test_errors_name_line_col();
	test_label_scopes();
	test_immediates_and_globals();
	test_fuzz_regressions();
	test_large_inputs();
	test_builtins();
	CHECK_DONE();
}
