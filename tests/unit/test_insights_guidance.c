/* test_insights_guidance.c — every guidance rule on a launch where it must fire and one where it must
 * not, with the numbers its message must carry. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/metrics.h"
#include "insights/guidance.h"

/* A launch of grid x block threads with no counts yet: 1024 blocks of 256 threads, 32 registers. */
static void launch(struct gl_launch_record *l, unsigned blocks, unsigned threads, int regs)
{
	memset(l, 0, sizeof *l);
	snprintf(l->variant, sizeof l->variant, "v");
	l->grid[0] = blocks, l->grid[1] = l->grid[2] = 1;
	l->block[0] = threads, l->block[1] = l->block[2] = 1;
	l->regs = regs;
	l->static_smem = 0;
}

static void set(struct gl_launch_record *l, const char *name, double v)
{
	gl_metrics_set(&l->metrics, name, v, "");
}

/* The rule's result on l (H100), or NULL when it did not fire. */
static const struct gl_guidance *fired(struct gl_launch_record *l, const char *rule)
{
	gl_guidance_apply(gl_gpu_model_default(), l);
	for (int i = 0; i < l->nguidance; i++)
		if (strcmp(l->guidance[i].rule, rule) == 0)
			return &l->guidance[i];
	return NULL;
}

static void done(struct gl_launch_record *l)
{
	gl_metrics_free(&l->metrics);
	free(l->guidance);
}

/* The estimate (H100) of a launch: what a rule's fix must agree with. */
static double estimate_us(const struct gl_launch_record *l)
{
	struct gl_estimate e;
	gl_estimate_launch(gl_gpu_model_default(), l, &e);
	return e.time_us;
}

/* A rule's speedup is the model's: 1 - (the launch with the fix applied by hand) / (the launch). */
static void test_uncoalesced(void)
{
	struct gl_launch_record l, fixed;
	launch(&l, 1056, 256, 32);
	set(&l, GL_M_GST_REQ, 1000), set(&l, GL_M_GST_SECT, 32000), set(&l, GL_M_GST_IDEAL, 4000);
	set(&l, GL_M_GLD_REQ, 1000), set(&l, GL_M_GLD_SECT, 4000), set(&l, GL_M_GLD_IDEAL, 4000);
	launch(&fixed, 1056, 256, 32);
	set(&fixed, GL_M_GST_REQ, 1000), set(&fixed, GL_M_GST_SECT, 4000), set(&fixed, GL_M_GST_IDEAL, 4000);
	set(&fixed, GL_M_GLD_REQ, 1000), set(&fixed, GL_M_GLD_SECT, 4000), set(&fixed, GL_M_GLD_IDEAL, 4000);
	const struct gl_guidance *g = fired(&l, "uncoalesced_global_stores");
	CHECK(g != NULL);
	if (g) {
		CHECK(strstr(g->message, "32.0 sectors per request against an ideal of 4.0") != NULL);
		CHECK_STR(g->severity, "OPT");
		CHECK_NEAR(g->value, 32.0, 1e-9);
		/* DRAM-bound (no footprint: the L2 traffic stands in): 36000 sectors become 8000 */
		CHECK_NEAR(g->estimated_speedup, 1 - 8000.0 / 36000, 1e-9);
		CHECK_NEAR(g->estimated_speedup, 1 - estimate_us(&fixed) / estimate_us(&l), 1e-9);
	}
	CHECK(fired(&l, "uncoalesced_global_loads") == NULL); /* 4 of 4: coalesced */
	done(&l);
	done(&fixed);
	/* 8-byte accesses: 8 sectors per request is their ideal, not an excess */
	launch(&l, 1056, 256, 32);
	set(&l, GL_M_GLD_REQ, 100), set(&l, GL_M_GLD_SECT, 800), set(&l, GL_M_GLD_IDEAL, 800);
	CHECK(fired(&l, "uncoalesced_global_loads") == NULL);
	set(&l, GL_M_GLD_SECT, 1700); /* gemm naive's 17 */
	g = fired(&l, "uncoalesced_global_loads");
	CHECK(g && strstr(g->message, "17.0 sectors per request against an ideal of 8.0"));
	/* the same excess in a launch that the FP32 pipe bounds: coalescing would not help, so no advice */
	set(&l, GL_M_FFMA, 1e12);
	CHECK(fired(&l, "uncoalesced_global_loads") == NULL);
	done(&l);
}

