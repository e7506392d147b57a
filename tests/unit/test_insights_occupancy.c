/* test_insights_occupancy.c — the occupancy calculator's rules: the worked examples of cuda_occupancy.h
 * (docs/insights.md), and every variant of every topic on H100 against the rules applied here again,
 * written out separately from ptxas's registers and shared memory and the topic's block size. */
#include <string.h>

#include "check.h"
#include "insights/occupancy.h"
#include "kernels/registry.h"

static const struct gl_gpu_model *model(const char *name)
{
	const struct gl_gpu_model *g = NULL;
	struct gl_err err = {0};
	CHECK_EQ(gl_gpu_model_lookup(name, &g, &err), GL_OK);
	return g;
}

static int blocks(const char *gpu, int threads, int regs, int smem, int dyn)
{
	struct gl_occ_input in = {threads, regs, smem, dyn};
	struct gl_occupancy o;
	gl_occupancy_compute(model(gpu), &in, &o);
	return o.blocks_per_sm;
}

/* The header's results for hypothetical kernels (cuda_occupancy.h, CUDA 13.0). */
static void test_examples(void)
{
	CHECK_EQ(blocks("A100", 256, 40, 0, 0), 6);     /* registers: 1280 a warp, 12 warps per sub-partition */
	CHECK_EQ(blocks("H100", 256, 40, 0, 0), 6);
	CHECK_EQ(blocks("L4", 256, 32, 0, 0), 6);       /* warps: 48 / 8 */
	CHECK_EQ(blocks("H100", 1024, 255, 0, 0), 0);   /* 1024 threads allow 64 registers at most */
	CHECK_EQ(blocks("H100", 288, 200, 0, 0), 0);    /* 6400 x roundUp(9, 4) > 65536 */
	CHECK_EQ(blocks("A100", 256, 32, 48 * 1024, 0), 3); /* (49152 + 1024) into 167936 */
	CHECK_EQ(blocks("H100", 256, 32, 48 * 1024, 0), 4); /* into 233472 */
	CHECK_EQ(blocks("H100", 384, 168, 0, 200 * 1024), 1);
	CHECK_EQ(blocks("L4", 384, 168, 0, 200 * 1024), 0); /* over the per-block cap */
	CHECK_EQ(blocks("RTX4090", 32, 16, 0, 0), 24);  /* the SM's block limit */
	struct gl_occ_input in = {256, 40, 0, 0};
	struct gl_occupancy o;
	gl_occupancy_compute(model("H100"), &in, &o);
	CHECK_EQ(o.limiter, GL_OCC_REGISTERS);
	CHECK_EQ(o.warps_per_sm, 48);
	CHECK_NEAR(o.pct, 75.0, 1e-9);
}

/* H100's rules written out again: registers 256 per warp in 4 sub-partitions of 16384, shared memory
 * in 128-byte units with a 1 KB reserve out of 233472, 64 warps, 32 blocks. */
static int h100_expected(int threads, int regs, int smem)
{
	int warps = (threads + 31) / 32;
	int by_warps = 64 / warps;
	int per_warp = (regs * 32 + 255) / 256 * 256;
	int by_regs = per_warp ? 4 * (16384 / per_warp) / warps : 1 << 30;
	int alloc = (smem + 1024 + 127) / 128 * 128;
	int by_smem = 233472 / alloc;
	int b = by_warps < by_regs ? by_warps : by_regs;
	b = b < by_smem ? b : by_smem;
	return b < 32 ? b : 32;
}

static void test_every_variant(void)
{
	const struct gl_gpu_model *g = model("H100");
	int n = 0;
	for (const struct gl_topic *const *t = gl_topics; *t; t++)
		for (int i = 0; i < (*t)->nvariants; i++) {
			const struct gl_variant *v = &(*t)->variants[i];
			struct gl_problem p;
			struct gl_launch l;
			struct gl_err err = {0};
			memset(&l, 0, sizeof l);
			gl_problem_defaults(*t, &p);
			if (gl_topic_setup(*t, v, &p, &l, &err) != GL_OK) {
				fprintf(stderr, "%s %s: %s\n", (*t)->name, v->name, err.msg);
				CHECK(0);
				continue;
			}
			struct gl_resources res;
			gl_topic_resources(*t, v->entry, "sm_90", &res);
			CHECK(res.regs > 0);
			int threads = (int)(l.block[0] * l.block[1] * l.block[2]);
			int smem = res.static_smem + (int)l.dyn_smem;
			struct gl_occ_input in = {threads, res.regs, res.static_smem, (int)l.dyn_smem};
			struct gl_occupancy o;
			gl_occupancy_compute(g, &in, &o);
			int want = h100_expected(threads, res.regs, smem);
			if (o.blocks_per_sm != want)
				fprintf(stderr, "%s %s: %d threads, %d regs, %d B: %d blocks, expected %d\n", (*t)->name,
					v->name, threads, res.regs, smem, o.blocks_per_sm, want);
			CHECK_EQ(o.blocks_per_sm, want);
			CHECK_EQ(o.warps_per_sm, want * ((threads + 31) / 32));
			gl_launch_free(&l);
			n++;
		}
	CHECK(n >= 20);
}

int main(void)
{
	test_examples();
	test_every_variant();
	CHECK_DONE();
}
