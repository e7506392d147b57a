/* attention.c — harness of the attention topic (kernels/attention.cu): O = softmax(Q Kᵀ / sqrt(d)) V for
 * batch x heads heads of seq queries and seq-k keys of dimension d, optionally causal.  The CPU reference
 * is computed in double precision from the very inputs the kernel read (for flash2_mma the fp16-rounded
 * ones).  Tolerance, |out - ref| <= atol + rtol |ref|: fp32 variants 2e-5 + 1e-4 |ref| (float sums over a
 * few hundred terms and ex2.approx, a few ulp each); flash2_mma 1e-3 + 1e-2 |ref|, because P is rounded to
 * fp16 (relative error 2^-11) before the PV product, and an output is a weighted mean of V values in
 * [-1, 1]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/derived.h"
#include "common/half.h"
#include "common/metrics.h"
#include "registry.h"

extern const char gl_ptx_attention[], gl_res_sm80_attention[], gl_res_sm90_attention[];

enum { P_BATCH, P_HEADS, P_SEQ, P_DIM, P_CAUSAL, P_SEQ_K, P_COUNT };

static const struct gl_param params[] = {
	[P_BATCH] = {"batch", "sequences in the batch", 1, 1, 64, false},
	[P_HEADS] = {"heads", "attention heads per sequence", 1, 1, 64, false},
	[P_SEQ] = {"seq", "queries per head (--size sets it)", 256, 1, 65536, true},
	[P_DIM] = {"dim", "head dimension: 32, 64 or 128", 64, 32, 128, false},
	[P_CAUSAL] = {"causal", "1: query i sees keys j <= i only", 0, 0, 1, false},
	[P_SEQ_K] = {"seq-k", "keys and values per head; 0: the same as --seq", 0, 0, 65536, false},
};

enum { V_NAIVE, V_FUSED_ROW, V_FLASH1, V_FLASH2, V_FLASH2_MMA, V_COUNT };

static const struct gl_variant variants[] = {
	[V_NAIVE] = {"naive", "attention_naive_scores",
		     "three launches: S = QK^T and P = softmax(S) through global memory, then O = PV"},
	[V_FUSED_ROW] = {"fused_row", "attention_fused_row",
			 "one CTA per query row, scores in shared memory; K and V re-read for every row"},
	[V_FLASH1] = {"flash1", "attention_flash1_d64",
		      "FlashAttention-1: outer loop over K/V blocks, O, m and l through global memory every step"},
	[V_FLASH2] = {"flash2", "attention_flash2_d64",
		      "FlashAttention-2: a CTA per Q block, online softmax in registers, O written once"},
	[V_FLASH2_MMA] = {"flash2_mma", "attention_flash2_mma_d64",
			  "flash2 in fp16 on tensor cores: mma.sync m16n8k16, ldmatrix from swizzled shared memory"},
};

/* Block geometry of the kernels (attention.cu). */
#define F1_BR 16
#define F2_BR 32
#define MMA_BR 64
#define FL_THREADS 128
#define FR_THREADS 128

struct dims {
	long bh, nq, nk, d;
	int causal;
};

static struct dims dims_of(const struct gl_problem *p)
{
	struct dims g = {p->v[P_BATCH] * p->v[P_HEADS], p->v[P_SEQ], p->v[P_SEQ_K] ? p->v[P_SEQ_K] : p->v[P_SEQ],
			 p->v[P_DIM], (int)p->v[P_CAUSAL]};
	return g;
}

static int check(const struct gl_problem *p, struct gl_err *err)
{
	struct dims g = dims_of(p);
	if (g.d != 32 && g.d != 64 && g.d != 128)
		return gl_errf(err, GL_EUSAGE, "--dim %ld: attention's kernels take a head dimension of 32, 64 or 128",
			       g.d);
	if (g.bh > 65535)
		return gl_errf(err, GL_EUSAGE, "--batch x --heads = %ld: at most 65535 heads (one grid row each)", g.bh);
	/* naive's S and P dominate: 2 x bh x nq x nk floats, plus Q, K, V, O and the reference */
	double bytes = 4.0 * (double)g.bh * (2.0 * g.nq * g.nk + 3.0 * g.nq * g.d + 2.0 * g.nk * g.d);
	char what[96];
	snprintf(what, sizeof what, "attention %ldx%ld heads of %ld queries, %ld keys", p->v[P_BATCH], p->v[P_HEADS],
		 g.nq, g.nk);
	return gl_check_host_memory(what, bytes, err);
}

