/* render_validate.c — one metric row of `gpulab validate`: agree, differ, not collected, or shown. */
#include "render/render.h"

#include <math.h>
#include <string.h>

#include "profiler/profiler.h"

enum gl_vkind gl_validate_kind(const char *name)
{
	if (strcmp(name, GL_M_SLD_CONF) == 0 || strcmp(name, GL_M_SST_CONF) == 0)
		return GL_VKIND_CONFLICT;
	if (strcmp(name, GL_M_INST) == 0 || strcmp(name, GL_M_THREAD_INST) == 0)
		return GL_VKIND_INFO;
	return GL_VKIND_EXACT;
}

double gl_validate_value(const struct gl_metrics *m, const char *name)
{
	const double *v = gl_metrics_get(m, name);
	return v ? *v : NAN;
}

enum gl_vrow gl_validate_row(const char *name, double sim, double gpu)
{
	if (isnan(gpu)) /* NaN never equals NaN: without this every row would "differ" */
		return GL_VROW_NOT_COLLECTED;
	if (gl_validate_kind(name) != GL_VKIND_EXACT)
		return GL_VROW_SHOWN;
	return sim == gpu ? GL_VROW_AGREE : GL_VROW_DIFFERS;
}

const char *gl_validate_row_word(enum gl_vrow row)
{
	static const char *const words[] = {"agree", "DIFFERS", "not collected", "shown"};
	return words[row];
}

const char *gl_validate_info_remark(const char *sim_note)
{
	if (sim_note && strstr(sim_note, "counts: SASS-mapped"))
		return "estimate: SASS per executed PTX instruction, by line info (docs/sim.md)";
	return "PTX (sim) vs SASS (GPU): not 1:1";
}

void gl_validate_count(const struct gl_metrics *sim, const struct gl_metrics *gpu, struct gl_vcount *count)
{
	size_t n;
	const char *const *names = gl_metric_set_sim(&n);
	for (size_t i = 0; i < n; i++) {
		switch (gl_validate_row(names[i], gl_validate_value(sim, names[i]), gl_validate_value(gpu, names[i]))) {
		case GL_VROW_AGREE: count->agree++; break;
		case GL_VROW_DIFFERS: count->differs++; break;
		case GL_VROW_NOT_COLLECTED: count->not_collected++; break;
		case GL_VROW_SHOWN: break;
		}
	}
}
