/* render.h — how gpulab prints what it measured, the one public header of render/: a stored run as a
 * table, JSON or CSV (render.c), whether printers paint (render_color.c), `run`'s table row by row as
 * variants finish (render_stream.c), guidance, occupancy and the estimate (render_insights.c), `report
 * --details` (render_details.c), variants and runs side by side (render_compare.c,
 * render_compare_runs.c), a launch's verdict in each format (render_verdict.c), one simulated kernel with
 * its compute-sanitizer-style findings (render_sim.c) and `validate`'s rows and time line
 * (render_validate.c, render_validate_time.c).  Printers only: they
 * read records and results; nothing here runs a kernel or writes the store. */
#ifndef GL_RENDER_H
#define GL_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "common/derived.h"
#include "common/findings.h"
#include "common/json.h"
#include "common/metrics.h"
#include "insights/estimate.h"
#include "sim/sim.h"
#include "store/store.h"

/* ---- formats and colour */

enum gl_format { GL_FMT_TABLE, GL_FMT_JSON, GL_FMT_CSV };

/* Colour is one setting per process (the command line decides it once), so printers without a context
 * follow it too: gl_sgr returns the ANSI escape when colour is on, else "":
 * printf("%sFAIL%s", gl_sgr(GL_RED), gl_sgr(GL_RESET)). */
#define GL_BOLD "\033[1m"
#define GL_RED "\033[31m"
#define GL_GREEN "\033[32m"
#define GL_YELLOW "\033[33m"
#define GL_CYAN "\033[36m"
#define GL_RESET "\033[0m"
void gl_render_set_color(bool on);
const char *gl_sgr(const char *seq);

/* ---- a stored run (render.c) */

/* print_limit: distinct sanitizer findings printed per launch in the table (0 = all); JSON has all. */
void gl_render_run(FILE *out, const struct gl_run_record *r, enum gl_format fmt, int print_limit);
/* The same, with the JSON's occupancy and estimate for GPU model g (NULL: the run's own, else H100). */
void gl_render_run_gpu(FILE *out, const struct gl_run_record *r, enum gl_format fmt, int print_limit,
		       const struct gl_gpu_model *g);

/* The table in pieces, for `run`, which prints each variant's row as soon as it has run: the title line
 * and the column header, one row per variant (with one indented row per launch of a multi-launch
 * variant), then what needs every row (derived values, notes, guidance, findings).  The variant column
 * is variant_w wide: gl_render_variant_width of the variant names, known before any runs. */
#define GL_RENDER_VARIANT_MIN 12
int gl_render_variant_width(const char *const *names, size_t n);
void gl_render_table_head(FILE *out, const char *title, int variant_w);
void gl_render_table_row(FILE *out, const struct gl_launch_record *l, int variant_w);
void gl_render_table_tail(FILE *out, const struct gl_run_record *r, int print_limit);

/* ---- a launch's verdict (render_verdict.c), the one place every printer takes it from: verified 1 is
 * "yes", 0 "NO", and < 0 (not checked: a sampled launch, a program's own launch) "n/a" in a table, null in
 * JSON and an empty CSV field. */
const char *gl_render_verdict(int verified);
void gl_render_json_verdict(struct gl_json *j, const char *key, int verified);
const char *gl_render_csv_verdict(int verified);

/* ---- `run`'s table as the run goes (render_stream.c): the title and column header once the backend is
 * known, each variant's row as soon as it has run, and what needs every row once the run is stored. */
struct gl_render_stream {
	FILE *out;
	const char *topic;
	char *params_json; /* owned */
	int variant_w;     /* from the names of the variants that will run, so rows line up before all have run */
};
void gl_render_stream_init(struct gl_render_stream *st, FILE *out, const char *topic, const char *params_json,
			   const char *const *variants, size_t n);
