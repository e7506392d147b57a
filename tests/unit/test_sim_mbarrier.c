/* test_sim_mbarrier.c — mbarrier objects (sim_mbarrier.c) step by step against the PTX ISA's rules, read
 * back as gpulab's encoding (sim_mbarrier_encode): init sets pending = expected; arrive returns the state
 * before it and completes the phase when the last arrival is in (the parity flips, pending reloads);
 * test_wait on a state and try_wait/test_wait with .parity; pending_count of a state; arrive_drop lowers
 * the expected count of later phases; expect_tx holds a phase open until complete_tx brings the
 * tx-count back to zero; arrive.expect_tx; inval; and the errors: arriving more than pending, a count
 * of 0 at init, and a use after inval. */
#include "tests/unit/sim_fixture.h"

#include "sim/sim_exec.h"

#define STEP(k, reg) "	st.global.u64 [%rd1+" #k "], " reg ";\n"
#define WORD(k) "	ld.shared.u64 %rd2, [bar];\n" STEP(k, "%rd2")
#define FLAG(k, p) "	selp.u64 %rd5, 1, 0, " p ";\n" STEP(k, "%rd5")

static const char *ptx =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry seq(.param .u64 out)\n"
	"{\n"
	"	.reg .pred %p<8>;\n	.reg .b32 %r<4>;\n	.reg .b64 %rd<12>;\n"
	"	.shared .align 8 .b64 bar;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	mbarrier.init.shared.b64 [bar], 3;\n" WORD(0)
	"	mbarrier.arrive.shared.b64 %rd3, [bar];\n" STEP(8, "%rd3")
	"	mbarrier.arrive.shared.b64 %rd4, [bar], 2;\n" WORD(16)
	"	mbarrier.test_wait.shared.b64 %p1, [bar], %rd3;\n" FLAG(24, "%p1")
	"	mbarrier.arrive.shared.b64 %rd6, [bar];\n"
	"	mbarrier.test_wait.shared.b64 %p2, [bar], %rd6;\n" FLAG(32, "%p2")
	"	mbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;\n" FLAG(40, "%p3")
	"	mbarrier.test_wait.parity.shared.b64 %p4, [bar], 1;\n" FLAG(48, "%p4")
	"	mbarrier.pending_count.b64 %r2, %rd6;\n"
	"	cvt.u64.u32 %rd7, %r2;\n" STEP(56, "%rd7")
	"	mbarrier.arrive_drop.shared.b64 %rd8, [bar];\n" WORD(64)
	"	mbarrier.expect_tx.shared.b64 [bar], 64;\n"
	"	mbarrier.arrive.shared.b64 %rd8, [bar];\n" WORD(72)
	"	mbarrier.test_wait.parity.shared.b64 %p5, [bar], 1;\n" FLAG(80, "%p5")
	"	mbarrier.complete_tx.shared.b64 [bar], 64;\n" WORD(88)
	"	mbarrier.test_wait.parity.shared.b64 %p6, [bar], 1;\n" FLAG(96, "%p6")
	"	mbarrier.arrive.expect_tx.shared.b64 %rd9, [bar], 16;\n" WORD(104)
	"	mbarrier.inval.shared.b64 [bar];\n" WORD(112)
	"	ret;\n"
	"}\n"
	".visible .entry too_many()\n"
	"{\n"
	"	.reg .b64 %rd<2>;\n"
	"	.shared .align 8 .b64 bar;\n"
	"	mbarrier.init.shared.b64 [bar], 2;\n"
	"	mbarrier.arrive.shared.b64 %rd1, [bar], 3;\n"
	"	ret;\n"
	"}\n"
	".visible .entry zero_count()\n"
	"{\n"
	"	.shared .align 8 .b64 bar;\n"
	"	mbarrier.init.shared.b64 [bar], 0;\n"
	"	ret;\n"
	"}\n"
	".visible .entry after_inval()\n"
	"{\n"
	"	.reg .b64 %rd<2>;\n"
	"	.shared .align 8 .b64 bar;\n"
	"	mbarrier.init.shared.b64 [bar], 1;\n"
	"	mbarrier.inval.shared.b64 [bar];\n"
	"	mbarrier.arrive.shared.b64 %rd1, [bar];\n"
	"	ret;\n"
	"}\n"
	/* 32 lanes arrive on an object that expects 32: one warp-wide arrive completes the phase, and
	 * every lane's returned state is the word before its own arrival (lanes act in lane order) */
	".visible .entry warp(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<3>;\n	.reg .b64 %rd<6>;\n	.reg .pred %p<2>;\n"
	"	.shared .align 8 .b64 bar;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	setp.eq.u32 %p1, %r1, 0;\n"
	"	@%p1 mbarrier.init.shared.b64 [bar], 32;\n"
	"	bar.sync 0;\n"
	"	mbarrier.arrive.shared.b64 %rd2, [bar];\n"
	"	mbarrier.pending_count.b64 %r2, %rd2;\n"
	"	cvt.u64.u32 %rd3, %r2;\n"
	"	mul.wide.u32 %rd4, %r1, 8;\n"
	"	add.s64 %rd5, %rd1, %rd4;\n"
	"	st.global.u64 [%rd5], %rd3;\n"
	"	ret;\n"
	"}\n";

