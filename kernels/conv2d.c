/* conv2d.c — harness of the conv2d topic (kernels/conv2d.cu): y = conv(x, w), forward, no bias, with
 * zero padding, stride and dilation, in nchw (filter KCRS) or nhwc (filter KRSC) layout.  x and w are
 * random and non-uniform; implicit_gemm_mma takes them as fp16 (the harness rounds them), the others as
 * fp32.  The output is checked against a direct convolution in double precision computed from the very
 * inputs the kernel read, within the rounding error bound of a C*R*S-term fp32 dot product. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/derived.h"
#include "common/half.h"
#include "common/metrics.h"
#include "common/util.h"
#include "conv2d.h"

extern const char gl_ptx_conv2d[], gl_res_sm80_conv2d[], gl_res_sm90_conv2d[];

enum { P_N, P_C, P_H, P_W, P_K, P_R, P_S, P_STRIDE, P_PAD, P_DIL, P_LAYOUT, P_COUNT };
enum { V_DIRECT, V_DIRECT_SMEM, V_IM2COL_GEMM, V_IMPLICIT_GEMM, V_IMPLICIT_GEMM_MMA, V_COUNT };
enum { LAYOUT_NCHW, LAYOUT_NHWC };

static const char *const layouts[] = {"nchw", "nhwc", NULL};

/* The default is ResNet-18's conv2_x layer (3x3, 64 -> 64 channels, pad 1) at 28x28 instead of 56x56
 * to keep a simulated run short; --size 56 gives the real layer. */
static const struct gl_param params[] = {
	[P_N] = {"n", "images in the batch", 1, 1, 4096, false},
	[P_C] = {"c", "input channels", 64, 1, 4096, false},
	[P_H] = {"h", "input height", 28, 1, 8192, true},
	[P_W] = {"w", "input width", 28, 1, 8192, true},
	[P_K] = {"k", "output channels (filters)", 64, 1, 4096, false},
	[P_R] = {"r", "filter height", 3, 1, 15, false},
	[P_S] = {"s", "filter width", 3, 1, 15, false},
	[P_STRIDE] = {"stride", "stride in both directions", 1, 1, 8, false},
	[P_PAD] = {"pad", "zero padding on every side", 1, 0, 64, false},
	[P_DIL] = {"dilation", "spacing of the filter taps", 1, 1, 8, false},
	[P_LAYOUT] = {"layout", "memory layout of x and y: nchw (filter KCRS) or nhwc (filter KRSC)", LAYOUT_NCHW,
		      LAYOUT_NCHW, LAYOUT_NHWC, false, layouts},
};

static const struct gl_variant variants[] = {
	[V_DIRECT] = {"direct", "conv2d_direct", "one thread per output element, the naive loops"},
	[V_DIRECT_SMEM] = {"direct_smem", "conv2d_direct_smem",
			   "16x16 output tile per block: input patch with its halo and 8 filters in shared memory"},
	[V_IM2COL_GEMM] = {"im2col_gemm", "conv2d_im2col",
			   "two launches: materialise im2col (N*P*Q x C*R*S floats) in global memory, then SGEMM"},
	[V_IMPLICIT_GEMM] = {"implicit_gemm", "conv2d_implicit_gemm",
			     "the same SGEMM with each A tile gathered from x on the fly: no im2col buffer"},
	[V_IMPLICIT_GEMM_MMA] = {"implicit_gemm_mma", "conv2d_implicit_gemm_mma",
				 "implicit GEMM on tensor cores: fp16 x and w, mma.sync m16n8k16, ldmatrix (best in nhwc)"},
};

/* P = (H + 2 pad - dil (R - 1) - 1) / stride + 1, and the same for Q; <= 0 when the filter does not fit. */
static long out_extent(long in, long pad, long dil, long taps, long stride)
{
	long span = in + 2 * pad - dil * (taps - 1) - 1;
	return span < 0 ? 0 : span / stride + 1;
}