static uint32_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

/* Q, K, V: random values (gl_fill_random_f32); Q is scaled by 8 so that softmax rows are peaked and the
 * running maximum moves from block to block. */
static void fill_inputs(const struct gl_problem *p, const struct dims *g, float *q, float *k, float *v)
{
	size_t nq = (size_t)(g->bh * g->nq * g->d), nk = (size_t)(g->bh * g->nk * g->d);
	gl_fill_random_f32(q, nq, p->seed);
	for (size_t i = 0; i < nq; i++)
		q[i] *= 8.0f;
	gl_fill_random_f32(k, nk, p->seed + 1);
	gl_fill_random_f32(v, nk, p->seed + 2);
}

static unsigned ceil_div(long a, long b)
{
	return (unsigned)((a + b - 1) / b);
}

static void arg_int(struct gl_launch *l, long v)
{
	gl_launch_arg_scalar(l, (uint32_t)v, 4);
}

/* naive: scores, softmax, PV over S and P in global memory. */
static void setup_naive(struct gl_launch *l, const struct gl_geometry *geo, const struct dims *g, int o, int q, int k,
			int v, float sl2)
{
	int s = gl_launch_add_buffer(l, "S", GL_F32, (size_t)(g->bh * g->nq * g->nk), 1);
	int pm = gl_launch_add_buffer(l, "P", GL_F32, (size_t)(g->bh * g->nq * g->nk), 1);
	gl_geometry_apply(geo, 0, l);
	gl_launch_arg_buffer(l, s);
	gl_launch_arg_buffer(l, q);
	gl_launch_arg_buffer(l, k);
	arg_int(l, g->nq);
	arg_int(l, g->nk);
	arg_int(l, g->d);
	gl_launch_arg_scalar(l, f32_bits(sl2), 4);
	arg_int(l, g->causal);
	gl_launch_next(l);
	gl_geometry_apply(geo, 1, l);
	gl_launch_arg_buffer(l, pm);
	gl_launch_arg_buffer(l, s);
	arg_int(l, g->nq);
	arg_int(l, g->nk);
	gl_launch_next(l);
	gl_geometry_apply(geo, 2, l);
	gl_launch_arg_buffer(l, o);
	gl_launch_arg_buffer(l, pm);
	gl_launch_arg_buffer(l, v);
	arg_int(l, g->nq);
	arg_int(l, g->nk);
	arg_int(l, g->d);
}

static const char *flash_entry(const char *stem, long d)
{
	static const char *const names[][3] = {
		{"attention_flash1_d32", "attention_flash1_d64", "attention_flash1_d128"},
		{"attention_flash2_d32", "attention_flash2_d64", "attention_flash2_d128"},
		{"attention_flash2_mma_d32", "attention_flash2_mma_d64", "attention_flash2_mma_d128"},
	};
	int which = strcmp(stem, "flash1") == 0 ? 0 : strcmp(stem, "flash2") == 0 ? 1 : 2;
	return names[which][d == 32 ? 0 : d == 64 ? 1 : 2];
}

/* fused_row keeps a query row (d floats), its scores (one per key) and 4 reduction slots in dynamic
 * shared memory; the flash variants' tiles are static. */
static unsigned fused_row_smem(const struct gl_problem *p)
{
	struct dims g = dims_of(p);
	return (unsigned)(4 * (g.d + g.nk + 4));
}

/* fused_row keeps a query row's scores (and the row of Q) in 48 KiB of shared memory; the other variants
 * take any problem check() accepts. */
