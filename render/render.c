/* render.c — a stored run as a table, JSON or CSV.  `gpulab run` prints the run it just stored by
 * loading it back, so `run` and `report` always show the same thing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/csv.h"
#include "common/json.h"
#include "common/metrics.h"
#include "common/util.h"
#include "render/render.h"

static double metric(const struct gl_launch_record *l, const char *name)
{
	const double *v = gl_metrics_get(&l->metrics, name);
	return v ? *v : NAN;
}

static double ratio(double a, double b)
{
	return (isnan(a) || isnan(b) || b == 0) ? NAN : a / b;
}

static void print_ratio(FILE *out, double r, int width)
{
	if (isnan(r))
		fprintf(out, "%*s", width, "-");
	else
		fprintf(out, "%*.2f", width, r);
}

static void print_count(FILE *out, double v, int width)
{
	if (isnan(v))
		fprintf(out, "%*s", width, "-");
	else
		fprintf(out, "%*.0f", width, v);
}

static void print_time(FILE *out, const struct gl_launch_record *l)
{
	if (!isnan(l->duration_ns))
		fprintf(out, "  %10.3f us", l->duration_ns / 1000.0);
	else if (strcmp(l->metric_source, "sim") == 0) /* the launch was simulated: there is no time to show */
		fprintf(out, "  n/a (simulated)");
	else
		fprintf(out, "  n/a");
}

int gl_render_variant_width(const char *const *names, size_t n)
{
	size_t w = GL_RENDER_VARIANT_MIN;
	for (size_t i = 0; i < n; i++)
		if (names[i] && strlen(names[i]) > w)
			w = strlen(names[i]);
	return (int)w;
}

void gl_render_table_head(FILE *out, const char *title, int variant_w)
{
	fprintf(out, "%s\n", title);
	fprintf(out, "%s%-*s %-8s %10s %10s %10s %10s %13s %13s  %s%s\n", gl_sgr(GL_BOLD), variant_w, "variant", "verified",
		"gld s/req", "gst s/req", "sld wf/i", "sst wf/i", "ld conflicts", "st conflicts", "time", gl_sgr(GL_RESET));
}

/* Tensor-core launches: HMMA instructions, their FLOPs, ldmatrix and cp.async (LDGSTS) traffic. */
static void tensor_line(FILE *out, const struct gl_launch_record *l)
{
	double hmma = metric(l, GL_M_HMMA_INST), ops = metric(l, GL_M_TENSOR_OPS_F16_F32);
	double ldsm = metric(l, GL_M_LDSM_INST), req = metric(l, GL_M_LDGSTS_REQ), sect = metric(l, GL_M_LDGSTS_SECT);
	if (isnan(hmma) && isnan(ldsm) && isnan(req))
		return;
	fprintf(out, "  TC  %s: HMMA %.0f", l->variant, isnan(hmma) ? 0.0 : hmma);
	if (!isnan(ops))
		fprintf(out, " (%.4g tensor FLOP fp16->fp32)", ops);
	fprintf(out, ", LDSM %.0f", isnan(ldsm) ? 0.0 : ldsm);
	if (!isnan(req))
		fprintf(out, ", LDGSTS %.0f requests %.0f sectors", req, isnan(sect) ? 0.0 : sect);
	fputc('\n', out);
}

/* The simulator's sanitizer findings of one launch, in compute-sanitizer's layout. */
static void table_findings(FILE *out, const struct gl_launch_record *l, int print_limit)
{
	if (!l->sanitized || (!l->sanitizer_errors && !l->sanitizer_warnings))
		return;
	fprintf(out, "\nsanitizer findings of %s:\n", l->variant);
	/* a program's PTX names its own sources (a .cu built with -lineinfo, a Numba script): they come first */
	bool program = strcmp(l->topic, "program") == 0;
	struct gl_sanitizer_summary s = {l->findings, l->nfindings, l->sanitizer_errors, l->sanitizer_warnings,
					 l->sanitizer_dropped, false, program};
	gl_simprint_findings(out, &s, print_limit);
}

