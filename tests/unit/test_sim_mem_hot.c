/* test_sim_mem_hot.c — the hot forms of full-warp 4-byte ld/st (sim/sim_mem_hot.c), which keep what an
 * access's shape implies per instruction: an instruction whose shape stays the same while its start
 * moves must still be checked at every start.  A loop reads shared and global memory at base + 4 tid +
 * i * shift: with shift 2 every odd iteration is misaligned, with a large shift the later iterations
 * leave the allocation, and the loaded values, findings and counts must be the general path's.  Another
 * reads shared memory as a broadcast and a word per lane in turn at one instruction. */
#include "sim_fixture.h"

static const char ptx[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry hot(.param .u64 pin, .param .u64 pout, .param .u32 shift)\n{\n"
	"\t.reg .b32 %r<24>;\n\t.reg .b64 %rd<12>;\n\t.reg .pred %p<4>;\n"
	"\t.shared .align 4 .b8 tile[2048];\n"
	"\tld.param.u64 %rd1, [pin];\n\tld.param.u64 %rd2, [pout];\n\tld.param.u32 %r9, [shift];\n"
	"\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, tile;\n\tadd.u32 %r4, %r3, %r2;\n"
	"\tst.shared.u32 [%r4], %r1;\n\tadd.u32 %r5, %r1, 256;\n\tst.shared.u32 [%r4+1024], %r5;\n"
	"\tbar.sync 0;\n"
	"\tcvt.u64.u32 %rd3, %r2;\n\tadd.u64 %rd4, %rd1, %rd3;\n\tadd.u64 %rd5, %rd2, %rd3;\n"
	"\tmov.u32 %r10, 0;\n"
	"$L_loop:\n"
	"\tmul.lo.u32 %r11, %r10, %r9;\n\tadd.u32 %r12, %r4, %r11;\n"
	"\tld.shared.u32 %r13, [%r12];\n"
	"\tcvt.u64.u32 %rd6, %r11;\n\tadd.u64 %rd7, %rd4, %rd6;\n"
	"\tld.global.u32 %r14, [%rd7];\n"
	"\tadd.u32 %r15, %r13, %r14;\n"
	"\tmul.wide.u32 %rd8, %r10, 1024;\n\tadd.u64 %rd9, %rd5, %rd8;\n"
	"\tst.global.u32 [%rd9], %r15;\n"
	"\tadd.u32 %r10, %r10, 1;\n\tsetp.lt.u32 %p1, %r10, 4;\n\t@%p1 bra $L_loop;\n"
	"\tret;\n}\n";

/* 8 warps, in[k] = 1000 * k; out[256 i + t] = tile word + in word at shift i * `shift`. */
static void run(const struct ptx_module *m, unsigned shift, int engine, struct gl_sim_result *res, uint32_t *out)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "hot", 1, 1, 256, 1);
	uint32_t *in = fx_buffer(&l, "in", GL_U32, 1024);
	for (int k = 0; k < 1024; k++)
		in[k] = 1000u * (uint32_t)k;
	uint32_t *o = fx_buffer(&l, "out", GL_U32, 1024);
	gl_launch_arg_scalar(&l, shift, 4);
	struct gl_sim_opts opts = {.threads = 1, .engine = engine};
	CHECK_EQ(fx_run_opts(m, &l, res, &opts), GL_OK);
	memcpy(out, o, 1024 * sizeof *out);
	gl_launch_free(&l);
}

static long count_of(const struct gl_sim_result *res, const char *kind, const char *space)
{
	long n = 0;
	for (int i = 0; i < res->nfindings; i++)
		if (strcmp(res->findings[i].kind, kind) == 0 && strcmp(res->findings[i].space, space) == 0)
			n += (long)res->findings[i].count;
	return n;
}

