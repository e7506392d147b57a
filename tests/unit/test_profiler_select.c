/* test_profiler_select.c — --backend auto|cuda|sim resolution and the cuda backend's refusals on a
 * machine without a GPU (GPU-dependent checks adapt to what the probe finds). */
#include <string.h>

#include "check.h"
#include "profiler/profiler.h"

static void test_names(void)
{
	const struct gl_backend *b = NULL;
	char why[512];
	struct gl_err err = {0};
	CHECK_EQ(gl_backend_select("sim", &b, why, sizeof why, &err), GL_OK);
	CHECK(b == &gl_backend_sim);
	CHECK_EQ(gl_backend_select("cdua", &b, why, sizeof why, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "unknown backend 'cdua'") && strstr(err.msg, "did you mean 'cuda'"));
	gl_err_clear(&err);
	CHECK_EQ(gl_backend_select("opencl", &b, why, sizeof why, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "auto, cuda or sim") != NULL);
}

static void test_auto_and_cuda(void)
{
	const struct gl_backend *b = NULL;
	char why[512], probe[512];
	struct gl_err err = {0};
	bool gpu = gl_backend_cuda.probe(probe, sizeof probe);
	CHECK_EQ(gl_backend_select("auto", &b, why, sizeof why, &err), GL_OK);
	CHECK(b == (gpu ? &gl_backend_cuda : &gl_backend_sim));
	CHECK(strstr(why, gpu ? "backend cuda: " : "backend sim: no usable GPU here") != NULL);
	CHECK(strchr(why, '\n') == NULL); /* one line */
	int rc = gl_backend_select("cuda", &b, why, sizeof why, &err);
	CHECK_EQ(rc, gpu ? GL_OK : GL_EENV);
	if (!gpu)
		CHECK(strstr(err.msg, "--backend cuda needs a GPU") && strstr(err.msg, "--backend sim") &&
		      strstr(err.msg, probe));
}

static void test_cuda_open_refusals(void)
{
	struct gl_backend_opts bad = {.metrics = "memry"};
	void *ctx = (void *)1;
	struct gl_err err = {0};
	char probe[512];
	CHECK_EQ(gl_backend_cuda.open(&bad, &ctx, &err), GL_EUSAGE); /* checked before the GPU */
	CHECK(ctx == NULL && strstr(err.msg, "did you mean 'memory'"));
	if (gl_backend_cuda.probe(probe, sizeof probe))
		return;
	struct gl_backend_opts ok = {.metrics = "sim"};
	gl_err_clear(&err);
	CHECK_EQ(gl_backend_cuda.open(&ok, &ctx, &err), GL_EENV);
	CHECK(ctx == NULL && strstr(err.msg, "--backend sim"));
}

int main(void)
{
	test_names();
	test_auto_and_cuda();
	test_cuda_open_refusals();
	CHECK_DONE();
}