/* The counts of one row: a variant (a single launch or a multi-launch total) or one launch of it. */
static void table_counts(FILE *out, const struct gl_launch_record *l)
{
	print_ratio(out, ratio(metric(l, GL_M_GLD_SECT), metric(l, GL_M_GLD_REQ)), 10);
	print_ratio(out, ratio(metric(l, GL_M_GST_SECT), metric(l, GL_M_GST_REQ)), 10);
	print_ratio(out, ratio(metric(l, GL_M_SLD_WF), gl_metrics_shared_ld_requests(&l->metrics)), 10);
	print_ratio(out, ratio(metric(l, GL_M_SST_WF), metric(l, GL_M_SST_INST)), 10);
	print_count(out, metric(l, GL_M_SLD_CONF), 13);
	print_count(out, metric(l, GL_M_SST_CONF), 13);
	print_time(out, l);
}

/* A multi-launch variant: its total, then one indented row per launch naming the kernel. */
void gl_render_table_row(FILE *out, const struct gl_launch_record *l, int variant_w)
{
	const char *paint = l->verified < 0 ? "" : gl_sgr(l->verified ? GL_GREEN : GL_RED);
	fprintf(out, "%-*s %s%-8s%s", variant_w, l->variant, paint, gl_render_verdict(l->verified),
		*paint ? gl_sgr(GL_RESET) : "");
	table_counts(out, l);
	if (l->nparts)
		fprintf(out, "  total of %d launches", l->nparts);
	fputc('\n', out);
	for (int k = 0; k < l->nparts; k++) {
		char label[16];
		snprintf(label, sizeof label, "  %d/%d", l->parts[k].part, l->nparts);
		fprintf(out, "%-*s %-8s", variant_w, label, "");
		table_counts(out, &l->parts[k]);
		fprintf(out, "  %s\n", l->parts[k].entry);
	}
}

/* The values the topic derives (kernels/registry.h: derive), gpulab__TOPIC_NAME.ROLLUP, as "NAME value". */
static void table_derived(FILE *out, const struct gl_launch_record *l, int variant_w)
{
	char prefix[64];
	snprintf(prefix, sizeof prefix, "gpulab__%s_", l->topic);
	size_t n = strlen(prefix);
	bool any = false;
	for (size_t k = 0; k < l->metrics.n; k++) {
		const struct gl_metric *m = &l->metrics.items[k];
		if (strncmp(m->name, prefix, n) != 0)
			continue;
		const char *dot = strrchr(m->name, '.');
		int len = (int)((dot ? (size_t)(dot - m->name) : strlen(m->name)) - n);
		if (!any)
			fprintf(out, "  %s %-*s", l->topic, variant_w, l->variant);
		fprintf(out, "%s%.*s %.6g", any ? ", " : " ", len, m->name + n, m->value);
		any = true;
	}
	if (any)
		fputc('\n', out);
}

/* The columns' widths depend only on what is known before the first row: the variant names, the metric
 * names in the header and the formats' widths, so `run` can print each row as its variant finishes. */
static int run_variant_width(const struct gl_run_record *r)
{
	const char *names[64];
	size_t n = 0;
	for (size_t i = 0; i < r->nlaunches && n < 64; i++)
		names[n++] = r->launches[i].variant;
	return gl_render_variant_width(names, n);
}

