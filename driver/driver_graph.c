/* driver_graph.c — CUDA graphs: built with the graph API or captured from streams (operations issued on a
 * capturing stream become nodes that depend on the stream's previous ones; a stream that waits for an
 * event recorded in the capture joins it), instantiated in a topological order of their dependencies,
 * and launched by running the nodes in that order on the launch's stream (driver_stream.c), which is a
 * legal order of any graph.  A kernel node keeps the parameters it was given, as CUDA does. */
#include "driver.h"

#include <stdlib.h>
#include <string.h>

struct CUgraphNode_st {
	uint32_t magic;
	struct CUgraph_st *graph;
	struct drv_op op;
	CUgraphNodeType type;
	struct CUgraphNode_st **deps;
	int ndeps;
};

struct CUgraph_st {
	uint32_t magic;
	struct CUgraphNode_st **nodes; /* in the order added */
	int n, cap;
};

struct CUgraphExec_st {
	uint32_t magic;
	struct drv_op *ops;            /* the nodes' operations in a topological order */
	const struct CUgraphNode_st **from; /* the node each came from (compared, never followed) */
	int n;
};

/* What a capturing stream knows: the graph and the nodes its next operation depends on. */
struct drv_capture {
	struct CUgraph_st *graph;
	unsigned long long id;
	CUstreamCaptureMode mode;
	bool origin;                   /* the stream that began the capture (it ends it) */
	struct CUgraphNode_st **deps;
	int ndeps;
};

static unsigned long long next_capture_id = 1;
static __thread CUstreamCaptureMode thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

/* ---- graphs and nodes */

static struct CUgraph_st *graph_new(void)
{
	struct CUgraph_st *g = calloc(1, sizeof *g);
	if (g)
		g->magic = DRV_GRAPH;
	return g;
}

static void graph_free(struct CUgraph_st *g)
{
	for (int i = 0; i < g->n; i++) {
		g->nodes[i]->magic = 0;
		free(g->nodes[i]->deps);
		free(g->nodes[i]);
	}
	free(g->nodes);
	g->magic = 0;
	free(g);
}

static bool graph_valid(const struct CUgraph_st *g)
{
	return g && g->magic == DRV_GRAPH;
}

static bool node_in(const struct CUgraph_st *g, const struct CUgraphNode_st *n)
{
	for (int i = 0; n && i < g->n; i++)
		if (g->nodes[i] == n)
			return true;
	return false;
}

static CUgraphNodeType type_of(enum drv_op_kind k)
{
	switch (k) {
	case DRV_OP_KERNEL: return CU_GRAPH_NODE_TYPE_KERNEL;
	case DRV_OP_COPY:
	case DRV_OP_COPY3D: return CU_GRAPH_NODE_TYPE_MEMCPY;
	case DRV_OP_MEMSET: return CU_GRAPH_NODE_TYPE_MEMSET;
	case DRV_OP_HOST: return CU_GRAPH_NODE_TYPE_HOST;
	case DRV_OP_RECORD: return CU_GRAPH_NODE_TYPE_EVENT_RECORD;
	case DRV_OP_WAIT: return CU_GRAPH_NODE_TYPE_WAIT_EVENT;
	case DRV_OP_MAP: return CU_GRAPH_NODE_TYPE_MEM_ALLOC;
	case DRV_OP_UNMAP: return CU_GRAPH_NODE_TYPE_MEM_FREE;
	default: return CU_GRAPH_NODE_TYPE_EMPTY;
	}
}