void gl_render_stream_started(struct gl_render_stream *st, const char *backend, const char *device);
void gl_render_stream_row(struct gl_render_stream *st, const struct gl_launch_record *rec);
/* After the run is stored: the lines that need every row, then which run it was stored as and the command
 * that shows it again (`report`: "gpulab report 3", as gl_cli_hint writes it); frees st. */
void gl_render_stream_finish(struct gl_render_stream *st, const struct gl_run_record *r, int print_limit,
			     const char *report);

/* ---- insights (render_insights.c, render_details.c) */

/* The GPU model of a stored run: its device's model, else the default (H100). */
const struct gl_gpu_model *gl_render_gpu_of(const struct gl_run_record *r);
/* "  OPT naive: message (est. speedup up to 87%)" per stored rule. */
void gl_render_guidance(FILE *out, const struct gl_launch_record *l);
/* "guidance": [...], "shared_bytes", "occupancy": {...}, "estimate": {...} of one launch. */
void gl_render_json_insights(struct gl_json *j, const struct gl_launch_record *l, const struct gl_gpu_model *g);
/* `key`: {"fp32": ..., "tensor_fp16": ..., ..., "cuda_cores", "tensor", "tensor_from_hmma_count"}. */
void gl_render_json_flops(struct gl_json *j, const char *key, const struct gl_flops *f);
/* `report --details`: per launch, Nsight Compute-like sections, estimates for g. */
void gl_render_details(FILE *out, const struct gl_run_record *r, const struct gl_gpu_model *g);
/* `report --details --csv`: one row per launch (JSON: the run's JSON carries every section). */
void gl_render_details_csv(FILE *out, const struct gl_run_record *r, const struct gl_gpu_model *g);

/* ---- variants side by side (render_compare.c, render_compare_runs.c) */

enum gl_cmp_col { GL_CMP_LD, GL_CMP_ST, GL_CMP_SWF, GL_CMP_CONF, GL_CMP_FLOPS, GL_CMP_TFLOPS, GL_CMP_AI, GL_CMP_NCOLS };

/* One variant's derived figures; NAN where the backend did not report what they need. */
struct gl_cmp_row {
	double v[GL_CMP_NCOLS];
	double atom_sectors, global_bytes, ldgsts_sectors;
	struct gl_flops flops;
};

/* Derive a launch's figures through common/derived.h: load sectors with cp.async's, FLOPs of every kind
 * (CUDA cores and tensor cores), global bytes = 32 * (load + store + atomic + reduction sectors),
 * intensity = FLOPs / global bytes. */
void gl_cmp_row_from(const struct gl_launch_record *l, struct gl_cmp_row *row);
/* Print the run with launch `baseline` (an index into r->launches) as the reference. */
void gl_render_compare(FILE *out, const struct gl_run_record *r, size_t baseline, enum gl_format fmt);
/* The same with a title naming where the launches came from (`runs`, e.g. "runs 1, 2"; NULL: r->id's run). */
void gl_render_compare_titled(FILE *out, const struct gl_run_record *r, size_t baseline, enum gl_format fmt,
			      const char *runs);
/* `compare --runs A,B[,C]`: stored runs' launches side by side, labelled rRUN:VARIANT, the first run's
 * (or `baseline`, a variant of the first run or a label) the reference.  The runs' launches move into
 * one record; GL_EUSAGE when there is nothing to compare, the runs are of different topics (their columns
 * measure different problems) or the baseline is not there. */
int gl_render_compare_runs(FILE *out, struct gl_run_record *runs, int n, const char *baseline, enum gl_format fmt,
			   struct gl_err *err);

/* ---- one simulated kernel (render_sim.c): `gpulab sim`'s output, and findings as compute-sanitizer
 * prints them */

struct gl_sim_report {
	const char *source;      /* the SOURCE argument */
	const char *kernel;      /* the entry name run */
	const struct gl_launch *launch;
	const struct gl_sim_result *res;
	const struct gl_metrics *metrics;
	int print_limit;         /* distinct findings printed as text; 0 = all */
	const char *counts_mode; /* "SASS-mapped (ptxas 13.0 sm_80)" or "PTX-level (why)" */
};

