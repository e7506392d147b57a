/* fuzz_sim.c — libFuzzer harness for the simulator's interpreter (sim/sim_*.c).  The input bytes are
 * not PTX text: they choose the instructions of a small, well-formed kernel (addresses near 0, near the
 * end of each space and near 2^64, sizes, spaces, generic cvta, guard predicates, vector widths,
 * atomics, ldmatrix, cp.async, local and constant memory, barriers, branches) and its launch (grid,
 * block, buffer sizes, a raw 64-bit argument).  The kernel must parse, and the launch must either run
 * or be refused as a usage error; ASan/UBSan turn any host-memory access outside the simulator's own
 * allocations into a crash.  Set FUZZ_SIM_PRINT=1 to print each generated kernel.
 * Build and run: tests/fuzz/README.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/launch.h"
#include "common/util.h"
#include "sim/sim.h"

#define MAX_OPS 24
#define BUDGET 4000 /* warp instructions per CTA: loops end quickly */

struct bytes {
	const uint8_t *p;
	size_t n;
};

static unsigned take(struct bytes *b, unsigned bound)
{
	if (!b->n)
		return 0;
	b->n--;
	return *b->p++ % bound;
}

static uint64_t take64(struct bytes *b)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | take(b, 256);
	return v;
}

/* Addresses at the edges: 2^64 minus an access size, window starts and ends, the module data. */
static uint64_t edge_address(struct bytes *b)
{
	static const uint64_t edges[] = {
		0, 1, 4, 8, 15, 16, 0xfffffffffffffff0ull, 0xfffffffffffffff8ull, 0xfffffffffffffffcull,
		0xfffffffffffffffeull, 0xffffffffffffffffull, 0x8000000000000000ull, 0x7ffffffffffffffcull,
		PTX_SHARED_WINDOW, PTX_SHARED_WINDOW - 4, PTX_SHARED_WINDOW + PTX_WINDOW_SIZE - 4,
		PTX_LOCAL_WINDOW, PTX_LOCAL_WINDOW + PTX_WINDOW_SIZE - 8, PTX_PARAM_WINDOW, PTX_PARAM_WINDOW + 4088,
		PTX_MODULE_BASE, PTX_MODULE_BASE - 16, GL_SIM_GLOBAL_BASE, GL_SIM_GLOBAL_BASE - 4, 0xffffffffull,
		0x100000000ull,
	};
	unsigned k = take(b, sizeof edges / sizeof edges[0] + 1);
	return k < sizeof edges / sizeof edges[0] ? edges[k] : take64(b);
}

/* %rd4..%rd7: an address built from a base, a cvta, a per-lane stride and a constant offset. */
static void gen_address(struct gl_str *s, struct bytes *b, int a)
{
	static const char *bases[] = {"%rd0", "%rd1", "%rd2", "sm", "lc", "cbuf", "gvar", NULL};
	unsigned k = take(b, sizeof bases / sizeof bases[0]);
	if (bases[k])
		gl_str_addf(s, "\tmov.u64 %%rd%d, %s;\n", a, bases[k]);
	else
		gl_str_addf(s, "\tmov.u64 %%rd%d, %llu;\n", a, (unsigned long long)edge_address(b));
	static const char *cvta[] = {"cvta.shared.u64", "cvta.local.u64", "cvta.global.u64", "cvta.to.shared.u64",
				     "cvta.to.global.u64", "cvta.to.local.u64", "cvta.const.u64", "cvta.param.u64"};
	if (take(b, 3) == 0)
		gl_str_addf(s, "\t%s %%rd%d, %%rd%d;\n", cvta[take(b, 8)], a, a);
	if (take(b, 4) == 0) { /* lanes apart: some keep this address, the others take another register's */
		unsigned other = take(b, 8), p = take(b, 4);
		gl_str_addf(s, "\tselp.b64 %%rd%d, %%rd%d, %%rd%u, %%p%u;\n", a, a, other, p);
	}
	static const int strides[] = {0, 1, 2, 4, 8, 16, 32, -4, -16, 4096};
	int st = strides[take(b, 10)];
	if (st) {
		gl_str_addf(s, "\tmul.wide.s32 %%rd8, %%r%d, %d;\n", take(b, 2), st);
		gl_str_addf(s, "\tadd.s64 %%rd%d, %%rd%d, %%rd8;\n", a, a);
	}
	if (take(b, 2))
		gl_str_addf(s, "\tadd.s64 %%rd%d, %%rd%d, %lld;\n", a, a, (long long)(int64_t)edge_address(b));
}

static void gen_guard(struct gl_str *s, struct bytes *b)
{
	unsigned g = take(b, 6);
	if (g < 3)
		gl_str_addf(s, "\t@%s%%p%u ", take(b, 2) ? "" : "!", g);
	else
		gl_str_add(s, "\t");
}