/* Add a node running `op` after deps[0..n) (each a node of g). */
static CUresult node_add(struct CUgraph_st *g, const struct drv_op *op, struct CUgraphNode_st *const *deps, size_t n,
			 struct CUgraphNode_st **out)
{
	for (size_t i = 0; i < n; i++)
		if (!node_in(g, deps[i]))
			return CUDA_ERROR_INVALID_VALUE;
	struct CUgraphNode_st *node = calloc(1, sizeof *node);
	struct CUgraphNode_st **d = n ? malloc(n * sizeof *d) : NULL;
	if (g->n == g->cap) {
		int cap = g->cap ? 2 * g->cap : 16;
		struct CUgraphNode_st **nodes = realloc(g->nodes, (size_t)cap * sizeof *nodes);
		if (nodes) {
			g->nodes = nodes;
			g->cap = cap;
		}
	}
	if (!node || (n && !d) || g->n == g->cap) {
		free(node);
		free(d);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (n)
		memcpy(d, deps, n * sizeof *d);
	*node = (struct CUgraphNode_st){.magic = DRV_NODE, .graph = g, .op = *op, .type = type_of(op->kind),
					.deps = d, .ndeps = (int)n};
	g->nodes[g->n++] = node;
	if (out)
		*out = node;
	return CUDA_SUCCESS;
}

/* ---- capture */

static void set_deps(struct drv_capture *c, struct CUgraphNode_st *const *deps, int n)
{
	struct CUgraphNode_st **d = n ? malloc((size_t)n * sizeof *d) : NULL;
	if (n && !d)
		return;
	if (n)
		memcpy(d, deps, (size_t)n * sizeof *d);
	free(c->deps);
	c->deps = d;
	c->ndeps = n;
}

CUresult drv_capture_add(struct CUstream_st *s, const struct drv_op *op)
{
	struct drv_capture *c = s->capture;
	if (op->kind == DRV_OP_RECORD) { /* a point in the capture other streams can wait for */
		struct CUevent_st *ev = op->event;
		free(ev->capture_deps);
		ev->capture_deps = c->ndeps ? malloc((size_t)c->ndeps * sizeof *ev->capture_deps) : NULL;
		ev->ncapture_deps = ev->capture_deps ? c->ndeps : 0;
		if (ev->capture_deps)
			memcpy(ev->capture_deps, c->deps, (size_t)c->ndeps * sizeof *c->deps);
		ev->capture_id = c->id;
		return CUDA_SUCCESS;
	}
	if (op->kind == DRV_OP_WAIT) {
		const struct CUevent_st *ev = op->event;
		if (ev->capture_id != c->id || !ev->ncapture_deps)
			return CUDA_SUCCESS; /* an event from outside the capture orders nothing inside it */
		int n = c->ndeps + ev->ncapture_deps;
		struct CUgraphNode_st **d = malloc((size_t)n * sizeof *d);
		if (!d)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(d, c->deps, (size_t)c->ndeps * sizeof *d);
		memcpy(d + c->ndeps, ev->capture_deps, (size_t)ev->ncapture_deps * sizeof *d);
		set_deps(c, d, n);
		free(d);
		return CUDA_SUCCESS;
	}
	struct CUgraphNode_st *node;
	CUresult r = node_add(c->graph, op, c->deps, (size_t)c->ndeps, &node);
	if (r == CUDA_SUCCESS)
		set_deps(c, &node, 1);
	return r;
}

/* The stream of the current context whose capture has this id, if any is still open. */
static struct drv_capture *open_capture(struct CUctx_st *ctx, unsigned long long id)
{
	if (ctx->null_stream.capture && ctx->null_stream.capture->id == id)
		return ctx->null_stream.capture;
	for (struct CUstream_st *s = ctx->streams; s; s = s->next)
		if (s->capture && s->capture->id == id)
			return s->capture;
	return NULL;
}

bool drv_capture_join(struct CUstream_st *s, const struct CUevent_st *ev)
{
	struct drv_capture *open = ev->capture_id ? open_capture(s->ctx, ev->capture_id) : NULL;
	struct drv_capture *c = open ? calloc(1, sizeof *c) : NULL;
	if (!c)
		return false;
	*c = (struct drv_capture){.graph = open->graph, .id = open->id, .mode = open->mode};
	set_deps(c, ev->capture_deps, ev->ncapture_deps);
	s->capture = c;
	return true;
}

void drv_capture_leave(struct CUstream_st *s)
{
	if (!s->capture)
		return;
	if (s->capture->origin)
		graph_free(s->capture->graph); /* the capture never ended: its graph goes with it */
	free(s->capture->deps);
	free(s->capture);
	s->capture = NULL;
}

static CUresult begin_capture(CUstream h, CUstreamCaptureMode mode, const char *api)
{
	drv_lock_at(api);
	CUcontext c = NULL;
	CUresult r = drv_ready(&c);
	struct CUstream_st *s = r == CUDA_SUCCESS ? drv_stream(c, h) : NULL;
	if (r == CUDA_SUCCESS && !s)
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS && s == &c->null_stream)
		r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED; /* the legacy stream cannot capture */
	if (r == CUDA_SUCCESS && s->capture)
		r = CUDA_ERROR_ILLEGAL_STATE;
	struct drv_capture *cap = r == CUDA_SUCCESS ? calloc(1, sizeof *cap) : NULL;
	struct CUgraph_st *g = cap ? graph_new() : NULL;
	if (r == CUDA_SUCCESS && !g) {
		free(cap);
		r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (r == CUDA_SUCCESS) {
		*cap = (struct drv_capture){.graph = g, .id = next_capture_id++, .mode = mode, .origin = true};
		s->capture = cap;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamBeginCapture_v2(CUstream h, CUstreamCaptureMode mode)
{
	return begin_capture(h, mode, __func__);
}

CUresult CUDAAPI cuStreamBeginCapture(CUstream h)
{
	return begin_capture(h, CU_STREAM_CAPTURE_MODE_GLOBAL, __func__);
}

CUresult CUDAAPI cuStreamBeginCapture_ptsz(CUstream h)
{
	return begin_capture(h, CU_STREAM_CAPTURE_MODE_GLOBAL, __func__);
}

CUresult CUDAAPI cuStreamBeginCapture_v2_ptsz(CUstream h, CUstreamCaptureMode mode)
{
	return begin_capture(h, mode, __func__);
}

/* Ending the capture on the stream that began it hands its graph over; every stream that joined it
 * leaves it. */
CUresult CUDAAPI cuStreamEndCapture(CUstream h, CUgraph *graph)
{
	if (!graph)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUcontext c = NULL;
	CUresult r = drv_ready_unpoisoned(&c);
	struct CUstream_st *s = r == CUDA_SUCCESS ? drv_stream(c, h) : NULL;
	if (r == CUDA_SUCCESS && (!s || !s->capture))
		r = s ? CUDA_ERROR_ILLEGAL_STATE : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS && !s->capture->origin)
		r = CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
	if (r == CUDA_SUCCESS) {
		unsigned long long id = s->capture->id;
		*graph = s->capture->graph;
		s->capture->origin = false; /* the graph is the caller's now */
		drv_capture_leave(s);
		if (c->null_stream.capture && c->null_stream.capture->id == id)
			drv_capture_leave(&c->null_stream);
		for (struct CUstream_st *k = c->streams; k; k = k->next)
			if (k->capture && k->capture->id == id)
				drv_capture_leave(k);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamEndCapture_ptsz(CUstream h, CUgraph *graph)
{
	return cuStreamEndCapture(h, graph);
}

static CUresult capture_info(CUstream h, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
			     const CUgraphNode **deps, size_t *ndeps, const char *api)
{
	drv_lock_at(api);
	CUcontext c = NULL;
	CUresult r = drv_ready_unpoisoned(&c);
	struct CUstream_st *s = r == CUDA_SUCCESS ? drv_stream(c, h) : NULL;
	if (r == CUDA_SUCCESS && !s)
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS) {
		struct drv_capture *cap = s->capture;
		if (status)
			*status = cap ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
		if (id && cap)
			*id = cap->id;
		if (graph)
			*graph = cap ? cap->graph : NULL;
		if (deps)
			*deps = cap ? (const CUgraphNode *)cap->deps : NULL;
		if (ndeps)
			*ndeps = cap ? (size_t)cap->ndeps : 0;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuStreamIsCapturing(CUstream h, CUstreamCaptureStatus *status)
{
	if (!status)
		return CUDA_ERROR_INVALID_VALUE;
	return capture_info(h, status, NULL, NULL, NULL, NULL, __func__);
}

CUresult CUDAAPI cuStreamIsCapturing_ptsz(CUstream h, CUstreamCaptureStatus *status)
{
	return cuStreamIsCapturing(h, status);
}

CUresult CUDAAPI cuStreamGetCaptureInfo(CUstream h, CUstreamCaptureStatus *status, cuuint64_t *id)
{
	return capture_info(h, status, id, NULL, NULL, NULL, __func__);
}

CUresult CUDAAPI cuStreamGetCaptureInfo_v2(CUstream h, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
					   const CUgraphNode **deps, size_t *ndeps)
{
	return capture_info(h, status, id, graph, deps, ndeps, __func__);
}

CUresult CUDAAPI cuStreamGetCaptureInfo_v3(CUstream h, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
					   const CUgraphNode **deps, const CUgraphEdgeData **edges, size_t *ndeps)
{
	if (edges)
		*edges = NULL; /* default edges only */
	return capture_info(h, status, id, graph, deps, ndeps, __func__);
}

CUresult CUDAAPI cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
	if (!mode)
		return CUDA_ERROR_INVALID_VALUE;
	CUstreamCaptureMode old = thread_mode;
	thread_mode = *mode; /* kept for the caller; every operation here is legal during a capture */
	*mode = old;
	return CUDA_SUCCESS;
}

/* ---- the graph API */

CUresult CUDAAPI cuGraphCreate(CUgraph *graph, unsigned int flags)
{
	if (!graph || flags)
		return CUDA_ERROR_INVALID_VALUE;
	*graph = graph_new();
	return *graph ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult CUDAAPI cuGraphDestroy(CUgraph graph)
{
	drv_lock();
	CUresult r = graph_valid(graph) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		graph_free(graph);
	drv_unlock();
	return r;
}

static CUresult add(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n, const struct drv_op *op,
		    const char *api)
{
	if (!out || (n && !deps))
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock_at(api);
	CUresult r = graph_valid(g) ? node_add(g, op, deps, n, out) : CUDA_ERROR_INVALID_VALUE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuGraphAddKernelNode_v2(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n,
					 const CUDA_KERNEL_NODE_PARAMS *p)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	struct drv_op *op = calloc(1, sizeof *op);
	if (!op)
		return CUDA_ERROR_OUT_OF_MEMORY;
	op->kind = DRV_OP_KERNEL;
	drv_lock();
	CUfunction f = p->func ? p->func : (CUfunction)p->kern;
	CUresult r = drv_launch_prepare(&op->launch, f, (unsigned[3]){p->gridDimX, p->gridDimY, p->gridDimZ},
					(unsigned[3]){p->blockDimX, p->blockDimY, p->blockDimZ}, p->sharedMemBytes,
					p->kernelParams, p->extra, false);
	if (r == CUDA_SUCCESS)
		r = add(out, g, deps, n, op, __func__);
	drv_unlock();
	free(op);
	return r;
}

CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n,
				      const CUDA_MEMCPY3D *p, CUcontext ctx)
{
	(void)ctx;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	struct drv_op op = {.kind = DRV_OP_COPY3D, .copy3d = *p};
	return add(out, g, deps, n, &op, __func__);
}

CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n,
				      const CUDA_MEMSET_NODE_PARAMS *p, CUcontext ctx)
{
	(void)ctx;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	struct drv_op op = {.kind = DRV_OP_MEMSET, .memset = *p};
	return add(out, g, deps, n, &op, __func__);
}

CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n,
				    const CUDA_HOST_NODE_PARAMS *p)
{
	if (!p || !p->fn)
		return CUDA_ERROR_INVALID_VALUE;
	struct drv_op op = {.kind = DRV_OP_HOST, .fn = p->fn, .data = p->userData};
	return add(out, g, deps, n, &op, __func__);
}

CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n)
{
	struct drv_op op = {.kind = DRV_OP_EMPTY};
	return add(out, g, deps, n, &op, __func__);
}

CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n, CUevent ev)
{
	struct drv_op op = {.kind = DRV_OP_RECORD, .event = ev};
	return ev ? add(out, g, deps, n, &op, __func__) : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n, CUevent ev)
{
	struct drv_op op = {.kind = DRV_OP_WAIT, .event = ev};
	return ev ? add(out, g, deps, n, &op, __func__) : CUDA_ERROR_INVALID_VALUE;
}

