/* sim_print.c — `gpulab sim`'s output: the launch, the metrics under Nsight Compute's names, device
 * printf output and compute-sanitizer-style findings, as text or as one JSON object. */
#include <math.h>
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "sim_cmd.h"

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

static bool is_write(const struct gl_sim_finding *f)
{
	return strstr(f->message, " write ") != NULL || strstr(f->message, "write of size") != NULL;
}

void gl_simprint_headline(const struct gl_sim_finding *f, char *buf, size_t n)
{
	const char *k = f->kind;
	if (strcmp(k, "out-of-bounds") == 0 || strcmp(k, "misaligned") == 0)
		snprintf(buf, n, "Invalid %s %s of size %u bytes", space_text(f->space), is_write(f) ? "write" : "read",
			 f->size);
	else if (strcmp(k, "race") == 0)
		snprintf(buf, n, "Race reported between warps on %s memory (%u bytes at 0x%llx)", space_text(f->space),
			 f->size, (unsigned long long)f->address);
	else if (strcmp(k, "uninitialized") == 0)
		snprintf(buf, n, "Uninitialized %s memory read of size %u bytes", space_text(f->space), f->size);
	else if (strcmp(k, "barrier-divergence") == 0)
		snprintf(buf, n, "Barrier error detected. Divergent thread(s) in warp");
	else if (strcmp(k, "deadlock") == 0)
		snprintf(buf, n, "Barrier error detected. Warps wait at different barriers (deadlock)");
	else if (strcmp(k, "budget") == 0)
		snprintf(buf, n, "Kernel aborted: instruction budget exhausted");
	else if (strcmp(k, "unsupported") == 0)
		snprintf(buf, n, "Unsupported PTX instruction");
	else if (strcmp(k, "assert") == 0)
		snprintf(buf, n, "Device-side assertion failed");
	else if (strcmp(k, "trap") == 0)
		snprintf(buf, n, "Kernel trapped (trap instruction, e.g. a failed device assert)");
	else
		snprintf(buf, n, "%s", k);
}

static void where(const struct gl_sim_finding *f, char *buf, size_t n)
{
	char src[48] = "";
	if (f->src_line > 0)
		snprintf(src, sizeof src, " (CUDA line %d)", f->src_line);
	snprintf(buf, n, "at PTX line %d%s in block (%u,%u,%u) thread (%u,%u,%u)", f->line, src, f->block[0],
		 f->block[1], f->block[2], f->thread[0], f->thread[1], f->thread[2]);
}

static void print_findings(FILE *out, const struct gl_sim_result *res)
{
	fprintf(out, "========= COMPUTE-SANITIZER (gpulab simulator)\n");
	for (int i = 0; i < res->nfindings; i++) {
		const struct gl_sim_finding *f = &res->findings[i];
		char head[256], at[160];
		gl_simprint_headline(f, head, sizeof head);
		where(f, at, sizeof at);
		fprintf(out, "========= %s%s %s\n", f->warning ? "Warning: " : "", head, at);
		fprintf(out, "=========     %s\n", f->message);
	}
	if (res->findings_total > res->nfindings)
		fprintf(out, "=========     (%ld further findings not shown)\n", res->findings_total - res->nfindings);
	long warnings = res->findings_total - res->nerrors;
	fprintf(out, "========= ERROR SUMMARY: %d error%s", res->nerrors, res->nerrors == 1 ? "" : "s");
	if (warnings > 0)
		fprintf(out, ", %ld warning%s", warnings, warnings == 1 ? "" : "s");
	fprintf(out, "%s\n", res->aborted ? " (the launch was aborted)" : "");
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
	unsigned long threads = (unsigned long)l->block[0] * l->block[1] * l->block[2];
	fprintf(out, "launch grid (%u,%u,%u) block (%u,%u,%u), %u bytes of dynamic shared memory, %lu threads\n",
		l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->dyn_smem,
		threads * l->grid[0] * l->grid[1] * l->grid[2]);
	fprintf(out, "simulated %ld of %ld CTAs on %d CPU thread%s in %.3f s", res->ctas_run, res->ctas_total,
		res->threads, res->threads == 1 ? "" : "s", res->wall_seconds);
	if (res->aborted)
		fprintf(out, "; CTA %ld, the first in grid order to abort, stopped the launch", res->aborted_cta);
	fprintf(out, "\n\n");
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
	print_findings(out, res);
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

static void json_finding(struct gl_json *j, const struct gl_sim_finding *f)
{
	gl_json_begin_object(j, NULL);
	gl_json_string(j, "kind", f->kind);
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
	gl_json_bool(j, "warning", f->warning);
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
	json_dim(&j, "grid", l->grid);
	json_dim(&j, "block", l->block);
	gl_json_int(&j, "dyn_smem", l->dyn_smem);
	gl_json_begin_object(&j, "metrics");
	for (size_t i = 0; i < r->metrics->n; i++)
		gl_json_number(&j, r->metrics->items[i].name, r->metrics->items[i].value);
	gl_json_end_object(&j);
	gl_json_begin_array(&j, "sanitizer");
	for (int i = 0; i < res->nfindings; i++)
		json_finding(&j, &res->findings[i]);
	gl_json_end_array(&j);
	gl_json_int(&j, "errors", res->nerrors);
	gl_json_string(&j, "printf", res->printf_out ? res->printf_out : "");
	gl_json_int(&j, "printf_buffer", (long long)res->printf_buffer);
	gl_json_int(&j, "printf_dropped", (long long)res->printf_dropped);
	gl_json_int(&j, "printf_unsupported", (long long)res->printf_unsupported);
	gl_json_begin_object(&j, "sim");
	gl_json_int(&j, "thread_instructions", (long long)res->c.thread_inst);
	gl_json_int(&j, "warp_instructions", (long long)res->c.inst);
	gl_json_number(&j, "wall_seconds", res->wall_seconds);
	gl_json_int(&j, "threads", res->threads);
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
