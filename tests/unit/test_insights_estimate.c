/* test_insights_estimate.c — the estimate model's arithmetic by hand: each bound at its peak rate,
 * the DRAM footprint model against the L2 size, waves, occupancy, multi-launch sums. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/metrics.h"
#include "insights/estimate.h"

static const struct gl_gpu_model *h100(void)
{
	const struct gl_gpu_model *g = NULL;
	struct gl_err err = {0};
	gl_gpu_model_lookup("h100", &g, &err); /* case-insensitive */
	CHECK(g != NULL);
	return g;
}

static void launch(struct gl_launch_record *l, unsigned blocks, unsigned threads, int regs)
{
	memset(l, 0, sizeof *l);
	l->grid[0] = blocks, l->grid[1] = l->grid[2] = 1;
	l->block[0] = threads, l->block[1] = l->block[2] = 1;
	l->regs = regs;
}

static void set(struct gl_launch_record *l, const char *name, double v)
{
	gl_metrics_set(&l->metrics, name, v, "");
}

static void test_dram_bound(void)
{
	const struct gl_gpu_model *g = h100();
	struct gl_launch_record l;
	launch(&l, 1056 * 4, 256, 32); /* four full waves: 8 blocks x 132 SMs each */
	set(&l, GL_M_GLD_REQ, 1 << 20), set(&l, GL_M_GLD_SECT, 4 << 20), set(&l, GL_M_UNIQ_LD_SECT, 4 << 20);
	set(&l, GL_M_GST_REQ, 1 << 20), set(&l, GL_M_GST_SECT, 4 << 20), set(&l, GL_M_UNIQ_ST_SECT, 4 << 20);
	struct gl_estimate e;
	gl_estimate_launch(g, &l, &e);
	double bytes = 32.0 * (8 << 20); /* 256 MiB: every sector once */
	CHECK_NEAR(e.dram_bytes, bytes, 1e-3);
	CHECK_NEAR(e.bound_us[GL_BOUND_DRAM], bytes / 3352e9 * 1e6, 1e-9);
	CHECK_NEAR(e.bound_us[GL_BOUND_L1], (2.0 * (1 << 20)) / (132 * 1980e6) * 1e6, 1e-9);
	CHECK_NEAR(e.bound_us[GL_BOUND_L2], bytes / (5120.0 / 108 * 132 * 1980e6) * 1e6, 1e-9);
	CHECK_EQ(e.bound, GL_BOUND_DRAM);
	CHECK_NEAR(e.wave_factor, 1.0, 1e-12);
	CHECK_NEAR(e.time_us, e.bound_us[GL_BOUND_DRAM], 1e-12);
	CHECK(isnan(e.intensity) || e.intensity == 0);
	/* repeated reads of a footprint larger than the 50 MB L2: the share it cannot hold goes to DRAM */
	set(&l, GL_M_GLD_SECT, 8 << 20);
	gl_estimate_launch(g, &l, &e);
	double repeat = 32.0 * (4 << 20), miss = 1 - 50.0 * 1024 * 1024 / bytes;
	CHECK_NEAR(e.dram_bytes, bytes + repeat * miss, 1e-3);
	gl_metrics_free(&l.metrics);
}

