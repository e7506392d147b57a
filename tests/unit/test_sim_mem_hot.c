/* test_sim_mem_hot.c — the hot forms of full-warp 4-byte ld/st (sim/sim_mem_hot.c), which keep what an
 * access's shape implies per instruction: an instruction whose shape stays the same while its start
 * moves must still be checked at every start.  A loop reads shared and global memory at base + 4 tid +
 * i * shift: with shift 2 every odd iteration is misaligned, with a large shift the later iterations
 * leave the allocation, and the loaded values, findings and counts must be the general path's.  Another
 * reads shared memory as a broadcast and a word per lane in turn at one instruction.  The 8-byte shared
 * form (a tree's 64-bit keys) runs the same loop, a broadcast, a stride and a racing store against its
 * twin of ld/st.v2.u32, which the general path takes: the same values, findings and counts. */
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

/* 8-byte shared accesses: pair j of the tile holds key(j) = j * 0x100000001 + 7; lane t of the loop reads
 * pair t + i * shift / 8 into out[256 i + t]; then a broadcast (pair t / 32 into out[1024 + t]), a stride of
 * two pairs (pair 2 t into out[1280 + t]), and a store racing with the next warp's reads (key(t + 32) to
 * pair t + 32 of the 256, the value it holds: warps run in turn, and the values stay those above).  LD/ST are the scalar u64 forms or their v2.u32 twins, on one line each, so that findings
 * name the same lines. */
#define PAIRS_PTX(LD, ST)                                                                                      \
	".version 8.0\n.target sm_80\n.address_size 64\n"                                                      \
	".visible .entry pairs(.param .u64 pout, .param .u32 shift)\n{\n"                                      \
	"\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<20>;\n\t.reg .pred %p<4>;\n"                                      \
	"\t.shared .align 8 .b8 tile[4096];\n"                                                                 \
	"\tld.param.u64 %rd1, [pout];\n\tld.param.u32 %r9, [shift];\n"                                          \
	"\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 3;\n\tmov.u32 %r3, tile;\n\tadd.u32 %r4, %r3, %r2;\n"       \
	"\tcvt.u64.u32 %rd2, %r1;\n\tmul.lo.u64 %rd3, %rd2, 4294967297;\n\tadd.u64 %rd3, %rd3, 7;\n"             \
	"\t" ST("[%r4]", "%rd3") "\n"                                                                          \
	"\tadd.u64 %rd4, %rd3, 1099511628032;\n"                                                               \
	"\t" ST("[%r4+2048]", "%rd4") "\n"                                                                     \
	"\tbar.sync 0;\n"                                                                                      \
	"\tcvt.u64.u32 %rd5, %r2;\n\tadd.u64 %rd6, %rd1, %rd5;\n\tmov.u32 %r10, 0;\n"                           \
	"$L_loop:\n"                                                                                           \
	"\tmul.lo.u32 %r11, %r10, %r9;\n\tadd.u32 %r12, %r4, %r11;\n"                                          \
	"\t" LD("%rd7", "[%r12]") "\n"                                                                         \
	"\tmul.wide.u32 %rd8, %r10, 2048;\n\tadd.u64 %rd9, %rd6, %rd8;\n\tst.global.u64 [%rd9], %rd7;\n"        \
	"\tadd.u32 %r10, %r10, 1;\n\tsetp.lt.u32 %p1, %r10, 4;\n\t@%p1 bra $L_loop;\n"                         \
	"\tshr.u32 %r13, %r1, 5;\n\tshl.b32 %r14, %r13, 3;\n\tadd.u32 %r15, %r3, %r14;\n"                       \
	"\t" LD("%rd10", "[%r15]") "\n"                                                                        \
	"\tst.global.u64 [%rd6+8192], %rd10;\n"                                                                \
	"\tshl.b32 %r16, %r1, 4;\n\tadd.u32 %r17, %r3, %r16;\n"                                                \
	"\t" LD("%rd11", "[%r17]") "\n"                                                                        \
	"\tst.global.u64 [%rd6+10240], %rd11;\n"                                                               \
	"\tadd.u32 %r18, %r1, 32;\n\tand.b32 %r18, %r18, 255;\n\tshl.b32 %r19, %r18, 3;\n\tadd.u32 %r20, %r3, %r19;\n" \
	"\tcvt.u64.u32 %rd12, %r18;\n\tmul.lo.u64 %rd12, %rd12, 4294967297;\n\tadd.u64 %rd12, %rd12, 7;\n"       \
	"\t" ST("[%r20]", "%rd12") "\n"                                                                        \
	"\tret;\n}\n"
