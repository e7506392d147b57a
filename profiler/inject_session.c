/* inject_session.c — the selected launches of a program: open the cuda backend's CUPTI context over the
 * program's context at the first one, begin a kernel-replay range before each selected launch and end
 * it after, time it from its activity record, and hand its record on. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/numba_name.h"
#include "profiler/cupti_errors.h"
#include "profiler/inject.h"
#include "toolchain/toolchain.h"

void gl_inject_say(const char *fmt, ...)
{
	char line[1400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fprintf(stderr, "gpulab: %s\n", line);
}

/* What --kernel-name matches, as the driver library reads it (drv_function_name): the function name
 * without return type, template arguments and parameters ("lab::reduce" of "lab::reduce<float>(float*)"),
 * a Numba kernel's Python name; the symbol itself when it does not demangle. */
static void function_name(const char *symbol, char *out, size_t n)
{
	if (gl_numba_name(symbol, out, n))
		return;
	struct gl_demangled *d = gl_xcalloc(1, sizeof *d);
	snprintf(out, n, "%s", gl_demangle(symbol, d) == 0 && d->plain[0] ? d->plain : symbol);
	free(d);
}

/* The program's context is profiled on device 0 only; launches elsewhere run as they are. */
static bool on_device_zero(struct gl_inject *s, CUcontext ctx)
{
	uint32_t dev = 0;
	if (!s->cb_api.cuptiGetDeviceId || s->cb_api.cuptiGetDeviceId(ctx, &dev) != CUPTI_SUCCESS || dev == 0)
		return true;
	if (!s->said_device)
		gl_inject_say("the program launches kernels on device %u too; gpulab profiles device 0 only, so those "
			      "launches run unprofiled", dev);
	s->said_device = true;
	return false;
}

static void say_fallback(struct gl_inject *s)
{
	if (gl_cupti_is_permission(s->c.range.result))
		gl_inject_say("this user may not read the GPU's performance counters (ERR_NVGPUCTRPERM): selected "
			      "launches are timed but not profiled. %s", GL_CUPTI_PERMISSION_FIX);
	else
		gl_inject_say("%s", s->c.note);
}

/* The cuda backend's context over the program's own context on device 0: describe, load CUPTI, fit the
 * metric set to the chip, open the range profiler (or fall back to timings only, saying why). */
static int open_ctx(struct gl_inject *s, CUcontext ctx, struct gl_err *err)
{
	struct gl_cuda_ctx *c = &s->c;
	c->opts.metrics = s->opts.metrics;
	int rc = gl_metric_list_parse(c->opts.metrics, &c->metrics, err);
	if (rc == GL_OK)
		rc = gl_cuda_api_load(&c->dev.api, err);
	if (rc != GL_OK)
		return rc;
	c->dev.ordinal = 0;
	c->dev.ctx = ctx;
	rc = gl_cuda_fail(&c->dev.api, c->dev.api.cuDeviceGet(&c->dev.dev, 0), "cuDeviceGet", err);
	if (rc == GL_OK)
		rc = gl_cuda_describe(&c->dev.api, NULL, 0, &c->info, err);
	if (rc == GL_OK)
		rc = gl_cuda_profiling_open(c, err);
	if (rc != GL_OK)
		return rc;
	s->opened = true;
	if (c->profiling)
		c->range.replay = CUPTI_KernelReplay; /* the program's launch is the only one there is */
	else
		say_fallback(s);
	return GL_OK;
}

/* A CUPTI failure at a launch: permission and unsupported devices turn profiling off for the rest of
 * the run (timings go on); anything else costs this launch its metrics. */
static void launch_failed(struct gl_inject *s, const struct gl_inject_launch *l, const struct gl_err *err)
{
	struct gl_cuda_ctx *c = &s->c;
	if (gl_cupti_is_fallback(c->range.result)) {
		c->profiling = false;
		snprintf(c->note, sizeof c->note, "timings only, no CUPTI metrics: %.200s",
			 gl_cupti_is_permission(c->range.result) ? GL_CUPTI_PERMISSION_SHORT : err->msg);
		say_fallback(s);
		return;
	}
	gl_inject_say("launch %ld (%s) is not profiled: %s", l->seq, l->name, err->msg);
}

static void resources(struct gl_inject *s, struct gl_inject_launch *l)
{
	const struct gl_cuda_api *api = &s->c.dev.api;
	int v;
	if (api->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, l->func) == CUDA_SUCCESS)
		l->regs = v;
	if (api->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, l->func) == CUDA_SUCCESS)
		l->static_smem = v;
}