/* Memory nodes: the allocation gets its address when the node is added, the graph's for its life (the
 * same address on every launch, as CUDA's graph allocations have); the node maps it when it runs, a free
 * node unmaps it (driver_stream.c). */
CUresult CUDAAPI cuGraphAddMemAllocNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n,
					CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = cuMemAlloc_v2(&p->dptr, p->bytesize);
	struct drv_op op = {.kind = DRV_OP_MAP, .dst = p->dptr};
	if (r == CUDA_SUCCESS) {
		drv_mem_at(p->dptr)->graph_owned = true;
		r = add(out, g, deps, n, &op, __func__);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n, CUdeviceptr dptr)
{
	struct drv_op op = {.kind = DRV_OP_UNMAP, .dst = dptr};
	drv_lock();
	CUresult r = drv_mem_reserved_at(dptr) ? add(out, g, deps, n, &op, __func__) : CUDA_ERROR_INVALID_VALUE;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuGraphAddDependencies_v2(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
					   const CUgraphEdgeData *edges, size_t n)
{
	(void)edges;
	drv_lock();
	CUresult r = graph_valid(g) && (!n || (from && to)) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; r == CUDA_SUCCESS && i < n; i++) {
		struct CUgraphNode_st *t = to[i];
		struct CUgraphNode_st **d = node_in(g, from[i]) && node_in(g, t)
			? realloc(t->deps, (size_t)(t->ndeps + 1) * sizeof *d) : NULL;
		if (!d) {
			r = CUDA_ERROR_INVALID_VALUE;
			break;
		}
		d[t->ndeps++] = from[i];
		t->deps = d;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuGraphAddDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n)
{
	return cuGraphAddDependencies_v2(g, from, to, NULL, n);
}

CUresult CUDAAPI cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *n)
{
	if (!n)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = graph_valid(g) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS) {
		for (size_t i = 0; nodes && i < *n && i < (size_t)g->n; i++)
			nodes[i] = g->nodes[i];
		if (!nodes || *n > (size_t)g->n)
			*n = (size_t)g->n;
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuGraphGetRootNodes(CUgraph g, CUgraphNode *roots, size_t *n)
{
	if (!n)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = graph_valid(g) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	size_t k = 0;
	for (int i = 0; r == CUDA_SUCCESS && i < g->n; i++)
		if (!g->nodes[i]->ndeps) {
			if (roots && k < *n)
				roots[k] = g->nodes[i];
			k++;
		}
	if (r == CUDA_SUCCESS && (!roots || *n > k))
		*n = k;
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode node, CUgraphNodeType *type)
{
	if (!node || !type || node->magic != DRV_NODE)
		return CUDA_ERROR_INVALID_VALUE;
	*type = node->type;
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphKernelNodeGetParams_v2(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS *p)
{
	if (!node || !p || node->magic != DRV_NODE || node->op.kind != DRV_OP_KERNEL)
		return CUDA_ERROR_INVALID_VALUE;
	const struct drv_launch *l = &node->op.launch;
	*p = (CUDA_KERNEL_NODE_PARAMS){.func = l->f, .gridDimX = l->grid[0], .gridDimY = l->grid[1],
				       .gridDimZ = l->grid[2], .blockDimX = l->block[0], .blockDimY = l->block[1],
				       .blockDimZ = l->block[2], .sharedMemBytes = l->dyn_smem};
	return CUDA_SUCCESS; /* kernelParams: the node keeps a packed buffer, not the caller's pointers */
}

CUresult CUDAAPI cuGraphKernelNodeSetParams_v2(CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS *p)
{
	if (!node || !p || node->magic != DRV_NODE || node->op.kind != DRV_OP_KERNEL)
		return CUDA_ERROR_INVALID_VALUE;
	struct drv_launch l;
	drv_lock();
	CUresult r = drv_launch_prepare(&l, p->func ? p->func : (CUfunction)p->kern,
					(unsigned[3]){p->gridDimX, p->gridDimY, p->gridDimZ},
					(unsigned[3]){p->blockDimX, p->blockDimY, p->blockDimZ}, p->sharedMemBytes,
					p->kernelParams, p->extra, false);
	if (r == CUDA_SUCCESS)
		node->op.launch = l;
	drv_unlock();
	return r;
}

/* ---- instantiation and launch */

/* Kahn's algorithm, ties in the order nodes were added: ops[] in an order every dependency allows, and
 * from[] the node each came from. */
static CUresult topological(const struct CUgraph_st *g, struct drv_op *ops, const struct CUgraphNode_st **from)
{
	bool *done = calloc((size_t)g->n + 1, 1);
	if (!done)
		return CUDA_ERROR_OUT_OF_MEMORY;
	int placed = 0;
	for (bool progress = true; progress && placed < g->n;) {
		progress = false;
		for (int i = 0; i < g->n; i++) {
			const struct CUgraphNode_st *node = g->nodes[i];
			bool ready = !done[i];
			for (int d = 0; ready && d < node->ndeps; d++)
				for (int k = 0; k < g->n; k++)
					if (g->nodes[k] == node->deps[d] && !done[k])
						ready = false;
			if (ready) {
				done[i] = true;
				from[placed] = node;
				ops[placed++] = node->op;
				progress = true;
			}
		}
	}
	free(done);
	return placed == g->n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; /* a cycle */
}

static CUresult instantiate(CUgraphExec *out, CUgraph g, const char *api)
{
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock_at(api);
	CUresult r = graph_valid(g) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	struct CUgraphExec_st *e = r == CUDA_SUCCESS ? calloc(1, sizeof *e) : NULL;
	if (e) {
		e->ops = malloc((size_t)(g->n ? g->n : 1) * sizeof *e->ops);
		e->from = malloc((size_t)(g->n ? g->n : 1) * sizeof *e->from);
	}
	if (r == CUDA_SUCCESS && (!e || !e->ops || !e->from))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r == CUDA_SUCCESS)
		r = topological(g, e->ops, e->from);
	if (r == CUDA_SUCCESS) {
		e->magic = DRV_GRAPH_EXEC;
		e->n = g->n;
		*out = e;
	} else if (e) {
		free(e->ops);
		free(e->from);
		free(e);
	}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec *out, CUgraph g, unsigned long long flags)
{
	(void)flags; /* auto-free-on-launch, upload, device launch, priority: nothing to do here */
	return instantiate(out, g, __func__);
}

CUresult CUDAAPI cuGraphInstantiate(CUgraphExec *out, CUgraph g, CUgraphNode *err_node, char *log, size_t n)
{
	if (err_node)
		*err_node = NULL;
	if (log && n)
		log[0] = '\0';
	return instantiate(out, g, __func__);
}

CUresult CUDAAPI cuGraphInstantiate_v2(CUgraphExec *out, CUgraph g, CUgraphNode *err_node, char *log, size_t n)
{
	return cuGraphInstantiate(out, g, err_node, log, n);
}

CUresult CUDAAPI cuGraphInstantiateWithParams(CUgraphExec *out, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS *p)
{
	CUresult r = instantiate(out, g, __func__);
	if (p) {
		p->result_out = r == CUDA_SUCCESS ? CUDA_GRAPH_INSTANTIATE_SUCCESS : CUDA_GRAPH_INSTANTIATE_ERROR;
		p->hErrNode_out = NULL;
	}
	return r;
}

CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec e)
{
	if (!e || e->magic != DRV_GRAPH_EXEC)
		return CUDA_ERROR_INVALID_VALUE;
	e->magic = 0;
	free(e->ops);
	free(e->from);
	free(e);
	return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphUpload(CUgraphExec e, CUstream h)
{
	(void)h;
	return e && e->magic == DRV_GRAPH_EXEC ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGraphUpload_ptsz(CUgraphExec e, CUstream h)
{
	return cuGraphUpload(e, h);
}

CUresult CUDAAPI cuGraphLaunch(CUgraphExec e, CUstream h)
{
	if (!e || e->magic != DRV_GRAPH_EXEC)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = CUDA_SUCCESS;
	for (int i = 0; r == CUDA_SUCCESS && i < e->n; i++)
		r = drv_issue(h, &e->ops[i]);
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuGraphLaunch_ptsz(CUgraphExec e, CUstream h)
{
	return cuGraphLaunch(e, h);
}

/* ---- copies and updates */

CUresult CUDAAPI cuGraphClone(CUgraph *out, CUgraph g)
{
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = graph_valid(g) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	struct CUgraph_st *c = r == CUDA_SUCCESS ? graph_new() : NULL;
	if (r == CUDA_SUCCESS && !c)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	for (int i = 0; r == CUDA_SUCCESS && i < g->n; i++) { /* the same order, so node i's deps are earlier clones */
		const struct CUgraphNode_st *o = g->nodes[i];
		struct CUgraphNode_st **deps = o->ndeps ? malloc((size_t)o->ndeps * sizeof *deps) : NULL;
		for (int d = 0; deps && d < o->ndeps; d++)
			for (int k = 0; k < g->n; k++)
				if (g->nodes[k] == o->deps[d])
					deps[d] = c->nodes[k];
		r = o->ndeps && !deps ? CUDA_ERROR_OUT_OF_MEMORY : node_add(c, &o->op, deps, (size_t)o->ndeps, NULL);
		free(deps);
	}
	if (r == CUDA_SUCCESS)
		*out = c;
	else if (c)
		graph_free(c);
	drv_unlock();
	return r;
}

/* A clone's nodes are in the original's order: the node at the same place. */
CUresult CUDAAPI cuGraphNodeFindInClone(CUgraphNode *out, CUgraphNode original, CUgraph clone)
{
	if (!out || !original || original->magic != DRV_NODE)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = CUDA_ERROR_INVALID_VALUE;
	const struct CUgraph_st *g = original->graph;
	for (int i = 0; graph_valid(clone) && graph_valid(g) && i < g->n && i < clone->n; i++)
		if (g->nodes[i] == original && g->n == clone->n) {
			*out = clone->nodes[i];
			r = CUDA_SUCCESS;
		}
	drv_unlock();
	return r;
}

CUresult CUDAAPI cuGraphExecKernelNodeSetParams_v2(CUgraphExec e, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS *p)
{
	if (!e || e->magic != DRV_GRAPH_EXEC || !p)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	CUresult r = CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < e->n; i++)
		if (e->from[i] == node && e->ops[i].kind == DRV_OP_KERNEL)
			r = drv_launch_prepare(&e->ops[i].launch, p->func ? p->func : (CUfunction)p->kern,
					       (unsigned[3]){p->gridDimX, p->gridDimY, p->gridDimZ},
					       (unsigned[3]){p->blockDimX, p->blockDimY, p->blockDimZ}, p->sharedMemBytes,
					       p->kernelParams, p->extra, false);
	drv_unlock();
	return r;
}

/* An instantiated graph takes another graph's operations when the two have the same nodes, of the same
 * kinds, in the same order; anything else is a topology change, as CUDA reports it. */
CUresult CUDAAPI cuGraphExecUpdate_v2(CUgraphExec e, CUgraph g, CUgraphExecUpdateResultInfo *info)
{
	if (!e || e->magic != DRV_GRAPH_EXEC || !info)
		return CUDA_ERROR_INVALID_VALUE;
	drv_lock();
	*info = (CUgraphExecUpdateResultInfo){.result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED};
	CUresult r = graph_valid(g) ? CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE : CUDA_ERROR_INVALID_VALUE;
	struct drv_op *ops = graph_valid(g) && g->n == e->n ? malloc((size_t)(g->n ? g->n : 1) * sizeof *ops) : NULL;
	const struct CUgraphNode_st **from = ops ? malloc((size_t)(g->n ? g->n : 1) * sizeof *from) : NULL;
	bool same = from && topological(g, ops, from) == CUDA_SUCCESS;
	for (int i = 0; same && i < e->n; i++)
		same = ops[i].kind == e->ops[i].kind;
	if (same) {
		memcpy(e->ops, ops, (size_t)e->n * sizeof *ops);
		memcpy(e->from, from, (size_t)e->n * sizeof *from);
		info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
		r = CUDA_SUCCESS;
	}
	free(ops);
	free(from);
	drv_unlock();
	return r;
}