static const char *space(struct bytes *b, bool store)
{
	static const char *ld[] = {"", ".global", ".shared", ".local", ".const", ".param"};
	return ld[take(b, store ? 4 : 6)];
}

/* [%rdA] or [%rdA+off] */
static void gen_operand(struct gl_str *s, struct bytes *b, int a)
{
	static const int offs[] = {0, 0, 4, 8, 16, -4, -16, 64};
	int off = offs[take(b, 8)];
	if (off)
		gl_str_addf(s, "[%%rd%d+%d]", a, off);
	else
		gl_str_addf(s, "[%%rd%d]", a);
}

static void gen_ld_st(struct gl_str *s, struct bytes *b, int a)
{
	bool store = take(b, 2);
	static const char *types[] = {"u8", "s8", "u16", "u32", "s32", "f32", "b32", "u64", "b64", "f64"};
	unsigned t = take(b, 10);
	bool wide = t >= 7;
	static const char *vecs[] = {"", "", ".v2", ".v4"};
	const char *v = vecs[take(b, wide ? 3 : 4)];
	gen_guard(s, b);
	gl_str_addf(s, "%s%s%s.%s ", store ? "st" : "ld", space(b, store), v, types[t]);
	char regs[64];
	const char *r = wide ? "rd1" : "r";
	int first = wide ? 10 : 4, n = v[0] ? v[2] - '0' : 1;
	if (n == 1)
		snprintf(regs, sizeof regs, "%%%s%d", wide ? "rd" : "r", first);
	else if (n == 2)
		snprintf(regs, sizeof regs, "{%%%s%d, %%%s%d}", r, wide ? 0 : first, r, wide ? 1 : first + 1);
	else
		snprintf(regs, sizeof regs, "{%%r%d, %%r%d, %%r%d, %%r%d}", first, first + 1, first + 2, first + 3);
	if (store) {
		gen_operand(s, b, a);
		gl_str_addf(s, ", %s;\n", regs);
	} else {
		gl_str_addf(s, "%s, ", regs);
		gen_operand(s, b, a);
		gl_str_add(s, ";\n");
	}
}

static void gen_atom(struct gl_str *s, struct bytes *b, int a)
{
	static const char *ops[] = {"add.u32", "add.u64", "exch.b32", "exch.b64", "min.s32", "max.u32", "and.b32",
				    "or.b64", "inc.u32", "dec.u32", "add.f32", "cas.b32", "cas.b64", "cas.b16",
				    "xor.b32", "add.f64"};
	static const char *spaces[] = {"", ".global", ".shared"};
	unsigned o = take(b, 16);
	const char *op = ops[o];
	bool wide = strstr(op, "64") != NULL, cas = strncmp(op, "cas", 3) == 0;
	bool red = !cas && take(b, 3) == 0;
	const char *sp = spaces[take(b, 3)];
	gen_guard(s, b);
	const char *x = wide ? "%rd10" : o == 13 ? "%rs0" : "%r4", *y = wide ? "%rd11" : o == 13 ? "%rs1" : "%r5";
	const char *d = wide ? "%rd12" : o == 13 ? "%rs2" : "%r6";
	if (red) {
		gl_str_addf(s, "red%s.%s ", sp, op);
		gen_operand(s, b, a);
		gl_str_addf(s, ", %s;\n", x);
	} else {
		gl_str_addf(s, "atom%s.%s %s, ", sp, op, d);
		gen_operand(s, b, a);
		if (cas)
			gl_str_addf(s, ", %s, %s;\n", x, y);
		else
			gl_str_addf(s, ", %s;\n", x);
	}
}

static void gen_ldmatrix(struct gl_str *s, struct bytes *b, int a)
{
	static const char *regs[] = {"{%r4}", "{%r4, %r5}", "", "{%r4, %r5, %r6, %r7}"};
	unsigned x = take(b, 3);
	x = x == 2 ? 4 : x + 1;
	if (take(b, 4) == 0) /* a partial warp is refused as unsupported, which ends the launch */
		gen_guard(s, b);
	else
		gl_str_add(s, "\t");
	bool trans = take(b, 2), shared = take(b, 4);
	gl_str_addf(s, "ldmatrix.sync.aligned.m8n8.x%u%s%s.b16 %s, [%%rd%d];\n", x, trans ? ".trans" : "",
		    shared ? ".shared" : "", regs[x - 1], a);
}

