/* cmd_devices.c — `gpulab devices`: the GPUs the CUDA driver sees, with chip, SMs, memory, clocks,
 * driver and CUPTI versions and whether the driver can run gpulab's PTX (which driver it needs);
 * or one line saying why there are none (exit 3). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common/json.h"
#include "common/ptx_version.h"
#include "profiler/cuda_device.h"
#include "profiler/cupti_api.h"

static const struct gl_cmd *self(void);

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

static void print_text(const struct gl_device_info *d, int index, const char *cupti_path, const char *ptx)
{
	printf("GPU %d: %s\n", index, d->name);
	printf("  chip        %s\n", d->chip[0] ? d->chip : "unknown (CUPTI unavailable)");
	printf("  compute     %d.%d (ptxas resource usage from %s)\n", d->cc_major, d->cc_minor, d->arch);
	printf("  SMs         %d\n", d->sm_count);
	printf("  memory      %.1f GiB\n", (double)d->memory_bytes / (1024.0 * 1024.0 * 1024.0));
	printf("  clocks      %d MHz SM, %d MHz memory\n", d->clock_mhz, d->memory_clock_mhz);
	printf("  driver      %s\n", d->driver);
	printf("  PTX         %s\n", ptx);
	if (cupti_path)
		printf("  CUPTI       %s (%s)\n", d->cupti_version, cupti_path);
	else
		printf("  CUPTI       not found: metrics unavailable, timings only (see 'gpulab doctor')\n");
}

static void print_json(struct gl_json *j, const struct gl_device_info *d, int index, bool ptx_ok, const char *ptx)
{
	char cc[16];
	snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
	gl_json_begin_object(j, NULL);
	gl_json_int(j, "index", index);
	gl_json_string(j, "name", d->name);
	gl_json_string(j, "chip", d->chip[0] ? d->chip : NULL);
	gl_json_string(j, "cc", cc);
	gl_json_int(j, "sm_count", d->sm_count);
	gl_json_int(j, "memory_bytes", (long long)d->memory_bytes);
	gl_json_int(j, "clock_mhz", d->clock_mhz);
	gl_json_int(j, "memory_clock_mhz", d->memory_clock_mhz);
	gl_json_string(j, "driver", d->driver);
	gl_json_bool(j, "ptx_ok", ptx_ok);
	gl_json_string(j, "ptx", ptx);
	gl_json_string(j, "cupti_version", d->cupti_version[0] ? d->cupti_version : NULL);
	gl_json_end_object(j);
}

static int list_devices(struct gl_ctx *ctx, const struct gl_cuda_api *cu, int count, struct gl_cupti_api *cupti)
{
	struct gl_json j;
	if (ctx->format == GL_FMT_JSON) {
		gl_json_init(&j, stdout);
		gl_json_begin_object(&j, NULL);
		gl_json_begin_array(&j, "devices");
	}
	char ptx[1100];
	bool ptx_ok = ptx_line(cu, ptx, sizeof ptx);
	for (int i = 0; i < count; i++) {
		struct gl_device_info info;
		int rc = gl_cuda_describe(cu, cupti, i, &info, &ctx->err);
		if (rc != GL_OK)
			return rc;
		if (ctx->format == GL_FMT_JSON)
			print_json(&j, &info, i, ptx_ok, ptx);
		else
			print_text(&info, i, cupti ? cupti->path : NULL, ptx);
	}
	if (ctx->format == GL_FMT_JSON) {
		gl_json_end_array(&j);
		gl_json_end_object(&j); /* the writer ends the top level with a newline */
	}
	return GL_OK;
}

/* No driver or no device: with --json still one object, saying why, so a script reads the reason. */
static void reason_json(struct gl_ctx *ctx, const char *why)
{
	if (ctx->format == GL_FMT_JSON) {
		struct gl_json j;
		gl_json_init(&j, stdout);
		gl_json_begin_object(&j, NULL);
		gl_json_begin_array(&j, "devices");
		gl_json_end_array(&j);
		gl_json_string(&j, "error", why);
		gl_json_end_object(&j); /* the writer ends the top level with a newline */
	}
}

static int no_devices(struct gl_ctx *ctx, const char *why)
{
	char msg[600];
	snprintf(msg, sizeof msg, "no CUDA device: %s", why);
	reason_json(ctx, msg);
	return gl_errf(&ctx->err, GL_EENV, "%s", msg);
}

static int devices_exec(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int prc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (prc)
		return prc;
	struct gl_cuda_api cu;
	struct gl_cupti_api cupti;
	char why[512];
	int count = 0;
	int rc = gl_cuda_api_load(&cu, &ctx->err);
	if (rc != GL_OK) {
		reason_json(ctx, ctx->err.msg);
		return rc;
	}
	if (!gl_cuda_usable(&cu, &count, why, sizeof why)) {
		gl_cuda_api_unload(&cu);
		return no_devices(ctx, why);
	}
	struct gl_err cerr = {0};
	bool have_cupti = gl_cupti_api_load(&cupti, &cerr) == GL_OK;
	rc = list_devices(ctx, &cu, count, have_cupti ? &cupti : NULL);
	if (have_cupti)
		gl_cupti_api_unload(&cupti);
	gl_cuda_api_unload(&cu);
	return rc;
}

const struct gl_cmd gl_cmd_devices_entry = {
	.no_formats = GL_NO_CSV,
	.name = "devices",
	.usage = "[--json]",
	.summary = "the GPUs the CUDA driver sees: chip, SMs, memory, clocks, driver and CUPTI versions",
	.help = "Exits 3 with one line saying why when there is no CUDA driver or no device; with --json it\n"
		"also prints {\"devices\": [], \"error\": \"why\"} on stdout.\n",
	.max_args = 0,
	.exec = devices_exec,
};

static const struct gl_cmd *self(void) { return &gl_cmd_devices_entry; }
