/* backend_sim.c — the simulator as a backend: parses the launch's PTX (once per module), runs it with
 * gl_sim_run and fills the launch record (gl_sim_record): the counts under Nsight Compute's names,
 * sanitizer findings, the trace; its note says how the counts were made. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "profiler/profiler.h"
#include "sim/sim.h"

struct sim_backend {
	struct gl_backend_opts opts;
	const char *module_text; /* the PTX the cached module was parsed from */
	struct ptx_module *module;
	struct gl_sim_result res;
	bool have_result;
	struct gl_launch last; /* the last launch's geometry and buffer descriptions (no host memory) */
	struct gl_output_bytes *outputs; /* --cta-range: the bytes the range changed, per output buffer */
	int noutputs;
};

static void free_outputs(struct sim_backend *s)
{
	for (int i = 0; i < s->noutputs; i++)
		free(s->outputs[i].segs);
	free(s->outputs);
	s->outputs = NULL;
	s->noutputs = 0;
}

/* A shard (--cta-range) keeps what it wrote: the output buffers' bytes that differ from before the launch,
 * so `gpulab merge` can put the shards' outputs together (common/outputs.h). */
static uint8_t **snapshot(const struct gl_launch *l)
{
	uint8_t **before = gl_xcalloc(GL_MAX_BUFFERS, sizeof *before);
	for (int i = 0; i < l->nbuffers; i++) {
		size_t n = l->buffers[i].count * gl_dtype_size(l->buffers[i].dtype);
		if (l->buffers[i].is_output && l->buffers[i].host) {
			before[i] = gl_xmalloc(n ? n : 1);
			memcpy(before[i], l->buffers[i].host, n);
		}
	}
	return before;
}

static void keep_writes(struct sim_backend *s, const struct gl_launch *l, uint8_t **before)
{
	free_outputs(s);
	for (int i = 0; i < l->nbuffers; i++) {
		if (!before[i])
			continue;
		s->outputs = gl_xrealloc(s->outputs, (size_t)(s->noutputs + 1) * sizeof *s->outputs);
		struct gl_output_bytes *o = &s->outputs[s->noutputs++];
		memset(o, 0, sizeof *o);
		snprintf(o->name, sizeof o->name, "%s", l->buffers[i].name);
		o->bytes = l->buffers[i].count * gl_dtype_size(l->buffers[i].dtype);
		gl_outputs_diff(before[i], l->buffers[i].host, o->bytes, &o->segs, &o->nsegs_bytes);
		free(before[i]);
	}
	free(before);
}

static bool sim_probe(char *why, size_t n)
{
	snprintf(why, n, "no usable CUDA GPU, so the PTX simulator runs the kernels on the CPU");
	return true;
}

static int sim_open(const struct gl_backend_opts *opts, void **ctx, struct gl_err *err)
{
	(void)err;
	struct sim_backend *s = gl_xcalloc(1, sizeof *s);
	s->opts = *opts;
	*ctx = s;
	return GL_OK;
}

static int sim_describe(void *ctx, struct gl_device_info *info, struct gl_err *err)
{
	(void)err;
	struct sim_backend *s = ctx;
	long cores = s->opts.threads > 0 ? s->opts.threads : sysconf(_SC_NPROCESSORS_ONLN);
	memset(info, 0, sizeof *info);
	snprintf(info->name, sizeof info->name, "gpulab PTX simulator (%ld CPU thread%s)", cores, cores == 1 ? "" : "s");
	info->cc_major = 8;
	info->cc_minor = 0;
	snprintf(info->arch, sizeof info->arch, "sm_80");
	return GL_OK;
}

static int load_module(struct sim_backend *s, const struct gl_launch *l, struct gl_err *err)
{
	if (s->module && s->module_text == l->module)
		return GL_OK;
	ptx_module_free(s->module);
	s->module = NULL;
	s->module_text = NULL;
	int rc = ptx_parse_lazy(l->module, l->module_name ? l->module_name : "kernel.ptx", &s->module, err);
	if (rc == GL_OK) {
		s->module_text = l->module;
		gl_sim_apply_sass(s->module, l->sass, l->sass_why ? l->sass_why : "no SASS for this module");
	}
	return rc;
}

