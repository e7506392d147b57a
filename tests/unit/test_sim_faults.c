/* test_sim_faults.c — what an invalid access does under each policy of gl_sim_opts.faults (sim/sim.h,
 * docs/sim.md "Device memory: mapped, allocated, faulting"), on the kernels of
 * tests/fixtures/sim/faults.ptx, whose last thread makes the one invalid access.  The launch's first
 * buffer is placed at the start of one mapped granule (GL_SIM_GRANULE bytes of host memory the test
 * owns), as a driver places a small cudaMalloc:
 *   - off (gpulab sim): refused, reported relative to the buffer, the launch goes on;
 *   - GPU: inside the granule the access is made (a read returns what is there, a write lands there) and
 *     reported the same way; outside it, misaligned, or past shared memory, the launch stops with the
 *     fault (kind, address, space, size, block, thread, PTX line) and the CTAs before it complete;
 *   - memcheck: the first reported error stops the launch before the access (LAUNCH_FAILED); with
 *     memcheck not selected, the GPU's behaviour.
 * Every case runs on the interpreter and on the compiled engine.  The option checks come last. */
#include <stdlib.h>
#include <unistd.h>

#include "tests/unit/sim_fixture.h"

#define N 256       /* elements: 4 CTAs of 64 threads, the last thread in the last CTA */
#define THREADS 64
#define POISON 42.0f /* what the granule holds right after the first buffer */

struct dev {
	struct gl_launch l;
	uint8_t *granule;
	void *own;                 /* the first buffer's own host memory, given back before gl_launch_free */
	struct gl_sim_mapping map;
	struct gl_sim_result res;
	bool ok;
};

static int engine;

/* tests/fixtures/sim/faults.ptx, parsed once */
static struct ptx_module *module(void)
{
	static struct ptx_module *m;
	if (!m)
		m = fx_fixture("faults");
	return m;
}

/* Put buffer 0 at the start of a mapped granule: its bytes, then POISON floats to the granule's end. */
static void map_first_buffer(struct dev *d)
{
	struct gl_buffer *b = &d->l.buffers[0];
	size_t bytes = b->count * gl_dtype_size(b->dtype);
	CHECK_EQ(gl_sim_buffer_address(&d->l, 0), GL_SIM_GLOBAL_BASE);
	CHECK_EQ(GL_SIM_GLOBAL_BASE % GL_SIM_GRANULE, 0);
	d->granule = malloc(GL_SIM_GRANULE);
	for (size_t k = 0; k < GL_SIM_GRANULE / 4; k++)
		memcpy(d->granule + 4 * k, &(float){POISON}, 4);
	memcpy(d->granule, b->host, bytes);
	d->own = b->host;
	b->host = d->granule;
	d->map = (struct gl_sim_mapping){GL_SIM_GLOBAL_BASE, GL_SIM_GRANULE, d->granule};
}

static void run(struct dev *d, int faults, int tools)
{
	struct gl_sim_opts o = {.threads = 2, .engine = engine, .faults = faults, .mapped = &d->map, .nmapped = 1,
				.tools = tools};
	d->ok = fx_run_opts(module(), &d->l, &d->res, &o) == GL_OK;
	CHECK(d->ok);
	if (d->ok && engine == GL_ENGINE_COMPILED)
		CHECK(strcmp(d->res.engine, "compiled") == 0);
}

static void release(struct dev *d)
{
	if (d->ok)
		gl_sim_result_free(&d->res);
	d->l.buffers[0].host = d->own;
	free(d->granule);
	gl_launch_free(&d->l);
}

/* A launch of `kernel` over N threads; the caller adds its buffers and arguments, then maps them. */
static void start(struct dev *d, const char *kernel)
{
	memset(d, 0, sizeof *d);
	fx_geometry(&d->l, kernel, N / THREADS, 1, THREADS, 1);
}

/* read_at: in (N floats 0, 1, 2, ...), out; the last thread reads in[N - 1 + extra]. */
static float *setup_read(struct dev *d, long long extra)
{
	start(d, "read_at");
	float *in = fx_buffer(&d->l, "in", GL_F32, N);
	for (int i = 0; i < N; i++)
		in[i] = (float)i;
	float *out = fx_buffer(&d->l, "out", GL_F32, N);
	gl_launch_arg_scalar(&d->l, N, 4);
	gl_launch_arg_scalar(&d->l, (uint64_t)extra, 8);
	map_first_buffer(d);
	return out;
}

static const struct gl_finding *oob(const struct dev *d)
{
	return d->ok ? fx_finding(&d->res, "out-of-bounds") : NULL;
}

