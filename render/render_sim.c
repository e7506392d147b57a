/* render_sim.c — `gpulab sim`'s output: the launch, the metrics under Nsight Compute's names, device
 * printf output and compute-sanitizer-style findings, as text or as one JSON object. */
#include <math.h>
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "render/render.h"
#include "toolchain/toolchain.h"

static const char *space_text(const char *space)
{
	if (strcmp(space, "global") == 0)
		return "__global__";
	if (strcmp(space, "shared") == 0)
		return "__shared__";
	if (strcmp(space, "local") == 0)
		return "__local__";
	if (strcmp(space, "param") == 0)
		return "kernel-parameter";
	if (strcmp(space, "const") == 0)
		return "__constant__";
	return space[0] ? space : "generic";
}

static bool is_write(const struct gl_finding *f)
{
	return strstr(f->message, " write ") != NULL || strstr(f->message, "write of size") != NULL;
}

void gl_simprint_headline(const struct gl_finding *f, char *buf, size_t n)
{
	const char *k = f->kind;
	if (strcmp(k, "out-of-bounds") == 0 || strcmp(k, "misaligned") == 0)
		snprintf(buf, n, "Invalid %s %s of size %u bytes", space_text(f->space), is_write(f) ? "write" : "read",
			 f->size);
	else if (strcmp(k, "race") == 0 && strstr(f->message, "cp.async data in flight") != NULL)
		snprintf(buf, n, "Race reported on %s memory: %s a cp.async copy in flight (%u bytes at 0x%llx)",
			 space_text(f->space), strstr(f->message, "(write over") ? "write over" : "read of",
			 f->size, (unsigned long long)f->address);
	else if (strcmp(k, "race") == 0)
		snprintf(buf, n, "Race reported between warps on %s memory (%u bytes at 0x%llx)", space_text(f->space),
			 f->size, (unsigned long long)f->address);
	else if (strcmp(k, "uninitialized") == 0)
		snprintf(buf, n, "Uninitialized %s memory read of size %u bytes", space_text(f->space), f->size);
	else if (strcmp(k, "barrier-divergence") == 0)
		snprintf(buf, n, "Barrier error detected. Divergent thread(s) in warp");
	else if (strcmp(k, "warp-sync") == 0)
		snprintf(buf, n, "Warp synchronization error detected. Invalid member mask of a warp collective");
	else if (strcmp(k, "deadlock") == 0)
		snprintf(buf, n, "Barrier error detected. Warps wait at different barriers (deadlock)");
	else if (strcmp(k, "invalid-size") == 0)
		snprintf(buf, n, "Invalid cp.async of %u bytes: src-size larger than cp-size", f->size);
	else if (strcmp(k, "budget") == 0)
		snprintf(buf, n, "Kernel aborted: instruction budget exhausted");
	else if (strcmp(k, "invalid-texture") == 0)
		snprintf(buf, n, "Invalid texture or surface object (handle %llu)", (unsigned long long)f->address);
	else if (strcmp(k, "unsupported") == 0)
		snprintf(buf, n, "Unsupported PTX instruction");
	else if (strcmp(k, "assert") == 0)
		snprintf(buf, n, "Device-side assertion failed");
	else if (strcmp(k, "trap") == 0)
		snprintf(buf, n, "Kernel trapped (trap instruction, e.g. a failed device assert)");
	else
		snprintf(buf, n, "%s", k);
}

/* For a .cu source the PTX is nvcc's temporary output: the CUDA file and line come first. */
static void where(const struct gl_finding *f, bool cuda, char *buf, size_t n)
{
	char src[240] = "";
	if (cuda && f->src_line > 0 && f->src_file[0])
		snprintf(src, sizeof src, "at %s:%d (PTX line %d)", f->src_file, f->src_line, f->line);
	else if (cuda && f->src_line > 0) /* a stored finding keeps the line, not the file: the note names it */
		snprintf(src, sizeof src, "at source line %d (PTX line %d)", f->src_line, f->line);
	else if (f->src_line > 0)
		snprintf(src, sizeof src, "at PTX line %d (CUDA line %d)", f->line, f->src_line);
	else
		snprintf(src, sizeof src, "at PTX line %d", f->line);
	snprintf(buf, n, "%s in block (%u,%u,%u) thread (%u,%u,%u)", src, f->block[0], f->block[1], f->block[2],
		 f->thread[0], f->thread[1], f->thread[2]);
}

