/* driver_stream.c — streams, events and host functions.  Every operation runs when it is issued, under the
 * driver's lock, so each stream's order, event waits and the default stream's synchronisation always hold
 * and a synchronize only reports the context's sticky error.  Time is the estimate model's: each stream
 * has a clock that a kernel advances by its estimated duration (driver_record.c) from the moment it may
 * start (after the stream's previous work, after the events it waits for, and for the legacy default
 * stream and the blocking streams, after each other's work), and an event records its stream's clock,
 * so cuEventElapsedTime gives the model's time for the kernels between two events.  Copies, memsets and
 * host functions take no model time. */
#include "driver.h"

#include <stdlib.h>
#include <string.h>

static struct CUevent_st *events;

/* ---- the model clock */

struct CUstream_st *drv_stream(CUcontext ctx, CUstream h)
{
	if (!h || h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD)
		return &ctx->null_stream;
	for (struct CUstream_st *s = ctx->streams; s; s = s->next)
		if (s == h)
			return s;
	return NULL;
}

static bool blocking(const struct CUstream_st *s)
{
	return !(s->flags & CU_STREAM_NON_BLOCKING);
}

double drv_stream_begin(struct CUstream_st *s)
{
	struct CUctx_st *c = s->ctx;
	double t = s->clock_us;
	if (s == &c->null_stream) { /* the legacy default stream waits for every blocking stream */
		for (const struct CUstream_st *k = c->streams; k; k = k->next)
			if (blocking(k) && k->clock_us > t)
				t = k->clock_us;
	} else if (blocking(s) && c->legacy_barrier_us > t) {
		t = c->legacy_barrier_us; /* and they wait for it */
	}
	return t;
}

void drv_stream_end(struct CUstream_st *s, double end_us)
{
	s->clock_us = end_us;
	if (s == &s->ctx->null_stream)
		s->ctx->legacy_barrier_us = end_us;
}

/* ---- operations */

/* A graph's free node: a graph's allocation is unmapped (its address kept for the next launch), any
 * other allocation freed. */
static CUresult drv_unmap(uint64_t base)
{
	struct drv_alloc *a = drv_mem_at(base);
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	if (a->from_pool)
		drv_pool_account(a->ctx ? a->ctx->dev : 0, a->size, true);
	if (a->graph_owned)
		drv_mem_unmap(a);
	else
		drv_mem_release(a);
	return CUDA_SUCCESS;
}

static void record(struct CUevent_st *ev, struct CUstream_st *s)
{
	double t = drv_stream_begin(s);
	drv_stream_end(s, t);
	ev->recorded = true;
	ev->us = t;
}

CUresult drv_op_run(const struct drv_op *op, struct CUstream_st *s)
{
	switch (op->kind) {
	case DRV_OP_KERNEL: return drv_launch_run(&op->launch, s);
	case DRV_OP_COPY: return drv_copy(op->dst, op->src, op->bytes, op->sides);
	case DRV_OP_COPY3D: return drv_copy3d(&op->copy3d);
	case DRV_OP_MEMSET: return drv_memset(&op->memset);
	case DRV_OP_HOST: op->fn(op->data); return CUDA_SUCCESS;
	case DRV_OP_RECORD: record(op->event, s); return CUDA_SUCCESS;
	case DRV_OP_WAIT:
		if (op->event->recorded && op->event->us > s->clock_us)
			s->clock_us = op->event->us;
		return CUDA_SUCCESS;
	case DRV_OP_EMPTY: return CUDA_SUCCESS;
	case DRV_OP_MAP: return drv_mem_reserved_at(op->dst) ? drv_mem_remap(drv_mem_reserved_at(op->dst))
							      : CUDA_ERROR_INVALID_VALUE;
	case DRV_OP_UNMAP: return drv_unmap(op->dst);
	}
	return CUDA_ERROR_INVALID_VALUE;
}

