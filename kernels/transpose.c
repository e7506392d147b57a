/* transpose.c — harness of the transpose topic (kernels/transpose.cu): a rows x cols float matrix in,
 * its cols x rows transpose out (the copy variant copies).  Edges are guarded in the kernels, so every
 * size from 1 up works; the only limit is memory. */
#include <stdio.h>
#include <stdlib.h>

#include "registry.h"

extern const char gl_ptx_transpose[], gl_res_sm80_transpose[], gl_res_sm90_transpose[];

enum { P_ROWS, P_COLS };

static const struct gl_param params[] = {
	[P_ROWS] = {"rows", "rows of the input matrix", 1024, 1, 65536, true},
	[P_COLS] = {"cols", "columns of the input matrix", 1024, 1, 65536, true},
};

static const struct gl_variant variants[] = {
	{"copy", "transpose_copy", "plain copy with the same access pattern: the bandwidth ceiling"},
	{"naive", "transpose_naive", "coalesced reads, strided writes: 32 sectors per store request"},
	{"coalesced", "transpose_coalesced", "tile[32][32] in shared memory: coalesced, but 32-way bank conflicts"},
	{"padded", "transpose_padded", "tile[32][33]: padding removes the bank conflicts"},
	{"swizzled", "transpose_swizzled", "XOR-swizzled tile[32][32]: conflict-free without padding"},
};

static int check(const struct gl_problem *p, struct gl_err *err)
{
	char what[64];
	snprintf(what, sizeof what, "transpose %ldx%ld", p->v[P_ROWS], p->v[P_COLS]);
	return gl_check_host_memory(what, 3.0 * 4.0 * (double)p->v[P_ROWS] * (double)p->v[P_COLS], err);
}

static int geometry(const struct gl_variant *v, const struct gl_problem *p, struct gl_geometry *g, struct gl_err *err)
{
	(void)err;
	long rows = p->v[P_ROWS], cols = p->v[P_COLS];
	gl_geometry_add(g, v->entry, (unsigned)((cols + 31) / 32), (unsigned)((rows + 31) / 32), 1, 32, 8, 0);
	return GL_OK;
}

static int setup(const struct gl_variant *v, const struct gl_problem *p, const struct gl_geometry *g,
		 struct gl_launch *l, struct gl_err *err)
{
	(void)v; /* its geometry says what differs between the variants */
	long rows = p->v[P_ROWS], cols = p->v[P_COLS];
	size_t n = (size_t)rows * (size_t)cols;
	int out = gl_launch_add_buffer(l, "out", GL_F32, n, 1);
	int in = gl_launch_add_buffer(l, "in", GL_F32, n, 0);
	if (gl_launch_check(l, err))
		return err->status;
	gl_fill_random_f32(l->buffers[in].host, n, p->seed);
	gl_launch_arg_buffer(l, out);
	gl_launch_arg_buffer(l, in);
	gl_launch_arg_scalar(l, (uint32_t)rows, 4);
	gl_launch_arg_scalar(l, (uint32_t)cols, 4);
	gl_geometry_apply(g, 0, l);
	return GL_OK;
}

static int verify(const struct gl_variant *v, const struct gl_problem *p, const struct gl_launch *l,
		  const struct gl_topic *t, struct gl_verify *out, struct gl_err *err)
{
	long rows = p->v[P_ROWS], cols = p->v[P_COLS];
	size_t n = (size_t)rows * (size_t)cols;
	const float *in = l->buffers[1].host;
	float *ref = malloc(n * sizeof *ref);
	if (!ref)
		return gl_oom_error(err, "the CPU reference", (double)n * sizeof *ref);
	bool copy = v == &variants[0];
	for (long r = 0; r < rows; r++)
		for (long c = 0; c < cols; c++)
			ref[copy ? (size_t)r * cols + c : (size_t)c * rows + r] = in[(size_t)r * cols + c];
	gl_verify_f32(l->buffers[0].host, ref, n, t->atol, t->rtol, out);
	free(ref);
	return GL_OK;
}

static const struct gl_buffer_shape shapes[] = {{"in", "rows", "cols"}, {"out", "cols", "rows"}, {0}};

const struct gl_topic gl_topic_transpose = {
	.name = "transpose",
	.summary = "matrix transpose: global-memory coalescing and shared-memory bank conflicts",
	.ptx = gl_ptx_transpose,
	.res_sm80 = gl_res_sm80_transpose,
	.res_sm90 = gl_res_sm90_transpose,
	.params = params,
	.nparams = 2,
	.variants = variants,
	.nvariants = 5,
	.atol = 0.0,
	.rtol = 0.0, /* a transpose moves bits: exact */
	.check = check,
	.geometry = geometry,
	.setup = setup,
	.verify = verify,
	.shapes = shapes,
	.view_size = 64,
	.view = GL_VIEW_COALESCE,
};