static void aligned(const struct ptx_module *m, int engine)
{
	static uint32_t out[1024];
	struct gl_sim_result res;
	run(m, 4, engine, &res, out);
	CHECK_EQ(res.findings_total, 0);
	for (unsigned i = 0; i < 4; i++)
		for (unsigned t = 0; t < 256; t++)
			CHECK_EQ(out[256 * i + t], (t + i) + 1000 * (t + i));
	/* 8 warps x 4 iterations: one shared and one global load each, all conflict-free and coalesced */
	CHECK_EQ(fx_metric(&res, "smsp__inst_executed_op_shared_ld.sum"), 32);
	CHECK_EQ(fx_metric(&res, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 32);
	CHECK_EQ(fx_metric(&res, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 32);
	/* 4-byte misaligned starts (i * 4 bytes): 5 sectors but for i = 0 */
	CHECK_EQ(fx_metric(&res, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 8 * (4 + 5 * 3));
	/* and 2 lines but for i = 0; the L1 misses each sector of in[0..259) once; the waste (sim_spots.c)
	 * is the load's one sector beyond 4 at each misaligned start */
	CHECK_EQ(fx_metric(&res, GL_M_GLD_LINES), 8 * (1 + 2 * 3));
	CHECK_EQ(fx_metric(&res, GL_M_L1_MISS_SECT), (259 * 4 + 31) / 32);
	CHECK_EQ(res.spots[0].waste, 8 * 3);
	gl_sim_result_free(&res);
}

static void misaligned(const struct ptx_module *m, int engine)
{
	static uint32_t out[1024];
	struct gl_sim_result res;
	run(m, 2, engine, &res, out);
	/* iterations 1 and 3 start 2 and 6 bytes in: every lane of every warp, in both spaces */
	CHECK_EQ(count_of(&res, "misaligned", "shared"), 2 * 256);
	CHECK_EQ(count_of(&res, "misaligned", "global"), 2 * 256);
	CHECK_EQ(out[5], 5u + 5000u);
	CHECK_EQ(out[512 + 5], 6u + 6000u); /* iteration 2: 4 bytes in, aligned again */
	gl_sim_result_free(&res);
}

static void outside(const struct ptx_module *m, int engine)
{
	static uint32_t out[1024];
	struct gl_sim_result res;
	run(m, 1024, engine, &res, out);
	/* shared: iteration 1 reads words 256..511 of 512; 2 and 3 are past the 2048 bytes.  global: in has
	 * 1024 words, so iteration 3 (words 768..1023) is the last inside it, none past */
	CHECK_EQ(count_of(&res, "out-of-bounds", "shared"), 2 * 256);
	CHECK_EQ(count_of(&res, "out-of-bounds", "global"), 0);
	CHECK_EQ(out[256 + 7], 263u + 1000u * 263u);
	CHECK_EQ(out[768 + 7], 0u + 1000u * 775u); /* the refused shared load gives zero */
	gl_sim_result_free(&res);
}

/* One ld.shared whose lanes alternate between one word (a broadcast, checked without offsets) and a word
 * each: every change of shape must be seen, the loaded values being the general path's.  out[256 i + t]
 * = tile word t * (i & 1) = t for odd i, 0 for even. */
static const char switch_ptx[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry flip(.param .u64 pout)\n{\n"
	"\t.reg .b32 %r<24>;\n\t.reg .b64 %rd<12>;\n\t.reg .pred %p<4>;\n"
	"\t.shared .align 4 .b8 tile[1024];\n"
	"\tld.param.u64 %rd1, [pout];\n"
	"\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, tile;\n\tadd.u32 %r4, %r3, %r2;\n"
	"\tst.shared.u32 [%r4], %r1;\n\tbar.sync 0;\n"
	"\tcvt.u64.u32 %rd3, %r2;\n\tadd.u64 %rd5, %rd1, %rd3;\n\tmov.u32 %r10, 0;\n"
	"$L_loop:\n"
	"\tand.b32 %r11, %r10, 1;\n\tmul.lo.u32 %r12, %r2, %r11;\n\tadd.u32 %r13, %r3, %r12;\n"
	"\tld.shared.u32 %r14, [%r13];\n"
	"\tmul.wide.u32 %rd8, %r10, 1024;\n\tadd.u64 %rd9, %rd5, %rd8;\n\tst.global.u32 [%rd9], %r14;\n"
	"\tadd.u32 %r10, %r10, 1;\n\tsetp.lt.u32 %p1, %r10, 4;\n\t@%p1 bra $L_loop;\n"
	"\tret;\n}\n";

static void shape_switch(const struct ptx_module *m, int engine)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "flip", 1, 1, 256, 1);
	uint32_t *o = fx_buffer(&l, "out", GL_U32, 1024);
	struct gl_sim_opts opts = {.threads = 1, .engine = engine};
	struct gl_sim_result res;
	CHECK_EQ(fx_run_opts(m, &l, &res, &opts), GL_OK);
	CHECK_EQ(res.findings_total, 0);
	for (unsigned i = 0; i < 4; i++)
		for (unsigned t = 0; t < 256; t++)
			CHECK_EQ(o[256 * i + t], (i & 1 ? t : 0u));
	/* 8 warps x 4 loads, one wavefront each (a broadcast or 32 banks) */
	CHECK_EQ(fx_metric(&res, "smsp__inst_executed_op_shared_ld.sum"), 32);
	CHECK_EQ(fx_metric(&res, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 32);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

/* Global broadcasts (every lane at one word, the B operand of a naive GEMM): 8 warps x 4 loads of word
 * 5 j (j = 8 i + warp), whose touched sectors sim_mem_hot.c tests and marks itself; the footprint must
 * be the distinct sectors of those words, and out[t] the sum the general path would load. */
static const char bcast_ptx[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry bcast(.param .u64 pin, .param .u64 pout)\n{\n"
	"\t.reg .b32 %r<24>;\n\t.reg .b64 %rd<12>;\n\t.reg .pred %p<4>;\n"
	"\tld.param.u64 %rd1, [pin];\n\tld.param.u64 %rd2, [pout];\n"
	"\tmov.u32 %r1, %tid.x;\n\tshr.u32 %r2, %r1, 5;\n\tmov.u32 %r10, 0;\n\tmov.u32 %r20, 0;\n"
	"$L_loop:\n"
	"\tshl.b32 %r11, %r10, 3;\n\tadd.u32 %r12, %r11, %r2;\n\tmul.lo.u32 %r13, %r12, 20;\n"
	"\tcvt.u64.u32 %rd3, %r13;\n\tadd.u64 %rd4, %rd1, %rd3;\n\tld.global.u32 %r14, [%rd4];\n"
	"\tadd.u32 %r20, %r20, %r14;\n"
	"\tadd.u32 %r10, %r10, 1;\n\tsetp.lt.u32 %p1, %r10, 4;\n\t@%p1 bra $L_loop;\n"
	"\tshl.b32 %r15, %r1, 2;\n\tcvt.u64.u32 %rd5, %r15;\n\tadd.u64 %rd6, %rd2, %rd5;\n"
	"\tst.global.u32 [%rd6], %r20;\n"
	"\tret;\n}\n";

static void broadcasts(const struct ptx_module *m, int engine)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "bcast", 1, 1, 256, 1);
	uint32_t *in = fx_buffer(&l, "in", GL_U32, 1024);
	for (int k = 0; k < 1024; k++)
		in[k] = 3u * (uint32_t)k + 1;
	uint32_t *o = fx_buffer(&l, "out", GL_U32, 256);
	struct gl_sim_opts opts = {.threads = 1, .engine = engine};
	struct gl_sim_result res;
	CHECK_EQ(fx_run_opts(m, &l, &res, &opts), GL_OK);
	CHECK_EQ(res.findings_total, 0);
	for (unsigned t = 0; t < 256; t++) {
		uint32_t want = 0;
		for (unsigned i = 0; i < 4; i++)
			want += in[5 * (8 * i + t / 32)];
		CHECK_EQ(o[t], want);
	}
	long sectors = 0, last = -1; /* word 5 j is in sector 20 j / 32, which never decreases with j */
	for (long j = 0; j < 32; j++) {
		sectors += 20 * j / 32 != last;
		last = 20 * j / 32;
	}
	CHECK_EQ(sectors, 20);
	CHECK_EQ(fx_metric(&res, GL_M_UNIQ_LD_SECT), sectors);
	CHECK_EQ(fx_metric(&res, GL_M_UNIQ_ST_SECT), 256 * 4 / 32);
	CHECK_EQ(fx_metric(&res, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 32);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

int main(void)
{
	struct ptx_module *m = fx_parse(ptx, "hot.ptx");
	if (!m)
		CHECK_DONE();
	bool cc = fx_have_cc();
	for (int engine = GL_ENGINE_INTERP; engine <= GL_ENGINE_COMPILED; engine++) {
		if (engine == GL_ENGINE_COMPILED && !cc)
			continue;
		aligned(m, engine);
		misaligned(m, engine);
		outside(m, engine);
		struct ptx_module *flip = fx_parse(switch_ptx, "flip.ptx");
		CHECK(flip != NULL);
		if (flip)
			shape_switch(flip, engine);
		ptx_module_free(flip);
		struct ptx_module *bc = fx_parse(bcast_ptx, "bcast.ptx");
		CHECK(bc != NULL);
		if (bc)
			broadcasts(bc, engine);
		ptx_module_free(bc);
	}
	ptx_module_free(m);
	CHECK_DONE();
}
