/* test_sim_calls.c — calls to .func bodies (sim_frame.c): a guarded call that only some lanes make, to a
 * recursive function whose depth differs per lane, returns the right values and the warp reconverges
 * after it (one store request for all 32 lanes); the fixture's recursion and function-pointer kernels
 * (tests/fixtures/sim/calls.cu) match host references with counts that do not depend on the worker
 * count; a bad function pointer, a call with the wrong argument count, a call through a kernel's
 * address and unbounded recursion are findings, never a host crash. */
#include "tests/unit/sim_fixture.h"

static const char *ptx =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".func (.param .b32 ret) tri(.param .b32 n)\n"
	"{\n"
	"	.reg .pred %p<2>;\n	.reg .b32 %r<4>;\n"
	"	ld.param.u32 %r1, [n];\n"
	"	setp.lt.s32 %p1, %r1, 1;\n"
	"	@%p1 bra DONE;\n"
	"	add.s32 %r2, %r1, -1;\n"
	"	{\n	.param .b32 a0;\n	.param .b32 r0;\n"
	"	st.param.b32 [a0], %r2;\n"
	"	call (r0), tri, (a0);\n"
	"	ld.param.b32 %r3, [r0];\n"
	"	}\n"
	"	add.s32 %r1, %r1, %r3;\n"
	"DONE:\n"
	"	st.param.b32 [ret], %r1;\n"
	"	ret;\n"
	"}\n"
	".visible .entry divergent(.param .u64 out)\n"
	"{\n"
	"	.reg .pred %p<2>;\n	.reg .b32 %r<5>;\n	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	rem.u32 %r2, %r1, 7;\n"
	"	and.b32 %r4, %r1, 1;\n"
	"	setp.eq.u32 %p1, %r4, 1;\n"
	"	mov.u32 %r3, -1;\n"
	"	{\n	.param .b32 a0;\n	.param .b32 r0;\n"
	"	st.param.b32 [a0], %r2;\n"
	"	@%p1 call (r0), tri, (a0);\n"
	"	@%p1 ld.param.b32 %r3, [r0];\n"
	"	}\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r3;\n"
	"	ret;\n"
	"}\n"
	".visible .entry bad_pointer(.param .u64 f)\n"
	"{\n"
	"	.reg .b64 %rd<2>;\n	.reg .b32 %r<2>;\n"
	"	ld.param.u64 %rd1, [f];\n"
	"	mov.u32 %r1, 3;\n"
	"	{\n	.param .b32 a0;\n	.param .b32 r0;\n"
	"	st.param.b32 [a0], %r1;\n"
	"	proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
	"	call (r0), %rd1, (a0), proto;\n"
	"	}\n"
	"	ret;\n"
	"}\n"
	".visible .entry calls_kernel()\n"
	"{\n"
	"	.reg .b64 %rd<2>;\n	.reg .b32 %r<2>;\n"
	"	mov.u64 %rd1, divergent;\n"
	"	mov.u32 %r1, 3;\n"
	"	{\n	.param .b32 a0;\n	.param .b32 r0;\n"
	"	st.param.b32 [a0], %r1;\n"
	"	proto2: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
	"	call (r0), %rd1, (a0), proto2;\n"
	"	}\n"
	"	ret;\n"
	"}\n"
	".visible .entry wrong_count()\n"
	"{\n"
	"	.reg .b32 %r<2>;\n"
	"	mov.u32 %r1, 3;\n"
	"	{\n	.param .b32 a0;\n	.param .b32 a1;\n	.param .b32 r0;\n"
	"	st.param.b32 [a0], %r1;\n"
	"	st.param.b32 [a1], %r1;\n"
	"	call (r0), tri, (a0, a1);\n"
	"	}\n"
	"	ret;\n"
	"}\n";

static void test_divergent_call(struct ptx_module *m)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "divergent", 1, 1, 64, 1);
	int32_t *out = fx_buffer(&l, "out", GL_I32, 64);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	for (int t = 0; t < 64; t++) {
		int n = t % 7;
		CHECK_EQ(out[t], t & 1 ? n * (n + 1) / 2 : -1);
	}
	/* the lanes that called and those that did not store together: one request per warp */
	CHECK_EQ(fx_metric(&res, "gpulab__ptx_t_requests_pipe_lsu_mem_global_op_st.sum"), 2);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_bad_calls(struct ptx_module *m)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "bad_pointer", 1, 1, 32, 1);
	gl_launch_arg_scalar(&l, 12345, 8);
	struct gl_sim_result res;
	CHECK_EQ(fx_run(m, &l, &res), GL_OK);
	CHECK(res.aborted);
	const struct gl_finding *f = fx_finding(&res, "invalid-call");
	CHECK(f && strstr(f->message, "0x3039, which is not the address of a function"));
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	l = (struct gl_launch){0};
	fx_geometry(&l, "wrong_count", 1, 1, 32, 1);
	CHECK_EQ(fx_run(m, &l, &res), GL_OK);
	CHECK(res.aborted);
	f = fx_finding(&res, "invalid-call");
	CHECK(f && strstr(f->message, "the call to tri passes 2 arguments and 1 return value; it takes 1 and 1"));
	gl_sim_result_free(&res);
	gl_launch_free(&l);

	l = (struct gl_launch){0}; /* through a kernel's address: PTX calls only .func bodies */
	fx_geometry(&l, "calls_kernel", 1, 1, 32, 1);
	CHECK_EQ(fx_run(m, &l, &res), GL_OK);
	CHECK(res.aborted);
	f = fx_finding(&res, "invalid-call");
	CHECK(f && strstr(f->message, "a call to divergent, which is a kernel (.entry): only a .func can be called"));
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static double run_fib(struct ptx_module *m, int threads)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "fibonacci", 3, 1, 64, 1);
	int32_t *in = fx_buffer(&l, "in", GL_I32, 192), *out = fx_buffer(&l, "out", GL_I32, 192);
	gl_launch_arg_scalar(&l, 190, 4);
	for (int i = 0; i < 192; i++)
		in[i] = (i * 5) % 15;
	struct gl_sim_result res;
	struct gl_sim_opts o = {.threads = threads};
	CHECK_EQ(fx_run_opts(m, &l, &res, &o), GL_OK);
	CHECK_EQ(res.findings_total, 0);
	for (int i = 0; i < 192; i++)
		CHECK_EQ(out[i], i < 190 ? fib((i * 5) % 15) : 0);
	double inst = fx_metric(&res, "gpulab__ptx_inst_executed.sum");
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	return inst;
}