void gl_simprint_text(FILE *out, const struct gl_sim_report *r);
void gl_simprint_json(FILE *out, const struct gl_sim_report *r);
/* The lines about device printf: records dropped when its buffer was full, unsupported conversions. */
void gl_simprint_printf_notes(FILE *out, const struct gl_sim_result *res);

/* The compute-sanitizer-like headline of a finding: "Invalid __global__ read of size 4 bytes". */
void gl_simprint_headline(const struct gl_finding *f, char *buf, size_t n);

/* Findings of one launch and their occurrence counts. */
struct gl_sanitizer_summary {
	const struct gl_finding *findings; /* distinct, errors first */
	int nfindings;
	long errors, warnings, dropped;    /* occurrences */
	bool aborted;
	bool cuda_places; /* a .cu source: name the CUDA file and line first (nvcc's PTX is temporary) */
};

/* The findings in compute-sanitizer's layout: the first `print_limit` distinct findings (0: all) with
 * their occurrence counts and first coordinates, a line for those not shown, and the ERROR SUMMARY line
 * counting every occurrence. */
void gl_simprint_findings(FILE *out, const struct gl_sanitizer_summary *s, int print_limit);

/* One finding as a JSON object (kind, tool, space, address, size, block, thread, line, cuda_line,
 * warning, count, samples, message). */
void gl_simprint_json_finding(struct gl_json *j, const struct gl_finding *f);

/* ---- `gpulab validate`'s rows (render_validate.c): the simulator's count beside the GPU's.  Exact rows
 * agree or differ, a row the GPU did not collect (no CUPTI metrics, a metric the chip lacks) is "not
 * collected" and never a difference, conflict and instruction-total rows are shown for information. */

enum gl_vkind { GL_VKIND_EXACT, GL_VKIND_CONFLICT, GL_VKIND_INFO };
enum gl_vrow { GL_VROW_AGREE, GL_VROW_DIFFERS, GL_VROW_NOT_COLLECTED, GL_VROW_SHOWN };

struct gl_vcount {
	int differs;       /* exact rows whose counts differ */
	int not_collected; /* rows with no value from the GPU */
	int agree;         /* exact rows that agree */
};

enum gl_vkind gl_validate_kind(const char *name);
/* NAN when the metric is absent. */
double gl_validate_value(const struct gl_metrics *m, const char *name);
enum gl_vrow gl_validate_row(const char *name, double sim, double gpu);
/* "agree", "DIFFERS", "not collected", "shown" */
const char *gl_validate_row_word(enum gl_vrow row);
/* The remark of an instruction-total row: an estimate of the SASS when the simulator's run was
 * SASS-mapped (its note says "counts: SASS-mapped", docs/sim.md), else PTX beside SASS. */
const char *gl_validate_info_remark(const char *sim_note);
/* `compare --runs A,B --strict`: a simulator run and a GPU run of the same program (gpulab profile on
 * each backend), launch k beside launch k, judged by these rules.  GL_EUSAGE when the two are not one run
 * of each backend or their launches do not pair up (count, kernel); *count gets the rows and `first`
 * describes the first difference ("" when none). */
int gl_validate_runs(const struct gl_run_record *a, const struct gl_run_record *b, struct gl_vcount *count,
		     char *first, size_t n, struct gl_err *err);
/* Judge every name of the simulator's metric set; adds to *count. */
void gl_validate_count(const struct gl_metrics *sim, const struct gl_metrics *gpu, struct gl_vcount *count);

/* validate's time line (render_validate_time.c): the estimate (model) from the simulator's record for the
 * model of `device` (else H100, said) beside the GPU's measured time. */
void gl_validate_time_line(FILE *out, const struct gl_launch_record *sim, const struct gl_launch_record *gpu,
			   const char *device);
void gl_validate_time_json(struct gl_json *j, const struct gl_launch_record *sim, const struct gl_launch_record *gpu,
			   const char *device);

#endif
