/* backend_sim.c — the simulator as a backend: parses the launch's PTX (once per module), runs it with
 * gl_sim_run and reports the counts under Nsight Compute's names.  Sanitizer findings are kept for
 * callers that print them (gl_backend_sim_last). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "profiler/backend.h"
#include "profiler/backend_sim.h"

struct sim_backend {
	struct gl_backend_opts opts;
	const char *module_text; /* the PTX the cached module was parsed from */
	struct ptx_module *module;
	struct gl_sim_result res;
	bool have_result;
};

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
	int rc = ptx_parse(l->module, l->module_name ? l->module_name : "kernel.ptx", &s->module, err);
	if (rc == GL_OK)
		s->module_text = l->module;
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
		.max_instructions = s->opts.max_instructions,
		.trace = s->opts.trace,
		.progress = s->opts.progress,
		.printf_buffer = s->opts.printf_buffer,
	};
	rc = gl_sim_run(s->module, l, &o, &s->res, err);
	s->have_result = rc == GL_OK;
	return rc;
}

static int sim_collect(void *ctx, struct gl_launch_result *res, struct gl_err *err)
{
	struct sim_backend *s = ctx;
	if (!s->have_result)
		return gl_errf(err, GL_EINTERNAL, "collect called before a simulated launch");
	memset(res, 0, sizeof *res);
	gl_sim_metrics(&s->res, &res->metrics);
	res->duration_ns = NAN;
	res->sanitizer_errors = s->res.nerrors;
	res->outputs_partial = s->res.ctas_run < s->res.ctas_total;
	struct gl_str note = {0};
	if (s->res.scale != 1.0)
		gl_str_addf(&note, "sampled %ld of %ld CTAs, counts scaled by %.3g, outputs not verified", s->res.ctas_run,
			    s->res.ctas_total, s->res.scale);
	for (int i = 0; i < s->res.nfindings; i++)
		if (!s->res.findings[i].warning) {
			gl_str_addf(&note, "%ssanitizer: %d error%s, first: %s (PTX line %d)", note.len ? "; " : "",
				    s->res.nerrors, s->res.nerrors == 1 ? "" : "s", s->res.findings[i].message,
				    s->res.findings[i].line);
			break;
		}
	if (s->res.printf_dropped)
		gl_str_addf(&note, "%s%llu printf records dropped: buffer of %llu bytes full; use --printf-buffer",
			    note.len ? "; " : "", (unsigned long long)s->res.printf_dropped,
			    (unsigned long long)s->res.printf_buffer);
	if (s->opts.trace)
		gl_str_addf(&note, "%strace: %u events of the first %u CTA%s%s", note.len ? "; " : "", s->res.ntrace,
			    GL_SIM_TRACE_CTAS, GL_SIM_TRACE_CTAS == 1 ? "" : "s",
			    s->res.trace_dropped ? " (limit reached, later events dropped)" : "");
	snprintf(res->note, sizeof res->note, "%s", note.buf ? note.buf : "");
	gl_str_free(&note);
	return GL_OK;
}

static void sim_close(void *ctx)
{
	struct sim_backend *s = ctx;
	if (!s)
		return;
	if (s->have_result)
		gl_sim_result_free(&s->res);
	ptx_module_free(s->module);
	free(s);
}

const struct gl_sim_result *gl_backend_sim_last(void *ctx)
{
	struct sim_backend *s = ctx;
	return s && s->have_result ? &s->res : NULL;
}

const struct gl_backend gl_backend_sim = {
	.name = "sim",
	.probe = sim_probe,
	.open = sim_open,
	.describe = sim_describe,
	.launch = sim_launch,
	.collect = sim_collect,
	.close = sim_close,
};