CUresult drv_issue(CUstream h, const struct drv_op *op)
{
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready(&c);
	struct CUstream_st *s = r == CUDA_SUCCESS ? drv_stream(c, h) : NULL;
	if (r == CUDA_SUCCESS && !s)
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS && !s->capture && op->kind == DRV_OP_WAIT)
		drv_capture_join(s, op->event);
	if (r == CUDA_SUCCESS)
		r = s->capture ? drv_capture_add(s, op) : drv_op_run(op, s);
	drv_unlock();
	return r;
}

/* ---- streams */

static CUresult stream_create(CUstream *out, unsigned flags, int priority, const char *api)
{
	if (!out || (flags & ~(unsigned)CU_STREAM_NON_BLOCKING))
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock_at(api);
	CUcontext c = NULL;
	CUresult r = drv_ready(&c);
	struct CUstream_st *s = r == CUDA_SUCCESS ? calloc(1, sizeof *s) : NULL;
	if (r == CUDA_SUCCESS && !s)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r == CUDA_SUCCESS) {
		*s = (struct CUstream_st){.magic = DRV_STREAM, .ctx = c, .flags = flags, .priority = priority,
					  .id = c->next_stream_id++, .next = c->streams};
		s->clock_us = drv_stream_begin(s); /* a new stream starts now, not at time 0 */
		c->streams = s;
		*out = s;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamCreate(CUstream *out, unsigned int flags)
{
	return stream_create(out, flags, 0, __func__);
}

CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *out, unsigned int flags, int priority)
{
	return stream_create(out, flags, priority < -5 ? -5 : priority > 0 ? 0 : priority, __func__);
}