struct gl_conv_dims gl_conv_dims_of(const struct gl_problem *pb)
{
	const long *v = pb->v;
	struct gl_conv_dims d = {v[P_N], v[P_C], v[P_H], v[P_W], v[P_K], v[P_R], v[P_S], v[P_STRIDE], v[P_PAD], v[P_DIL],
			      0, 0, v[P_LAYOUT] == LAYOUT_NHWC};
	d.p = out_extent(d.h, d.pad, d.dil, d.r, d.stride);
	d.q = out_extent(d.w, d.pad, d.dil, d.s, d.stride);
	return d;
}

void gl_conv_x_coords(const struct gl_conv_dims *d, long i, long *n, long *c, long *h, long *w)
{
	if (d->nhwc) {
		*c = i % d->c, *w = i / d->c % d->w, *h = i / (d->c * d->w) % d->h, *n = i / (d->c * d->w * d->h);
	} else {
		*w = i % d->w, *h = i / d->w % d->h, *c = i / (d->w * d->h) % d->c, *n = i / (d->w * d->h * d->c);
	}
}

void gl_conv_y_coords(const struct gl_conv_dims *d, long i, long *n, long *k, long *p, long *q)
{
	if (d->nhwc) {
		*k = i % d->k, *q = i / d->k % d->q, *p = i / (d->k * d->q) % d->p, *n = i / (d->k * d->q * d->p);
	} else {
		*q = i % d->q, *p = i / d->q % d->p, *k = i / (d->q * d->p) % d->k, *n = i / (d->q * d->p * d->k);
	}
}

long gl_conv_tap_index(const struct gl_conv_dims *d, long c, long r, long s)
{
	return d->nhwc ? (r * d->s + s) * d->c + c : (c * d->r + r) * d->s + s;
}

/* Elements of x, w, y and of the im2col matrix; the kernels index with 32-bit ints. */
static double count_x(const struct gl_conv_dims *d) { return (double)d->n * d->c * d->h * d->w; }
static double count_w(const struct gl_conv_dims *d) { return (double)d->k * d->c * d->r * d->s; }
static double count_y(const struct gl_conv_dims *d) { return (double)d->n * d->k * d->p * d->q; }
static double count_col(const struct gl_conv_dims *d) { return (double)d->n * d->p * d->q * d->c * d->r * d->s; }

static int check(const struct gl_problem *pb, struct gl_err *err)
{
	struct gl_conv_dims d = gl_conv_dims_of(pb);
	if (d.p < 1 || d.q < 1)
		return gl_errf(err, GL_EUSAGE, "conv2d: a %ldx%ld filter with dilation %ld does not fit a %ldx%ld input "
			       "padded by %ld (the output would be empty): use a larger --h/--w or --pad, or a smaller "
			       "--r/--s or --dilation", d.r, d.s, d.dil, d.h, d.w, d.pad);
	double biggest = fmax(fmax(count_x(&d), count_w(&d)), fmax(count_y(&d), count_col(&d)));
	if (biggest >= 2147483648.0)
		return gl_errf(err, GL_EUSAGE, "conv2d: %.0f elements in one tensor (x, w, y or the im2col matrix); the "
			       "kernels index with 32-bit ints: at most 2^31 - 1", biggest);
	char what[160];
	snprintf(what, sizeof what, "conv2d n=%ld c=%ld h=%ld w=%ld k=%ld r=%ld s=%ld", d.n, d.c, d.h, d.w, d.k,
		 d.r, d.s);
	/* x, w, y, the im2col buffer, and for verify the reference and its bound (doubles) */
	return gl_check_host_memory(what, 4.0 * (count_x(&d) + count_w(&d) + count_y(&d) + count_col(&d)) +
						  16.0 * count_y(&d), err);
}

/* The thirteen shape arguments every kernel takes after its pointers (CONV_PARAMS in conv2d.cu). */
static void shape_args(struct gl_launch *l, const struct gl_conv_dims *d)
{
	const long v[] = {d->n, d->c, d->h, d->w, d->k, d->r, d->s, d->p, d->q, d->stride, d->pad, d->dil, d->nhwc};
	for (size_t i = 0; i < GL_ARRAY_LEN(v); i++)
		gl_launch_arg_scalar(l, (uint32_t)v[i], 4);
}

