/* test_sim_mem_token.c — the shape tokens of the compiled engine's shared accesses at a register
 * (sim/sim_jit_gen.c emit_mem_reg, sim/sim_mem_hot.c sim_mem_hot_reg_or_general): an access trusts the
 * token of its register, the class of the shape the register's lanes were last found to have, while
 * nothing wrote the register, and compares no lanes.  The kernel changes the shape of each base register
 * from one loop iteration to the next, so a token that outlived a write of its register, or one taken for
 * another class than the site's shape, loads the wrong words:
 *   A, B  two loads at one register (B trusts A's token; B's shape from the last iteration is the other one);
 *   C     a load after the register was written with the other shape (an inline instruction);
 *   X, D, E  D loads into its own base register a pointer of the other shape than X found, and E reads
 *         at it;
 *   F     a load of one shape for four iterations (one wavefront), then of another (two): the accesses
 *         a shape counted as hits go into the counters with its own counts when its slot takes the next one.
 * Values, every counter and the findings (a write at the end races with the loop's reads) must be the
 * interpreter's. */
#include "sim_fixture.h"

static const char ptx[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry tok(.param .u64 pout)\n{\n"
	"\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<12>;\n\t.reg .pred %p<4>;\n"
	"\t.shared .align 4 .b8 tile[4096];\n"
	"\tld.param.u64 %rd1, [pout];\n"
	"\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, tile;\n\tadd.u32 %r4, %r3, %r2;\n"
	/* words t and 256 + t hold their index; 512 + t a pointer to word t; 768 + t a pointer to word 0 */
	"\tst.shared.u32 [%r4], %r1;\n\tadd.u32 %r5, %r1, 256;\n\tst.shared.u32 [%r4+1024], %r5;\n"
	"\tst.shared.u32 [%r4+2048], %r4;\n\tst.shared.u32 [%r4+3072], %r3;\n"
	"\tbar.sync 0;\n"
	"\tcvt.u64.u32 %rd3, %r2;\n\tadd.u64 %rd5, %rd1, %rd3;\n\tmov.u32 %r10, 0;\n"
	"$L_loop:\n"
	"\tand.b32 %r11, %r10, 1;\n\txor.b32 %r12, %r11, 1;\n"
	"\tmul.lo.u32 %r13, %r2, %r12;\n\tadd.u32 %r14, %r3, %r13;\n" /* even: word t; odd: word 0 */
	"\tld.shared.u32 %r15, [%r14];\n"                                   /* A */
	"\tld.shared.u32 %r16, [%r14+4];\n"                                 /* B */
	"\tmul.lo.u32 %r17, %r2, %r11;\n\tadd.u32 %r14, %r3, %r17;\n"    /* the other shape */
	"\tld.shared.u32 %r18, [%r14+8];\n"                                 /* C */
	"\tshl.b32 %r19, %r11, 10;\n\tadd.u32 %r20, %r4, %r19;\n\tadd.u32 %r20, %r20, 2048;\n"
	"\tld.shared.u32 %r21, [%r20];\n"                                   /* X: a pointer */
	"\tld.shared.u32 %r20, [%r20];\n"                                   /* D: the same, into r20 */
	"\tld.shared.u32 %r22, [%r20+4];\n"                                 /* E */
	"\tsub.u32 %r21, %r21, %r3;\n"
	"\tshr.b32 %r24, %r10, 2;\n\tadd.u32 %r25, %r24, 1;\n\tmul.lo.u32 %r26, %r2, %r25;\n"
	"\tadd.u32 %r27, %r3, %r26;\n"
	"\tld.shared.u32 %r28, [%r27+4];\n"                                /* F: word t + 1, then 2 t + 1 */
	"\tst.global.u32 [%rd5], %r15;\n\tadd.u64 %rd5, %rd5, 1024;\n"
	"\tst.global.u32 [%rd5], %r16;\n\tadd.u64 %rd5, %rd5, 1024;\n"
	"\tst.global.u32 [%rd5], %r18;\n\tadd.u64 %rd5, %rd5, 1024;\n"
	"\tst.global.u32 [%rd5], %r21;\n\tadd.u64 %rd5, %rd5, 1024;\n"
	"\tst.global.u32 [%rd5], %r22;\n\tadd.u64 %rd5, %rd5, 1024;\n"
	"\tst.global.u32 [%rd5], %r28;\n\tadd.u64 %rd5, %rd5, 1024;\n"
	"\tadd.u32 %r10, %r10, 1;\n\tsetp.lt.u32 %p1, %r10, 6;\n\t@%p1 bra $L_loop;\n"
	"\tmov.u32 %r23, 1;\n\tst.shared.u32 [%r3+4], %r23;\n" /* word 1's own value: races with other warps' reads */
	"\tret;\n}\n";

enum { ITERS = 6, OUTS = 6, THREADS = 256 };

/* What thread t stores as value k of iteration i. */
static uint32_t expected(unsigned i, unsigned k, uint32_t t)
{
	bool odd = i & 1;
	switch (k) {
	case 0: return odd ? 0 : t;         /* A */
	case 1: return odd ? 1 : t + 1;     /* B */
	case 2: return odd ? t + 2 : 2;     /* C */
	case 3: return odd ? 0 : 4 * t;     /* X: the pointer, relative to the tile */
	case 4: return odd ? 1 : t + 1;     /* E */
	default: return i < 4 ? t + 1 : 2 * t + 1; /* F */
	}
}

static void run(const struct ptx_module *m, int engine, struct gl_sim_result *res, uint32_t *out)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "tok", 2, 1, THREADS, 1);
	uint32_t *o = fx_buffer(&l, "out", GL_U32, ITERS * OUTS * THREADS);
	struct gl_sim_opts opts = {.threads = 1, .engine = engine};
	CHECK_EQ(fx_run_opts(m, &l, res, &opts), GL_OK);
	memcpy(out, o, ITERS * OUTS * THREADS * sizeof *out);
	gl_launch_free(&l);
}