static void gen_cp_async(struct gl_str *s, struct bytes *b, int a)
{
	int src = 4 + (int)take(b, 4);
	static const unsigned sizes[] = {4, 8, 16};
	unsigned n = sizes[take(b, 3)];
	bool cg = n == 16 && take(b, 2);
	gen_guard(s, b);
	gl_str_addf(s, "cp.async.%s.shared.global [%%rd%d], [%%rd%d], %u", cg ? "cg" : "ca", a, src, n);
	if (take(b, 3) == 0)
		gl_str_addf(s, ", %%r%u", 8 + take(b, 2));
	gl_str_add(s, ";\n");
	static const char *after[] = {"", "cp.async.commit_group;", "cp.async.wait_group 0;", "cp.async.wait_all;"};
	unsigned k = take(b, 4);
	if (k)
		gl_str_addf(s, "\t%s\n", after[k]);
}

/* Data and predicate registers change so later guards and stored values vary. */
static void gen_alu(struct gl_str *s, struct bytes *b)
{
	/* one take() per statement: the order of a call's arguments is unspecified in C, and gcc and clang
	 * differ, so the same input would make different kernels in the replay and under libFuzzer */
	unsigned k = take(b, 8), x = take(b, 2), y = take(b, 3), z = take(b, 10), w = take(b, 40);
	switch (k) {
	case 0:
		gl_str_addf(s, "\tadd.u32 %%r%u, %%r%u, %u;\n", 4 + y + x, z, w);
		break;
	case 1:
		gl_str_addf(s, "\tsetp.%s.u32 %%p%u, %%r%u, %u;\n", x ? "lt" : "eq", y, z, w);
		break;
	case 2:
		gl_str_addf(s, "\tisspacep.%s %%p%u, %%rd%u;\n", x ? "shared" : "global", y, 4 + z % 4);
		break;
	case 3: /* barrier ids from registers and immediates, above 15 too; thread counts */
		if (w < 20)
			gl_str_add(s, "\tbar.sync 0;\n");
		else if (w < 25)
			gl_str_addf(s, "\tbar.sync %%r%u;\n", z);
		else if (w < 30)
			gl_str_addf(s, "\tbar.sync %u, %u;\n", z + 8 * x, 32 * (y + 1));
		else if (w < 34)
			gl_str_addf(s, "\tbar.red.popc.u32 %%r4, %%r%u, %%p%u;\n", z, y);
		else if (w < 37)
			gl_str_addf(s, "\tbar.red.%s.pred %%p%u, %u, %%p%u;\n", x ? "and" : "or", y, z + 8 * x, y);
		else
			gl_str_addf(s, "\tbar.arrive %u, 32;\n", z + 8 * x);
		break;
	case 4:
		gl_str_addf(s, "\t@%%p%u bra $L_end;\n", y);
		break;
	case 5: /* source lanes from registers */
		gl_str_addf(s, "\tshfl.sync.%s.b32 %%r%u, %%r%u, %%r%u, 31, -1;\n", x ? "idx" : y ? "bfly" : "down",
			    4 + y, 4 + z % 6, z);
		break;
	case 6:
		gl_str_addf(s, "\tvote.sync.ballot.b32 %%r%u, %%p%u, -1;\n", 4 + z % 6, y);
		break;
	default:
		gl_str_addf(s, "\tcvt.u16.u32 %%rs%u, %%r%u;\n", y, 4 + z % 6);
		break;
	}
}