CUresult CUDAAPI cuStreamDestroy_v2(CUstream h)
{
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready_unpoisoned(&c);
	struct CUstream_st **p = r == CUDA_SUCCESS ? &c->streams : NULL;
	while (p && *p && *p != h)
		p = &(*p)->next;
	if (r == CUDA_SUCCESS && (!p || !*p))
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS) {
		struct CUstream_st *s = *p;
		*p = s->next;
		if (blocking(s) && s->clock_us > c->null_stream.clock_us) /* its work still orders the default stream's */
			c->null_stream.clock_us = s->clock_us;
		drv_capture_leave(s);
		s->magic = 0;
		free(s);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamDestroy(CUstream h)
{
	return cuStreamDestroy_v2(h);
}

/* The stream a query names, in the current context. */
static CUresult stream_of(CUstream h, struct CUstream_st **out, bool poisoned_ok)
{
	CUcontext c = NULL;
	CUresult r = poisoned_ok ? drv_ready_unpoisoned(&c) : drv_ready(&c);
	if (r == CUDA_SUCCESS && !(*out = drv_stream(c, h)))
		r = CUDA_ERROR_INVALID_HANDLE;
	return r;
}

CUresult CUDAAPI cuStreamSynchronize(CUstream h)
{
	drv_lock();
	struct CUstream_st *s;
	CUresult r = stream_of(h, &s, false);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamQuery(CUstream h)
{
	return cuStreamSynchronize(h); /* its work is done: CUDA_SUCCESS, or the sticky error */
}

CUresult CUDAAPI cuStreamGetPriority(CUstream h, int *priority)
{
	if (!priority)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	struct CUstream_st *s;
	CUresult r = stream_of(h, &s, true);
	if (r == CUDA_SUCCESS)
		*priority = s->priority;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamGetFlags(CUstream h, unsigned int *flags)
{
	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	struct CUstream_st *s;
	CUresult r = stream_of(h, &s, true);
	if (r == CUDA_SUCCESS)
		*flags = s->flags;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamGetId(CUstream h, unsigned long long *id)
{
	if (!id)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	struct CUstream_st *s;
	CUresult r = stream_of(h, &s, true);
	if (r == CUDA_SUCCESS)
		*id = s->id;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamGetCtx(CUstream h, CUcontext *ctx)
{
	if (!ctx)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	struct CUstream_st *s;
	CUresult r = stream_of(h, &s, true);
	if (r == CUDA_SUCCESS)
		*ctx = s->ctx;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamGetCtx_v2(CUstream h, CUcontext *ctx, CUgreenCtx *green)
{
	if (green)
		*green = NULL; /* no green contexts */
	return cuStreamGetCtx(h, ctx);
}

CUresult CUDAAPI cuStreamGetDevice(CUstream h, CUdevice *dev)
{
	if (!dev)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	struct CUstream_st *s;
	CUresult r = stream_of(h, &s, true);
	if (r == CUDA_SUCCESS)
		*dev = s->ctx->dev;
	drv_unlock();
	return r;
}

/* Stream attributes (access policy windows, synchronisation policy, priority) are scheduling hints; the
 * model keeps none of them, so setting one succeeds and reading one gives the default (zeros). */
CUresult CUDAAPI cuStreamSetAttribute(CUstream h, CUstreamAttrID attr, const CUstreamAttrValue *value)
{
	(void)attr;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	struct CUstream_st *s;
	CUresult r = stream_of(h, &s, false);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamGetAttribute(CUstream h, CUstreamAttrID attr, CUstreamAttrValue *value)
{
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	struct CUstream_st *s;
	CUresult r = stream_of(h, &s, true);
	if (r == CUDA_SUCCESS) {
		memset(value, 0, sizeof *value);
		if (attr == CU_LAUNCH_ATTRIBUTE_PRIORITY)
			value->priority = s->priority;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamCopyAttributes(CUstream dst, CUstream src)
{
	drv_lock();
	struct CUstream_st *d, *s;
	CUresult r = stream_of(dst, &d, false);
	if (r == CUDA_SUCCESS)
		r = stream_of(src, &s, false);
	if (r == CUDA_SUCCESS)
		d->priority = s->priority;
	drv_unlock();
	return r;
}

/* ---- host functions */

CUresult CUDAAPI cuLaunchHostFunc(CUstream h, CUhostFn fn, void *data)
{
	if (!fn)
		return CUDA_ERROR_INVALID_VALUE;
	struct drv_op op = {.kind = DRV_OP_HOST, .fn = fn, .data = data};
	drv_lock();
	CUresult r = drv_issue(h, &op);
	drv_unlock();
	return r;
}

/* A stream callback gets the stream and the context's status, which is CUDA_SUCCESS unless a kernel
 * faulted (then the callback still runs, told so). */
struct callback {
	CUstreamCallback fn;
	CUstream stream;
	void *data;
};

CUresult CUDAAPI cuStreamAddCallback(CUstream h, CUstreamCallback fn, void *data, unsigned int flags)
{
	if (!fn || flags)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready_unpoisoned(&c);
	struct CUstream_st *s = r == CUDA_SUCCESS ? drv_stream(c, h) : NULL;
	if (r == CUDA_SUCCESS && !s)
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS && s->capture)
		r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED; /* as NVIDIA's driver: use cuLaunchHostFunc in graphs */
	if (r == CUDA_SUCCESS)
		fn(h, c->sticky, data);
	drv_unlock();
	return r;
}

/* ---- events */

static bool event_valid(const struct CUevent_st *ev)
{
	for (const struct CUevent_st *e = events; e && ev; e = e->next)
		if (e == ev)
			return true;
	return false;
}

CUresult CUDAAPI cuEventCreate(CUevent *ev, unsigned int flags)
{
	if (!ev)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready(&c);
	if (r == CUDA_SUCCESS)
		r = drv_fail("cuEventCreate", CUDA_ERROR_OUT_OF_MEMORY);
	struct CUevent_st *e = r == CUDA_SUCCESS ? calloc(1, sizeof *e) : NULL;
	if (r == CUDA_SUCCESS && !e)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r == CUDA_SUCCESS) {
		*e = (struct CUevent_st){.magic = DRV_EVENT, .ctx = c, .flags = flags, .next = events};
		events = e;
		*ev = e;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuEventDestroy_v2(CUevent ev)
{
	drv_lock();
	struct CUevent_st **p = &events;
	while (*p && *p != ev)
		p = &(*p)->next;
	CUresult r = *p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS) {
		*p = ev->next;
		ev->magic = 0;
		free(ev->capture_deps);
		free(ev);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuEventDestroy(CUevent ev)
{
	return cuEventDestroy_v2(ev);
}

CUresult CUDAAPI cuEventRecordWithFlags(CUevent ev, CUstream h, unsigned int flags)
{
	(void)flags; /* CU_EVENT_RECORD_EXTERNAL: only graphs tell the difference */
	drv_lock();
	CUresult r = event_valid(ev) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	struct drv_op op = {.kind = DRV_OP_RECORD, .event = ev};
	if (r == CUDA_SUCCESS)
		r = drv_issue(h, &op);
	if (r == CUDA_SUCCESS)
		r = drv_fail("cuEventRecord", CUDA_ERROR_INVALID_HANDLE);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuEventRecord(CUevent ev, CUstream h)
{
	return cuEventRecordWithFlags(ev, h, 0);
}

CUresult CUDAAPI cuStreamWaitEvent(CUstream h, CUevent ev, unsigned int flags)
{
	(void)flags;
	drv_lock();
	CUresult r = event_valid(ev) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	struct drv_op op = {.kind = DRV_OP_WAIT, .event = ev};
	if (r == CUDA_SUCCESS)
		r = drv_issue(h, &op);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuEventQuery(CUevent ev)
{
	drv_lock();
	CUresult r = event_valid(ev) ? drv_ready(NULL) : CUDA_ERROR_INVALID_HANDLE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuEventSynchronize(CUevent ev)
{
	drv_lock();
	CUresult r = event_valid(ev) ? drv_ready(NULL) : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		r = drv_fail("cuEventSynchronize", CUDA_ERROR_LAUNCH_FAILED);
	drv_unlock();
	return r;
}

/* The model's time between two recorded events, in milliseconds. */
CUresult CUDAAPI cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end)
{
	if (!ms)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = event_valid(start) && event_valid(end) ? drv_ready(NULL) : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS && (!start->recorded || !end->recorded ||
				  ((start->flags | end->flags) & CU_EVENT_DISABLE_TIMING)))
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS) {
		*ms = (float)((end->us - start->us) / 1000.0);
		r = drv_fail("cuEventElapsedTime", CUDA_ERROR_NOT_READY);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
	return cuEventElapsedTime_v2(ms, start, end);
}

/* ---- the per-thread default stream forms: the same stream here (one default stream per context) */

CUresult CUDAAPI cuStreamSynchronize_ptsz(CUstream h)
{
	return cuStreamSynchronize(h);
}

CUresult CUDAAPI cuStreamQuery_ptsz(CUstream h)
{
	return cuStreamQuery(h);
}

CUresult CUDAAPI cuStreamWaitEvent_ptsz(CUstream h, CUevent ev, unsigned int flags)
{
	return cuStreamWaitEvent(h, ev, flags);
}

CUresult CUDAAPI cuEventRecord_ptsz(CUevent ev, CUstream h)
{
	return cuEventRecord(ev, h);
}

CUresult CUDAAPI cuEventRecordWithFlags_ptsz(CUevent ev, CUstream h, unsigned int flags)
{
	return cuEventRecordWithFlags(ev, h, flags);
}

CUresult CUDAAPI cuLaunchHostFunc_ptsz(CUstream h, CUhostFn fn, void *data)
{
	return cuLaunchHostFunc(h, fn, data);
}

CUresult CUDAAPI cuStreamAddCallback_ptsz(CUstream h, CUstreamCallback fn, void *data, unsigned int flags)
{
	return cuStreamAddCallback(h, fn, data, flags);
}