static void test_compute_waves_occupancy(void)
{
	const struct gl_gpu_model *g = h100();
	struct gl_launch_record l;
	launch(&l, 1056 + 528, 256, 32); /* 1.5 waves: the last half-empty wave costs a full one */
	set(&l, GL_M_FFMA, 1e12);
	struct gl_estimate e;
	gl_estimate_launch(g, &l, &e);
	CHECK_EQ(e.bound, GL_BOUND_FP32);
	CHECK_NEAR(e.bound_us[GL_BOUND_FP32], 2e12 / 66.9e12 * 1e6, 1e-6);
	CHECK_NEAR(e.waves, 1.5, 1e-12);
	CHECK_NEAR(e.wave_factor, 2 / 1.5, 1e-12);
	CHECK_NEAR(e.time_us, e.bound_us[GL_BOUND_FP32] * 2 / 1.5, 1e-6);
	CHECK(isnan(e.intensity)); /* no DRAM bytes: no intensity */
	l.grid[0] = 33; /* a quarter of the SMs */
	gl_estimate_launch(g, &l, &e);
	CHECK_NEAR(e.wave_factor, 4.0, 1e-12);
	/* 168 registers: 8 of 64 warps per SM.  Every load misses to DRAM (no L1 model, the footprint is all
	 * of the traffic), so each of the 1e6 requests waits 375 clocks and an SM overlaps 8 of them: the
	 * latency bound, requests / SMs x latency / warps, beats the DRAM bandwidth's */
	l.grid[0] = 132 * 10, l.regs = 168;
	gl_metrics_free(&l.metrics);
	set(&l, GL_M_GLD_REQ, 1e6), set(&l, GL_M_GLD_SECT, 4e6), set(&l, GL_M_UNIQ_LD_SECT, 4e6);
	gl_estimate_launch(g, &l, &e);
	CHECK_NEAR(e.occ.pct, 12.5, 1e-12);
	CHECK_NEAR(e.warps_in_flight, 8, 1e-12);
	CHECK_NEAR(e.load_latency_clk, GL_LAT_DRAM, 1e-9);
	CHECK_EQ(e.bound, GL_BOUND_LATENCY);
	CHECK_NEAR(e.bound_us[GL_BOUND_LATENCY], 1e6 / 132 * 375 / 8 / 1980e6 * 1e6, 1e-9);
	CHECK_NEAR(e.time_us, e.bound_us[GL_BOUND_LATENCY], 1e-12);
	/* the same loads hitting an L1 (the simulator's model: 1 sector in 4 misses) wait less */
	set(&l, GL_M_L1_MISS_SECT, 1e6);
	gl_estimate_launch(g, &l, &e);
	CHECK_NEAR(e.l2_bytes, 32e6, 1e-6);
	CHECK(e.load_latency_clk < 0.25 * GL_LAT_DRAM + 0.75 * GL_LAT_L1 + 1e-9);
	CHECK(e.load_latency_clk > 0.75 * GL_LAT_L1);
	l.block[0] = 2048; /* cannot run: no time */
	gl_estimate_launch(g, &l, &e);
	CHECK(isnan(e.time_us));
	gl_metrics_free(&l.metrics);
}

static void test_parts(void)
{
	const struct gl_gpu_model *g = h100();
	struct gl_launch_record l, parts[2];
	launch(&l, 1056, 256, 32);
	for (int k = 0; k < 2; k++) {
		launch(&parts[k], 1056, 256, 32);
		set(&parts[k], GL_M_FFMA, (k + 1) * 1e11);
	}
	l.parts = parts, l.nparts = 2;
	struct gl_estimate e, a, b;
	gl_estimate_launch(g, &l, &e);
	gl_estimate_launch(g, &parts[0], &a);
	gl_estimate_launch(g, &parts[1], &b);
	CHECK_NEAR(e.time_us, a.time_us + b.time_us, 1e-9);
	CHECK_NEAR(e.flops, 6e11, 1);
	for (int k = 0; k < 2; k++)
		gl_metrics_free(&parts[k].metrics);
}

static void test_models(void)
{
	struct gl_err err = {0};
	const struct gl_gpu_model *g;
	CHECK_EQ(gl_gpu_model_lookup("B300", &g, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "A100|H100|H200|L4|RTX4090|RTX3090|A6000") != NULL);
	CHECK_STR(gl_gpu_model_for_device("NVIDIA H100 80GB HBM3")->name, "H100");
	CHECK_STR(gl_gpu_model_for_device("NVIDIA GeForce RTX 4090")->name, "RTX4090");
	CHECK(gl_gpu_model_for_device("gpulab PTX simulator") == NULL);
	CHECK_STR(gl_gpu_model_default()->name, "H100");
}

int main(void)
{
	test_dram_bound();
	test_compute_waves_occupancy();
	test_parts();
	test_models();
	CHECK_DONE();
}
