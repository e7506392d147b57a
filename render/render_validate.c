/* render_validate.c — one metric row of `gpulab validate`: agree, differ, not collected, or shown. */
#include "render/render.h"

#include <math.h>
#include <stdio.h>
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

/* Launch k of each run: the same kernel, or the runs are not of the same program. */
static int pair_launches(const struct gl_run_record *sim, const struct gl_run_record *gpu, struct gl_err *err)
{
	if (sim->nlaunches != gpu->nlaunches)
		return gl_errf(err, GL_EUSAGE, "--strict compares launch by launch, but run %ld (sim) has %zu launches "
			       "and run %ld (cuda) %zu; profile the same program with the same selection on both",
			       sim->id, sim->nlaunches, gpu->id, gpu->nlaunches);
	for (size_t k = 0; k < sim->nlaunches; k++)
		if (strcmp(sim->launches[k].entry, gpu->launches[k].entry) != 0)
			return gl_errf(err, GL_EUSAGE, "--strict: launch %zu is %s in run %ld but %s in run %ld; they are "
				       "not the same program's launches", k + 1, sim->launches[k].entry, sim->id,
				       gpu->launches[k].entry, gpu->id);
	return GL_OK;
}

int gl_validate_runs(const struct gl_run_record *a, const struct gl_run_record *b, struct gl_vcount *count,
		     char *first, size_t n, struct gl_err *err)
{
	bool a_sim = strcmp(a->info.backend, "sim") == 0, b_sim = strcmp(b->info.backend, "sim") == 0;
	if (a_sim == b_sim || strcmp((a_sim ? b : a)->info.backend, "cuda") != 0)
		return gl_errf(err, GL_EUSAGE, "--strict compares a simulator run with a GPU run; runs %ld and %ld are "
			       "%s and %s", a->id, b->id, a->info.backend, b->info.backend);
	const struct gl_run_record *sim = a_sim ? a : b, *gpu = a_sim ? b : a;
	int rc = pair_launches(sim, gpu, err);
	size_t nnames;
	const char *const *names = gl_metric_set_sim(&nnames);
	first[0] = '\0';
	for (size_t k = 0; rc == GL_OK && k < sim->nlaunches; k++) {
		const struct gl_metrics *ms = &sim->launches[k].metrics, *mg = &gpu->launches[k].metrics;
		for (size_t i = 0; i < nnames; i++) {
			double vs = gl_validate_value(ms, names[i]), vg = gl_validate_value(mg, names[i]);
			if (gl_validate_row(names[i], vs, vg) == GL_VROW_DIFFERS && !first[0])
				snprintf(first, n, "launch %zu (%s): %s is %.0f on the simulator, %.0f on the GPU", k + 1,
					 sim->launches[k].entry, names[i], vs, vg);
		}
		gl_validate_count(ms, mg, count);
	}
	return rc;
}