void gl_render_table_tail(FILE *out, const struct gl_run_record *r, int print_limit)
{
	int variant_w = run_variant_width(r);
	for (size_t i = 0; i < r->nlaunches; i++)
		table_derived(out, &r->launches[i], variant_w);
	bool same_note = r->nlaunches > 1;
	for (size_t i = 1; i < r->nlaunches && same_note; i++)
		same_note = strcmp(r->launches[i].note, r->launches[0].note) == 0;
	if (same_note && r->launches[0].note[0])
		fprintf(out, "  note (every variant): %s\n", r->launches[0].note);
	for (size_t i = 0; i < r->nlaunches; i++) {
		const struct gl_launch_record *l = &r->launches[i];
		gl_render_guidance(out, &r->launches[i]);
		tensor_line(out, &r->launches[i]);
		if (l->note[0] && !same_note)
			fprintf(out, "  note %s: %s\n", l->variant, l->note);
	}
	for (size_t i = 0; i < r->nlaunches; i++) {
		table_findings(out, &r->launches[i], print_limit);
		for (int k = 0; k < r->launches[i].nparts; k++)
			table_findings(out, &r->launches[i].parts[k], print_limit);
	}
}

static void render_table(FILE *out, const struct gl_run_record *r, int print_limit)
{
	struct gl_str title = {0};
	int variant_w = run_variant_width(r);
	gl_str_addf(&title, "run %ld  %s  %s  backend %s  %s", r->id, r->launches ? r->launches[0].topic : "",
		    r->nlaunches ? r->launches[0].params_json : "", r->info.backend, r->info.device);
	gl_render_table_head(out, title.buf, variant_w);
	gl_str_free(&title);
	for (size_t i = 0; i < r->nlaunches; i++)
		gl_render_table_row(out, &r->launches[i], variant_w);
	gl_render_table_tail(out, r, print_limit);
	if (r->info.backend_note[0]) /* said on stderr once per terminal session when it ran; kept here */
		fprintf(out, "  %s\n", r->info.backend_note);
}

static void json_launch(struct gl_json *j, const struct gl_launch_record *l, const struct gl_gpu_model *g)
{
	gl_json_begin_object(j, NULL);
	gl_json_string(j, "topic", l->topic);
	gl_json_string(j, "variant", l->variant);
	if (l->part > 0)
		gl_json_int(j, "part", l->part);
	gl_json_string(j, "entry", l->entry);
	gl_json_raw(j, "params", l->params_json && l->params_json[0] ? l->params_json : "{}");
	gl_render_json_verdict(j, "verified", l->verified);
	gl_json_number(j, "max_abs_err", l->max_abs_err);
	gl_json_number(j, "max_rel_err", l->max_rel_err);
	gl_json_begin_array(j, "grid");
	for (int k = 0; k < 3; k++)
		gl_json_int(j, NULL, l->grid[k]);
	gl_json_end_array(j);
	gl_json_begin_array(j, "block");
	for (int k = 0; k < 3; k++)
		gl_json_int(j, NULL, l->block[k]);
	gl_json_end_array(j);
	if (l->regs >= 0)
		gl_json_int(j, "registers", l->regs);
	else
		gl_json_null(j, "registers");
	if (isnan(l->duration_ns))
		gl_json_null(j, "duration_ns");
	else
		gl_json_number(j, "duration_ns", l->duration_ns);
	gl_json_string(j, "metric_source", l->metric_source);
	gl_json_begin_object(j, "metrics");
	for (size_t k = 0; k < l->metrics.n; k++)
		gl_json_number(j, l->metrics.items[k].name, l->metrics.items[k].value);
	gl_json_end_object(j);
	gl_json_string(j, "note", l->note);
	gl_render_json_insights(j, l, g);
	if (l->sanitized) { /* every distinct finding, with its count */
		gl_json_begin_object(j, "sanitizer");
		gl_json_int(j, "errors", l->sanitizer_errors);
		gl_json_int(j, "warnings", l->sanitizer_warnings);
		gl_json_int(j, "findings_dropped", l->sanitizer_dropped);
		gl_json_begin_array(j, "findings");
		for (int k = 0; k < l->nfindings; k++)
			gl_simprint_json_finding(j, &l->findings[k]);
		gl_json_end_array(j);
		gl_json_end_object(j);
	} else {
		gl_json_null(j, "sanitizer");
	}
	if (l->nparts) { /* a multi-launch variant: the values above are its total, these its launches */
		gl_json_begin_array(j, "parts");
		for (int k = 0; k < l->nparts; k++)
			json_launch(j, &l->parts[k], g);
		gl_json_end_array(j);
	}
	gl_json_end_object(j);
}

