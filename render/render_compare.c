/* render_compare.c — `gpulab compare` output: a table of values and one of ratios to the baseline,
 * JSON or CSV, all from a run loaded back from the store. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/csv.h"
#include "common/json.h"
#include "common/metrics.h"
#include "common/util.h"
#include "render/render.h"

static const struct {
	const char *key;   /* JSON/CSV name */
	const char *title; /* table heading */
} cols[GL_CMP_NCOLS] = {
	[GL_CMP_LD] = {"ld_sectors", "ld sectors"},
	[GL_CMP_ST] = {"st_sectors", "st sectors"},
	[GL_CMP_SWF] = {"shared_wavefronts", "shared wf"},
	[GL_CMP_CONF] = {"bank_conflicts", "conflicts"},
	[GL_CMP_FLOPS] = {"flops", "FLOPs"},
	[GL_CMP_TFLOPS] = {"tensor_flops", "tensor FLOPs"},
	[GL_CMP_AI] = {"flop_per_byte", "FLOP/byte"},
};

static double metric(const struct gl_launch_record *l, const char *name)
{
	const double *v = gl_metrics_get(&l->metrics, name);
	return v ? *v : NAN;
}

void gl_cmp_row_from(const struct gl_launch_record *l, struct gl_cmp_row *row)
{
	struct gl_traffic t;
	gl_traffic_of(&l->metrics, &t);
	gl_flops_of(&l->metrics, &row->flops);
	/* a backend that reported no load sectors leaves the column empty, unless cp.async moved some */
	row->v[GL_CMP_LD] = isnan(metric(l, GL_M_GLD_SECT)) && !(t.ldgsts_sectors > 0) ? NAN : t.ld_sectors;
	row->v[GL_CMP_ST] = metric(l, GL_M_GST_SECT);
	row->v[GL_CMP_SWF] = metric(l, GL_M_SLD_WF) + metric(l, GL_M_SST_WF);
	row->v[GL_CMP_CONF] = metric(l, GL_M_SLD_CONF) + metric(l, GL_M_SST_CONF);
	row->v[GL_CMP_FLOPS] = row->flops.total;
	row->v[GL_CMP_TFLOPS] = row->flops.tensor;
	row->ldgsts_sectors = t.ldgsts_sectors;
	row->atom_sectors = t.atom_sectors;
	row->global_bytes = t.global_bytes;
	row->v[GL_CMP_AI] = row->global_bytes > 0 ? row->v[GL_CMP_FLOPS] / row->global_bytes : NAN;
}

static double ratio(double v, double base)
{
	return (isnan(v) || isnan(base) || base == 0) ? NAN : v / base;
}

/* ---- table */

static void heading(FILE *out, int name_w, const char *second)
{
	fprintf(out, "%-*s %-8s", name_w, "variant", second);
	for (int c = 0; c < GL_CMP_NCOLS; c++)
		fprintf(out, " %12s", cols[c].title);
	fputc('\n', out);
}

static void print_value(FILE *out, int c, double v)
{
	if (isnan(v))
		fprintf(out, " %12s", "-");
	else if (c == GL_CMP_AI)
		fprintf(out, " %12.3f", v);
	else
		fprintf(out, " %12.0f", v);
}

/* Against a baseline of 0 a ratio says nothing: the absolute difference instead ("+N"). */
static void print_ratio(FILE *out, double v, double base)
{
	double r = ratio(v, base);
	if (base == 0 && !isnan(v))
		fprintf(out, " %+12.4g", v - base);
	else if (isnan(r))
		fprintf(out, " %12s", "-");
	else
		fprintf(out, " %12.3g", r);
}

/* The variant column: as wide as the longest name (at least "variant"), as `gpulab run` sizes it. */
static int name_width(const struct gl_run_record *r)
{
	int w = 12;
	for (size_t i = 0; i < r->nlaunches; i++)
		w = (int)strlen(r->launches[i].variant) > w ? (int)strlen(r->launches[i].variant) : w;
	return w;
}