/* Random x and w; rounded to fp16 for the tensor-core variant. */
static int fill_input(struct gl_launch *l, int b, uint64_t seed, struct gl_err *err)
{
	struct gl_buffer *buf = &l->buffers[b];
	if (buf->dtype == GL_F16)
		return gl_fill_random_f16(buf->host, buf->count, seed, err);
	gl_fill_random_f32(buf->host, buf->count, seed);
	return GL_OK;
}

static void grid_1d(struct gl_geometry *g, const char *entry, double threads)
{
	gl_geometry_add(g, entry, (unsigned)((threads + 255) / 256), 1, 1, 256, 1, 0);
}

static void grid_gemm(struct gl_geometry *g, const char *entry, const struct gl_conv_dims *d, unsigned threads)
{
	long m = d->n * d->p * d->q;
	gl_geometry_add(g, entry, (unsigned)((d->k + 63) / 64), (unsigned)((m + 63) / 64), 1, threads, 1, 0);
}

/* direct_smem's input patch of a 16x16 output tile, with its halo, and the bytes of shared memory it
 * takes with the filter taps of 8 output channels (ds_pitch in conv2d.cu pads the rows). */
static long direct_smem_bytes(const struct gl_conv_dims *d, long *ph, long *pw)
{
	*ph = 15 * d->stride + (d->r - 1) * d->dil + 1, *pw = 15 * d->stride + (d->s - 1) * d->dil + 1;
	long pitch = d->stride == 1 ? *pw + (48 - *pw % 32) % 32 : *pw | 1;
	return 4 * (*ph * pitch + 8 * d->r * d->s);
}

/* direct_smem stages a patch in at most 48 KiB and puts n * ceil(k/8) blocks in grid z; the other
 * variants take any problem check() accepts. */
static bool accepts(const struct gl_variant *v, const struct gl_problem *pb, char *rule, size_t size)
{
	if (v - variants != V_DIRECT_SMEM)
		return true;
	struct gl_conv_dims d = gl_conv_dims_of(pb);
	long ph, pw, bytes = direct_smem_bytes(&d, &ph, &pw), z = d.n * ((d.k + 7) / 8);
	if (bytes > 48 * 1024) {
		snprintf(rule, size, "stages the input patch of a 16x16 output tile, %ldx%ld floats at stride %ld, "
			 "dilation %ld (%ld bytes of shared memory, over 48 KiB): use a smaller --stride, --dilation "
			 "or filter", ph, pw, d.stride, d.dil, bytes);
		return false;
	}
	if (z > 65535) {
		snprintf(rule, size, "puts n * ceil(k/8) = %ld blocks in grid z, over 65535: use a smaller --n or --k", z);
		return false;
	}
	return true;
}

static int grid_direct_smem(struct gl_geometry *g, const struct gl_variant *v, const struct gl_problem *pb,
			    struct gl_err *err)
{
	char rule[256];
	if (!accepts(v, pb, rule, sizeof rule))
		return gl_errf(err, GL_EUSAGE, "conv2d direct_smem %s, or another variant", rule);
	struct gl_conv_dims d = gl_conv_dims_of(pb);
	long ph, pw, bytes = direct_smem_bytes(&d, &ph, &pw);
	gl_geometry_add(g, v->entry, (unsigned)((d.q + 15) / 16), (unsigned)((d.p + 15) / 16),
			(unsigned)(d.n * ((d.k + 7) / 8)), 16, 16, (unsigned)bytes);
	return GL_OK;
}

static int geometry(const struct gl_variant *v, const struct gl_problem *pb, struct gl_geometry *g, struct gl_err *err)
{
	struct gl_conv_dims d = gl_conv_dims_of(pb);
	switch ((int)(v - variants)) {
	case V_DIRECT: grid_1d(g, v->entry, count_y(&d)); return GL_OK;
	case V_DIRECT_SMEM: return grid_direct_smem(g, v, pb, err);
	case V_IM2COL_GEMM: /* launch 1 writes col from x; launch 2 multiplies col by w */
		grid_1d(g, v->entry, count_col(&d));
		grid_gemm(g, "conv2d_gemm", &d, 256);
		return GL_OK;
	case V_IMPLICIT_GEMM: grid_gemm(g, v->entry, &d, 256); return GL_OK;
	default: grid_gemm(g, v->entry, &d, 128); return GL_OK; /* V_IMPLICIT_GEMM_MMA */
	}
}