static bool is_cuda(const char *source)
{
	size_t n = strlen(source);
	return n > 3 && strcmp(source + n - 3, ".cu") == 0;
}

static void print_occurrences(FILE *out, const struct gl_finding *f)
{
	if (f->count < 2)
		return;
	fprintf(out, "=========     %ld occurrences; first in", f->count);
	for (int i = 0; i < f->nsamples; i++) {
		const struct gl_finding_site *p = &f->samples[i];
		fprintf(out, "%s block (%u,%u,%u) thread (%u,%u,%u)", i ? "," : "", p->block[0], p->block[1], p->block[2],
			p->thread[0], p->thread[1], p->thread[2]);
	}
	fprintf(out, "%s\n", f->count > f->nsamples ? ", ..." : "");
}

void gl_simprint_findings(FILE *out, const struct gl_sanitizer_summary *s, int print_limit)
{
	int shown = print_limit > 0 && print_limit < s->nfindings ? print_limit : s->nfindings;
	for (int i = 0; i < shown; i++) {
		const struct gl_finding *f = &s->findings[i];
		char head[256], at[320];
		gl_simprint_headline(f, head, sizeof head);
		where(f, s->cuda_places, at, sizeof at);
		fprintf(out, "========= %s%s %s\n", f->warning ? "Warning: " : "", head, at);
		fprintf(out, "=========     %s\n", f->message);
		print_occurrences(out, f);
	}
	if (shown < s->nfindings) {
		long hidden = 0;
		for (int i = shown; i < s->nfindings; i++)
			hidden += s->findings[i].count;
		fprintf(out, "=========     (%d more distinct finding%s with %ld occurrence%s not shown: --print-limit N shows "
			     "more, 0 all)\n", s->nfindings - shown, s->nfindings - shown == 1 ? "" : "s", hidden,
			hidden == 1 ? "" : "s");
	}
	if (s->dropped > 0)
		fprintf(out, "=========     (%ld further occurrence%s at other lines not kept: more than %d distinct "
			     "findings)\n", s->dropped, s->dropped == 1 ? "" : "s", GL_FINDINGS_MAX);
	fprintf(out, "========= ERROR SUMMARY: %ld error%s", s->errors, s->errors == 1 ? "" : "s");
	if (s->warnings > 0)
		fprintf(out, ", %ld warning%s", s->warnings, s->warnings == 1 ? "" : "s");
	fprintf(out, "%s\n", s->aborted ? " (the launch was aborted)" : "");
}

static void print_findings(FILE *out, const struct gl_sim_result *res, int print_limit, bool cuda)
{
	fprintf(out, "========= COMPUTE-SANITIZER (gpulab simulator)\n");
	struct gl_sanitizer_summary s = {res->findings, res->nfindings, res->nerrors, res->findings_total - res->nerrors,
					 res->findings_dropped, res->aborted, cuda};
	gl_simprint_findings(out, &s, print_limit);
}

static void print_value(FILE *out, double v)
{
	if (v == floor(v) && fabs(v) < 1e18)
		fprintf(out, "%16.0f", v);
	else
		fprintf(out, "%16.6g", v);
}

