/* test_sim_run.c — the simulator end to end on hand-written PTX: divergence and reconvergence,
 * barriers, and each sanitizer finding (out-of-bounds, misaligned, races, barrier divergence,
 * uninitialised shared reads, the instruction budget), plus thread-count independence. */
#include <stdlib.h>

#include "sim/sim.h"
#include "tests/unit/check.h"

#define HEADER ".version 9.0\n.target sm_80\n.address_size 64\n"

/* out[tid] = tid < 16 ? 1 : 2, through a divergent if/else that reconverges before the store. */
static const char *divergent = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [k_out];\n"
	"mov.u32 %r1, %tid.x;\n"
	"setp.lt.u32 %p1, %r1, 16;\n"
	"@%p1 bra $THEN;\n"
	"mov.u32 %r2, 2;\n"
	"bra.uni $JOIN;\n"
	"$THEN:\n"
	"mov.u32 %r2, 1;\n"
	"$JOIN:\n"
	"mul.wide.u32 %rd2, %r1, 4;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r2;\n"
	"ret;\n}\n";

/* One kernel per finding; each takes (u64 out) and runs with 64 threads. */
static const char *oob = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [k_out];\nmov.u32 %r1, %tid.x;\nadd.u32 %r1, %r1, 40;\n"
	"mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r2, [%rd3];\nret;\n}\n";

static const char *misaligned = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [k_out];\nld.global.u32 %r2, [%rd1+2];\nret;\n}\n";

/* warp 0 stores s[0] and warp 1 loads it, with no barrier between */
static const char *race = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
	".shared .align 4 .b8 s[128];\n"
	"mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n"
	"@%p1 st.shared.u32 [s], %r1;\n"
	"@!%p1 ld.shared.u32 %r2, [s];\nret;\n}\n";

/* the same with bar.sync between: no race */
static const char *no_race = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
	".shared .align 4 .b8 s[128];\n"
	"mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n"
	"@%p1 st.shared.u32 [s], %r1;\nbar.sync 0;\n"
	"@!%p1 ld.shared.u32 %r2, [s];\nret;\n}\n";

/* every thread stores out[0]: warps 0 and 1 race on global memory inside the CTA */
static const char *global_race = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [k_out];\nmov.u32 %r1, %tid.x;\nst.global.u32 [%rd1], %r1;\nret;\n}\n";

/* warp 0 stores out[0..31], a barrier, then warp 1 reads them: ordered, no race */
static const char *global_ordered = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [k_out];\nmov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 31;\n"
	"mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nsetp.lt.u32 %p1, %r1, 32;\n"
	"@%p1 st.global.u32 [%rd3], %r1;\nbar.sync 0;\n@!%p1 ld.global.u32 %r3, [%rd3];\nret;\n}\n";

static const char *bar_divergence = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
	"mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 16;\n"
	"@!%p1 bra $END;\nbar.sync 0;\n$END:\nret;\n}\n";

/* warps 0-1 meet at named barrier 1 (64 threads) while warps 2-3 go on; then everyone at barrier 0 */
static const char *named_barrier = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
	"mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 64;\n@!%p1 bra $SKIP;\nbar.sync 1, 64;\n$SKIP:\n"
	"bar.sync 0;\nret;\n}\n";

/* warp 0 waits at barrier 1 and warp 1 at barrier 2, each for two warps: neither can open */
static const char *deadlock = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
	"mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@!%p1 bra $TWO;\nbar.sync 1, 64;\nret;\n"
	"$TWO:\nbar.sync 2, 64;\nret;\n}\n";

static const char *uninit = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n.reg .b32 %r<4>;\n"
	".shared .align 4 .b8 s[256];\n"
	"mov.u32 %r1, %tid.x;\nshl.b32 %r1, %r1, 2;\nld.shared.u32 %r2, [%r1];\nret;\n}\n";

static const char *endless = HEADER
	".visible .entry k(.param .u64 k_out)\n{\n.reg .b32 %r<4>;\n"
	"mov.u32 %r1, 0;\n$LOOP:\nadd.u32 %r1, %r1, 1;\nbra.uni $LOOP;\n}\n";

