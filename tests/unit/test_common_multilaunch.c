/* test_common_multilaunch.c — a variant made of several launches: the launch description's steps
 * (gl_launch_next, gl_launch_count, gl_launch_select) and the roll-up of its launches' metrics into the
 * variant's total (gl_metrics_total_add/finish), by the suffix of each Nsight Compute name. */
#include <math.h>

#include "common/launch.h"
#include "common/metrics.h"
#include "tests/unit/check.h"

static void test_steps(void)
{
	struct gl_launch l = {0};
	int a = gl_launch_add_buffer(&l, "a", GL_F32, 4, 1);
	CHECK_EQ(gl_launch_count(&l), 1); /* a single launch never files steps */
	l.entry = "first";
	l.grid[0] = 7;
	gl_launch_arg_buffer(&l, a);
	CHECK_EQ(gl_launch_count(&l), 1);
	gl_launch_next(&l);
	CHECK(l.entry == NULL && l.nargs == 0 && l.grid[0] == 0);
	CHECK_EQ(l.nbuffers, 1); /* the buffers stay */
	l.entry = "second";
	l.grid[0] = 3;
	gl_launch_arg_scalar(&l, 5, 4);
	gl_launch_arg_buffer(&l, a);
	CHECK_EQ(gl_launch_count(&l), 2);
	CHECK_EQ(gl_launch_count(&l), 2); /* counting again files nothing more */
	gl_launch_select(&l, 0);
	CHECK_STR(l.entry, "first");
	CHECK_EQ(l.grid[0], 7);
	CHECK_EQ(l.nargs, 1);
	CHECK_EQ(l.args[0].kind, GL_ARG_BUFFER);
	gl_launch_select(&l, 1);
	CHECK_STR(l.entry, "second");
	CHECK_EQ(l.grid[0], 3);
	CHECK_EQ(l.nargs, 2);
	CHECK_EQ(l.args[0].bits, 5);
	gl_launch_free(&l);
	CHECK_EQ(l.nsteps, 0);
}

static void test_rollup(void)
{
	struct gl_metrics a = {0}, b = {0}, total = {0};
	gl_metrics_set(&a, "x__sectors.sum", 10, "sector");
	gl_metrics_set(&a, "x__warps.max", 4, "");
	gl_metrics_set(&a, "x__latency.min", 9, "");
	gl_metrics_set(&a, "sm__throughput.avg.pct_of_peak_sustained_elapsed", 50, "%");
	gl_metrics_set(&a, "only_first.avg", 1, "");
	gl_metrics_set(&b, "x__sectors.sum", 32, "sector");
	gl_metrics_set(&b, "x__warps.max", 2, "");
	gl_metrics_set(&b, "x__latency.min", 3, "");
	gl_metrics_set(&b, "sm__throughput.avg.pct_of_peak_sustained_elapsed", 80, "%");
	gl_metrics_set(&b, "only_second.sum", 6, "");
	gl_metrics_total_add(&total, &a, 0, 100.0);
	gl_metrics_total_add(&total, &b, 1, 300.0);
	gl_metrics_total_finish(&total, 400.0);
	CHECK_NEAR(*gl_metrics_get(&total, "x__sectors.sum"), 42, 0);
	CHECK_NEAR(*gl_metrics_get(&total, "x__warps.max"), 4, 0);
	CHECK_NEAR(*gl_metrics_get(&total, "x__latency.min"), 3, 0);
	/* (50 * 100 + 80 * 300) / 400 = 72.5 */
	CHECK_NEAR(*gl_metrics_get(&total, "sm__throughput.avg.pct_of_peak_sustained_elapsed"), 72.5, 1e-12);
	CHECK_NEAR(*gl_metrics_get(&total, "only_second.sum"), 6, 0);
	CHECK(gl_metrics_get(&total, "only_first.avg") == NULL); /* the second launch has none to weight */
	gl_metrics_free(&total);

	/* untimed launches (the simulator): sums add, averages cannot be weighted and are left out */
	gl_metrics_total_add(&total, &a, 0, NAN);
	gl_metrics_total_add(&total, &b, 1, NAN);
	gl_metrics_total_finish(&total, NAN);
	CHECK_NEAR(*gl_metrics_get(&total, "x__sectors.sum"), 42, 0);
	CHECK(gl_metrics_get(&total, "sm__throughput.avg.pct_of_peak_sustained_elapsed") == NULL);
	gl_metrics_free(&total);
	gl_metrics_free(&a);
	gl_metrics_free(&b);
}

int main(void)
{
	test_steps();
	test_rollup();
	CHECK_DONE();
}