void gl_simprint_text(FILE *out, const struct gl_sim_report *r)
{
	const struct gl_launch *l = r->launch;
	const struct gl_sim_result *res = r->res;
	char base[256];
	gl_simsrc_base_name(r->kernel, base, sizeof base);
	fprintf(out, "kernel %s", r->kernel);
	if (strcmp(base, r->kernel) != 0)
		fprintf(out, " (%s)", base);
	fprintf(out, " from %s\n", r->source);
	unsigned long threads = (unsigned long)l->block[0] * l->block[1] * l->block[2] * l->grid[0] * l->grid[1] *
				l->grid[2];
	fprintf(out, "launch grid (%u,%u,%u) block (%u,%u,%u), %u byte%s of dynamic shared memory, %lu thread%s\n",
		l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->dyn_smem,
		l->dyn_smem == 1 ? "" : "s", threads, threads == 1 ? "" : "s");
	fprintf(out, "simulated %ld of %ld CTAs on %d CPU thread%s in %.3f s", res->ctas_run, res->ctas_total,
		res->threads, res->threads == 1 ? "" : "s", res->wall_seconds);
	if (res->cooperative)
		fprintf(out, ", co-resident (a cooperative launch: the kernel uses grid.sync()'s grid workspace)");
	if (res->aborted)
		fprintf(out, "; CTA %ld, the first in grid order to abort, stopped the launch", res->aborted_cta);
	fprintf(out, "\ncounts: %s\n", r->counts_mode ? r->counts_mode : "PTX-level");
	if (strcmp(res->engine, "compiled") == 0) { /* the interpreter, the reference, needs no line */
		fprintf(out, "engine: compiled (");
		if (res->jit_measured_cta >= 0) /* auto: the CTAs that started before it decided were interpreted */
			fprintf(out, "after CTA %ld on the interpreter: %ld of %ld CTAs compiled; ", res->jit_measured_cta,
				res->jit_ctas, res->ctas_run);
		fprintf(out, "%d of %d PTX instructions inline, the rest through the interpreter; %s)\n", res->jit_native,
			res->jit_ncode, res->jit_compile_seconds > 0 ? "compiled now" : "cached");
	}
	if (res->engine_note[0])
		fprintf(out, "engine: %s\n", res->engine_note);
	fprintf(out, "\n");
	fprintf(out, "%-64s %16s  %s\n", "metric", "value", "unit");
	for (size_t i = 0; i < r->metrics->n; i++) {
		const struct gl_metric *m = &r->metrics->items[i];
		fprintf(out, "%-64s ", m->name);
		print_value(out, m->value);
		fprintf(out, "  %s\n", m->unit);
	}
	if (res->printf_out && res->printf_out[0]) {
		size_t n = strlen(res->printf_out);
		fprintf(out, "\ndevice printf output:\n%s%s", res->printf_out, res->printf_out[n - 1] == '\n' ? "" : "\n");
	}
	gl_simprint_printf_notes(out, res);
	fprintf(out, "\n");
	print_findings(out, res, r->print_limit, is_cuda(r->source));
}

void gl_simprint_printf_notes(FILE *out, const struct gl_sim_result *res)
{
	if (res->printf_dropped)
		fprintf(out, "%llu printf record%s dropped: buffer of %llu bytes full; use --printf-buffer\n",
			(unsigned long long)res->printf_dropped, res->printf_dropped == 1 ? "" : "s",
			(unsigned long long)res->printf_buffer);
	if (res->printf_unsupported)
		fprintf(out, "note: %llu printf conversion%s not supported by device printf, printed as written (first: "
			"'%s'; supported: flags -+ #0, width, precision, sizes hh h l ll, conversions "
			"c d i o u x X p e E f g G a A s)\n", (unsigned long long)res->printf_unsupported,
			res->printf_unsupported == 1 ? "" : "s", res->printf_first_unsupported);
}

static void json_dim(struct gl_json *j, const char *key, const unsigned v[3])
{
	gl_json_begin_array(j, key);
	for (int i = 0; i < 3; i++)
		gl_json_int(j, NULL, v[i]);
	gl_json_end_array(j);
}

