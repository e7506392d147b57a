/* test_profiler_standin.c — the cuda backend through the real dlopen("libcuda.so.1") path, against
 * gpulab's own driver library (driver/, on the simulator) and its test hooks: the library stays loaded
 * after cuInit, a launch's arguments, copies and timing, the driver errors turned into messages, the
 * sticky error of an out-of-bounds kernel, and the PTX ISA check before the JIT.  CTest puts the
 * library's folder on LD_LIBRARY_PATH; run elsewhere, the test skips (77). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernels/registry.h"
#include "profiler/profiler.h"
#include "profiler/cuda_api.h"

/* A kernel that stores one word `off` bytes past its pointer. */
static const char oob_ptx[] = ".version 9.0\n.target sm_80\n.address_size 64\n"
                              ".visible .entry poke(.param .u64 p, .param .u32 off)\n{\n"
                              "\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n"
                              "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [off];\n"
                              "\tcvta.to.global.u64 %rd2, %rd1;\n\tcvt.u64.u32 %rd3, %r1;\n"
                              "\tadd.s64 %rd2, %rd2, %rd3;\n\tmov.u32 %r2, 7;\n"
                              "\tst.global.u32 [%rd2], %r2;\n\tret;\n}\n";

static bool is_standin(void)
{
	struct gl_cuda_api api;
	char why[512];
	if (!gl_cuda_api_open(&api, why, sizeof why))
		return false;
	bool standin = false;
	int count;
	if (gl_cuda_usable(&api, &count, why, sizeof why)) {
		char name[128] = "";
		CUdevice dev;
		api.cuDeviceGet(&dev, 0);
		api.cuDeviceGetName(name, sizeof name, dev);
		standin = strstr(name, "(gpulab simulator)") != NULL;
	}
	gl_cuda_api_unload(&api);
	return standin;
}

static void test_stays_loaded(void)
{
	struct gl_cuda_api api;
	char why[512];
	int count = 0;
	CHECK(gl_cuda_api_open(&api, why, sizeof why));
	CHECK(gl_cuda_usable(&api, &count, why, sizeof why));
	CHECK_EQ(count, 1);
	CHECK(api.cuGetExportTable != NULL); /* cudart needs it; gpulab_driver says CUPTI must not profile */
	CHECK(!gl_cuda_profilable(&api, why, sizeof why));
	CHECK(strstr(why, "gpulab's own driver library") != NULL);
	gl_cuda_api_unload(&api);
	void *again = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD); /* still mapped after cuInit */
	CHECK(again != NULL);
	if (again)
		dlclose(again);
}

/* One variant through open, launch, collect, and the topic's own verification. */
static int run_topic(const char *topic, const char *variant, long size_param, struct gl_launch_record *res,
                     bool *verified, struct gl_err *err)
{
	const struct gl_topic *t;
	const struct gl_variant *v;
	struct gl_problem p;
	struct gl_backend_opts opts = {.repeat = 2, .metrics = "sim"};
	void *ctx = NULL;
	struct gl_launch l = {0};
	if (gl_topic_lookup(topic, &t, err) || gl_variant_lookup(t, variant, &v, err))
		return err->status;
	gl_problem_defaults(t, &p);
	for (int i = 0; size_param > 0 && i < GL_MAX_PARAMS && i < 2; i++)
		p.v[i] = size_param;
	l.module = t->ptx;
	l.module_name = t->name;
	int rc = gl_backend_cuda.open(&opts, &ctx, err);
	if (rc == GL_OK)
		rc = gl_topic_setup(t, v, &p, &l, err);
	if (rc == GL_OK)
		rc = gl_backend_cuda.launch(ctx, &l, err);
	if (rc == GL_OK)
		rc = gl_backend_cuda.collect(ctx, res, err);
	struct gl_verify out = {0};
	if (rc == GL_OK)
		rc = t->verify(v, &p, &l, t, &out, err);
	*verified = rc == GL_OK && out.ok;
	gl_launch_free(&l);
	if (ctx)
		gl_backend_cuda.close(ctx);
	return rc;
}

static void test_launch_and_verify(void)
{
	struct gl_launch_record res = {0};
	struct gl_err err = {0};
	bool ok = false;
	CHECK_EQ(run_topic("transpose", "padded", 96, &res, &ok, &err), GL_OK);
	CHECK(ok);
	CHECK(res.duration_ns > 0 && !isnan(res.duration_ns)); /* median of the timed runs, from events */
	CHECK_EQ(res.metrics.n, 0);                            /* no CUPTI with gpulab's driver */
	CHECK(strstr(res.note, "timings only") != NULL);       /* gpulab's own driver, or CUPTI not found */
	gl_launch_record_free(&res);
	/* scalars of 4 bytes (n) beside pointers: reduce's argument list */
	CHECK_EQ(run_topic("reduce", "warp_shuffle", 0, &res, &ok, &err), GL_OK);
	CHECK(ok);
	gl_launch_record_free(&res);
}

