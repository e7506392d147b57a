/* reduce.c — harness of the reduce topic (kernels/reduce.cu): the sum and the argmax of n random floats,
 * both computed by every variant in one launch.  Any n from 1 up works (grid-stride loops and guards).
 * The sum is checked against a double-precision reference with a tolerance for float summation order
 * (see verify); the argmax must be exact: the index of the largest value, the lowest among equals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

extern const char gl_ptx_reduce[], gl_res_sm80_reduce[], gl_res_sm90_reduce[];

#define THREADS 256
#define ITEMS_PER_THREAD 8 /* grid size of the block-level variants: one thread per 8 elements */

enum { P_N };
enum { V_ATOMIC, V_SHARED_TREE, V_WARP_SHUFFLE, V_TWO_STAGE, V_COUNT };
enum { B_SUM, B_BEST, B_X, B_PARTIALS, B_KEYS, B_TICKET };

static const struct gl_param params[] = {
	[P_N] = {"n", "floats summed (and searched for the largest)", 1 << 20, 1, 1 << 28, true},
};

static const struct gl_variant variants[] = {
	[V_ATOMIC] = {"atomic", "reduce_atomic", "a global atomicAdd and atomicMax per element, all on one address"},
	[V_SHARED_TREE] = {"shared_tree", "reduce_shared_tree",
			   "grid-stride partials, a shared-memory tree per block, one atomic per block"},
	[V_WARP_SHUFFLE] = {"warp_shuffle", "reduce_warp_shuffle",
			    "__shfl_down_sync trees in registers, shared memory only between warps"},
	[V_TWO_STAGE] = {"two_stage", "reduce_two_stage",
			 "block partials to a buffer, the last block reduces them: no float atomics, same bits every run"},
};

static unsigned grid_for(int variant, long n)
{
	long per_block = variant == V_ATOMIC ? THREADS : (long)THREADS * ITEMS_PER_THREAD;
	return (unsigned)((n + per_block - 1) / per_block);
}

static int check(const struct gl_problem *p, struct gl_err *err)
{
	char what[64];
	snprintf(what, sizeof what, "reduce n=%ld", p->v[P_N]);
	return gl_check_host_memory(what, 4.0 * (double)p->v[P_N] * 1.5, err);
}

static int geometry(const struct gl_variant *v, const struct gl_problem *p, struct gl_geometry *g, struct gl_err *err)
{
	(void)err;
	gl_geometry_add(g, v->entry, grid_for((int)(v - variants), p->v[P_N]), 1, 1, THREADS, 1, 0);
	return GL_OK;
}

static int setup(const struct gl_variant *v, const struct gl_problem *p, const struct gl_geometry *g,
		 struct gl_launch *l, struct gl_err *err)
{
	int variant = (int)(v - variants);
	long n = p->v[P_N];
	unsigned grid = g->launch[0].grid[0];
	int sum = gl_launch_add_buffer(l, "sum", GL_F32, 1, 1);
	int best = gl_launch_add_buffer(l, "best", GL_U64, 1, 1);
	int x = gl_launch_add_buffer(l, "x", GL_F32, (size_t)n, 0);
	if (gl_launch_check(l, err))
		return err->status;
	gl_fill_random_f32(l->buffers[x].host, (size_t)n, p->seed);
	gl_launch_arg_buffer(l, sum);
	gl_launch_arg_buffer(l, best);
	gl_launch_arg_buffer(l, x);
	gl_launch_arg_scalar(l, (uint32_t)n, 4);
	if (variant == V_TWO_STAGE) {
		gl_launch_arg_buffer(l, gl_launch_add_buffer(l, "partials", GL_F32, grid, 0));
		gl_launch_arg_buffer(l, gl_launch_add_buffer(l, "keys", GL_U64, grid, 0));
		gl_launch_arg_buffer(l, gl_launch_add_buffer(l, "ticket", GL_U32, 1, 0));
		if (gl_launch_check(l, err))
			return err->status;
	}
	gl_geometry_apply(g, 0, l);
	return GL_OK;
}

/* The kernels' argmax key (reduce.cu): 0xFFFFFFFF - index in the low 32 bits. */
static long key_index(uint64_t key)
{
	return key ? (long)(0xffffffffu - (uint32_t)key) : -1;
}

/* Sum tolerance.  The worst case of float summation, (n-1) * 2^-24 * sum|x|, is far too loose to notice a
 * lost block; rounding errors of random-sign data in any order add up like a random walk, whose spread
 * is below 2^-24 * sqrt(n) * ||x||_2, so the tolerance is atol + rtol * sqrt(n) * ||x||_2 with
 * rtol = 8 * 2^-24: far above any summation order the atomics produce, far below one missing block. */
static double sum_tolerance(const struct gl_topic *t, const float *x, long n)
{
	double sq = 0.0;
	for (long i = 0; i < n; i++)
		sq += (double)x[i] * x[i];
	return t->atol + t->rtol * sqrt((double)n) * sqrt(sq);
}

static int verify(const struct gl_variant *v, const struct gl_problem *p, const struct gl_launch *l,
		  const struct gl_topic *t, struct gl_verify *out, struct gl_err *err)
{
	(void)v;
	(void)err; /* no allocation: the reference is one sum */
	long n = p->v[P_N];
	const float *x = l->buffers[B_X].host;
	double ref = 0.0;
	long arg = 0;
	for (long i = 0; i < n; i++) {
		ref += x[i];
		if (x[i] > x[arg])
			arg = i;
	}
	float got = *(const float *)l->buffers[B_SUM].host;
	long got_arg = key_index(*(const uint64_t *)l->buffers[B_BEST].host);
	memset(out, 0, sizeof *out);
	out->max_abs_err = fabs(got - ref);
	out->max_rel_err = ref != 0.0 ? out->max_abs_err / fabs(ref) : 0.0;
	double tol = sum_tolerance(t, x, n);
	out->ok = true;
	if (!(out->max_abs_err <= tol)) {
		out->mismatches++;
		snprintf(out->first_mismatch, sizeof out->first_mismatch,
			 "sum: got %.9g, expected %.9g (tolerance %.3g for n=%ld)", got, ref, tol, n);
		out->ok = false;
	}
	if (got_arg != arg) {
		if (out->mismatches++ == 0)
			snprintf(out->first_mismatch, sizeof out->first_mismatch,
				 "argmax: got index %ld, expected %ld (x[%ld] = %.9g)", got_arg, arg, arg, x[arg]);
		out->ok = false;
	}
	return GL_OK;
}

static double flops(const struct gl_variant *v, const struct gl_problem *p)
{
	(void)v;
	return (double)p->v[P_N]; /* one add per element */
}

const struct gl_topic gl_topic_reduce = {
	.name = "reduce",
	.summary = "sum and argmax of a vector: global atomics, shared-memory trees, warp shuffles, two stages",
	.ptx = gl_ptx_reduce,
	.res_sm80 = gl_res_sm80_reduce,
	.res_sm90 = gl_res_sm90_reduce,
	.params = params,
	.nparams = 1,
	.variants = variants,
	.nvariants = V_COUNT,
	.atol = 1e-6,
	.rtol = 8.0 / 16777216.0, /* 8 * 2^-24, times sqrt(n) * ||x||_2: see sum_tolerance */
	.check = check,
	.geometry = geometry,
	.setup = setup,
	.verify = verify,
	.flops = flops,
	.view_size = 4096, /* the block variants' 2 CTAs, both traced: two_stage's last block among them */
	.view = GL_VIEW_REDUCE,
};
