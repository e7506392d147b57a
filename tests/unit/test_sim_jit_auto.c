/* test_sim_jit_auto.c — --engine auto's decision (sim_jit_auto_pick, docs/sim.md "Engines"): a pure
 * function of the thread-instructions of the measured CTA, the CTAs left, the kernel's PTX instructions,
 * the workers and whether the compiled kernel is cached.  Then a launch: a small one stays on the
 * interpreter without asking the cache, and a loop-heavy one (tests/fixtures/sim/loop.ptx) switches to
 * the compiled engine after CTA 0 with the interpreter's counts and output. */
#include <stdlib.h>
#include <unistd.h>

#include "sim/sim_jit.h"
#include "sim_fixture.h"

#define PICK(work, left, ncode, workers, cached) sim_jit_auto_pick(work, left, ncode, workers, cached)

static void floor_and_cache(void)
{
	const uint64_t floor = GL_SIM_JIT_AUTO_WORK;
	/* below the floor nothing is worth even loading a cached kernel for */
	CHECK_EQ(PICK(floor - 1, 1, 100, 1, true), SIM_JIT_PICK_INTERP);
	CHECK_EQ(PICK(1000, 1000, 100, 1, true), SIM_JIT_PICK_INTERP);
	CHECK_EQ(PICK(floor / 4 - 1, 4, 100, 1, true), SIM_JIT_PICK_INTERP);
	/* at the floor a cached kernel is used, whatever its size and the workers */
	CHECK_EQ(PICK(floor, 1, 100, 1, true), SIM_JIT_PICK_CACHED);
	CHECK_EQ(PICK(floor / 4, 4, 2000, 64, true), SIM_JIT_PICK_CACHED);
	/* past the compiled engine's size limit, never: cached or not, whatever the work */
	CHECK_EQ(PICK(UINT64_C(1) << 40, 1000, SIM_JIT_MAX_INSNS + 1, 1, true), SIM_JIT_PICK_INTERP);
	CHECK_EQ(PICK(UINT64_C(1) << 40, 1000, SIM_JIT_MAX_INSNS + 1, 1, false), SIM_JIT_PICK_INTERP);
	CHECK_EQ(PICK(UINT64_C(1) << 40, 1000, SIM_JIT_MAX_INSNS, 1, false), SIM_JIT_PICK_COMPILE);
	/* but the same work does not repay a compile */
	CHECK_EQ(PICK(floor, 1, 100, 1, false), SIM_JIT_PICK_INTERP);
	/* nothing left: the interpreter, even for a huge CTA */
	CHECK_EQ(PICK(UINT64_C(1) << 40, 0, 10, 1, true), SIM_JIT_PICK_INTERP);
	CHECK_EQ(PICK(UINT64_C(1) << 40, -3, 10, 1, false), SIM_JIT_PICK_INTERP);
}

