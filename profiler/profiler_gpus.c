/* profiler_gpus.c — the GPUs the CUDA driver sees, for `gpulab devices`: each one described (with its chip
 * and CUPTI version when CUPTI loads), and whether the driver can run gpulab's PTX. */
#include <stdio.h>
#include <string.h>

#include "common/ptx_version.h"
#include "profiler/cuda_device.h"

/* Can this driver JIT gpulab's PTX?  `line` says which driver is needed either way. */
static bool ptx_line(const struct gl_cuda_api *cu, char *line, size_t n)
{
	int driver = 0, cuda = 0;
	struct gl_err err = {0};
	char need[16];
	int isa = gl_cuda_embedded_ptx(&cuda);
	gl_cuda_version_text(cuda, need, sizeof need);
	cu->cuDriverGetVersion(&driver);
	if (gl_cuda_ptx_check(driver, NULL, NULL, &err) != GL_OK) {
		snprintf(line, n, "%s", err.msg);
		return false;
	}
	snprintf(line, n, "ISA %d.%d, needs a CUDA %s driver: this one can run it", isa / 10, isa % 10, need);
	return true;
}

static int describe_all(const struct gl_cuda_api *cu, struct gl_gpus *out, struct gl_err *err)
{
	struct gl_cupti_api cupti;
	struct gl_err cerr = {0};
	bool have_cupti = gl_cupti_api_load(&cupti, &cerr) == GL_OK;
	int rc = GL_OK;
	if (have_cupti)
		snprintf(out->cupti, sizeof out->cupti, "%s", cupti.path);
	out->ptx_ok = ptx_line(cu, out->ptx, sizeof out->ptx);
	for (int i = 0; i < out->n && rc == GL_OK; i++)
		rc = gl_cuda_describe(cu, have_cupti ? &cupti : NULL, i, &out->dev[i], err);
	if (have_cupti)
		gl_cupti_api_unload(&cupti);
	return rc;
}

int gl_profiler_gpus(struct gl_gpus *out, struct gl_err *err)
{
	struct gl_cuda_api cu;
	char why[512];
	int count = 0;
	memset(out, 0, sizeof *out);
	int rc = gl_cuda_api_load(&cu, err);
	if (rc != GL_OK)
		return rc;
	if (!gl_cuda_usable(&cu, &count, why, sizeof why))
		rc = gl_errf(err, GL_EENV, "no CUDA device: %s", why);
	out->n = count < GL_MAX_GPUS ? count : GL_MAX_GPUS;
	if (rc == GL_OK)
		rc = describe_all(&cu, out, err);
	gl_cuda_api_unload(&cu);
	return rc;
}
