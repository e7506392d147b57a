/* test_sim_mem_halves.c — a hot shared load whose warp is neither at one word nor contiguous, but whose
 * half-warps each are (the rows of a 16-wide thread block) moves its data half by half
 * (sim/sim_mem_hot.c): thread t of 64 loads word (t/16)(A + D(t%16)) + B(t%16) + C of a tile holding
 * i at word i, so the loaded value is the word's index.  Halves at one word, contiguous, one of each,
 * the second half repeating the first, and a shape with neither must all load exactly, on both engines. */
#include "sim_fixture.h"

static const char ptx[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry halves(.param .u64 pout, .param .u32 pa, .param .u32 pb, .param .u32 pc, .param .u32 pd)\n{\n"
	"\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<2>;\n"
	"\t.shared .align 4 .b8 tile[4096];\n"
	"\tld.param.u64 %rd1, [pout];\n\tld.param.u32 %r20, [pa];\n\tld.param.u32 %r21, [pb];\n"
	"\tld.param.u32 %r22, [pc];\n\tld.param.u32 %r23, [pd];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r11, tile;\n\tmov.u32 %r24, %r1;\n"
	"$L_fill:\n" /* tile[i] = i for i = t, t + 64, ... < 1024 */
	"\tshl.b32 %r25, %r24, 2;\n\tadd.u32 %r26, %r11, %r25;\n\tst.shared.u32 [%r26], %r24;\n"
	"\tadd.u32 %r24, %r24, 64;\n\tsetp.lt.u32 %p1, %r24, 1024;\n\t@%p1 bra $L_fill;\n"
	"\tbar.sync 0;\n"
	"\tshr.u32 %r2, %r1, 4;\n\tand.b32 %r3, %r1, 15;\n"
	"\tmul.lo.u32 %r4, %r23, %r3;\n\tadd.u32 %r5, %r20, %r4;\n\tmul.lo.u32 %r6, %r2, %r5;\n"
	"\tmul.lo.u32 %r7, %r21, %r3;\n\tadd.u32 %r8, %r6, %r7;\n\tadd.u32 %r9, %r8, %r22;\n"
	"\tshl.b32 %r10, %r9, 2;\n\tadd.u32 %r12, %r11, %r10;\n"
	"\tld.shared.u32 %r13, [%r12];\n"
	"\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r13;\n"
	"\tret;\n}\n";

struct shape {
	const char *what;
	int32_t a, b, c, d;
};

static void check_shape(const struct ptx_module *m, const struct shape *s, int engine)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "halves", 1, 1, 64, 1);
	uint32_t *out = fx_buffer(&l, "out", GL_U32, 64);
	gl_launch_arg_scalar(&l, (uint32_t)s->a, 4);
	gl_launch_arg_scalar(&l, (uint32_t)s->b, 4);
	gl_launch_arg_scalar(&l, (uint32_t)s->c, 4);
	gl_launch_arg_scalar(&l, (uint32_t)s->d, 4);
	struct gl_sim_opts opts = {.threads = 1, .engine = engine};
	struct gl_sim_result res;
	CHECK_EQ(fx_run_opts(m, &l, &res, &opts), GL_OK);
	CHECK_EQ(res.findings_total, 0);
	int wrong = 0;
	for (int32_t t = 0; t < 64; t++) {
		uint32_t word = (uint32_t)((t / 16) * (s->a + s->d * (t % 16)) + s->b * (t % 16) + s->c);
		if (out[t] != word && wrong++ == 0)
			fprintf(stderr, "%s, engine %d: thread %d loaded %u, not word %u\n", s->what, engine, (int)t,
				out[t], word);
	}
	CHECK_EQ(wrong, 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

int main(void)
{
	static const struct shape shapes[] = {
		{"each half at one word", 40, 0, 3, 0},
		{"each half contiguous, apart", 100, 1, 5, 0},
		{"the second half repeating the first", 0, 1, 7, 0},
		{"one word, then contiguous", 50, 0, 2, 1},
		{"contiguous, then one word", 60, 1, 1, -1},
		{"strided: neither", 16, 3, 0, 0},
		{"the whole warp contiguous", 16, 1, 0, 0},
	};
	struct ptx_module *m = fx_parse(ptx, "halves.ptx");
	if (!m)
		CHECK_DONE();
	bool cc = fx_have_cc();
	for (int engine = GL_ENGINE_INTERP; engine <= GL_ENGINE_COMPILED; engine++) {
		if (engine == GL_ENGINE_COMPILED && !cc)
			continue;
		for (size_t i = 0; i < GL_ARRAY_LEN(shapes); i++)
			check_shape(m, &shapes[i], engine);
	}
	ptx_module_free(m);
	CHECK_DONE();
}
