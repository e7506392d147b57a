/* cuda_measure.c — one launch on the GPU, the llm.c way: a correctness run, a profiled run (CUPTI
 * user replay, inputs restored and L2 flushed before every pass), N timed runs each after an L2
 * flush, then the outputs of the last timed run are copied back so the caller validates again after
 * timing (and the first run's too, where they differ). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/cuda_ctx.h"
#include "profiler/cuda_kernel.h"
#include "profiler/cupti_errors.h"
#include "profiler/cupti_golden.h"

static int run_cb(void *arg, struct gl_err *err) { return gl_cuda_kernel_run(arg, err); }

/* Before each profiled pass: the pristine inputs again (kernels may work in place), then a cold L2. */
static int prepare_cb(void *arg, struct gl_err *err)
{
	struct gl_cuda_kernel *k = arg;
	int rc = gl_cuda_kernel_upload(k, err);
	return rc == GL_OK ? gl_cuda_l2_flush(k->d, err) : rc;
}

/* GPULAB_SAVE_COUNTERDATA=DIR keeps the counter-data image, for CPU-side decoding tests. */
static void save_counterdata(struct gl_cuda_ctx *c, const char *entry, const double *values)
{
	const char *dir = getenv("GPULAB_SAVE_COUNTERDATA");
	if (!dir || !*dir || c->metrics.n > GL_GOLDEN_MAX_METRICS)
		return;
	struct gl_cupti_golden *g = gl_xcalloc(1, sizeof *g);
	struct gl_err err = {0};
	snprintf(g->chip, sizeof g->chip, "%s", c->info.chip);
	snprintf(g->kernel, sizeof g->kernel, "%s", entry);
	g->ranges = c->range.ranges;
	g->n = c->metrics.n;
	for (size_t i = 0; i < g->n; i++) {
		snprintf(g->names[i], sizeof g->names[i], "%s", c->metrics.names[i]);
		g->values[i] = values[i];
	}
	g->image = c->range.data;
	g->size = c->range.data_size;
	if (gl_cupti_golden_save(dir, entry, g, &err) != GL_OK)
		fprintf(stderr, "gpulab: warning: %s\n", err.msg);
	free(g);
}

/* The metrics of one profiled run into rec; *passes: CUPTI's replay passes (0 when it fell back). */
static int profile(struct gl_cuda_ctx *c, struct gl_cuda_kernel *k, struct gl_launch_record *rec, int *passes,
		   struct gl_err *err)
{
	double *values = gl_xcalloc(c->metrics.n, sizeof *values);
	struct gl_err perr = {0};
	int rc = GL_OK;
	if (gl_cupti_range_collect(&c->range, prepare_cb, run_cb, k, values, &perr) != GL_OK) {
		if (gl_cupti_is_fallback(c->range.result)) {
			c->profiling = false; /* permission or device: carry on with timings, say so */
			snprintf(c->note, sizeof c->note, "timings only, no CUPTI metrics: %.200s",
				 gl_cupti_is_permission(c->range.result) ? GL_CUPTI_PERMISSION_SHORT : perr.msg);
		} else {
			rc = gl_errf(err, perr.status, "%s", perr.msg);
		}
	} else {
		for (size_t i = 0; i < c->metrics.n; i++)
			gl_metrics_set(&rec->metrics, c->metrics.names[i], values[i], c->units[i]);
		*passes = (int)c->range.passes;
		save_counterdata(c, k->l->entry, values);
	}
	free(values);
	return rc;
}

static int cmp_float(const void *x, const void *y)
{
	float a = *(const float *)x, b = *(const float *)y;
	return (a > b) - (a < b);
}

/* Median kernel time of `repeat` timed runs: CUPTI activity records, else CUDA events. */
static int time_runs(struct gl_cuda_ctx *c, struct gl_cuda_kernel *k, int repeat, double *ns, struct gl_err *err)
{
	float *ms = gl_xcalloc((size_t)repeat, sizeof *ms);
	int rc = GL_OK;
	struct gl_err aerr = {0}; /* activity trouble only costs precision: events remain */
	if (c->have_activity) {
		gl_cupti_activity_flush(&c->activity, &aerr);
		gl_cupti_activity_clear(&c->activity);
	}
	for (int i = 0; i < repeat && rc == GL_OK; i++)
		rc = gl_cuda_kernel_timed(k, &ms[i], err);
	qsort(ms, (size_t)repeat, sizeof *ms, cmp_float);
	*ns = rc == GL_OK ? (double)ms[repeat / 2] * 1e6 : NAN;
	free(ms);
	size_t count = 0;
	if (rc == GL_OK && c->have_activity && gl_cupti_activity_flush(&c->activity, &aerr) == GL_OK) {
		double act = gl_cupti_activity_median_ns(&c->activity, k->l->entry, &count);
		if (count > 0)
			*ns = act;
	}
	return rc;
}