/* The finding names the address relative to the buffer, whatever the policy. */
static void check_one_past(const struct dev *d)
{
	const struct gl_finding *f = oob(d);
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ(f->address, GL_SIM_GLOBAL_BASE + 4 * N);
	CHECK(strcmp(f->space, "global") == 0);
	CHECK(strstr(f->message, "0 bytes after the end of buffer 'in'") != NULL);
	CHECK_EQ(f->thread[0], THREADS - 1);
	CHECK_EQ(f->block[0], N / THREADS - 1);
}

static void test_off_refuses(void)
{
	struct dev d;
	float *out = setup_read(&d, 1);
	run(&d, GL_SIM_FAULTS_OFF, 0);
	check_one_past(&d);
	CHECK_EQ(out[N - 2], N - 2);
	CHECK_EQ(out[N - 1], 0); /* refused: the load gives 0 */
	CHECK_EQ(d.res.fault.kind, GL_SIM_FAULT_NONE);
	CHECK(!d.res.aborted);
	release(&d);
}

static void test_gpu_reads_mapped(void)
{
	struct dev d;
	float *out = setup_read(&d, 1);
	run(&d, GL_SIM_FAULTS_GPU, 0);
	check_one_past(&d);
	CHECK_EQ(out[N - 1], POISON); /* what the granule holds there */
	CHECK_EQ(d.res.fault.kind, GL_SIM_FAULT_NONE);
	CHECK(!d.res.aborted);
	CHECK_EQ(d.res.ctas_run, N / THREADS);
	release(&d);
}

/* One element past the granule's end: unmapped, the launch stops at the last CTA. */
static void test_gpu_faults_unmapped(void)
{
	struct dev d;
	long long extra = GL_SIM_GRANULE / 4 - (N - 1);
	float *out = setup_read(&d, extra);
	run(&d, GL_SIM_FAULTS_GPU, 0);
	const struct gl_sim_fault *f = &d.res.fault;
	CHECK_EQ(f->kind, GL_SIM_FAULT_ILLEGAL_ADDRESS);
	CHECK_EQ(f->address, GL_SIM_GLOBAL_BASE + GL_SIM_GRANULE);
	CHECK_EQ(f->size, 4);
	CHECK(!f->is_store);
	CHECK(strcmp(f->space, "global") == 0);
	CHECK_EQ(f->block[0], N / THREADS - 1);
	CHECK_EQ(f->thread[0], THREADS - 1);
	CHECK_EQ(f->line, 54); /* faults.ptx: ld.global.f32 %f1, [%rd9] */
	CHECK(d.res.aborted);
	CHECK_EQ(d.res.aborted_cta, N / THREADS - 1);
	CHECK_EQ(out[0], 0);     /* CTA 0 completed before the fault */
	CHECK_EQ(out[64], 64);   /* and so did CTAs 1 and 2 */
	CHECK_EQ(out[191], 191);
	CHECK(oob(&d) != NULL);  /* reported as well */
	release(&d);
}

static void test_gpu_writes_mapped(void)
{
	struct dev d;
	start(&d, "write_at");
	fx_buffer(&d.l, "buf", GL_F32, N);
	gl_launch_arg_scalar(&d.l, N, 4);
	gl_launch_arg_scalar(&d.l, 1, 8);
	map_first_buffer(&d);
	run(&d, GL_SIM_FAULTS_GPU, 0);
	float past;
	memcpy(&past, d.granule + 4 * N, 4);
	CHECK_EQ(past, N - 1); /* the write landed in the granule, past the buffer */
	const struct gl_finding *f = oob(&d);
	CHECK(f != NULL && strstr(f->message, "invalid __global__ write of size 4") != NULL);
	CHECK_EQ(d.res.fault.kind, GL_SIM_FAULT_NONE);
	release(&d);
}

static void test_gpu_misaligned(void)
{
	struct dev d;
	start(&d, "read_misaligned");
	fx_buffer(&d.l, "in", GL_I32, N);
	fx_buffer(&d.l, "out", GL_I32, N);
	gl_launch_arg_scalar(&d.l, N, 4);
	gl_launch_arg_scalar(&d.l, 2, 8);
	map_first_buffer(&d);
	run(&d, GL_SIM_FAULTS_GPU, 0);
	CHECK_EQ(d.res.fault.kind, GL_SIM_FAULT_MISALIGNED_ADDRESS);
	CHECK_EQ(d.res.fault.address, GL_SIM_GLOBAL_BASE + 4 * (N - 1) + 2);
	CHECK(d.ok && fx_finding(&d.res, "misaligned") != NULL);
	release(&d);
}

static void test_gpu_shared(void)
{
	struct dev d;
	start(&d, "shared_at");
	fx_buffer(&d.l, "out", GL_I32, N);
	gl_launch_arg_scalar(&d.l, N, 4);
	gl_launch_arg_scalar(&d.l, 100, 4); /* s[100]: past the 64 words */
	map_first_buffer(&d);
	run(&d, GL_SIM_FAULTS_GPU, 0);
	CHECK_EQ(d.res.fault.kind, GL_SIM_FAULT_ILLEGAL_ADDRESS);
	CHECK(strcmp(d.res.fault.space, "shared") == 0);
	CHECK_EQ(d.res.fault.address, 400);
	release(&d);
}