struct outcome {
	struct gl_sim_result res;
	uint32_t out[64];
	int status;
};

static void launch(const char *ptx, unsigned threads, int workers, unsigned grid, struct outcome *o)
{
	struct gl_err err = {0};
	struct ptx_module *m = NULL;
	o->status = ptx_parse(ptx, "test.ptx", &m, &err);
	if (o->status) {
		fprintf(stderr, "parse: %s\n", err.msg);
		return;
	}
	struct gl_launch l = {.module = ptx, .entry = "k", .grid = {grid, 1, 1}, .block = {threads, 1, 1}};
	int b = gl_launch_add_buffer(&l, "out", GL_U32, 64, 1);
	gl_launch_arg_buffer(&l, b);
	struct gl_sim_opts opts = {.threads = workers, .max_instructions = 100000};
	o->status = gl_sim_run(m, &l, &opts, &o->res, &err);
	if (o->status)
		fprintf(stderr, "run: %s\n", err.msg);
	else
		memcpy(o->out, l.buffers[b].host, sizeof o->out);
	gl_launch_free(&l);
	ptx_module_free(m);
}

static int count_kind(const struct gl_sim_result *r, const char *kind)
{
	int n = 0;
	for (int i = 0; i < r->nfindings; i++)
		n += strcmp(r->findings[i].kind, kind) == 0;
	return n;
}

static void test_divergence(void)
{
	struct outcome o;
	launch(divergent, 32, 1, 1, &o);
	CHECK_EQ(o.status, 0);
	for (int t = 0; t < 32; t++)
		CHECK_EQ(o.out[t], t < 16 ? 1 : 2);
	/* 4 up to the branch, 2 on the else path, 1 on the then path, 4 after the join (with ret) */
	CHECK_EQ(o.res.c.inst, 4 + 2 + 1 + 4);
	/* lanes: 32 x 4, 16 x 2, 16 x 1, 32 x 4 */
	CHECK_EQ(o.res.c.thread_inst, 32 * 4 + 16 * 2 + 16 + 32 * 4);
	CHECK_EQ(o.res.c.gst_req, 1);
	CHECK_EQ(o.res.c.gst_sect, 4);
	CHECK_EQ(o.res.nerrors, 0);
	gl_sim_result_free(&o.res);
}

static void test_findings(void)
{
	struct outcome o;
	launch(oob, 64, 1, 1, &o);
	CHECK_EQ(o.res.nerrors, 40); /* threads 24..63 read past 64 elements */
	CHECK(count_kind(&o.res, "out-of-bounds") > 0);
	CHECK_EQ(o.res.findings[0].thread[0], 24);
	CHECK(strstr(o.res.findings[0].message, "'out'") != NULL);
	CHECK_STR(o.res.findings[0].space, "global");
	gl_sim_result_free(&o.res);

	launch(misaligned, 32, 1, 1, &o);
	CHECK_EQ(count_kind(&o.res, "misaligned"), 1); /* one distinct finding per (kind, PTX line) */
	CHECK_EQ(o.res.nerrors, 32);
	CHECK_EQ(o.res.findings[0].count, 32);
	gl_sim_result_free(&o.res);

	launch(race, 64, 1, 1, &o);
	CHECK(count_kind(&o.res, "race") >= 1);
	CHECK(strstr(o.res.findings[0].message, "read after write") != NULL);
	gl_sim_result_free(&o.res);

	launch(no_race, 64, 1, 1, &o);
	CHECK_EQ(o.res.nerrors, 0);
	CHECK_EQ(o.res.findings_total, 0);
	gl_sim_result_free(&o.res);

	launch(global_race, 64, 1, 1, &o);
	CHECK(count_kind(&o.res, "race") >= 1);
	CHECK_STR(o.res.findings[0].space, "global");
	CHECK_EQ(o.res.findings[0].thread[0], 32); /* the first lane of warp 1 */
	gl_sim_result_free(&o.res);

	launch(global_ordered, 64, 1, 1, &o);
	CHECK_EQ(o.res.findings_total, 0);
	gl_sim_result_free(&o.res);

	launch(bar_divergence, 32, 1, 1, &o);
	CHECK_EQ(count_kind(&o.res, "barrier-divergence"), 1);
	CHECK(o.res.aborted);
	gl_sim_result_free(&o.res);

	launch(named_barrier, 128, 1, 1, &o);
	CHECK_EQ(o.res.findings_total, 0);
	CHECK(!o.res.aborted);
	gl_sim_result_free(&o.res);

	launch(deadlock, 64, 1, 1, &o);
	CHECK_EQ(count_kind(&o.res, "deadlock"), 1);
	CHECK(o.res.aborted);
	CHECK(o.res.nfindings && strstr(o.res.findings[0].message, "which 1 of the 2 warps") != NULL);
	gl_sim_result_free(&o.res);

	launch(uninit, 64, 1, 1, &o);
	CHECK(count_kind(&o.res, "uninitialized") > 0);
	CHECK_EQ(o.res.nerrors, 0); /* a warning, not an error */
	CHECK(o.res.findings[0].warning);
	gl_sim_result_free(&o.res);

	launch(endless, 32, 1, 1, &o);
	CHECK_EQ(count_kind(&o.res, "budget"), 1);
	CHECK(o.res.aborted);
	gl_sim_result_free(&o.res);
}

