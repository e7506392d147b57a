/* cmd_devices.c — `gpulab devices`: the GPUs the CUDA driver sees, with chip, SMs, memory, clocks,
 * driver and CUPTI versions and whether the driver can run gpulab's PTX (which driver it needs);
 * or one line saying why there are none (exit 3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/json.h"
#include "common/util.h"
#include "profiler/profiler.h"

static const struct gl_cmd *self(void);

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

static void list_devices(struct gl_ctx *ctx, const struct gl_gpus *g)
{
	struct gl_json j;
	if (ctx->format == GL_FMT_JSON) {
		gl_json_init(&j, stdout);
		gl_json_begin_object(&j, NULL);
		gl_json_begin_array(&j, "devices");
	}
	for (int i = 0; i < g->n; i++) {
		if (ctx->format == GL_FMT_JSON)
			print_json(&j, &g->dev[i], i, g->ptx_ok, g->ptx);
		else
			print_text(&g->dev[i], i, g->cupti[0] ? g->cupti : NULL, g->ptx);
	}
	if (ctx->format == GL_FMT_JSON) {
		gl_json_end_array(&j);
		gl_json_end_object(&j); /* the writer ends the top level with a newline */
	}
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

static int devices_exec(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int prc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (prc)
		return prc;
	struct gl_gpus *g = gl_xcalloc(1, sizeof *g);
	int rc = gl_profiler_gpus(g, &ctx->err);
	if (rc == GL_OK)
		list_devices(ctx, g);
	else
		reason_json(ctx, ctx->err.msg);
	free(g);
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