/* Hand the first run's outputs to the caller where the last timed run's differ from them bytewise
 * (say, float atomics that added in another order, or a kernel that accumulates into its output);
 * the caller verifies both with the topic's tolerance. */
static void pass_first_outputs(const struct gl_launch *l, void **first, void *out[GL_MAX_BUFFERS])
{
	for (int i = 0; i < l->nbuffers; i++) {
		const struct gl_buffer *b = &l->buffers[i];
		if (b->is_output && first[i] && memcmp(first[i], b->host, b->count * gl_dtype_size(b->dtype)) != 0) {
			out[i] = first[i];
			first[i] = NULL;
		}
	}
}

static void **keep_outputs(const struct gl_launch *l)
{
	void **copy = gl_xcalloc(GL_MAX_BUFFERS, sizeof *copy);
	for (int i = 0; i < l->nbuffers; i++) {
		const struct gl_buffer *b = &l->buffers[i];
		size_t bytes = b->count * gl_dtype_size(b->dtype);
		if (b->is_output) {
			copy[i] = gl_xmalloc(bytes ? bytes : 1);
			memcpy(copy[i], b->host, bytes);
		}
	}
	return copy;
}

static void free_outputs(void **copy)
{
	for (int i = 0; i < GL_MAX_BUFFERS; i++)
		free(copy[i]);
	free(copy);
}

static int first_run(struct gl_cuda_kernel *k, struct gl_launch *l, struct gl_err *err)
{
	int rc = gl_cuda_kernel_upload(k, err);
	if (rc == GL_OK)
		rc = gl_cuda_kernel_run(k, err);
	if (rc == GL_OK)
		rc = gl_cuda_kernel_download(k, l, err);
	return rc;
}

static int measure(struct gl_cuda_ctx *c, struct gl_cuda_kernel *k, struct gl_launch *l,
		   struct gl_launch_record *rec, struct gl_err *err)
{
	int repeat = c->opts.repeat > 0 ? c->opts.repeat : 1, passes = 0;
	int rc = first_run(k, l, err);
	if (rc != GL_OK)
		return rc;
	void **first = keep_outputs(l);
	if (c->profiling)
		rc = profile(c, k, rec, &passes, err);
	if (rc == GL_OK)
		rc = time_runs(c, k, repeat, &rec->duration_ns, err);
	if (rc == GL_OK)
		rc = gl_cuda_kernel_download(k, l, err); /* the caller verifies these: after timing */
	if (passes > 0) /* the store has no column for passes: the note says them */
		snprintf(rec->note, sizeof rec->note, "CUPTI: %d replay pass%s (user replay, L2 flushed before "
			 "each), time: median of %d L2-flushed run%s%s%.120s", passes, passes == 1 ? "" : "es", repeat,
			 repeat == 1 ? "" : "s", c->dropped[0] ? "; not on this chip: " : "", c->dropped);
	else
		snprintf(rec->note, sizeof rec->note, "%s", c->note); /* why there are no metrics */
	if (rc == GL_OK)
		pass_first_outputs(l, first, c->first);
	free_outputs(first);
	return rc;
}

/* The outputs of the first run kept for the caller (pass_first_outputs), dropped. */
void gl_cuda_first_free(struct gl_cuda_ctx *c)
{
	for (int i = 0; i < GL_MAX_BUFFERS; i++) {
		free(c->first[i]);
		c->first[i] = NULL;
	}
}

int gl_cuda_measure(struct gl_cuda_ctx *c, struct gl_launch *l, struct gl_err *err)
{
	struct gl_cuda_kernel k;
	gl_launch_record_free(&c->last);
	gl_cuda_first_free(c);
	c->have_last = false;
	struct gl_launch_record *rec = &c->last;
	gl_launch_record_init(rec);
	snprintf(rec->entry, sizeof rec->entry, "%.63s", l->entry ? l->entry : "");
	memcpy(rec->grid, l->grid, sizeof rec->grid);
	memcpy(rec->block, l->block, sizeof rec->block);
	rec->dyn_smem = l->dyn_smem;
	snprintf(rec->metric_source, sizeof rec->metric_source, "cupti");
	int rc = gl_cuda_kernel_load(&k, &c->dev, l, err);
	if (rc != GL_OK)
		return rc;
	rc = measure(c, &k, l, rec, err);
	gl_cuda_kernel_free(&k);
	if (rc != GL_OK) {
		gl_launch_record_free(rec);
		gl_cuda_first_free(c);
		return rc;
	}
	c->have_last = true;
	return GL_OK;
}