/* A rule names the instruction with the most waste (the simulator's hot-spot metrics). */
static void test_hotspot(void)
{
	struct gl_launch_record l;
	launch(&l, 1056, 256, 32);
	set(&l, GL_M_GST_REQ, 1000), set(&l, GL_M_GST_SECT, 16000), set(&l, GL_M_GST_IDEAL, 4000);
	set(&l, GL_M_HOTSPOT_PREFIX "gst_ptx_line", 310), set(&l, GL_M_HOTSPOT_PREFIX "gst_src_line", 42);
	set(&l, GL_M_HOTSPOT_PREFIX "gst_share", 0.87);
	const struct gl_guidance *g = fired(&l, "uncoalesced_global_stores");
	CHECK(g && strstr(g->message, "the worst access is at source line 42 (PTX line 310), 87% of them"));
	CHECK(fired(&l, "tensor_layout") == NULL); /* no rule guesses at a layout it cannot measure */
	done(&l);
}

static void test_bank_conflicts(void)
{
	struct gl_launch_record l;
	launch(&l, 1056, 256, 32);
	set(&l, GL_M_SLD_INST, 100), set(&l, GL_M_SLD_WF, 3200), set(&l, GL_M_SLD_CONF, 3100);
	set(&l, GL_M_SST_INST, 100), set(&l, GL_M_SST_WF, 105), set(&l, GL_M_SST_CONF, 5); /* under 10% */
	const struct gl_guidance *g = fired(&l, "shared_bank_conflicts_loads");
	CHECK(g && strstr(g->message, "32.0 wavefronts per instruction (ideal 1.0)"));
	/* L1-bound: 3305 wavefronts become 205 */
	CHECK(g && fabs(g->estimated_speedup - (1 - 205.0 / 3305)) < 1e-9);
	CHECK(fired(&l, "shared_bank_conflicts_stores") == NULL);
	set(&l, GL_M_SST_WF, 200), set(&l, GL_M_SST_CONF, 100);
	CHECK(fired(&l, "shared_bank_conflicts_stores") != NULL);
	done(&l);
}

static void test_atomics(void)
{
	struct gl_launch_record l;
	launch(&l, 4096, 256, 16);
	set(&l, GL_M_GLD_REQ, 32768), set(&l, GL_M_GRED_REQ, 32768), set(&l, GL_M_GATOM_REQ, 32768);
	set(&l, GL_M_UNIQ_ST_SECT, 2);
	const struct gl_guidance *g = fired(&l, "atomics_contention");
	CHECK(g && strstr(g->message, "65536 global atomic requests (67% of the global requests) land on at most 2"));
	CHECK(g && strcmp(g->severity, "WRN") == 0);
	done(&l);
	/* one atomic per block on distinct outputs: no contention */
	launch(&l, 4096, 256, 16);
	set(&l, GL_M_GLD_REQ, 32768), set(&l, GL_M_GATOM_REQ, 4096), set(&l, GL_M_UNIQ_ST_SECT, 4096);
	CHECK(fired(&l, "atomics_contention") == NULL);
	done(&l);
}

static void test_divergence(void)
{
	struct gl_launch_record l;
	launch(&l, 1056, 256, 32);
	set(&l, GL_M_THREADS_PER_INST, 12.5), set(&l, GL_M_INST, 1e6), set(&l, GL_M_THREAD_INST, 12.5e6);
	const struct gl_guidance *g = fired(&l, "divergence");
	CHECK(g && strstr(g->message, "12.5 of 32 threads"));
	/* issue-bound: full warps issue 12.5e6 / 32 instructions */
	CHECK(g && fabs(g->estimated_speedup - (1 - 12.5 / 32)) < 1e-9);
	set(&l, GL_M_THREADS_PER_INST, 31.0);
	CHECK(fired(&l, "divergence") == NULL);
	done(&l);
	/* without the ratio metric (older runs): from the instruction counts */
	launch(&l, 1056, 256, 32);
	set(&l, GL_M_INST, 100), set(&l, GL_M_THREAD_INST, 1600);
	CHECK(fired(&l, "divergence") != NULL);
	done(&l);
}