static void test_fixture(struct ptx_module *m)
{
	double a = run_fib(m, 1), b = run_fib(m, 2);
	CHECK(a > 0);
	CHECK(a == b);

	struct gl_launch l = {0};
	fx_geometry(&l, "runaway", 1, 1, 32, 1);
	fx_buffer(&l, "in", GL_I32, 32);
	fx_buffer(&l, "out", GL_I32, 32);
	struct gl_sim_result res;
	struct gl_sim_opts o = {.threads = 1, .stack_size = 256};
	CHECK_EQ(fx_run_opts(m, &l, &res, &o), GL_OK);
	CHECK(res.aborted);
	const struct gl_finding *f = fx_finding(&res, "stack-overflow");
	/* forever() has no .local variables: 16 bytes a call, so the 17th nested call passes 256 bytes */
	CHECK(f && strstr(f->message, "at depth 17 needs 272 bytes of call stack, more than the 256"));
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

/* Issue 27: a module's own `.func vprintf()` is an ordinary function (the built-in is only the .extern
 * declaration with CUDA's prototype).  Before, the call took the frame path while the launch set up no
 * call stack for a "printf", so frame_konst read and wrote past its array (a crash with recursion, 64
 * false __local__ errors without), and the compiled engine ran a kernel with a .func call. */
static const char *user_vprintf =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".func vprintf()\n"
	"{\n	.local .align 4 .b8 depot[8];\n	.reg .b32 %r<3>;\n	.reg .b64 %rd<2>;\n"
	"	mov.u64 %rd1, depot;\n	mov.u32 %r1, %tid.x;\n	st.local.u32 [%rd1], %r1;\n"
	"	ld.local.u32 %r2, [%rd1];\n	ret;\n}\n"
	".visible .entry plain()\n{\n	call vprintf, ();\n	ret;\n}\n";
static const char *user_vprintf_rec =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".func vprintf()\n{\n	call vprintf, ();\n	ret;\n}\n"
	".visible .entry recursive()\n{\n	call vprintf, ();\n	ret;\n}\n";

static void test_user_vprintf(void)
{
	struct ptx_module *m = fx_parse(user_vprintf, "user_vprintf.ptx");
	struct ptx_module *r = fx_parse(user_vprintf_rec, "user_vprintf_rec.ptx");
	for (int engine = GL_ENGINE_INTERP; m && r && engine <= GL_ENGINE_COMPILED; engine++) {
		struct gl_launch l = {0};
		struct gl_sim_result res;
		struct gl_sim_opts o = {.threads = 1, .engine = engine};
		fx_geometry(&l, "plain", 2, 1, 64, 1);
		CHECK_EQ(fx_run_opts(m, &l, &res, &o), GL_OK);
		CHECK_EQ(res.findings_total, 0);
		CHECK(!res.aborted);
		CHECK_STR(res.engine, "interp"); /* a kernel with a .func call is the interpreter's */
		gl_sim_result_free(&res);
		gl_launch_free(&l);
		l = (struct gl_launch){0};
		fx_geometry(&l, "recursive", 1, 1, 64, 1);
		CHECK_EQ(fx_run_opts(r, &l, &res, &o), GL_OK);
		CHECK(res.aborted);
		const struct gl_finding *f = fx_finding(&res, "stack-overflow");
		CHECK(f && strstr(f->message, "the call to vprintf at depth 65"));
		gl_sim_result_free(&res);
		gl_launch_free(&l);
	}
	ptx_module_free(m);
	ptx_module_free(r);
}

int main(void)
{
	test_user_vprintf();
	struct ptx_module *m = fx_parse(ptx, "calls_unit.ptx");
	if (m) {
		test_divergent_call(m);
		test_bad_calls(m);
		ptx_module_free(m);
	}
	m = fx_fixture("calls");
	if (m) {
		test_fixture(m);
		ptx_module_free(m);
	}
	CHECK_DONE();
}