static int setup(const struct gl_variant *v, const struct gl_problem *pb, const struct gl_geometry *g,
		 struct gl_launch *l, struct gl_err *err)
{
	struct gl_conv_dims d = gl_conv_dims_of(pb);
	int vi = (int)(v - variants);
	enum gl_dtype in = vi == V_IMPLICIT_GEMM_MMA ? GL_F16 : GL_F32;
	int y = gl_launch_add_buffer(l, "y", GL_F32, (size_t)count_y(&d), 1);
	int x = gl_launch_add_buffer(l, "x", in, (size_t)count_x(&d), 0);
	int w = gl_launch_add_buffer(l, "w", in, (size_t)count_w(&d), 0);
	int col = vi == V_IM2COL_GEMM ? gl_launch_add_buffer(l, "col", GL_F32, (size_t)count_col(&d), 0) : -1;
	if (gl_launch_check(l, err) || fill_input(l, x, pb->seed, err) || fill_input(l, w, pb->seed + 1, err))
		return err->status;
	if (vi == V_IM2COL_GEMM) { /* the im2col launch, then the GEMM of col by w below */
		gl_geometry_apply(g, 0, l);
		gl_launch_arg_buffer(l, col);
		gl_launch_arg_buffer(l, x);
		shape_args(l, &d);
		gl_launch_next(l);
		x = col;
	}
	gl_geometry_apply(g, g->n - 1, l);
	gl_launch_arg_buffer(l, y);
	gl_launch_arg_buffer(l, x);
	gl_launch_arg_buffer(l, w);
	shape_args(l, &d);
	return GL_OK;
}

/* Element i of an input buffer as a float (fp16 inputs widen exactly). */
static double input_at(const struct gl_buffer *b, size_t i)
{
	return b->dtype == GL_F16 ? gl_f16_to_f32(((const uint16_t *)b->host)[i]) : ((const float *)b->host)[i];
}

/* The direct convolution in double of output (n, k, p, q), and the sum of |x w| over its taps (the
 * scale of its rounding error). */
static double reference_at(const struct gl_conv_dims *d, const struct gl_buffer *x, const struct gl_buffer *w, long n,
			   long k, long p, long q, double *bound)
{
	double acc = 0, mag = 0;
	long kd = d->c * d->r * d->s;
	for (long c = 0; c < d->c; c++)
		for (long r = 0; r < d->r; r++)
			for (long s = 0; s < d->s; s++) {
				long h = p * d->stride - d->pad + r * d->dil, wi = q * d->stride - d->pad + s * d->dil;
				if (h < 0 || h >= d->h || wi < 0 || wi >= d->w)
					continue;
				long xi = d->nhwc ? ((n * d->h + h) * d->w + wi) * d->c + c : ((n * d->c + c) * d->h + h) * d->w + wi;
				long kk = gl_conv_tap_index(d, c, r, s);
				double prod = input_at(x, (size_t)xi) * input_at(w, (size_t)(k * kd + kk));
				acc += prod;
				mag += fabs(prod);
			}
	*bound = mag;
	return acc;
}

static void note_mismatch(struct gl_verify *out, const struct gl_conv_dims *d, long n, long k, long p, long q, float got,
			  double want)
{
	out->ok = false;
	if (out->mismatches++ == 0)
		snprintf(out->first_mismatch, sizeof out->first_mismatch,
			 "y[n=%ld][k=%ld][p=%ld][q=%ld] (%s): got %.9g, expected %.9g (direct convolution in double)", n,
			 k, p, q, d->nhwc ? "nhwc" : "nchw", got, want);
}

/* Error bound per element: an fp32 dot product of Kd = C*R*S terms is off by at most about
 * Kd * 2^-24 * sum |x w| (Higham's gamma_Kd); the tolerance is atol + rtol * (Kd + 2) * sum |x w| with
 * rtol = 2^-23, as for gemm.  fp16 products are exact in fp32, so the tensor-core variant meets the
 * same bound against the reference computed from the same fp16 inputs. */