static int sim_launch(void *ctx, struct gl_launch *l, struct gl_err *err)
{
	struct sim_backend *s = ctx;
	int rc = load_module(s, l, err);
	if (rc)
		return rc;
	if (s->have_result)
		gl_sim_result_free(&s->res);
	s->have_result = false;
	struct gl_sim_opts o = {
		.threads = s->opts.threads,
		.sample_ctas = s->opts.sample_ctas,
		.cta_first = s->opts.cta_first,
		.cta_end = s->opts.cta_end,
		.max_instructions = s->opts.max_instructions,
		.trace = s->opts.trace,
		.progress = s->opts.progress,
		.progress_label = s->opts.progress_label,
		.tools = s->opts.sanitizer_tools,
		.printf_buffer = s->opts.printf_buffer,
		.engine = s->opts.engine,
	};
	uint8_t **before = o.cta_end > 0 ? snapshot(l) : NULL;
	rc = gl_sim_run(s->module, l, &o, &s->res, err);
	if (before)
		keep_writes(s, l, before);
	else
		free_outputs(s);
	s->have_result = rc == GL_OK;
	s->last = *l; /* for the buffer map: names, types, counts and entry, never the host pointers */
	for (int i = 0; i < s->last.nbuffers; i++)
		s->last.buffers[i].host = NULL;
	return rc;
}

/* The backend's note: how the counts were made, which CTAs ran, the first sanitizer error, printf records
 * dropped, the engine's choice and the trace's extent. */
static void note(const struct sim_backend *s, struct gl_launch_record *rec)
{
	const struct gl_sim_result *res = &s->res;
	char sanitizer[sizeof rec->note];
	struct gl_str n = {0};
	gl_str_addf(&n, "counts: %s", s->module->counts_mode);
	if (res->cta_end > 0)
		gl_str_addf(&n, "; CTAs %ld..%ld of %ld only (--cta-range): partial counts, outputs not verified",
			    res->cta_first, res->cta_end - 1, res->ctas_total);
	if (res->scale != 1.0)
		gl_str_addf(&n, "; sampled %ld of %ld CTAs, counts scaled by %.3g, outputs not verified", res->ctas_run,
			    res->ctas_total, res->scale);
	gl_sim_sanitizer_note(res, sanitizer, sizeof sanitizer);
	if (sanitizer[0])
		gl_str_addf(&n, "; %s", sanitizer);
	if (res->printf_dropped)
		gl_str_addf(&n, "; %llu printf records dropped: buffer of %llu bytes full; use --printf-buffer",
			    (unsigned long long)res->printf_dropped, (unsigned long long)res->printf_buffer);
	if (res->engine_note[0])
		gl_str_addf(&n, "; %s", res->engine_note);
	if (s->opts.trace)
		gl_str_addf(&n, "; trace: %u events of the first %u CTA%s%s", res->ntrace, GL_SIM_TRACE_CTAS,
			    GL_SIM_TRACE_CTAS == 1 ? "" : "s",
			    res->trace_dropped ? " (limit reached, later events dropped)" : "");
	snprintf(rec->note, sizeof rec->note, "%s", n.buf);
	gl_str_free(&n);
}

static int sim_collect(void *ctx, struct gl_launch_record *rec, struct gl_err *err)
{
	struct sim_backend *s = ctx;
	if (!s->have_result)
		return gl_errf(err, GL_EINTERNAL, "collect called before a simulated launch");
	gl_sim_record(s->last.entry ? ptx_find_function(s->module, s->last.entry) : NULL, &s->last, &s->res, rec);
	rec->outputs = s->outputs; /* moved to the record */
	rec->noutputs = s->noutputs;
	s->outputs = NULL;
	s->noutputs = 0;
	note(s, rec);
	return GL_OK;
}

static void sim_close(void *ctx)
{
	struct sim_backend *s = ctx;
	if (!s)
		return;
	if (s->have_result)
		gl_sim_result_free(&s->res);
	free_outputs(s);
	ptx_module_free(s->module);
	free(s);
}

const struct gl_backend gl_backend_sim = {
	.name = "sim",
	.metric_source = "sim",
	.probe = sim_probe,
	.open = sim_open,
	.describe = sim_describe,
	.launch = sim_launch,
	.collect = sim_collect,
	.close = sim_close,
};