static void render_table(FILE *out, const struct gl_run_record *r, const struct gl_cmp_row *rows, size_t base,
			 const char *runs)
{
	const struct gl_launch_record *b = &r->launches[base];
	int w = name_width(r);
	char run[64];
	snprintf(run, sizeof run, "run %ld", r->id);
	fprintf(out, "compare %s  %s  %s  backend %s  %s\n", b->topic, b->params_json ? b->params_json : "{}",
		runs ? runs : run, r->info.backend, r->info.device);
	heading(out, w, "verified");
	for (size_t i = 0; i < r->nlaunches; i++) {
		fprintf(out, "%-*s %-8s", w, r->launches[i].variant, gl_render_verdict(r->launches[i].verified));
		for (int c = 0; c < GL_CMP_NCOLS; c++)
			print_value(out, c, rows[i].v[c]);
		fputc('\n', out);
	}
	fprintf(out, "\nratio to %s (variant / baseline; +N: the difference where the baseline is 0)\n", b->variant);
	heading(out, w, "");
	for (size_t i = 0; i < r->nlaunches; i++) {
		fprintf(out, "%-*s %-8s", w, r->launches[i].variant, i == base ? "baseline" : "");
		for (int c = 0; c < GL_CMP_NCOLS; c++)
			print_ratio(out, rows[i].v[c], rows[base].v[c]);
		fputc('\n', out);
	}
	fprintf(out, "\nFLOPs: CUDA cores (FP32 2*FFMA + FADD + FMUL, FP16, FP64) and tensor cores (2 per multiply-add);"
		     " ld sectors include cp.async (LDGSTS); FLOP/byte over 32-byte global sectors (loads, stores, atomics)\n");
	for (size_t i = 0; i < r->nlaunches; i++) {
		if (rows[i].flops.total > 0) {
			fprintf(out, "  %s FLOPs:", r->launches[i].variant);
			for (int k = 0; k < GL_FLOP_KINDS; k++)
				if (rows[i].flops.kind[k] > 0)
					fprintf(out, " %s %.0f", gl_flop_kind_label((enum gl_flop_kind)k), rows[i].flops.kind[k]);
			fprintf(out, "%s\n", rows[i].flops.tensor_assumed ? " (tensor from the HMMA count x 4096)" : "");
		}
		if (rows[i].ldgsts_sectors > 0)
			fprintf(out, "  %s ld sectors: %.0f of them cp.async\n", r->launches[i].variant, rows[i].ldgsts_sectors);
	}
	for (size_t i = 0; i < r->nlaunches; i++) {
		if (r->launches[i].nparts) /* a multi-launch variant is compared by its total */
			fprintf(out, "  %s: totals of its %d kernel launches ('gpulab report %ld' shows each)\n",
				r->launches[i].variant, r->launches[i].nparts, r->id);
		if (r->launches[i].note[0])
			fprintf(out, "  note %s: %s\n", r->launches[i].variant, r->launches[i].note);
	}
	for (size_t i = 0; i < r->nlaunches; i++)
		gl_render_guidance(out, &r->launches[i]);
}

/* ---- JSON */

static void json_value(struct gl_json *j, const char *key, double v)
{
	if (isnan(v))
		gl_json_null(j, key);
	else
		gl_json_number(j, key, v);
}