static void compile_rule(void)
{
	/* the compile estimate: 0.1 s to start, 1.5 ms per PTX instruction */
	CHECK_NEAR(sim_jit_compile_estimate(0), 0.1, 1e-12);
	CHECK_NEAR(sim_jit_compile_estimate(934), 1.501, 1e-9);
	/* the tiled GEMM at 1024 on 2 workers: CTA 0 runs 25.75 M thread-instructions and 62 CTAs follow
	 * (1.6 G, 1.33 s interpreted) against a compile of 1.5 s: interpreted unless cached */
	CHECK_EQ(PICK(25750528, 62, 934, 2, false), SIM_JIT_PICK_INTERP);
	CHECK_EQ(PICK(25750528, 62, 934, 1, false), SIM_JIT_PICK_INTERP);
	CHECK_EQ(PICK(25750528, 62, 934, 2, true), SIM_JIT_PICK_CACHED);
	/* at 2048 (each CTA twice the k loop, 4x the CTAs): 12.9 G, 10.8 s on 2 workers, repays it; on 16
	 * workers (1.3 s) it does not */
	CHECK_EQ(PICK(2 * 25750528ull, 254, 934, 2, false), SIM_JIT_PICK_COMPILE);
	CHECK_EQ(PICK(2 * 25750528ull, 240, 934, 16, false), SIM_JIT_PICK_INTERP);
	/* loop_hash (61 instructions) with 62 CTAs left on 2 workers: compiles from 459 M on, that is from
	 * a loop of 11564 iterations (CTA 0 runs 640 x ITERS + 3840) */
	CHECK_EQ(PICK(640 * 11550 + 3840, 62, 61, 2, false), SIM_JIT_PICK_INTERP);
	CHECK_EQ(PICK(640 * 11580 + 3840, 62, 61, 2, false), SIM_JIT_PICK_COMPILE);
	CHECK_EQ(PICK(640 * 20000 + 3840, 62, 61, 2, false), SIM_JIT_PICK_COMPILE);
	CHECK_EQ(PICK(640 * 2000 + 3840, 62, 61, 2, false), SIM_JIT_PICK_INTERP);
	CHECK_EQ(PICK(640 * 2000 + 3840, 62, 61, 2, true), SIM_JIT_PICK_CACHED);
	CHECK_EQ(PICK(640 * 200 + 3840, 62, 61, 2, true), SIM_JIT_PICK_INTERP);
	/* the rule is W >= 1.8 M x workers x (ncode + 200/3): monotonic in each argument */
	for (int workers = 1; workers <= 64; workers *= 2)
		for (int ncode = 1; ncode <= 4000; ncode *= 4) {
			double k = 1.8e6 * workers * (ncode + 200.0 / 3);
			CHECK_EQ(PICK((uint64_t)(k * 1.01), 1, ncode, workers, false), SIM_JIT_PICK_COMPILE);
			CHECK_EQ(PICK((uint64_t)(k * 0.99), 1, ncode, workers, false), SIM_JIT_PICK_INTERP);
			CHECK_EQ(PICK((uint64_t)(k * 1.01), 1, ncode, workers * 2, false),
				 SIM_JIT_PICK_INTERP); /* more workers interpret it sooner */
			CHECK_EQ(PICK((uint64_t)(k * 1.01), 1, ncode * 2 + 20, workers, false),
				 SIM_JIT_PICK_INTERP); /* a bigger kernel takes longer to compile */
		}
}

/* loop_hash over 64 CTAs of `threads` threads on 2 workers, with `iters` iterations; the output in out[]. */
static int run_loop_in(const struct ptx_module *m, int engine, int threads, int iters, struct gl_sim_result *res,
		       uint32_t *out)
{
	struct gl_launch l = {0};
	fx_geometry(&l, "loop_hash", 64, 1, threads, 1);
	uint32_t *in = fx_buffer(&l, "in", GL_U32, 8192);
	for (int i = 0; i < 8192; i++)
		in[i] = (uint32_t)i * 2654435761u;
	uint32_t *o = fx_buffer(&l, "out", GL_U32, 8192);
	gl_launch_arg_scalar(&l, (uint32_t)iters, 4);
	struct gl_sim_opts opts = {.threads = 2, .engine = engine};
	struct gl_err err = {0};
	int rc = gl_sim_run(m, &l, &opts, res, &err);
	if (rc == GL_OK)
		memcpy(out, o, 8192 * sizeof *out);
	else
		fprintf(stderr, "loop_hash: %s\n", err.msg);
	CHECK_EQ(rc, GL_OK);
	gl_launch_free(&l);
	return rc;
}

static int run_loop(const struct ptx_module *m, int engine, int iters, struct gl_sim_result *res, uint32_t *out)
{
	return run_loop_in(m, engine, 128, iters, res, out);
}

/* The compiled function runs full warps only, so auto measures the work of full warps: with the kernel
 * cached, 48 threads (a full warp and 16 lanes) use it and say how much of CTA 0 was in full warps; 16
 * threads (no full warp) stay on the interpreter, however much work there is. */