static bool accepts(const struct gl_variant *v, const struct gl_problem *p, char *rule, size_t size)
{
	if (v - variants != V_FUSED_ROW || fused_row_smem(p) <= 48 * 1024)
		return true;
	struct dims g = dims_of(p);
	snprintf(rule, size, "keeps a row's %ld scores in 48 KiB of shared memory: --seq-k at most %ld at --dim %ld",
		 g.nk, 48 * 1024 / 4 - g.d - 4, g.d);
	return false;
}

static int geometry(const struct gl_variant *v, const struct gl_problem *p, struct gl_geometry *geo,
		    struct gl_err *err)
{
	struct dims g = dims_of(p);
	unsigned bh = (unsigned)g.bh;
	switch ((int)(v - variants)) {
	case V_NAIVE:
		gl_geometry_add(geo, "attention_naive_scores", ceil_div(g.nk, 32), ceil_div(g.nq, 8), bh, 32, 8, 0);
		gl_geometry_add(geo, "attention_naive_softmax", ceil_div(g.nq, 4), bh, 1, 32, 4, 0);
		gl_geometry_add(geo, "attention_naive_pv", ceil_div(g.d, 32), ceil_div(g.nq, 8), bh, 32, 8, 0);
		return GL_OK;
	case V_FUSED_ROW: {
		char rule[160];
		if (!accepts(v, p, rule, sizeof rule))
			return gl_errf(err, GL_EUSAGE, "attention %s %s", v->name, rule);
		gl_geometry_add(geo, v->entry, (unsigned)g.nq, bh, 1, FR_THREADS, 1, fused_row_smem(p));
		return GL_OK;
	}
	case V_FLASH1: gl_geometry_add(geo, flash_entry(v->name, g.d), 1, bh, 1, FL_THREADS, 1, 0); return GL_OK;
	case V_FLASH2:
		gl_geometry_add(geo, flash_entry(v->name, g.d), ceil_div(g.nq, F2_BR), bh, 1, FL_THREADS, 1, 0);
		return GL_OK;
	default:
		gl_geometry_add(geo, flash_entry(v->name, g.d), ceil_div(g.nq, MMA_BR), bh, 1, FL_THREADS, 1, 0);
		return GL_OK;
	}
}

static int setup(const struct gl_variant *v, const struct gl_problem *p, const struct gl_geometry *geo,
		 struct gl_launch *l, struct gl_err *err)
{
	struct dims g = dims_of(p);
	int vi = (int)(v - variants);
	size_t nq = (size_t)(g.bh * g.nq * g.d), nk = (size_t)(g.bh * g.nk * g.d);
	bool half = vi == V_FLASH2_MMA;
	int o = gl_launch_add_buffer(l, "O", GL_F32, nq, 1);
	int mb = -1, lb = -1;
	if (vi == V_FLASH1) {
		mb = gl_launch_add_buffer(l, "m", GL_F32, (size_t)(g.bh * g.nq), 1);
		lb = gl_launch_add_buffer(l, "l", GL_F32, (size_t)(g.bh * g.nq), 1);
	}
	int q = gl_launch_add_buffer(l, "Q", half ? GL_F16 : GL_F32, nq, 0);
	int k = gl_launch_add_buffer(l, "K", half ? GL_F16 : GL_F32, nk, 0);
	int vb = gl_launch_add_buffer(l, "V", half ? GL_F16 : GL_F32, nk, 0);
	float *fq = half ? malloc(nq * sizeof *fq) : l->buffers[q].host;
	float *fk = half ? malloc(nk * sizeof *fk) : l->buffers[k].host;
	float *fv = half ? malloc(nk * sizeof *fv) : l->buffers[vb].host;
	if (gl_launch_check(l, err) || !fq || !fk || !fv) {
		if (half) {
			free(fq);
			free(fk);
			free(fv);
		}
		return err->status ? err->status : gl_oom_error(err, "fp32 inputs", 4.0 * (double)(nq + 2 * nk));
	}
	fill_inputs(p, &g, fq, fk, fv);
	if (half) {
		gl_f32_to_f16_array(fq, l->buffers[q].host, nq);
		gl_f32_to_f16_array(fk, l->buffers[k].host, nk);
		gl_f32_to_f16_array(fv, l->buffers[vb].host, nk);
		free(fq);
		free(fk);
		free(fv);
	}
	float sl2 = (float)(1.4426950408889634 / sqrt((double)g.d)); /* log2(e) / sqrt(d) */
	if (vi == V_NAIVE) {
		setup_naive(l, geo, &g, o, q, k, vb, sl2);
		return GL_OK;
	}
	gl_geometry_apply(geo, 0, l);
	gl_launch_arg_buffer(l, o);
	if (vi == V_FLASH1) {
		gl_launch_arg_buffer(l, mb);
		gl_launch_arg_buffer(l, lb);
	}
	gl_launch_arg_buffer(l, q);
	gl_launch_arg_buffer(l, k);
	gl_launch_arg_buffer(l, vb);
	arg_int(l, g.nq);
	arg_int(l, g.nk);
	if (vi == V_FUSED_ROW)
		arg_int(l, g.d);
	gl_launch_arg_scalar(l, f32_bits(sl2), 4);
	arg_int(l, g.causal);
	return GL_OK;
}

