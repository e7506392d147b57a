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

static void test_uncoalesced(void)
{
	struct gl_launch_record l;
	launch(&l, 1056, 256, 32);
	set(&l, GL_M_GST_REQ, 1000), set(&l, GL_M_GST_SECT, 32000), set(&l, GL_M_GST_IDEAL, 4000);
	set(&l, GL_M_GLD_REQ, 1000), set(&l, GL_M_GLD_SECT, 4000), set(&l, GL_M_GLD_IDEAL, 4000);
	const struct gl_guidance *g = fired(&l, "uncoalesced_global_stores");
	CHECK(g != NULL);
	if (g) {
		CHECK(strstr(g->message, "32.0 sectors per request against an ideal of 4.0") != NULL);
		CHECK_STR(g->severity, "OPT");
		CHECK_NEAR(g->value, 32.0, 1e-9);
		CHECK_NEAR(g->estimated_speedup, 28000.0 / 32000, 1e-9);
	}
	CHECK(fired(&l, "uncoalesced_global_loads") == NULL); /* 4 of 4: coalesced */
	done(&l);
	/* 8-byte accesses: 8 sectors per request is their ideal, not an excess */
	launch(&l, 1056, 256, 32);
	set(&l, GL_M_GLD_REQ, 100), set(&l, GL_M_GLD_SECT, 800), set(&l, GL_M_GLD_IDEAL, 800);
	CHECK(fired(&l, "uncoalesced_global_loads") == NULL);
	set(&l, GL_M_GLD_SECT, 1700); /* gemm naive's 17 */
	g = fired(&l, "uncoalesced_global_loads");
	CHECK(g && strstr(g->message, "17.0 sectors per request against an ideal of 8.0"));
	done(&l);
}

/* tensor_layout: only for a launch with a layout parameter, only when its global accesses are uncoalesced,
 * naming the layout, the worse side and its sectors per request. */
static void test_layout(void)
{
	struct gl_launch_record l;
	launch(&l, 1056, 256, 32);
	l.params_json = "{\"n\":1,\"layout\":\"nchw\"}";
	set(&l, GL_M_GST_REQ, 1000), set(&l, GL_M_GST_SECT, 16000), set(&l, GL_M_GST_IDEAL, 4000);
	set(&l, GL_M_GLD_REQ, 1000), set(&l, GL_M_GLD_SECT, 4000), set(&l, GL_M_GLD_IDEAL, 4000);
	const struct gl_guidance *g = fired(&l, "tensor_layout");
	CHECK(g && strstr(g->message, "in the nchw layout this kernel's global stores are uncoalesced (16.0 sectors"));
	CHECK(g && isnan(g->estimated_speedup));
	done(&l);
	launch(&l, 1056, 256, 32); /* coalesced both ways: no layout advice */
	l.params_json = "{\"layout\":\"nhwc\"}";
	set(&l, GL_M_GST_REQ, 1000), set(&l, GL_M_GST_SECT, 4000), set(&l, GL_M_GST_IDEAL, 4000);
	CHECK(fired(&l, "tensor_layout") == NULL);
	done(&l);
	launch(&l, 1056, 256, 32); /* uncoalesced, but no layout to change */
	l.params_json = "{\"rows\":64}";
	set(&l, GL_M_GST_REQ, 1000), set(&l, GL_M_GST_SECT, 32000), set(&l, GL_M_GST_IDEAL, 4000);
	CHECK(fired(&l, "uncoalesced_global_stores") != NULL);
	CHECK(fired(&l, "tensor_layout") == NULL);
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
	CHECK(g && fabs(g->estimated_speedup - 3100.0 / 3200) < 1e-9);
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
	set(&l, GL_M_THREADS_PER_INST, 12.5);
	const struct gl_guidance *g = fired(&l, "divergence");
	CHECK(g && strstr(g->message, "12.5 of 32 threads"));
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
	CHECK(g && strstr(g->message, "50 local-memory requests (100 sectors, 20% of the L1/L2 sectors)"));
	done(&l);
}

static void test_occupancy_rule(void)
{
	struct gl_launch_record l;
	launch(&l, 1056, 256, 32); /* 8 blocks x 8 warps = 64: full */
	CHECK(fired(&l, "low_occupancy") == NULL);
	l.regs = 168; /* 5376 registers a warp: 3 warps per sub-partition, 12 per SM, one block of 8 */
	const struct gl_guidance *g = fired(&l, "low_occupancy");
	CHECK(g && strstr(g->message, "12.5% (8 of 64 warps per SM, 1 blocks), limited by registers"));
	l.regs = 0, l.block[0] = 2048; /* over the block limit: cannot run */
	g = fired(&l, "low_occupancy");
	CHECK(g && strstr(g->message, "cannot run on H100"));
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
	test_layout();
	for (const struct gl_rule *r = gl_rules; r->name; r++) /* every rule has its message parts */
		CHECK(r->fix && r->metrics && r->severity && gl_rule_find(r->name) == r);
	CHECK_DONE();
}