/* Is this launch one to profile?  Fills *l when it is. */
static bool select_launch(struct gl_inject *s, uint32_t cbid, const CUpti_CallbackData *cb,
			  struct gl_inject_launch *l)
{
	struct gl_err err = {0};
	if (s->off || s->have_pending || gl_launch_filter_done(&s->filter))
		return false; /* one range at a time: a launch on another thread meanwhile runs unprofiled */
	if (gl_inject_launch_from_cb(cbid, cb, l, &err) != GL_OK) {
		gl_inject_say("launch %ld: %s", s->seq, err.msg);
		return false;
	}
	l->seq = s->seq;
	function_name(l->symbol, l->name, sizeof l->name);
	if (!on_device_zero(s, cb->context))
		return false;
	if (s->opened && cb->context != s->c.dev.ctx) {
		if (!s->said_ctx)
			gl_inject_say("the program uses a second CUDA context on device 0; gpulab profiles the first "
				      "one only, so launches in the others run unprofiled");
		s->said_ctx = true;
		return false;
	}
	return gl_launch_filter_take(&s->filter, l->name, l->symbol);
}

static void enter(struct gl_inject *s, uint32_t cbid, const CUpti_CallbackData *cb)
{
	struct gl_inject_launch l;
	struct gl_err err = {0};
	s->seq++;
	if (!select_launch(s, cbid, cb, &l))
		return;
	if (!s->opened && open_ctx(s, cb->context, &err) != GL_OK) {
		gl_inject_say("%s; the program runs on unprofiled", err.msg);
		s->off = true;
		return;
	}
	resources(s, &l);
	if (s->c.have_activity) { /* only this launch's records from here on */
		gl_cupti_activity_flush(&s->c.activity, &err);
		gl_cupti_activity_clear(&s->c.activity);
	}
	s->began = s->c.profiling && gl_cupti_range_begin(&s->c.range, &err) == GL_OK;
	if (s->c.profiling && !s->began)
		launch_failed(s, &l, &err);
	s->pending = l;
	s->have_pending = true;
}

/* The launch's duration from its activity record(s), once it has finished. */
static double duration(struct gl_inject *s, const struct gl_inject_launch *l)
{
	struct gl_err err = {0};
	if (!s->c.have_activity)
		return NAN;
	s->c.dev.api.cuCtxSynchronize();
	if (gl_cupti_activity_flush(&s->c.activity, &err) != GL_OK)
		return NAN;
	return gl_cupti_activity_launch_ns(&s->c.activity, l->correlation, NULL);
}

/* --launch-count reached: CUPTI lets go of the program, whose later launches run at full speed. */
static void finish_when_done(struct gl_inject *s)
{
	if (!gl_launch_filter_done(&s->filter) || !s->opened)
		return;
	gl_cuda_profiling_close(&s->c);
	s->off = true;
}

static void leave(struct gl_inject *s, const CUpti_CallbackData *cb)
{
	struct gl_inject_launch *l = &s->pending;
	if (cb->functionReturnValue)
		l->error = (int)*(const CUresult *)cb->functionReturnValue;
	struct gl_cuda_ctx *c = &s->c;
	struct gl_err err = {0};
	double *values = gl_xcalloc(c->metrics.n ? c->metrics.n : 1, sizeof *values);
	struct gl_inject_result res = {.names = (const char *const *)c->metrics.names, .values = values,
				       .units = (const char (*)[16])c->units, .n = c->metrics.n, .note = c->note};
	s->have_pending = false;
	if (s->began) {
		s->began = false;
		if (gl_cupti_range_end(&c->range, values, &err) == GL_OK) {
			res.passes = (int)c->range.passes;
			res.note = c->dropped[0] ? c->dropped : "";
		} else {
			launch_failed(s, l, &err);
			res.note = c->profiling ? err.msg : c->note;
		}
	}
	res.duration_ns = duration(s, l);
	struct gl_launch_record rec;
	gl_inject_record(l, &res, &rec);
	gl_inject_emit(s, l, &rec);
	gl_launch_record_free(&rec);
	free(values);
	finish_when_done(s);
}

void gl_inject_on_launch(struct gl_inject *s, uint32_t cbid, const CUpti_CallbackData *cb)
{
	if (s->forked) {
		if (!s->said_fork)
			gl_inject_say("a process the program forked launches kernels; gpulab profiles the process it "
				      "started only, so those launches run unprofiled");
		s->said_fork = true;
		return;
	}
	pthread_mutex_lock(&s->lock);
	if (cb->callbackSite == CUPTI_API_ENTER)
		enter(s, cbid, cb);
	else if (cb->callbackSite == CUPTI_API_EXIT && s->have_pending && cb->correlationId == s->pending.correlation)
		leave(s, cb);
	pthread_mutex_unlock(&s->lock);
}

void gl_inject_close(struct gl_inject *s)
{
	if (s->opened) {
		gl_cuda_profiling_close(&s->c);
		if (s->c.have_cupti)
			gl_cupti_api_unload(&s->c.cupti);
		gl_metric_list_free(&s->c.metrics);
		s->opened = false;
	}
	gl_launch_filter_free(&s->filter);
}