void gl_simprint_json_finding(struct gl_json *j, const struct gl_finding *f)
{
	gl_json_begin_object(j, NULL);
	gl_json_string(j, "kind", f->kind);
	gl_json_string(j, "tool", gl_tool_name(gl_finding_tool(f->kind)));
	gl_json_string(j, "space", f->space);
	char addr[24]; /* unsigned: addresses at or above 2^63 are not negative */
	snprintf(addr, sizeof addr, "%llu", (unsigned long long)f->address);
	gl_json_raw(j, "address", addr);
	gl_json_int(j, "size", f->size);
	json_dim(j, "block", f->block);
	json_dim(j, "thread", f->thread);
	gl_json_int(j, "line", f->line);
	if (f->src_line > 0)
		gl_json_int(j, "cuda_line", f->src_line);
	else
		gl_json_null(j, "cuda_line");
	if (f->src_line > 0 && f->src_file[0])
		gl_json_string(j, "cuda_file", f->src_file);
	else
		gl_json_null(j, "cuda_file");
	gl_json_bool(j, "warning", f->warning);
	gl_json_int(j, "count", f->count);
	gl_json_begin_array(j, "samples");
	for (int i = 0; i < f->nsamples; i++) {
		gl_json_begin_object(j, NULL);
		json_dim(j, "block", f->samples[i].block);
		json_dim(j, "thread", f->samples[i].thread);
		gl_json_end_object(j);
	}
	gl_json_end_array(j);
	gl_json_string(j, "message", f->message);
	gl_json_end_object(j);
}

void gl_simprint_json(FILE *out, const struct gl_sim_report *r)
{
	const struct gl_launch *l = r->launch;
	const struct gl_sim_result *res = r->res;
	struct gl_json j;
	gl_json_init(&j, out);
	gl_json_begin_object(&j, NULL);
	gl_json_string(&j, "kernel", r->kernel);
	gl_json_string(&j, "source", r->source);
	gl_json_string(&j, "counts", r->counts_mode ? r->counts_mode : "PTX-level");
	json_dim(&j, "grid", l->grid);
	json_dim(&j, "block", l->block);
	gl_json_int(&j, "dyn_smem", l->dyn_smem);
	gl_json_begin_object(&j, "metrics");
	for (size_t i = 0; i < r->metrics->n; i++)
		gl_json_number(&j, r->metrics->items[i].name, r->metrics->items[i].value);
	gl_json_end_object(&j);
	gl_json_begin_array(&j, "sanitizer");
	for (int i = 0; i < res->nfindings; i++)
		gl_simprint_json_finding(&j, &res->findings[i]);
	gl_json_end_array(&j);
	gl_json_int(&j, "errors", res->nerrors);
	gl_json_int(&j, "warnings", res->findings_total - res->nerrors);
	gl_json_int(&j, "findings_dropped", res->findings_dropped);
	gl_json_string(&j, "printf", res->printf_out ? res->printf_out : "");
	gl_json_int(&j, "printf_buffer", (long long)res->printf_buffer);
	gl_json_int(&j, "printf_dropped", (long long)res->printf_dropped);
	gl_json_int(&j, "printf_unsupported", (long long)res->printf_unsupported);
	gl_json_begin_object(&j, "sim");
	gl_json_int(&j, "thread_instructions", (long long)res->c.thread_inst);
	gl_json_int(&j, "warp_instructions", (long long)res->c.inst);
	gl_json_number(&j, "wall_seconds", res->wall_seconds);
	gl_json_int(&j, "threads", res->threads);
	gl_json_string(&j, "engine", res->engine);
	gl_json_string(&j, "engine_note", res->engine_note);
	gl_json_number(&j, "compile_seconds", res->jit_compile_seconds);
	gl_json_int(&j, "compiled_ctas", res->jit_ctas);
	gl_json_int(&j, "ctas", res->ctas_run);
	gl_json_bool(&j, "aborted", res->aborted);
	if (res->aborted)
		gl_json_int(&j, "aborted_cta", res->aborted_cta);
	else
		gl_json_null(&j, "aborted_cta");
	gl_json_end_object(&j);
	gl_json_end_object(&j);
	fputc('\n', out);
}