static void test_local(void)
{
	struct gl_launch_record l;
	launch(&l, 1056, 256, 32);
	set(&l, GL_M_GLD_REQ, 100), set(&l, GL_M_GLD_SECT, 400);
	CHECK(fired(&l, "local_memory_spills") == NULL);
	set(&l, GL_M_LLD_REQ, 50), set(&l, GL_M_LLD_SECT, 100);
	const struct gl_guidance *g = fired(&l, "local_memory_spills");
	CHECK(g && strstr(g->message, "50 local-memory requests (100 sectors, 20% of the L2 sectors)"));
	CHECK(g && fabs(g->estimated_speedup - (1 - 400.0 / 500)) < 1e-9); /* DRAM: 500 sectors become 400 */
	done(&l);
}

static void test_occupancy_rule(void)
{
	struct gl_launch_record l;
	launch(&l, 1056, 256, 32); /* 8 blocks x 8 warps = 64: full */
	set(&l, GL_M_GLD_REQ, 1e6), set(&l, GL_M_GLD_SECT, 4e6), set(&l, GL_M_UNIQ_LD_SECT, 4e6);
	CHECK(fired(&l, "low_occupancy") == NULL);
	l.regs = 168; /* 5376 registers a warp: 3 warps per sub-partition, 12 per SM, one block of 8 */
	const struct gl_guidance *g = fired(&l, "low_occupancy");
	CHECK(g && strstr(g->message, "12.5% (8 of 64 warps per SM, 1 blocks), limited by registers"));
	/* latency-bound with 8 warps; 64 warps hide 8 times as much, down to the DRAM bandwidth */
	struct gl_estimate e;
	gl_estimate_launch(gl_gpu_model_default(), &l, &e);
	CHECK(g && fabs(g->estimated_speedup - (1 - fmax(e.bound_us[GL_BOUND_LATENCY] / 8, e.bound_us[GL_BOUND_DRAM]) /
							e.time_us)) < 1e-9);
	l.regs = 0, l.block[0] = 2048; /* over the block limit: cannot run */
	g = fired(&l, "low_occupancy");
	CHECK(g && strstr(g->message, "cannot run on H100"));
	done(&l);
	/* few warps but nothing to wait for: more of them would not help, so no warning */
	launch(&l, 1056, 256, 168);
	set(&l, GL_M_FFMA, 1e9);
	CHECK(fired(&l, "low_occupancy") == NULL);
	done(&l);
}

static void test_tail(void)
{
	struct gl_launch_record l;
	launch(&l, 1056 * 2, 256, 32); /* two full waves */
	set(&l, GL_M_INST, 1e6);
	CHECK(fired(&l, "tail_effect") == NULL);
	l.grid[0] = 1056 + 100; /* 1.09 waves: the second is 9% full */
	const struct gl_guidance *g = fired(&l, "tail_effect");
	CHECK(g && strstr(g->message, "1.09 waves of 1056 blocks on H100: the last wave is 9% full"));
	CHECK(g && fabs(g->estimated_speedup - (1 - 1156.0 / 2112)) < 1e-9);
	l.grid[0] = 64; /* fewer blocks than SMs */
	g = fired(&l, "tail_effect");
	CHECK(g && strstr(g->message, "keep 64 of the 132 SMs of H100 busy"));
	done(&l);
}

static void test_roofline(void)
{
	struct gl_launch_record l;
	launch(&l, 1056, 256, 32);
	CHECK(fired(&l, "roofline") == NULL); /* nothing counted: nothing to place */
	set(&l, GL_M_GLD_REQ, 1e6), set(&l, GL_M_GLD_SECT, 4e6), set(&l, GL_M_UNIQ_LD_SECT, 4e6);
	set(&l, GL_M_FFMA, 1e6);
	const struct gl_guidance *g = fired(&l, "roofline");
	CHECK(g && strstr(g->message, "memory-bound by DRAM"));
	CHECK(g && strstr(g->message, "estimate (model) on H100"));
	CHECK(g && fabs(g->value - 2e6 / 128e6) < 1e-12); /* FLOP per DRAM byte */
	set(&l, GL_M_FFMA, 1e11); /* 2e11 FLOP on 128 MB: compute */
	g = fired(&l, "roofline");
	CHECK(g && strstr(g->message, "compute-bound by FP32"));
	done(&l);
}

int main(void)
{
	test_uncoalesced();
	test_bank_conflicts();
	test_atomics();
	test_divergence();
	test_local();
	test_occupancy_rule();
	test_tail();
	test_roofline();
	test_hotspot();
	for (const struct gl_rule *r = gl_rules; r->name; r++) /* every rule has its message parts */
		CHECK(r->fix && r->metrics && r->severity && gl_rule_find(r->name) == r);
	CHECK_DONE();
}
