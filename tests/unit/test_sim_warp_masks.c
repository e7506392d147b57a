/* test_sim_warp_masks.c — warp collectives whose lanes pass different member masks (PTX ISA: vote.sync,
 * match.sync, redux.sync, shfl.sync operate over each executing thread's membermask), as
 * cooperative_groups labeled_partition, tiled_partition, coalesced_threads and cg::reduce compile to
 * (tests/fixtures/sim/cgroups.cu), checked against host references; and the "warp-sync" findings for
 * masks that leave out the calling lane or name a lane that never executes the instruction. */
#include "tests/unit/sim_fixture.h"

#define N 128 /* 4 CTAs of 32, or one CTA of 128 */

static void make_keys(int *keys, int *vals, uint64_t seed)
{
	for (int t = 0; t < N; t++) {
		keys[t] = (int)(fx_rand(&seed) % 5);
		vals[t] = (int)(fx_rand(&seed) % 100);
	}
}

/* The lanes of t's warp with t's key. */
static uint32_t same_key(const int *keys, int t)
{
	uint32_t m = 0;
	int w = t / 32 * 32;
	for (int k = 0; k < 32; k++)
		m |= (uint32_t)(keys[w + k] == keys[t]) << k;
	return m;
}

static void test_label_sum(struct ptx_module *m)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "label_sum", 4, 1, 32, 1);
	int *keys = fx_buffer(&l, "keys", GL_I32, N), *vals = fx_buffer(&l, "vals", GL_I32, N);
	int *sums = fx_buffer(&l, "sums", GL_I32, 5), *sizes = fx_buffer(&l, "sizes", GL_I32, N);
	int *ranks = fx_buffer(&l, "ranks", GL_I32, N);
	make_keys(keys, vals, 11);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	int want[5] = {0};
	for (int t = 0; t < N; t++) {
		want[keys[t]] += vals[t];
		uint32_t g = same_key(keys, t);
		CHECK_EQ(sizes[t], __builtin_popcount(g));
		CHECK_EQ(ranks[t], __builtin_popcount(g & ((1u << (t % 32)) - 1)));
	}
	for (int k = 0; k < 5; k++)
		CHECK_EQ(sums[k], want[k]);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_label_vote(struct ptx_module *m)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "label_vote", 1, 1, N, 1);
	int *keys = fx_buffer(&l, "keys", GL_I32, N), *vals = fx_buffer(&l, "vals", GL_I32, N);
	uint32_t *out = fx_buffer(&l, "out", GL_U32, 4 * N);
	make_keys(keys, vals, 12);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	for (int t = 0; t < N; t++) {
		uint32_t g = same_key(keys, t), ballot = 0, mx = 0;
		int any = 0, all = 1, w = t / 32 * 32;
		for (int k = 0; k < 32; k++)
			if (g >> k & 1) {
				int v = vals[w + k];
				ballot |= (uint32_t)(v > 50) << k;
				any |= v > 90;
				all &= v >= 10;
				mx = (uint32_t)v > mx ? (uint32_t)v : mx;
			}
		CHECK_EQ(out[4 * t + 3], g);
		CHECK_EQ(out[4 * t + 0], ballot);
		CHECK_EQ(out[4 * t + 1], (uint32_t)(any + 2 * all));
		CHECK_EQ(out[4 * t + 2], mx);
	}
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_tile_reduce(struct ptx_module *m)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "tile_reduce", 2, 1, 64, 1);
	int *vals = fx_buffer(&l, "vals", GL_I32, N);
	int *o16 = fx_buffer(&l, "out16", GL_I32, N), *o8 = fx_buffer(&l, "out8", GL_I32, N);
	uint64_t seed = 13;
	for (int t = 0; t < N; t++)
		vals[t] = (int)(fx_rand(&seed) % 1000) - 500;
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	for (int t = 0; t < N; t++) {
		int s = 0, mx = INT32_MIN;
		for (int k = t / 16 * 16; k < t / 16 * 16 + 16; k++)
			s += vals[k];
		for (int k = t / 8 * 8; k < t / 8 * 8 + 8; k++)
			mx = vals[k] > mx ? vals[k] : mx;
		CHECK_EQ(o16[t], s);
		CHECK_EQ(o8[t], mx);
	}
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void test_compact(struct ptx_module *m)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "compact", 2, 1, 64, 1);
	int *vals = fx_buffer(&l, "vals", GL_I32, N), *out = fx_buffer(&l, "out", GL_I32, N);
	int *count = fx_buffer(&l, "count", GL_I32, 1);
	uint64_t seed = 14;
	int want = 0;
	for (int t = 0; t < N; t++) {
		vals[t] = (int)(fx_rand(&seed) % 1000);
		want += vals[t] % 3 == 0;
	}
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	CHECK_EQ(*count, want);
	/* every multiple of 3 lands exactly once (in some order) */
	int seen = 0;
	for (int t = 0; t < N; t++)
		if (vals[t] % 3 == 0)
			for (int k = 0; k < want; k++)
				if (out[k] == vals[t]) {
					seen++;
					out[k] = -1;
					break;
				}
	CHECK_EQ(seen, want);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