static void render_json(FILE *out, const struct gl_run_record *r, const struct gl_gpu_model *g)
{
	struct gl_json j;
	gl_json_init(&j, out);
	gl_json_begin_object(&j, NULL);
	gl_json_int(&j, "run_id", r->id);
	gl_json_string(&j, "backend", r->info.backend);
	gl_json_string(&j, "device", r->info.device);
	gl_json_string(&j, "backend_note", r->info.backend_note);
	gl_json_string(&j, "status", r->status);
	gl_json_string(&j, "started_at", r->started_at);
	gl_json_begin_array(&j, "launches");
	for (size_t i = 0; i < r->nlaunches; i++)
		json_launch(&j, &r->launches[i], g ? g : gl_render_gpu_of(r));
	gl_json_end_array(&j);
	gl_json_end_object(&j);
}

#define CSV_MAX_NAMES 256

static void csv_names(const struct gl_launch_record *l, const char **names, size_t *nnames)
{
	for (size_t k = 0; k < l->metrics.n; k++) {
		const char *name = l->metrics.items[k].name;
		bool seen = false;
		for (size_t q = 0; q < *nnames && !seen; q++)
			seen = strcmp(names[q], name) == 0;
		if (!seen && *nnames < CSV_MAX_NAMES)
			names[(*nnames)++] = name;
	}
}

static void csv_row(FILE *out, const struct gl_run_record *r, const struct gl_launch_record *l, const char **names,
		    size_t nnames)
{
	fprintf(out, "%ld,%s,%s,%s,%d,%s,", r->id, r->info.backend, l->topic, l->variant, l->part, l->entry);
	gl_csv_field(out, l->params_json);
	fprintf(out, ",%s,", gl_render_csv_verdict(l->verified));
	gl_csv_number(out, l->max_abs_err);
	fputc(',', out);
	if (!isnan(l->duration_ns))
		fprintf(out, "%.0f", l->duration_ns);
	for (size_t q = 0; q < nnames; q++) {
		fputc(',', out);
		gl_csv_number(out, metric(l, names[q]));
	}
	fputc('\n', out);
}

/* CSV: one row per variant and, after a multi-launch variant's total (part 0), one per launch (part 1,
 * 2, ...); one column per metric name seen in the run (in first-seen order). */
static void render_csv(FILE *out, const struct gl_run_record *r)
{
	const char *names[CSV_MAX_NAMES];
	size_t nnames = 0;
	for (size_t i = 0; i < r->nlaunches; i++) {
		csv_names(&r->launches[i], names, &nnames);
		for (int k = 0; k < r->launches[i].nparts; k++)
			csv_names(&r->launches[i].parts[k], names, &nnames);
	}
	fputs("run_id,backend,topic,variant,part,entry,params,verified,max_abs_err,duration_ns", out);
	for (size_t q = 0; q < nnames; q++)
		fprintf(out, ",%s", names[q]);
	fputc('\n', out);
	for (size_t i = 0; i < r->nlaunches; i++) {
		csv_row(out, r, &r->launches[i], names, nnames);
		for (int k = 0; k < r->launches[i].nparts; k++)
			csv_row(out, r, &r->launches[i].parts[k], names, nnames);
	}
}

void gl_render_run(FILE *out, const struct gl_run_record *r, enum gl_format fmt, int print_limit)
{
	gl_render_run_gpu(out, r, fmt, print_limit, NULL);
}

void gl_render_run_gpu(FILE *out, const struct gl_run_record *r, enum gl_format fmt, int print_limit,
		       const struct gl_gpu_model *g)
{
	switch (fmt) {
	case GL_FMT_JSON: render_json(out, r, g); break;
	case GL_FMT_CSV: render_csv(out, r); break;
	default: render_table(out, r, print_limit); break;
	}
}