static void test_memcheck_stops(void)
{
	struct dev d;
	float *out = setup_read(&d, 1);
	run(&d, GL_SIM_FAULTS_MEMCHECK, 0);
	check_one_past(&d);
	CHECK_EQ(d.res.fault.kind, GL_SIM_FAULT_LAUNCH_FAILED);
	CHECK_EQ(d.res.fault.address, GL_SIM_GLOBAL_BASE + 4 * N);
	CHECK(d.res.aborted);
	CHECK_EQ(out[N - 1], 0); /* stopped before the access: its warp stored nothing ... */
	CHECK_EQ(out[N - 2], 0);
	CHECK_EQ(out[N - THREADS - 1], N - THREADS - 1); /* ... while the CTAs before it completed */
	release(&d);
	/* without memcheck among the tools, nothing is reported and the GPU's behaviour holds */
	out = setup_read(&d, 1);
	run(&d, GL_SIM_FAULTS_MEMCHECK, GL_TOOL_RACECHECK);
	CHECK(oob(&d) == NULL);
	CHECK_EQ(d.res.fault.kind, GL_SIM_FAULT_NONE);
	CHECK_EQ(out[N - 1], POISON);
	release(&d);
}

static void test_all(void)
{
	test_off_refuses();
	test_gpu_reads_mapped();
	test_gpu_faults_unmapped();
	test_gpu_writes_mapped();
	test_gpu_misaligned();
	test_gpu_shared();
	test_memcheck_stops();
}

/* A wrong policy or mapping is a usage error that names it. */
static void expect_refused(int faults, const struct gl_sim_mapping *maps, int n, const char *words)
{
	struct dev d;
	setup_read(&d, 1);
	struct gl_sim_opts o = {.threads = 1, .faults = faults, .mapped = maps, .nmapped = n};
	struct gl_err err = {0};
	int rc = gl_sim_run(module(), &d.l, &o, &d.res, &err);
	CHECK_EQ(rc, GL_EUSAGE);
	if (!strstr(err.msg, words))
		fprintf(stderr, "  expected '%s' in: %s\n", words, err.msg);
	CHECK(strstr(err.msg, words) != NULL);
	if (rc == GL_OK)
		gl_sim_result_free(&d.res);
	release(&d);
}

static void test_option_checks(void)
{
	static uint8_t host[64];
	struct gl_sim_mapping ok = {GL_SIM_GLOBAL_BASE, 64, host};
	expect_refused(7, &ok, 1, "unknown fault policy 7");
	expect_refused(GL_SIM_FAULTS_GPU, NULL, 1, "1 mappings");
	expect_refused(GL_SIM_FAULTS_GPU, &ok, -1, "-1 mappings");
	struct gl_sim_mapping bad[] = {{GL_SIM_GLOBAL_BASE, 0, host}};
	expect_refused(GL_SIM_FAULTS_GPU, bad, 1, "needs a size");
	bad[0] = (struct gl_sim_mapping){GL_SIM_GLOBAL_BASE, 64, NULL};
	expect_refused(GL_SIM_FAULTS_GPU, bad, 1, "host memory");
	bad[0] = (struct gl_sim_mapping){UINT64_MAX - 31, 64, host};
	expect_refused(GL_SIM_FAULTS_GPU, bad, 1, "below 2^64");
	bad[0] = (struct gl_sim_mapping){PTX_SHARED_WINDOW + 4096, 64, host};
	expect_refused(GL_SIM_FAULTS_GPU, bad, 1, "overlaps the simulator's shared window");
	struct gl_sim_mapping two[] = {{GL_SIM_GLOBAL_BASE + 32, 64, host}, {GL_SIM_GLOBAL_BASE, 64, host}};
	expect_refused(GL_SIM_FAULTS_GPU, two, 2, "overlap: give disjoint ranges");
}

int main(void)
{
	if (!module())
		CHECK_DONE();
	engine = GL_ENGINE_INTERP;
	test_all();
	if (fx_have_cc()) {
		char cache[512];
		snprintf(cache, sizeof cache, "%s/gpulab-test-jit-%ld", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
			 (long)getuid());
		setenv("XDG_CACHE_HOME", cache, 1);
		setenv("GPULAB_JIT_CFLAGS", "-O0", 1);
		engine = GL_ENGINE_COMPILED;
		test_all();
	} else {
		fprintf(stderr, "no C compiler: the compiled engine's runs are not tested here\n");
	}
	test_option_checks();
	ptx_module_free(module());
	CHECK_DONE();
}