/* The kernel text for the input; the launch's shape comes from the same bytes. */
static void gen_kernel(struct gl_str *s, struct bytes *b, unsigned smem, unsigned local, unsigned palign)
{
	gl_str_add(s, ".version 8.0\n.target sm_80\n.address_size 64\n"
		      ".const .align 16 .b8 cbuf[64] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
		      ".global .align 16 .b8 gvar[32];\n");
	/* a large .align can place p2 past the 4 KiB parameter buffer: the launch must be refused */
	gl_str_addf(s, ".visible .entry fz(.param .u64 p0, .param .u64 p1, .param .align %u .u64 p2)\n{\n", palign);
	gl_str_add(s, "\t.reg .pred %p<4>;\n\t.reg .b16 %rs<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n");
	gl_str_addf(s, "\t.shared .align 16 .b8 sm[%u];\n\t.local .align 16 .b8 lc[%u];\n", smem, local);
	gl_str_add(s, "\tmov.u32 %r0, %tid.x;\n\tmov.u32 %r1, %laneid;\n"
		      "\tld.param.u64 %rd0, [p0];\n\tld.param.u64 %rd1, [p1];\n\tld.param.u64 %rd2, [p2];\n"
		      "\tmov.u64 %rd4, %rd0;\n\tmov.u64 %rd5, %rd1;\n\tmov.u64 %rd6, sm;\n\tmov.u64 %rd7, lc;\n"
		      "\tmov.u64 %rd10, 1;\n\tmov.u64 %rd11, 2;\n\tmov.u64 %rd12, 3;\n"
		      "\tmov.u16 %rs0, 1;\n\tmov.u16 %rs1, 2;\n\tmov.u16 %rs2, 3;\n");
	gl_str_addf(s, "\tmov.u64 %%rd3, %llu;\n", (unsigned long long)edge_address(b));
	for (int r = 2; r < 16; r++)
		gl_str_addf(s, "\tadd.u32 %%r%d, %%r0, %d;\n", r, r);
	gl_str_addf(s, "\tsetp.lt.u32 %%p0, %%r1, %u;\n", take(b, 33));
	gl_str_addf(s, "\tsetp.eq.u32 %%p1, %%r0, %u;\n", take(b, 64));
	gl_str_add(s, "\tsetp.ne.u32 %p2, %r1, 0;\n\tsetp.eq.u32 %p3, %r1, 31;\n$L_top:\n");
	unsigned nops = 1 + take(b, MAX_OPS);
	for (unsigned i = 0; i < nops && b->n; i++) {
		int a = 4 + (int)take(b, 4);
		switch (take(b, 9)) {
		case 0: gen_address(s, b, a); break;
		case 1: case 2: gen_ld_st(s, b, a); break;
		case 3: gen_atom(s, b, a); break;
		case 4: gen_ldmatrix(s, b, a); break;
		case 5: gen_cp_async(s, b, a); break;
		case 6: gen_alu(s, b); break;
		case 7: gen_address(s, b, a); gen_ld_st(s, b, a); break;
		default:
			if (take(b, 8) == 0) /* a loop: the budget ends it */
				gl_str_addf(s, "\t@%%p%u bra $L_top;\n", take(b, 3));
			else
				gen_ld_st(s, b, a);
		}
	}
	gl_str_add(s, "$L_end:\n\tret;\n}\n");
}

static void fail(const char *what, const char *text)
{
	fprintf(stderr, "fuzz_sim: %s\n%s", what, text);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bytes b = {data, size};
	static const unsigned blocks[] = {32, 64, 96, 128, 32, 17, 33, 1};
	static const size_t counts[] = {64, 1, 3, 16, 256, 4096, 0, 8};
	unsigned grid = 1 + take(&b, 2);
	unsigned block = blocks[take(&b, 8)];
	unsigned smem = 16u << take(&b, 6);
	unsigned local = 8u << take(&b, 5);
	size_t n0 = counts[take(&b, 8)];
	size_t n1 = counts[take(&b, 8)];
	static const unsigned paligns[] = {8, 8, 8, 8, 8, 8, 2048, 4096};
	unsigned palign = paligns[take(&b, 8)];
	uint64_t raw = edge_address(&b);
	struct gl_str text = {0};
	gen_kernel(&text, &b, smem, local, palign);
	if (getenv("FUZZ_SIM_PRINT"))
		fputs(text.buf, stderr);

	struct gl_err err = {0};
	struct ptx_module *m = NULL;
	if (ptx_parse(text.buf, "fuzz_sim.ptx", &m, &err) != GL_OK) /* the generator writes valid PTX only */
		fail(err.msg, text.buf);
	struct gl_launch l = {0};
	l.entry = "fz";
	l.grid[0] = grid, l.grid[1] = l.grid[2] = 1;
	l.block[0] = block, l.block[1] = l.block[2] = 1;
	int ok = gl_launch_add_buffer(&l, "a", GL_U8, n0, 1) >= 0 &&
		 gl_launch_add_buffer(&l, "b", GL_U32, n1, 1) >= 0;
	if (!ok)
		fail("gl_launch_add_buffer failed", text.buf);
	gl_launch_arg_buffer(&l, 0);
	gl_launch_arg_buffer(&l, 1);
	gl_launch_arg_scalar(&l, raw, 8);
	struct gl_sim_opts o = {.threads = 1, .max_instructions = BUDGET, .trace = take(&b, 4) == 0};
	struct gl_sim_result res = {0};
	int rc = gl_sim_run(m, &l, &o, &res, &err);
	if (rc != GL_OK && rc != GL_EUSAGE)
		fail(err.msg, text.buf);
	for (int i = 0; rc == GL_OK && i < res.nfindings; i++)
		if (!res.findings[i].kind[0] || !res.findings[i].message[0])
			fail("a finding without a kind or message", text.buf);
	if (rc == GL_OK && getenv("FUZZ_SIM_PRINT"))
		fprintf(stderr, "ran %llu warp instructions, %ld findings%s\n", (unsigned long long)res.c.inst,
			res.findings_total, res.aborted ? ", aborted" : "");
	for (int i = 0; rc == GL_OK && getenv("FUZZ_SIM_PRINT") && i < res.nfindings; i++)
		fprintf(stderr, "  %s: %s\n", res.findings[i].kind, res.findings[i].message);
	if (rc == GL_OK)
		gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
	gl_str_free(&text);
	return 0;
}