/* The inputs as the kernel read them, in float: fp16 buffers widened exactly. */
static float *input_f32(const struct gl_buffer *b)
{
	float *x = malloc(b->count * sizeof *x);
	if (!x)
		return NULL;
	if (b->dtype == GL_F16)
		for (size_t i = 0; i < b->count; i++)
			x[i] = gl_f16_to_f32(((const uint16_t *)b->host)[i]);
	else
		memcpy(x, b->host, b->count * sizeof *x);
	return x;
}

/* One query row of the reference in double: scores, max, exponentials, weighted mean of V rows. */
static void ref_row(const struct dims *g, const float *q, const float *k, const float *v, long i, double *s,
		    double *out)
{
	double scale = 1.0 / sqrt((double)g->d), m = -INFINITY, sum = 0;
	long kend = g->causal && i + 1 < g->nk ? i + 1 : g->nk;
	for (long j = 0; j < kend; j++) {
		double acc = 0;
		for (long c = 0; c < g->d; c++)
			acc += (double)q[c] * k[j * g->d + c];
		s[j] = acc * scale;
		m = s[j] > m ? s[j] : m;
	}
	for (long c = 0; c < g->d; c++)
		out[c] = 0;
	for (long j = 0; j < kend; j++) {
		double e = exp(s[j] - m);
		sum += e;
		for (long c = 0; c < g->d; c++)
			out[c] += e * v[j * g->d + c];
	}
	for (long c = 0; c < g->d; c++)
		out[c] /= sum;
}

static int verify(const struct gl_variant *v, const struct gl_problem *p, const struct gl_launch *l,
		  const struct gl_topic *t, struct gl_verify *out, struct gl_err *err)
{
	struct dims g = dims_of(p);
	int first_input = (int)(v - variants) == V_FLASH1 ? 3 : 1;
	float *q = input_f32(&l->buffers[first_input]), *k = input_f32(&l->buffers[first_input + 1]);
	float *vv = input_f32(&l->buffers[first_input + 2]);
	size_t n = (size_t)(g.bh * g.nq * g.d);
	float *ref = malloc(n * sizeof *ref);
	double *s = malloc((size_t)g.nk * sizeof *s), *row = malloc((size_t)g.d * sizeof *row);
	int rc = GL_OK;
	if (!q || !k || !vv || !ref || !s || !row) {
		rc = gl_oom_error(err, "the CPU reference", 4.0 * (double)n * 2 + 8.0 * (double)g.nk);
	} else {
		for (long h = 0; h < g.bh; h++)
			for (long i = 0; i < g.nq; i++) {
				ref_row(&g, q + (h * g.nq + i) * g.d, k + h * g.nk * g.d, vv + h * g.nk * g.d, i, s, row);
				for (long c = 0; c < g.d; c++)
					ref[(h * g.nq + i) * g.d + c] = (float)row[c];
			}
		bool half = (int)(v - variants) == V_FLASH2_MMA;
		gl_verify_f32(l->buffers[0].host, ref, n, half ? 1e-3 : t->atol, half ? 1e-2 : t->rtol, out);
	}
	free(q);
	free(k);
	free(vv);
	free(ref);
	free(s);
	free(row);
	return rc;
}