#define LD_U64(d, a) "ld.shared.u64 " d ", " a ";"
#define ST_U64(a, v) "st.shared.u64 " a ", " v ";"
#define LD_V2(d, a) "ld.shared.v2.u32 {%r30, %r31}, " a "; mov.b64 " d ", {%r30, %r31};"
#define ST_V2(a, v) "mov.b64 {%r32, %r33}, " v "; st.shared.v2.u32 " a ", {%r32, %r33};"

static uint64_t key(unsigned j)
{
	return j * 0x100000001ull + 7;
}

static void run_pairs(const struct ptx_module *m, unsigned shift, int engine, struct gl_sim_result *res,
		      uint64_t *out)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "pairs", 1, 1, 256, 1);
	uint64_t *o = fx_buffer(&l, "out", GL_U64, 1536);
	gl_launch_arg_scalar(&l, shift, 4);
	struct gl_sim_opts opts = {.threads = 1, .engine = engine};
	CHECK_EQ(fx_run_opts(m, &l, res, &opts), GL_OK);
	memcpy(out, o, 1536 * sizeof *out);
	gl_launch_free(&l);
}

static void pairs(int engine)
{
	static const char scalar_ptx[] = PAIRS_PTX(LD_U64, ST_U64), twin_ptx[] = PAIRS_PTX(LD_V2, ST_V2);
	struct ptx_module *m = fx_parse(scalar_ptx, "pairs.ptx"), *twin = fx_parse(twin_ptx, "pairs_v2.ptx");
	static const unsigned shifts[] = {8, 4, 1024}; /* aligned; every odd iteration 4 bytes off; past the tile */
	for (size_t k = 0; m && twin && k < GL_ARRAY_LEN(shifts); k++) {
		static uint64_t out[1536], want[1536];
		struct gl_sim_result res, ref;
		run_pairs(m, shifts[k], engine, &res, out);
		run_pairs(twin, shifts[k], engine, &ref, want);
		CHECK_EQ(memcmp(out, want, sizeof out), 0);
		fx_same_result_findings(&res, &ref);
		static const char *const counts[] = {GL_M_SLD_INST, GL_M_SST_INST, GL_M_SLD_WF, GL_M_SST_WF,
						     GL_M_SLD_CONF, GL_M_SST_CONF};
		for (size_t c = 0; c < GL_ARRAY_LEN(counts); c++)
			CHECK_EQ(fx_metric(&res, counts[c]), fx_metric(&ref, counts[c]));
		CHECK_EQ(fx_metric(&res, GL_M_SLD_INST), 8 * 6);
		CHECK_EQ(fx_metric(&res, GL_M_SST_INST), 8 * 3);
		CHECK_EQ(count_of(&res, "race", "shared") > 0, true); /* the last store and the next warp's reads */
		if (shifts[k] == 8) {
			for (unsigned t = 0; t < 256; t++) {
				for (unsigned i = 0; i < 4; i++)
					CHECK_EQ(out[256 * i + t], key(t + i));
				CHECK_EQ(out[1024 + t], key(t / 32));
				CHECK_EQ(out[1280 + t], key(2 * t));
			}
			CHECK_EQ(count_of(&res, "misaligned", "shared"), 0);
		}
		if (shifts[k] == 4) /* iterations 1 and 3, every lane; the refused loads give 0 */
			CHECK_EQ(count_of(&res, "misaligned", "shared"), 2 * 256);
		if (shifts[k] == 1024) { /* iteration 3 reaches past 4096 bytes from t = 128 on */
			CHECK_EQ(count_of(&res, "out-of-bounds", "shared"), 128);
			CHECK_EQ(out[768 + 127], key(127 + 384));
			CHECK_EQ(out[768 + 128], 0u);
		}
		gl_sim_result_free(&res);
		gl_sim_result_free(&ref);
	}
	ptx_module_free(m);
	ptx_module_free(twin);
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
		pairs(engine);
	}
	ptx_module_free(m);
	CHECK_DONE();
}
