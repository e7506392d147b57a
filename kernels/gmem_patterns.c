/* gmem_patterns.c — harness of the gmem_patterns topic (kernels/gmem_patterns.cu): copies of n floats
 * whose reads are offset, strided or 16 bytes wide. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

extern const char gl_ptx_gmem_patterns[], gl_res_sm80_gmem_patterns[], gl_res_sm90_gmem_patterns[];

#define THREADS 256

enum { P_N, P_OFFSET, P_STRIDE };
enum { V_OFFSET, V_STRIDE, V_VECTOR4 };

static const struct gl_param params[] = {
	[P_N] = {"n", "floats copied", 1 << 20, 1, 1 << 28, true},
	[P_OFFSET] = {"offset", "floats the reads of 'offset' start late", 1, 0, 32, false},
	[P_STRIDE] = {"stride", "floats between the reads of 'stride'", 2, 1, 32, false},
};

static const struct gl_variant variants[] = {
	[V_OFFSET] = {"offset", "gmem_offset", "out[i] = in[i + offset]: misaligned warps touch an extra sector"},
	[V_STRIDE] = {"stride", "gmem_stride", "out[i] = in[i * stride]: sectors per request grow with the stride"},
	[V_VECTOR4] = {"vector4", "gmem_vector4", "float4 copy: 16 bytes per thread, a quarter of the requests"},
};

static size_t input_floats(int variant, const struct gl_problem *p)
{
	size_t n = (size_t)p->v[P_N];
	return variant == V_OFFSET ? n + 32 : variant == V_STRIDE ? n * (size_t)p->v[P_STRIDE] : n;
}

static int check(const struct gl_problem *p, struct gl_err *err)
{
	double n = (double)p->v[P_N];
	return gl_check_host_memory("gmem_patterns", 4.0 * (2.0 * n + n * (double)p->v[P_STRIDE]), err);
}

static bool accepts(const struct gl_variant *v, const struct gl_problem *p, char *rule, size_t size)
{
	if (v - variants != V_VECTOR4 || p->v[P_N] % 4 == 0)
		return true;
	snprintf(rule, size, "copies float4s: --n must be a multiple of 4 (got %ld)", p->v[P_N]);
	return false;
}

static long threads_of(int variant, const struct gl_problem *p)
{
	return variant == V_VECTOR4 ? p->v[P_N] / 4 : p->v[P_N];
}

static int geometry(const struct gl_variant *v, const struct gl_problem *p, struct gl_geometry *g, struct gl_err *err)
{
	char rule[160];
	if (!accepts(v, p, rule, sizeof rule))
		return gl_errf(err, GL_EUSAGE, "gmem_patterns vector4 %s", rule);
	long threads = threads_of((int)(v - variants), p);
	gl_geometry_add(g, v->entry, (unsigned)((threads + THREADS - 1) / THREADS), 1, 1, THREADS, 1, 0);
	return GL_OK;
}

static int setup(const struct gl_variant *v, const struct gl_problem *p, const struct gl_geometry *g,
		 struct gl_launch *l, struct gl_err *err)
{
	int variant = (int)(v - variants);
	long n = p->v[P_N];
	int out = gl_launch_add_buffer(l, "out", GL_F32, (size_t)n, 1);
	int in = gl_launch_add_buffer(l, "in", GL_F32, input_floats(variant, p), 0);
	if (gl_launch_check(l, err))
		return err->status;
	gl_fill_random_f32(l->buffers[in].host, l->buffers[in].count, p->seed);
	gl_launch_arg_buffer(l, out);
	gl_launch_arg_buffer(l, in);
	gl_launch_arg_scalar(l, (uint32_t)threads_of(variant, p), 4);
	if (variant == V_OFFSET)
		gl_launch_arg_scalar(l, (uint32_t)p->v[P_OFFSET], 4);
	if (variant == V_STRIDE)
		gl_launch_arg_scalar(l, (uint32_t)p->v[P_STRIDE], 4);
	gl_geometry_apply(g, 0, l);
	return GL_OK;
}

static int verify(const struct gl_variant *v, const struct gl_problem *p, const struct gl_launch *l,
		  const struct gl_topic *t, struct gl_verify *out, struct gl_err *err)
{
	int variant = (int)(v - variants);
	size_t n = (size_t)p->v[P_N];
	const float *in = l->buffers[1].host;
	float *ref = malloc(n * sizeof *ref);
	if (!ref)
		return gl_oom_error(err, "the CPU reference", (double)n * sizeof *ref);
	for (size_t i = 0; i < n; i++)
		ref[i] = variant == V_OFFSET ? in[i + (size_t)p->v[P_OFFSET]]
		       : variant == V_STRIDE ? in[i * (size_t)p->v[P_STRIDE]] : in[i];
	gl_verify_f32(l->buffers[0].host, ref, n, t->atol, t->rtol, out);
	free(ref);
	return GL_OK;
}

const struct gl_topic gl_topic_gmem_patterns = {
	.name = "gmem_patterns",
	.summary = "global-memory copies with offsets, strides and float4: what coalescing means in sectors",
	.ptx = gl_ptx_gmem_patterns,
	.res_sm80 = gl_res_sm80_gmem_patterns,
	.res_sm90 = gl_res_sm90_gmem_patterns,
	.params = params,
	.nparams = 3,
	.variants = variants,
	.nvariants = 3,
	.atol = 0.0,
	.rtol = 0.0,
	.check = check,
	.accepts = accepts,
	.geometry = geometry,
	.setup = setup,
	.verify = verify,
	.view_size = 8192,
	.view = GL_VIEW_COALESCE,
};