static void partial_warps(void)
{
	struct ptx_module *m = fx_fixture("loop");
	if (!m)
		return;
	static uint32_t oi[8192], oa[8192];
	struct gl_sim_result a, b;
	if (run_loop_in(m, GL_ENGINE_COMPILED, 48, 10, &a, oa) == GL_OK) /* into the cache */
		gl_sim_result_free(&a);
	if (run_loop_in(m, GL_ENGINE_INTERP, 48, 4000, &a, oi) == GL_OK) {
		if (run_loop_in(m, GL_ENGINE_AUTO, 48, 4000, &b, oa) == GL_OK) {
			CHECK_STR(b.engine, "compiled");
			const char *note = " in full warps, the only ones compiled code runs); 62 CTAs left after one "
					   "per worker (about ";
			CHECK(strstr(b.engine_note, note) != NULL);
			CHECK(strstr(b.engine_note, "run on the cached compiled kernel") != NULL);
			CHECK(memcmp(&a.c, &b.c, sizeof a.c) == 0);
			CHECK(memcmp(oi, oa, 48 * 64 * sizeof *oi) == 0);
			gl_sim_result_free(&b);
		}
		gl_sim_result_free(&a);
	}
	if (run_loop_in(m, GL_ENGINE_COMPILED, 16, 10, &a, oa) == GL_OK) /* into the cache */
		gl_sim_result_free(&a);
	if (run_loop_in(m, GL_ENGINE_AUTO, 16, 4000, &b, oa) == GL_OK) { /* 19.9 M left: enough if counted */
		CHECK_STR(b.engine, "interp");
		CHECK_STR(b.engine_note, "");
		CHECK_EQ(b.jit_ctas, 0);
		gl_sim_result_free(&b);
	}
	ptx_module_free(m);
}

static void launches(const char *cache)
{
	struct ptx_module *m = fx_fixture("loop");
	if (!m)
		return;
	static uint32_t oi[8192], oa[8192];
	struct gl_sim_result a, b;
	/* small: the interpreter, and the cache is not even asked (its directory is not made) */
	if (run_loop(m, GL_ENGINE_AUTO, 10, &a, oa) == GL_OK) {
		CHECK_STR(a.engine, "interp");
		CHECK_STR(a.engine_note, "");
		CHECK_EQ(a.jit_ctas, 0);
		CHECK_EQ(a.jit_measured_cta, -1);
		char dir[600];
		snprintf(dir, sizeof dir, "%s/gpulab", cache);
		CHECK(access(dir, F_OK) != 0);
		gl_sim_result_free(&a);
	}
	/* loop-heavy: CTA 0 on the interpreter, then a compile, then the compiled engine */
	if (run_loop(m, GL_ENGINE_INTERP, 20000, &a, oi) == GL_OK) {
		if (run_loop(m, GL_ENGINE_AUTO, 20000, &b, oa) == GL_OK) {
			CHECK_STR(b.engine, "compiled");
			CHECK_EQ(b.jit_measured_cta, 0);
			CHECK(b.jit_ctas > 0 && b.jit_ctas < 64);
			CHECK(b.jit_compile_seconds > 0);
			const char *note = "auto: CTA 0 ran 12803840 thread-instructions on the interpreter; ";
			CHECK(strncmp(b.engine_note, note, strlen(note)) == 0);
			CHECK(memcmp(&a.c, &b.c, sizeof a.c) == 0);
			CHECK(memcmp(oi, oa, sizeof oi) == 0);
			CHECK_EQ(b.ctas_run, 64);
			gl_sim_result_free(&b);
		}
		gl_sim_result_free(&a);
	}
	ptx_module_free(m);
}

int main(void)
{
	floor_and_cache();
	compile_rule();
	if (!fx_have_cc()) {
		fprintf(stderr, "no C compiler: auto's switch to the compiled engine is not tested here\n");
		CHECK_DONE();
	}
	char cache[512];
	snprintf(cache, sizeof cache, "%s/gpulab-test-jit-auto-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(cache)) {
		CHECK(false);
		CHECK_DONE();
	}
	setenv("XDG_CACHE_HOME", cache, 1);
	launches(cache);
	partial_warps();
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
	CHECK_EQ(system(cmd), 0);
	CHECK_DONE();
}