static void expect_failure(const char *fail, int status, const char *words)
{
	struct gl_launch_record res = {0};
	struct gl_err err = {0};
	bool ok;
	setenv("GPULAB_STANDIN_FAIL", fail, 1);
	int rc = run_topic("transpose", "copy", 64, &res, &ok, &err);
	unsetenv("GPULAB_STANDIN_FAIL");
	if (rc != status || !strstr(err.msg, words))
		fprintf(stderr, "GPULAB_STANDIN_FAIL=%s: status %d, '%s'\n", fail, rc, err.msg);
	CHECK_EQ(rc, status);
	CHECK(strstr(err.msg, words) != NULL);
	gl_launch_record_free(&res);
}

static void test_driver_errors(void)
{
	expect_failure("cuInit", GL_EENV, "CUDA_ERROR_NO_DEVICE");
	expect_failure("cuDevicePrimaryCtxRetain", GL_EUSAGE, "cuDevicePrimaryCtxRetain failed");
	expect_failure("cuModuleLoadDataEx", GL_EENV, "failure injected by GPULAB_STANDIN_FAIL");
	expect_failure("cuMemAlloc@2", GL_EUSAGE, "cuMemAlloc of buffer");
	expect_failure("cuMemcpyHtoD", GL_EUSAGE, "cuMemcpyHtoD failed");
	expect_failure("cuLaunchKernel", GL_EENV, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES");
	expect_failure("cuLaunchKernel@2", GL_EENV, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"); /* a timed run */
	expect_failure("cuCtxSynchronize", GL_EENV, "--backend sim");
	expect_failure("cuMemsetD8", GL_EUSAGE, "cuMemsetD8 (L2 flush)");
	expect_failure("cuEventRecord@2", GL_EENV, "cuEventRecord failed");
	expect_failure("cuEventElapsedTime", GL_EENV, "cuEventElapsedTime failed");
	expect_failure("cuMemcpyDtoH", GL_EUSAGE, "cuMemcpyDtoH failed");
}

/* A launch description around one PTX kernel with one 4-byte buffer. */
static int poke(const char *ptx, uint32_t off, struct gl_err *err)
{
	struct gl_backend_opts opts = {.repeat = 1, .metrics = "sim"};
	struct gl_launch l = {
	    .module = ptx, .module_name = "poke.ptx", .entry = "poke", .grid = {1, 1, 1}, .block = {1, 1, 1}};
	void *ctx = NULL;
	gl_launch_arg_buffer(&l, gl_launch_add_buffer(&l, "word", GL_U32, 1, 1));
	gl_launch_arg_scalar(&l, off, 4);
	int rc = gl_backend_cuda.open(&opts, &ctx, err);
	if (rc == GL_OK)
		rc = gl_backend_cuda.launch(ctx, &l, err);
	struct gl_launch_record res = {0};
	if (rc == GL_OK)
		rc = gl_backend_cuda.collect(ctx, &res, err);
	if (rc == GL_OK && off == 0)
		CHECK_EQ(*(uint32_t *)l.buffers[0].host, 7);
	gl_launch_record_free(&res);
	gl_launch_free(&l);
	if (ctx)
		gl_backend_cuda.close(ctx);
	return rc;
}

static void test_kernels_and_ptx(void)
{
	struct gl_err err = {0};
	CHECK_EQ(poke(oob_ptx, 0, &err), GL_OK);
	/* past the buffer's 2 MiB granule, into unmapped memory: a fault, the sticky error (a store a few bytes past
	 * a buffer lands in mapped memory and does not fault, as on a GPU) */
	CHECK_EQ(poke(oob_ptx, 4096, &err), GL_OK);
	CHECK_EQ(poke(oob_ptx, 2u << 20, &err), GL_EENV);
	CHECK(strstr(err.msg, "CUDA_ERROR_ILLEGAL_ADDRESS") && strstr(err.msg, "--backend sim"));
	/* PTX ISA 9.1 needs CUDA 13.1: gpulab says so before the driver's JIT is asked */
	char newer[sizeof oob_ptx];
	memcpy(newer, oob_ptx, sizeof oob_ptx);
	memcpy(strstr(newer, "9.0"), "9.1", 3);
	gl_err_clear(&err);
	CHECK_EQ(poke(newer, 0, &err), GL_EENV);
	CHECK(strstr(err.msg, "poke.ptx's PTX (ISA 9.1) needs a CUDA 13.1 driver") != NULL);
	CHECK(strstr(err.msg, "this driver is CUDA 13.0") != NULL);
	/* an ISA newer than gpulab's table: the driver's JIT refuses it, and its log is shown */
	memcpy(strstr(newer, "9.1"), "9.9", 3);
	gl_err_clear(&err);
	CHECK_EQ(poke(newer, 0, &err), GL_EENV);
	CHECK(strstr(err.msg, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION") && strstr(err.msg, "Unsupported .version 9.9"));
}

int main(void)
{
	if (!is_standin()) {
		fprintf(stderr,
		        "skipped: libcuda.so.1 is not gpulab's driver library (put build/driver on LD_LIBRARY_PATH)\n");
		return 77;
	}
	test_stays_loaded();
	test_launch_and_verify();
	test_driver_errors();
	test_kernels_and_ptx();
	CHECK_DONE();
}