static int verify(const struct gl_variant *v, const struct gl_problem *pb, const struct gl_launch *l,
		  const struct gl_topic *t, struct gl_verify *out, struct gl_err *err)
{
	(void)v;
	(void)err;
	struct gl_conv_dims d = gl_conv_dims_of(pb);
	const float *y = l->buffers[0].host;
	const struct gl_buffer *x = &l->buffers[1], *w = &l->buffers[2];
	double kd = (double)(d.c * d.r * d.s);
	memset(out, 0, sizeof *out);
	out->ok = true;
	for (long n = 0; n < d.n; n++)
		for (long k = 0; k < d.k; k++)
			for (long p = 0; p < d.p; p++)
				for (long q = 0; q < d.q; q++) {
					double bound, want = reference_at(&d, x, w, n, k, p, q, &bound);
					long yi = d.nhwc ? ((n * d.p + p) * d.q + q) * d.k + k : ((n * d.k + k) * d.p + p) * d.q + q;
					float got = y[yi];
					double e = isnan(got) ? INFINITY : fabs((double)got - want);
					double rel = want != 0.0 ? e / fabs(want) : (e ? INFINITY : 0.0);
					out->max_abs_err = fmax(out->max_abs_err, e);
					if (isfinite(rel))
						out->max_rel_err = fmax(out->max_rel_err, rel);
					if (!(e <= t->atol + t->rtol * (kd + 2) * bound))
						note_mismatch(out, &d, n, k, p, q, got, want);
				}
	return GL_OK;
}

/* Two FLOPs per multiply-add of the convolution proper (N K P Q C R S of them, padding included, as
 * cuDNN and the roofline literature count). */
static double flops(const struct gl_variant *v, const struct gl_problem *pb)
{
	(void)v;
	struct gl_conv_dims d = gl_conv_dims_of(pb);
	return 2.0 * count_y(&d) * (double)(d.c * d.r * d.s);
}

#define M_FLOPS "gpulab__conv2d_flops.sum"
#define M_IM2COL_BYTES "gpulab__conv2d_im2col_buffer_bytes.sum"
static const char *const derived_names[] = {M_FLOPS, M_IM2COL_BYTES, NULL};

/* FLOPs executed, tensor cores included (FFMA as two, FADD and FMUL as one, each mma.sync m16n8k16 as
 * 2 x 16 x 8 x 16 = 4096), and for im2col_gemm the size of the im2col matrix it materialises in global
 * memory (N P Q x C R S floats; its launches' own rows show what writing and reading it cost). */
static void derive(const struct gl_variant *v, const struct gl_problem *pb, struct gl_metrics *m)
{
	struct gl_flops f; /* the one derivation every printer uses (common/derived.h) */
	gl_flops_of(m, &f);
	gl_metrics_set(m, M_FLOPS, f.total, "flop");
	if (v - variants == V_IM2COL_GEMM) {
		struct gl_conv_dims d = gl_conv_dims_of(pb);
		gl_metrics_set(m, M_IM2COL_BYTES, 4.0 * count_col(&d), "byte");
	}
}

const struct gl_topic gl_topic_conv2d = {
	.name = "conv2d",
	.summary = "forward 2-D convolution as a GEMM in disguise: direct, shared tiles, im2col + SGEMM, implicit "
		   "GEMM, implicit GEMM on tensor cores; nchw against nhwc",
	.ptx = gl_ptx_conv2d,
	.res_sm80 = gl_res_sm80_conv2d,
	.res_sm90 = gl_res_sm90_conv2d,
	.params = params,
	.nparams = P_COUNT,
	.variants = variants,
	.nvariants = V_COUNT,
	.atol = 1e-6,
	.rtol = FLT_EPSILON, /* 2^-23, times (Kd + 2) times the element's sum |x w|: see verify */
	.check = check,
	.accepts = accepts,
	.geometry = geometry,
	.setup = setup,
	.verify = verify,
	.flops = flops,
	.view_size = 16,
	.view = GL_VIEW_CONV,
	.derive = derive,
	.derived_names = derived_names,
};
