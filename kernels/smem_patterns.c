/* smem_patterns.c — harness of the smem_patterns topic (kernels/smem_patterns.cu): each CTA of 256
 * threads loads 2048 input floats into shared memory, then every thread reads it 4 times in its
 * variant's pattern and writes the sum. */
#include <stdio.h>
#include <stdlib.h>

#include "registry.h"

extern const char gl_ptx_smem_patterns[], gl_res_sm80_smem_patterns[], gl_res_sm90_smem_patterns[];

#define WORDS 2048
#define READS 4
#define THREADS 256

enum { P_BLOCKS };

static const struct gl_param params[] = {
	[P_BLOCKS] = {"blocks", "CTAs of 256 threads", 64, 1, 65535, true},
};

/* The stride of each strided variant, in variant order (-1: not strided). */
static const int strides[] = {1, 2, 4, 8, 16, 32, 33, 0, -1, -1};

static const struct gl_variant variants[] = {
	{"stride1", "smem_stride1", "consecutive words: conflict-free"},
	{"stride2", "smem_stride2", "stride 2 words: 2-way bank conflicts"},
	{"stride4", "smem_stride4", "stride 4 words: 4-way bank conflicts"},
	{"stride8", "smem_stride8", "stride 8 words: 8-way bank conflicts"},
	{"stride16", "smem_stride16", "stride 16 words: 16-way bank conflicts"},
	{"stride32", "smem_stride32", "stride 32 words: every lane in one bank, 32-way"},
	{"stride33", "smem_stride33", "odd stride 33: every bank once, conflict-free (why padding works)"},
	{"broadcast", "smem_broadcast", "all lanes read one word: a broadcast, no conflict"},
	{"vec64", "smem_vec64", "64-bit reads: two half-warp phases, conflict-free"},
	{"vec128", "smem_vec128", "128-bit reads: four quarter-warp phases, conflict-free"},
};

#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

static int check(const struct gl_problem *p, struct gl_err *err)
{
	return gl_check_host_memory("smem_patterns", 4.0 * THREADS * (double)p->v[P_BLOCKS], err);
}

static int geometry(const struct gl_variant *v, const struct gl_problem *p, struct gl_geometry *g, struct gl_err *err)
{
	(void)err;
	gl_geometry_add(g, v->entry, (unsigned)p->v[P_BLOCKS], 1, 1, THREADS, 1, 0);
	return GL_OK;
}

static int setup(const struct gl_variant *v, const struct gl_problem *p, const struct gl_geometry *g,
		 struct gl_launch *l, struct gl_err *err)
{
	(void)v; /* its geometry says what differs between the variants */
	size_t threads = (size_t)p->v[P_BLOCKS] * THREADS;
	int out = gl_launch_add_buffer(l, "out", GL_F32, threads, 1);
	int in = gl_launch_add_buffer(l, "in", GL_F32, WORDS, 0);
	if (gl_launch_check(l, err))
		return err->status;
	gl_fill_random_f32(l->buffers[in].host, WORDS, p->seed);
	gl_launch_arg_buffer(l, out);
	gl_launch_arg_buffer(l, in);
	gl_geometry_apply(g, 0, l);
	return GL_OK;
}

static float reference(int variant, const float *in, int lane)
{
	int stride = strides[variant];
	if (stride >= 0) {
		float acc = 0.0f;
		for (int k = 0; k < READS; k++)
			acc += in[(lane * stride + k * 64) % WORDS];
		return acc;
	}
	if (variants[variant].name[3] == '6') { /* vec64: doubles built from pairs */
		double acc = 0.0;
		for (int k = 0; k < READS; k++) {
			int i = lane + k * 32;
			acc += (double)in[2 * i] + (double)in[2 * i + 1];
		}
		return (float)acc;
	}
	float acc = 0.0f; /* vec128 */
	for (int k = 0; k < READS; k++) {
		const float *q = &in[4 * (lane + k * 32)];
		acc += q[0] + q[1] + q[2] + q[3];
	}
	return acc;
}

static int verify(const struct gl_variant *v, const struct gl_problem *p, const struct gl_launch *l,
		  const struct gl_topic *t, struct gl_verify *out, struct gl_err *err)
{
	size_t threads = (size_t)p->v[P_BLOCKS] * THREADS;
	int variant = (int)(v - variants);
	float *ref = malloc(threads * sizeof *ref);
	if (!ref)
		return gl_oom_error(err, "the CPU reference", (double)threads * sizeof *ref);
	for (size_t i = 0; i < threads; i++)
		ref[i] = reference(variant, l->buffers[1].host, (int)(i % 32));
	gl_verify_f32(l->buffers[0].host, ref, threads, t->atol, t->rtol, out);
	free(ref);
	return GL_OK;
}

const struct gl_topic gl_topic_smem_patterns = {
	.name = "smem_patterns",
	.summary = "shared-memory reads by stride, broadcast and width: how bank conflicts arise",
	.ptx = gl_ptx_smem_patterns,
	.res_sm80 = gl_res_sm80_smem_patterns,
	.res_sm90 = gl_res_sm90_smem_patterns,
	.params = params,
	.nparams = 1,
	.variants = variants,
	.nvariants = NVARIANTS,
	.atol = 1e-6,
	.rtol = 1e-5,
	.check = check,
	.geometry = geometry,
	.setup = setup,
	.verify = verify,
	.view_size = 2,
	.view = GL_VIEW_BANKS,
};