/* Query-key pairs a head computes: all of them, or for causal the visible ones (j <= i). */
static double pairs(const struct dims *g)
{
	if (!g->causal)
		return (double)g->nq * (double)g->nk;
	double total = 0;
	for (long i = 0; i < g->nq; i++)
		total += (double)(i + 1 < g->nk ? i + 1 : g->nk);
	return total;
}

/* The attention's own work: 2d FLOPs for a score and 2d for its share of PV, per visible pair. */
static double flops(const struct gl_variant *v, const struct gl_problem *p)
{
	(void)v;
	struct dims g = dims_of(p);
	return 4.0 * (double)g.d * pairs(&g) * (double)g.bh;
}

#define M_TENSOR_FLOPS "gpulab__attention_tensor_flops.sum"
#define M_FLOPS "gpulab__attention_flops.sum"
#define M_BYTES_PER_OUTPUT "gpulab__attention_global_bytes_per_output.ratio"
static const char *const derived_names[] = {M_TENSOR_FLOPS, M_FLOPS, M_BYTES_PER_OUTPUT, NULL};

/* What the attention lesson reads: FLOPs executed (FFMA as two, FADD and FMUL as one, each mma.sync
 * m16n8k16 as 4096 on the tensor pipe) and global bytes (32-byte sectors loaded and stored) per element
 * of O. */
static void derive(const struct gl_variant *v, const struct gl_problem *p, struct gl_metrics *m)
{
	(void)v;
	struct dims g = dims_of(p);
	struct gl_flops f; /* the one derivation every printer uses (common/derived.h) */
	gl_flops_of(m, &f);
	double tensor = f.tensor, fp32 = f.cuda_core;
	const double *ld = gl_metrics_get(m, GL_M_GLD_SECT), *st = gl_metrics_get(m, GL_M_GST_SECT);
	gl_metrics_set(m, M_TENSOR_FLOPS, tensor, "flop");
	gl_metrics_set(m, M_FLOPS, tensor + fp32, "flop");
	if (ld && st)
		gl_metrics_set(m, M_BYTES_PER_OUTPUT,
			       32.0 * (*ld + *st) / ((double)g.bh * (double)g.nq * (double)g.d), "byte");
}

static const struct gl_buffer_shape shapes[] = {{"Q", "seq", "dim"}, {"O", "seq", "dim"}, {0}};

const struct gl_topic gl_topic_attention = {
	.name = "attention",
	.summary = "softmax(QK^T/sqrt(d))V from three launches to FlashAttention-2 on tensor cores: O(N^2) "
		   "traffic, online softmax, loop order, causal skipping",
	.ptx = gl_ptx_attention,
	.res_sm80 = gl_res_sm80_attention,
	.res_sm90 = gl_res_sm90_attention,
	.params = params,
	.nparams = P_COUNT,
	.variants = variants,
	.nvariants = V_COUNT,
	.atol = 2e-5, /* fp32 variants; flash2_mma: 1e-3 + 1e-2 |ref| (see the top of this file) */
	.rtol = 1e-4,
	.check = check,
	.accepts = accepts,
	.geometry = geometry,
	.setup = setup,
	.verify = verify,
	.flops = flops,
	.shapes = shapes,
	.view_size = 64, /* flash1: 4 Q blocks x 2 K/V blocks, within the trace's 50,000 events per CTA */
	.view = GL_VIEW_FLASH,
	.derive = derive,
	.derived_names = derived_names,
};