static void test_thread_independence(void)
{
	struct outcome a, b;
	launch(divergent, 32, 1, 2, &a);
	launch(divergent, 32, 2, 2, &b);
	CHECK(memcmp(&a.res.c, &b.res.c, sizeof a.res.c) == 0);
	CHECK(memcmp(a.out, b.out, sizeof a.out) == 0);
	gl_sim_result_free(&a.res);
	gl_sim_result_free(&b.res);
}

static void test_bad_launches(void)
{
	struct gl_err err = {0};
	struct ptx_module *m = NULL;
	CHECK_EQ(ptx_parse(divergent, "test.ptx", &m, &err), 0);
	struct gl_launch l = {.module = divergent, .entry = "nope", .grid = {1, 1, 1}, .block = {32, 1, 1}};
	struct gl_sim_result res;
	struct gl_sim_opts opts = {0};
	CHECK_EQ(gl_sim_run(m, &l, &opts, &res, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "no kernel named 'nope'") != NULL);
	gl_err_clear(&err);
	l.entry = "k"; /* no argument for k_out */
	CHECK_EQ(gl_sim_run(m, &l, &opts, &res, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "takes 1 parameter but 0 arguments were given") != NULL);
	gl_err_clear(&err);
	gl_launch_arg_scalar(&l, 5, 8);
	l.block[0] = 2048;
	CHECK_EQ(gl_sim_run(m, &l, &opts, &res, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "1 to 1024 threads") != NULL);
	ptx_module_free(m);
}

/* A launch refused after the simulator set it up (more host memory than gpulab allows itself, a CTA range
 * outside the grid) gives back all it took: LeakSanitizer checks at exit. */
static void test_refused_after_setup(void)
{
	struct gl_err err = {0};
	struct ptx_module *m = NULL;
	uint32_t word = 0;
	CHECK_EQ(ptx_parse(divergent, "test.ptx", &m, &err), 0);
	struct gl_launch l = {.module = divergent, .entry = "k", .grid = {1, 1, 1}, .block = {32, 1, 1}, .nbuffers = 1};
	l.buffers[0] = (struct gl_buffer){.name = "out", .dtype = GL_U32, .count = 1ull << 50, .host = &word};
	gl_launch_arg_buffer(&l, 0); /* 4 PiB: never allocated, refused by the memory rule first */
	struct gl_sim_result res;
	struct gl_sim_opts opts = {0};
	CHECK_EQ(gl_sim_run(m, &l, &opts, &res, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "of host memory") != NULL);
	gl_err_clear(&err);
	l.buffers[0].count = 64;
	opts.cta_first = 0;
	opts.cta_end = 2;
	CHECK_EQ(gl_sim_run(m, &l, &opts, &res, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "does not fit the grid") != NULL);
	ptx_module_free(m);
}

int main(void)
{
	test_divergence();
	test_findings();
	test_thread_independence();
	test_bad_launches();
	test_refused_after_setup();
	CHECK_DONE();
}