int main(void)
{
	struct ptx_module *m = fx_parse(ptx, "tok.ptx");
	if (!m)
		CHECK_DONE();
	if (!fx_have_cc()) { /* the tokens are the compiled engine's */
		ptx_module_free(m);
		return 77;
	}
	static uint32_t out_i[ITERS * OUTS * THREADS], out_c[ITERS * OUTS * THREADS];
	struct gl_sim_result ri, rc;
	run(m, GL_ENGINE_INTERP, &ri, out_i);
	run(m, GL_ENGINE_COMPILED, &rc, out_c);
	CHECK_EQ(rc.jit_ctas, 2);
	unsigned wrong_i = 0, wrong_c = 0;
	for (unsigned i = 0; i < ITERS; i++)
		for (unsigned k = 0; k < OUTS; k++)
			for (uint32_t t = 0; t < THREADS; t++) {
				size_t at = ((size_t)i * OUTS + k) * THREADS + t;
				wrong_i += out_i[at] != expected(i, k, t);
				wrong_c += out_c[at] != expected(i, k, t);
			}
	CHECK_EQ(wrong_i, 0);
	CHECK_EQ(wrong_c, 0);
	CHECK(memcmp(&ri.c, &rc.c, sizeof ri.c) == 0);
	/* 2 CTAs x 8 warps x 6 iterations x 7 loads */
	CHECK_EQ(fx_metric(&rc, "smsp__inst_executed_op_shared_ld.sum"), 2 * 8 * ITERS * 7);
	CHECK(fx_finding(&ri, "race") != NULL);
	CHECK_EQ(rc.nfindings, ri.nfindings);
	CHECK_EQ(rc.findings_total, ri.findings_total);
	for (int f = 0; f < ri.nfindings && f < rc.nfindings; f++) {
		CHECK(strcmp(ri.findings[f].kind, rc.findings[f].kind) == 0);
		CHECK_EQ(ri.findings[f].line, rc.findings[f].line);
		CHECK_EQ(ri.findings[f].count, rc.findings[f].count);
		CHECK(strcmp(ri.findings[f].message, rc.findings[f].message) == 0);
	}
	gl_sim_result_free(&ri);
	gl_sim_result_free(&rc);
	ptx_module_free(m);
	CHECK_DONE();
}