static uint64_t invalid(uint64_t word)
{
	return word & ~(3ull << 61); /* inval clears the valid bits and keeps the rest */
}

static void test_sequence(struct ptx_module *m)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "seq", 1, 1, 1, 1);
	uint64_t *o = fx_buffer(&l, "out", GL_U64, 15);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	CHECK_EQ(o[0], sim_mbarrier_encode(3, 3, 0, false));  /* init */
	CHECK_EQ(o[1], sim_mbarrier_encode(3, 3, 0, false));  /* arrive returns the state before it */
	CHECK_EQ(o[2], sim_mbarrier_encode(3, 3, 0, true));   /* arrive 2 more: phase 0 completed */
	CHECK_EQ(o[3], 1);                                    /* test_wait on phase 0's state */
	CHECK_EQ(o[4], 0);                                    /* test_wait on phase 1's state */
	CHECK_EQ(o[5], 1);                                    /* try_wait.parity 0: phase 0 is over */
	CHECK_EQ(o[6], 0);                                    /* test_wait.parity 1: phase 1 is not */
	CHECK_EQ(o[7], 3);                                    /* pending_count of that arrive's state */
	CHECK_EQ(o[8], sim_mbarrier_encode(1, 2, 0, true));   /* arrive_drop: pending 2 -> 1, expected 3 -> 2 */
	CHECK_EQ(o[9], sim_mbarrier_encode(0, 2, 64, true));  /* all arrived, 64 bytes outstanding: open */
	CHECK_EQ(o[10], 0);
	CHECK_EQ(o[11], sim_mbarrier_encode(2, 2, 0, false)); /* complete_tx 64 ends phase 1 */
	CHECK_EQ(o[12], 1);
	CHECK_EQ(o[13], sim_mbarrier_encode(1, 2, 16, false)); /* arrive.expect_tx 16 */
	CHECK_EQ(o[14], invalid(sim_mbarrier_encode(1, 2, 16, false)));
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void expect_error(struct ptx_module *m, const char *entry, const char *text)
{
	struct gl_launch l = {0};
	fx_geometry(&l, entry, 1, 1, 1, 1);
	struct gl_sim_result res;
	CHECK_EQ(fx_run(m, &l, &res), GL_OK);
	CHECK(res.aborted);
	const struct gl_finding *f = fx_finding(&res, "mbarrier");
	CHECK(f && strstr(f->message, text));
	if (f && !strstr(f->message, text))
		fprintf(stderr, "%s: %s\n", entry, f->message);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_warp(struct ptx_module *m)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "warp", 1, 1, 32, 1);
	uint64_t *o = fx_buffer(&l, "out", GL_U64, 32);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	for (int t = 0; t < 32; t++)
		CHECK_EQ(o[t], 32 - t);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

int main(void)
{
	struct ptx_module *m = fx_parse(ptx, "mbarrier_unit.ptx");
	if (m) {
		test_sequence(m);
		test_warp(m);
		expect_error(m, "too_many", "more arrivals than the current phase has pending");
		expect_error(m, "zero_count", "the expected count must be in [1, 2^20-1]");
		expect_error(m, "after_inval", "not initialized (mbarrier.init) or was invalidated");
		ptx_module_free(m);
	}
	CHECK_DONE();
}
