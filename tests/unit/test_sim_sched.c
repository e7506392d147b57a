/* test_sim_sched.c — fair warp scheduling inside a CTA: a warp that spins on a flag another warp of its
 * CTA sets gets off the CPU after a bounded number of loop iterations, so producer/consumer kernels
 * (tests/fixtures/sim/spin.cu) finish with the right values; the switch points depend only on the
 * instructions executed, so counts are the same run after run and for any worker count; and volatile
 * (morally strong) accesses to the flag and buffer are not reported as races. */
#include "tests/unit/sim_fixture.h"

static void run_handoff(struct ptx_module *m, int threads, double *inst)
{
	enum { ROUNDS = 10 };
	struct gl_launch l = {0};
	fx_geometry(&l, "handoff", 3, 1, 64, 1);
	int32_t *in = fx_buffer(&l, "in", GL_I32, 32 * ROUNDS), *out = fx_buffer(&l, "out", GL_I32, 32 * ROUNDS);
	gl_launch_arg_scalar(&l, ROUNDS, 4);
	for (int i = 0; i < 32 * ROUNDS; i++)
		in[i] = 7 * i - 100;
	struct gl_sim_result res;
	struct gl_sim_opts o = {.threads = threads};
	CHECK_EQ(fx_run_opts(m, &l, &res, &o), GL_OK);
	CHECK_EQ(res.findings_total, 0);
	CHECK(!res.aborted);
	for (int i = 0; i < 32 * ROUNDS; i++)
		CHECK_EQ(out[i], 2 * (7 * i - 100) + 1);
	*inst = fx_metric(&res, "smsp__inst_executed.sum");
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_handoff(struct ptx_module *m)
{
	double a, b, c;
	run_handoff(m, 1, &a);
	run_handoff(m, 2, &b);
	run_handoff(m, 1, &c);
	CHECK(a > 0);
	CHECK(a == b && a == c);
}

static void test_publish(struct ptx_module *m)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "publish", 1, 1, 128, 1);
	fx_buffer(&l, "flag", GL_I32, 1);
	fx_buffer(&l, "value", GL_I32, 1);
	int32_t *seen = fx_buffer(&l, "seen", GL_I32, 128);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	for (int t = 0; t < 96; t++)
		CHECK_EQ(seen[t], 42);
	for (int t = 96; t < 128; t++)
		CHECK_EQ(seen[t], 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

/* A flag nobody sets still ends at the budget, with a finding, not a hang. */
static void test_stuck(struct ptx_module *m)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "handoff", 1, 1, 32, 1); /* no producer warp */
	fx_buffer(&l, "in", GL_I32, 32);
	fx_buffer(&l, "out", GL_I32, 32);
	gl_launch_arg_scalar(&l, 1, 4);
	struct gl_sim_result res;
	struct gl_sim_opts o = {.threads = 1, .max_instructions = 50000};
	CHECK_EQ(fx_run_opts(m, &l, &res, &o), GL_OK);
	CHECK(res.aborted);
	CHECK(fx_finding(&res, "budget") != NULL);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

int main(void)
{
	struct ptx_module *m = fx_fixture("spin");
	if (m) {
		test_handoff(m);
		test_publish(m);
		test_stuck(m);
		ptx_module_free(m);
	}
	CHECK_DONE();
}