/* Each broken kernel: one "warp-sync" error naming the rule, and the run goes on. */
static void test_bad(struct ptx_module *m, const char *entry, const char *words)
{
	struct gl_launch l = {0};
	fx_geometry(&l, entry, 1, 1, 32, 1);
	int *vals = fx_buffer(&l, "vals", GL_I32, 32);
	fx_buffer(&l, "out", GL_I32, 32);
	for (int t = 0; t < 32; t++)
		vals[t] = t;
	struct gl_sim_result res;
	CHECK_EQ(fx_run(m, &l, &res), GL_OK);
	const struct gl_finding *f = fx_finding(&res, "warp-sync");
	CHECK(f != NULL);
	if (f) {
		CHECK(strstr(f->message, words) != NULL);
		CHECK(!f->warning);
	}
	CHECK_EQ(res.nerrors, 1);
	CHECK(!res.aborted);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

/* Same masks in every lane and every lane present: no finding (the per-lane path must not flag it). */
static const char *const mixed_text =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 pout)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [pout];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 8;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n"
	/* lanes 0-15 pass 0x0000ffff, lanes 16-31 pass 0xffff0000 */
	"\tsetp.lt.u32 %p1, %r1, 16;\n\tselp.b32 %r2, 0x0000ffff, 0xffff0000, %p1;\n"
	"\tredux.sync.add.u32 %r3, %r1, %r2;\n"
	"\tmatch.all.sync.b32 %r4|%p2, %r2, %r2;\n"
	"\tst.global.v2.u32 [%rd3], {%r3, %r4};\n\tret;\n}\n";

static void test_mixed_masks(void)
{
	struct ptx_module *m = fx_parse(mixed_text, "mixed.ptx");
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "k", 1, 1, 32, 1);
	uint32_t *out = fx_buffer(&l, "out", GL_U32, 64);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	for (int t = 0; t < 32; t++) {
		CHECK_EQ(out[2 * t], t < 16 ? 120u : 376u); /* 0+..+15, 16+..+31 */
		CHECK_EQ(out[2 * t + 1], t < 16 ? 0x0000ffffu : 0xffff0000u);
	}
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

int main(void)
{
	struct ptx_module *m = fx_fixture("cgroups");
	if (m) {
		test_label_sum(m);
		test_label_vote(m);
		test_tile_reduce(m);
		test_compact(m);
		test_bad(m, "bad_mask", "does not include the thread's own lane");
		test_bad(m, "absent_member", "does not execute this instruction");
		ptx_module_free(m);
	}
	test_mixed_masks();
	CHECK_DONE();
}
