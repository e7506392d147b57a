/* render_insights.c — guidance, occupancy and the estimate as run/report/compare print them. */
#include "render/render.h"

#include <math.h>
#include <string.h>

const struct gl_gpu_model *gl_render_gpu_of(const struct gl_run_record *r)
{
	const struct gl_gpu_model *g = strcmp(r->info.backend, "cuda") == 0 ? gl_gpu_model_for_device(r->info.device)
									      : NULL;
	return g ? g : gl_gpu_model_default();
}

void gl_render_guidance(FILE *out, const struct gl_launch_record *l)
{
	for (int i = 0; i < l->nguidance; i++) {
		const struct gl_guidance *g = &l->guidance[i];
		/* on a terminal: warnings yellow, optimizations cyan, information plain */
		const char *paint = strcmp(g->severity, "WRN") == 0   ? gl_sgr(GL_YELLOW)
				    : strcmp(g->severity, "OPT") == 0 ? gl_sgr(GL_CYAN)
								      : "";
		fprintf(out, "  %s%s%s %s: %s", paint, g->severity, *paint ? gl_sgr(GL_RESET) : "", l->variant,
			g->message);
		if (!isnan(g->estimated_speedup) && g->estimated_speedup > 0)
			fprintf(out, " (est. speedup up to %.0f%%)", 100 * g->estimated_speedup);
		fputc('\n', out);
	}
}

static void json_number_or_null(struct gl_json *j, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		gl_json_null(j, key);
	else
		gl_json_number(j, key, v);
}

void gl_render_json_flops(struct gl_json *j, const char *key, const struct gl_flops *f)
{
	gl_json_begin_object(j, key);
	for (int k = 0; k < GL_FLOP_KINDS; k++)
		json_number_or_null(j, gl_flop_kind_key((enum gl_flop_kind)k), f->kind[k]);
	json_number_or_null(j, "cuda_cores", f->cuda_core);
	json_number_or_null(j, "tensor", f->tensor);
	gl_json_bool(j, "tensor_from_hmma_count", f->tensor_assumed);
	gl_json_end_object(j);
}

void gl_render_json_insights(struct gl_json *j, const struct gl_launch_record *l, const struct gl_gpu_model *g)
{
	gl_json_begin_array(j, "guidance");
	for (int i = 0; i < l->nguidance; i++) {
		const struct gl_guidance *r = &l->guidance[i];
		gl_json_begin_object(j, NULL);
		gl_json_string(j, "rule", r->rule);
		gl_json_string(j, "severity", r->severity);
		gl_json_string(j, "message", r->message);
		gl_json_string(j, "metric", r->metric);
		json_number_or_null(j, "value", r->value);
		json_number_or_null(j, "estimated_speedup", r->estimated_speedup);
		gl_json_end_object(j);
	}
	gl_json_end_array(j);
	if (l->static_smem >= 0)
		gl_json_int(j, "shared_bytes", (long long)l->static_smem + l->dyn_smem);
	else
		gl_json_null(j, "shared_bytes");
	struct gl_estimate e;
	gl_estimate_launch(g, l, &e);
	char lim[64];
	gl_json_begin_object(j, "occupancy");
	gl_json_string(j, "gpu", g->name);
	gl_json_int(j, "theoretical_warps_per_sm", e.occ.warps_per_sm);
	gl_json_number(j, "theoretical_pct", e.occ.pct);
	gl_json_string(j, "limiter", gl_occupancy_limiter_name(e.occ.limiter, lim, sizeof lim));
	gl_json_int(j, "blocks_per_sm", e.occ.blocks_per_sm);
	gl_json_end_object(j);
	gl_json_begin_object(j, "estimate");
	gl_json_string(j, "gpu", g->name);
	gl_json_string(j, "label", "estimate (model)");
	json_number_or_null(j, "time_us", e.time_us);
	gl_json_string(j, "bound", gl_bound_name(e.bound));
	static const char *const keys[GL_BOUND_N] = {"dram_us", "l2_us", "l1_us", "fp32_us", "tensor_us", "issue_us",
						     "latency_us"};
	for (int b = 0; b < GL_BOUND_N; b++)
		json_number_or_null(j, keys[b], e.bound_us[b]);
	json_number_or_null(j, "waves", e.waves);
	json_number_or_null(j, "wave_factor", e.wave_factor);
	json_number_or_null(j, "warps_in_flight", e.warps_in_flight);
	json_number_or_null(j, "flops", e.flops);
	gl_render_json_flops(j, "flops_by_kind", &e.fl);
	json_number_or_null(j, "dram_bytes", e.dram_bytes);
	gl_json_bool(j, "dram_measured", e.dram_measured);
	json_number_or_null(j, "l2_bytes", e.l2_bytes);
	json_number_or_null(j, "l1_bytes", e.l1_bytes);
	json_number_or_null(j, "intensity_flop_per_byte", e.intensity);
	json_number_or_null(j, "intensity_l2_flop_per_byte", e.intensity_l2);
	json_number_or_null(j, "intensity_l1_flop_per_byte", e.intensity_l1);
	gl_json_end_object(j);
}