static void json_row(struct gl_json *j, const struct gl_launch_record *l, const struct gl_cmp_row *row,
		     const struct gl_cmp_row *base)
{
	gl_json_begin_object(j, NULL);
	gl_json_string(j, "variant", l->variant);
	gl_render_json_verdict(j, "verified", l->verified);
	gl_json_int(j, "launches", l->nparts ? l->nparts : 1); /* a multi-launch variant: its total */
	for (int c = 0; c < GL_CMP_NCOLS; c++)
		json_value(j, cols[c].key, row->v[c]);
	json_value(j, "ldgsts_sectors", row->ldgsts_sectors);
	gl_render_json_flops(j, "flops_by_kind", &row->flops);
	json_value(j, "atom_sectors", row->atom_sectors);
	json_value(j, "global_bytes", row->global_bytes);
	gl_json_begin_object(j, "ratio");
	for (int c = 0; c < GL_CMP_NCOLS; c++)
		json_value(j, cols[c].key, ratio(row->v[c], base->v[c]));
	gl_json_end_object(j);
	gl_json_begin_object(j, "difference"); /* variant - baseline: what a baseline of 0 compares by */
	for (int c = 0; c < GL_CMP_NCOLS; c++)
		json_value(j, cols[c].key, row->v[c] - base->v[c]);
	gl_json_end_object(j);
	gl_json_string(j, "note", l->note);
	gl_json_end_object(j);
}

static void render_json(FILE *out, const struct gl_run_record *r, const struct gl_cmp_row *rows, size_t base)
{
	struct gl_json j;
	const struct gl_launch_record *b = &r->launches[base];
	gl_json_init(&j, out);
	gl_json_begin_object(&j, NULL);
	gl_json_int(&j, "run_id", r->id);
	gl_json_string(&j, "topic", b->topic);
	gl_json_string(&j, "backend", r->info.backend);
	gl_json_string(&j, "device", r->info.device);
	gl_json_raw(&j, "params", b->params_json && b->params_json[0] ? b->params_json : "{}");
	gl_json_string(&j, "baseline", b->variant);
	gl_json_begin_array(&j, "variants");
	for (size_t i = 0; i < r->nlaunches; i++)
		json_row(&j, &r->launches[i], &rows[i], &rows[base]);
	gl_json_end_array(&j);
	gl_json_end_object(&j);
}

/* ---- CSV */

static void csv_value(FILE *out, double v)
{
	fputc(',', out);
	gl_csv_number(out, v);
}

static void render_csv(FILE *out, const struct gl_run_record *r, const struct gl_cmp_row *rows, size_t base)
{
	fputs("run_id,topic,variant,verified,baseline", out);
	for (int c = 0; c < GL_CMP_NCOLS; c++)
		fprintf(out, ",%s", cols[c].key);
	fputs(",atom_sectors,global_bytes", out);
	for (int c = 0; c < GL_CMP_NCOLS; c++)
		fprintf(out, ",%s_ratio", cols[c].key);
	fputc('\n', out);
	for (size_t i = 0; i < r->nlaunches; i++) {
		const struct gl_launch_record *l = &r->launches[i];
		fprintf(out, "%ld,%s,%s,%s,%s", r->id, l->topic, l->variant, gl_render_csv_verdict(l->verified),
			r->launches[base].variant);
		for (int c = 0; c < GL_CMP_NCOLS; c++)
			csv_value(out, rows[i].v[c]);
		csv_value(out, rows[i].atom_sectors);
		csv_value(out, rows[i].global_bytes);
		for (int c = 0; c < GL_CMP_NCOLS; c++)
			csv_value(out, ratio(rows[i].v[c], rows[base].v[c]));
		fputc('\n', out);
	}
}

void gl_render_compare(FILE *out, const struct gl_run_record *r, size_t baseline, enum gl_format fmt)
{
	gl_render_compare_titled(out, r, baseline, fmt, NULL);
}

void gl_render_compare_titled(FILE *out, const struct gl_run_record *r, size_t baseline, enum gl_format fmt,
			      const char *runs)
{
	struct gl_cmp_row *rows = gl_xcalloc(r->nlaunches ? r->nlaunches : 1, sizeof *rows);
	for (size_t i = 0; i < r->nlaunches; i++)
		gl_cmp_row_from(&r->launches[i], &rows[i]);
	switch (fmt) {
	case GL_FMT_JSON: render_json(out, r, rows, baseline); break;
	case GL_FMT_CSV: render_csv(out, r, rows, baseline); break;
	default: render_table(out, r, rows, baseline, runs); break;
	}
	free(rows);
}
