/* sim_record.c — a simulated launch as the launch record (common/record.h) every backend fills and the
 * store keeps: the one conversion from the simulator's result, for the sim backend, `gpulab sim`,
 * `gpulab exercise check` and any other caller of gl_sim_run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim.h"

void gl_sim_sanitizer_note(const struct gl_sim_result *res, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!res->nerrors || !res->nfindings || res->findings[0].warning) /* errors come first */
		return;
	const struct gl_finding *f = &res->findings[0];
	const char *file = strrchr(f->src_file, '/'); /* the source's name is enough in a note */
	file = file ? file + 1 : f->src_file;
	if (f->src_line > 0 && *file)
		snprintf(buf, n, "sanitizer: %ld error%s, first: %.140s (%.60s:%d, PTX line %d)", res->nerrors,
			 res->nerrors == 1 ? "" : "s", f->message, file, f->src_line, f->line);
	else
		snprintf(buf, n, "sanitizer: %ld error%s, first: %.180s (PTX line %d)", res->nerrors,
			 res->nerrors == 1 ? "" : "s", f->message, f->line);
}

static void *copy(const void *from, size_t n, size_t size)
{
	if (!n)
		return NULL;
	void *to = gl_xmalloc(n * size);
	memcpy(to, from, n * size);
	return to;
}

void gl_sim_record(const struct ptx_function *fn, const struct gl_launch *l, const struct gl_sim_result *res,
		   struct gl_launch_record *rec)
{
	gl_launch_record_init(rec);
	snprintf(rec->entry, sizeof rec->entry, "%.63s", l->entry ? l->entry : fn ? fn->name : "");
	memcpy(rec->grid, l->grid, sizeof rec->grid);
	memcpy(rec->block, l->block, sizeof rec->block);
	rec->dyn_smem = l->dyn_smem;
	rec->static_smem = fn ? (int)fn->shared_static : -1;
	rec->regs = fn && fn->sass_regs > 0 ? fn->sass_regs : -1; /* ptxas's, from the SASS mapping's build */
	snprintf(rec->metric_source, sizeof rec->metric_source, "sim");
	gl_sim_metrics(res, &rec->metrics);
	rec->sanitized = true;
	rec->sanitizer_errors = res->nerrors;
	rec->sanitizer_warnings = res->findings_total - res->nerrors;
	rec->sanitizer_dropped = res->findings_dropped;
	rec->findings = copy(res->findings, (size_t)res->nfindings, sizeof *res->findings);
	rec->nfindings = res->nfindings;
	rec->outputs_partial = res->ctas_run < res->ctas_total;
	rec->cta_first = res->cta_first;
	rec->cta_end = res->cta_end;
	if (res->ntrace) {
		rec->trace = copy(res->trace, res->ntrace, sizeof *res->trace);
		rec->ntrace = res->ntrace;
		gl_sim_buffer_map(fn, l, &rec->buffers, &rec->nbuffers); /* names the buffers the trace addresses */
	}
	gl_sim_sanitizer_note(res, rec->note, sizeof rec->note);
	if (!rec->note[0] && res->cta_end > 0)
		snprintf(rec->note, sizeof rec->note, "CTAs %ld..%ld of %ld only (--cta-range): partial counts",
			 res->cta_first, res->cta_end - 1, res->ctas_total);
	else if (!rec->note[0] && res->ctas_run < res->ctas_total)
		snprintf(rec->note, sizeof rec->note, "%ld of %ld CTAs simulated (--sample-ctas): counts scaled to the grid",
			 res->ctas_run, res->ctas_total);
}
