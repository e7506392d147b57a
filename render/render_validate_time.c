/* render_validate_time.c — `gpulab validate`'s time line: the estimate (model) from the simulator's counts
 * beside the time measured on the GPU, so the model's error is known (docs/insights.md). */
#include <math.h>
#include <stdio.h>

#include "insights/estimate.h"
#include "render/render.h"

static void estimate_of(const struct gl_launch_record *sim, const char *device, struct gl_estimate *e)
{
	const struct gl_gpu_model *g = gl_gpu_model_for_device(device);
	gl_estimate_launch(g ? g : gl_gpu_model_default(), sim, e);
}

void gl_validate_time_line(FILE *out, const struct gl_launch_record *sim, const struct gl_launch_record *gpu,
			   const char *device)
{
	struct gl_estimate e;
	estimate_of(sim, device, &e);
	double measured = gpu->duration_ns / 1000;
	fprintf(out, "  time: measured %s", isnan(measured) ? "n/a" : "");
	if (!isnan(measured))
		fprintf(out, "%.3f us", measured);
	fprintf(out, "; estimate (model) on %s from the simulator's counts %.3f us (%s-bound)", e.gpu->name, e.time_us,
		gl_bound_name(e.bound));
	if (!isnan(measured) && measured > 0)
		fprintf(out, "; estimate / measured %.2f", e.time_us / measured);
	if (!gl_gpu_model_for_device(device))
		fprintf(out, " (no model of this GPU: %s stands in)", e.gpu->name);
	fputc('\n', out);
}

void gl_validate_time_json(struct gl_json *j, const struct gl_launch_record *sim, const struct gl_launch_record *gpu,
			   const char *device)
{
	struct gl_estimate e;
	estimate_of(sim, device, &e);
	gl_json_number(j, "measured_us", gpu->duration_ns / 1000); /* null when not measured */
	gl_json_string(j, "estimate_gpu", e.gpu->name);
	gl_json_number(j, "estimate_us", e.time_us);
	gl_json_string(j, "estimate_bound", gl_bound_name(e.bound));
}
