/* driver_record.c — one record per launch (driver_record.h): the simulator's counts under Nsight
 * Compute's names, the sanitizer's findings, the kernel's resources and the estimate model's time on
 * the GPU model, which is also what the launch's stream clock advances by (driver_stream.c).  The hook
 * prints one line per launch on stderr when GPULAB_DRIVER_LOG asks for it; a launch the profile selected
 * goes to the spool (driver_profile.c). */
#include "driver_record.h"

#include <cudaProfiler.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insights/estimate.h"

/* The record model's fields gl_sim_record leaves to the caller: a program's launches are topic "program",
 * variant the kernel's name, registers from ptxas for the GPU model, the verdict unknown (the program
 * checks its own results). */
static void fill(struct gl_launch_record *rec, const struct drv_launch *l, const struct gl_launch *gl,
		 const struct gl_sim_result *res)
{
	gl_sim_record(l->f->fn, gl, res, rec);
	snprintf(rec->topic, sizeof rec->topic, "program");
	drv_function_name(l->f->demangled, rec->variant, sizeof rec->variant);
	rec->regs = l->f->regs;
	rec->verified = -1;
}

static void log_line(const struct drv_launch_record *r)
{
	const struct gl_launch_record *rec = &r->rec;
	char err[400] = "";
	if (rec->nfindings && !rec->findings[0].warning) {
		const struct gl_finding *f = &rec->findings[0];
		char where[200];
		if (f->src_line)
			snprintf(where, sizeof where, "%.160s:%d", f->src_file, f->src_line);
		else
			snprintf(where, sizeof where, "PTX line %d", f->line);
		snprintf(err, sizeof err, "; first error: %.180s (%s)", f->message, where);
	}
	fprintf(stderr,
		"gpulab driver: launch %ld %s grid (%u,%u,%u) block (%u,%u,%u) shared %u+%d B, %d registers, stream %llu: "
		"%.3f us on the %s model, %.0f global load and %.0f store sectors, %ld sanitizer error%s%s\n",
		r->seq, r->name, rec->grid[0], rec->grid[1], rec->grid[2], rec->block[0], rec->block[1], rec->block[2],
		rec->dyn_smem, rec->static_smem, rec->regs, r->stream, r->estimate_us, r->gpu->name,
		gl_metrics_value_or(&rec->metrics, GL_M_GLD_SECT, 0), gl_metrics_value_or(&rec->metrics, GL_M_GST_SECT, 0),
		rec->sanitizer_errors, rec->sanitizer_errors == 1 ? "" : "s", err);
}

void drv_record_hook(const struct drv_launch_record *r)
{
	if (drv.log)
		log_line(r);
}

double drv_record_launch(const struct drv_launch *l, const struct gl_launch *gl, const struct CUstream_st *s,
			 const struct gl_sim_result *res, double start_us, bool selected, int error)
{
	struct drv_launch_record r = {.seq = drv.launches + 1, .name = l->f->demangled, .entry = l->f->fn->name,
				      .module = l->f->mod->m->name, .ptx = l->f->mod->ptx, .stream = s->id,
				      .cooperative = l->cooperative, .profiled = !drv.profiler_stopped, .gpu = drv.gpu,
				      .start_us = start_us, .res = res};
	drv_func_resources(l->f);
	fill(&r.rec, l, gl, res);
	struct gl_estimate est;
	gl_estimate_launch(drv.gpu, &r.rec, &est);
	r.estimate_us = est.time_us;
	drv_record_hook(&r);
	if (selected)
		drv_profile_record(&r, error);
	gl_launch_record_free(&r.rec);
	return r.estimate_us;
}

/* ---- the profiler API: a program marks the region a profiler should look at; the record keeps it */

CUresult CUDAAPI cuProfilerStart(void)
{
	drv_lock();
	drv.profiler_stopped = false;
	drv_unlock();
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuProfilerStop(void)
{
	drv_lock();
	drv.profiler_stopped = true;
	drv_unlock();
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuProfilerInitialize(const char *config, const char *output, CUoutput_mode mode)
{
	(void)config;
	(void)output;
	(void)mode;
	return CUDA_SUCCESS; /* the legacy command-line profiler's settings: nothing to configure */
}
