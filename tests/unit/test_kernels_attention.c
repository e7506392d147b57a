/* test_kernels_attention.c — the attention harness on the CPU: the launches each variant describes (naive:
 * three over shared buffers), flash2_mma's inputs are the fp16 rounding of the fp32 variants' inputs, the
 * verification accepts a correct output computed here in plain C (causal, cross attention) and rejects
 * one off by more than the stated tolerance, and the refusals. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/half.h"
#include "kernels/registry.h"

static void problem(const struct gl_topic *t, struct gl_problem *p, long seq, long seq_k, long dim, long causal)
{
	gl_problem_defaults(t, p);
	p->v[gl_param_index(t, "seq")] = seq;
	p->v[gl_param_index(t, "seq-k")] = seq_k;
	p->v[gl_param_index(t, "dim")] = dim;
	p->v[gl_param_index(t, "causal")] = causal;
}

static int find(const struct gl_launch *l, const char *name)
{
	for (int i = 0; i < l->nbuffers; i++)
		if (strcmp(l->buffers[i].name, name) == 0)
			return i;
	return -1;
}

/* O in float from the launch's Q, K, V as a correct kernel would compute it (natural exp, float sums). */
static void attention_cpu(struct gl_launch *l, long nq, long nk, long d, int causal)
{
	int qi = find(l, "Q"), ki = find(l, "K"), vi = find(l, "V");
	float *o = l->buffers[find(l, "O")].host;
	const float *q = l->buffers[qi].host, *k = l->buffers[ki].host, *v = l->buffers[vi].host;
	float *s = malloc((size_t)nk * sizeof *s);
	for (long i = 0; i < nq; i++) {
		long kend = causal && i + 1 < nk ? i + 1 : nk;
		float m = -INFINITY, sum = 0;
		for (long j = 0; j < kend; j++) {
			float acc = 0;
			for (long c = 0; c < d; c++)
				acc += q[i * d + c] * k[j * d + c];
			s[j] = acc / sqrtf((float)d);
			m = fmaxf(m, s[j]);
		}
		for (long j = 0; j < kend; j++)
			sum += s[j] = expf(s[j] - m);
		for (long c = 0; c < d; c++) {
			float acc = 0;
			for (long j = 0; j < kend; j++)
				acc += s[j] * v[j * d + c];
			o[i * d + c] = acc / sum;
		}
	}
	free(s);
}

static void test_launches(const struct gl_topic *t)
{
	struct gl_problem p;
	problem(t, &p, 100, 77, 64, 0);
	struct gl_err err = {0};
	struct gl_launch l = {0};
	CHECK_EQ(gl_topic_setup(t, gl_variant_find(t, "naive"), &p, &l, &err), GL_OK);
	CHECK_EQ(gl_launch_count(&l), 3);
	gl_launch_select(&l, 0);
	CHECK_STR(l.entry, "attention_naive_scores");
	CHECK(l.grid[0] == 3 && l.grid[1] == 13); /* 77 keys in 32s, 100 rows in 8s */
	gl_launch_select(&l, 1);
	CHECK_STR(l.entry, "attention_naive_softmax");
	CHECK_EQ(l.grid[0], 25); /* 4 rows per CTA */
	gl_launch_select(&l, 2);
	CHECK_STR(l.entry, "attention_naive_pv");
	CHECK_EQ(l.buffers[find(&l, "S")].count, 100 * 77);
	gl_launch_free(&l);
	problem(t, &p, 100, 0, 128, 1);
	memset(&l, 0, sizeof l);
	CHECK_EQ(gl_topic_setup(t, gl_variant_find(t, "flash2_mma"), &p, &l, &err), GL_OK);
	CHECK_EQ(gl_launch_count(&l), 1);
	CHECK_STR(l.entry, "attention_flash2_mma_d128");
	CHECK_EQ(l.grid[0], 2); /* 64-row Q blocks */
	CHECK_EQ(l.buffers[find(&l, "K")].count, 100 * 128); /* seq-k 0: as many keys as queries */
	gl_launch_free(&l);
}

/* flash2_mma reads the fp16 rounding of exactly the values the fp32 variants read. */
static void test_fp16_inputs(const struct gl_topic *t)
{
	struct gl_problem p;
	problem(t, &p, 33, 20, 32, 0);
	struct gl_err err = {0};
	struct gl_launch a = {0}, h = {0};
	CHECK_EQ(gl_topic_setup(t, gl_variant_find(t, "flash2"), &p, &a, &err), GL_OK);
	CHECK_EQ(gl_topic_setup(t, gl_variant_find(t, "flash2_mma"), &p, &h, &err), GL_OK);
	static const char *const names[] = {"Q", "K", "V"};
	for (int b = 0; b < 3; b++) {
		const struct gl_buffer *fa = &a.buffers[find(&a, names[b])], *fh = &h.buffers[find(&h, names[b])];
		CHECK(fa->dtype == GL_F32 && fh->dtype == GL_F16 && fa->count == fh->count);
		size_t bad = 0;
		for (size_t i = 0; i < fa->count; i++)
			bad += ((const uint16_t *)fh->host)[i] != gl_f32_to_f16(((const float *)fa->host)[i]);
		CHECK_EQ(bad, 0);
	}
	gl_launch_free(&a);
	gl_launch_free(&h);
}

static void test_verify(const struct gl_topic *t, long nq, long nk, int causal)
{
	struct gl_problem p;
	problem(t, &p, nq, nk, 32, causal);
	struct gl_err err = {0};
	struct gl_launch l = {0};
	const struct gl_variant *v = gl_variant_find(t, "flash2");
	CHECK_EQ(gl_topic_setup(t, v, &p, &l, &err), GL_OK);
	attention_cpu(&l, nq, nk ? nk : nq, 32, causal);
	struct gl_verify out;
	CHECK_EQ(t->verify(v, &p, &l, t, &out, &err), GL_OK);
	CHECK(out.ok);
	CHECK(out.max_abs_err < 1e-5);
	float *o = l.buffers[find(&l, "O")].host;
	o[nq * 32 - 1] += 1e-3f; /* far beyond 2e-5 + 1e-4 |ref| */
	CHECK_EQ(t->verify(v, &p, &l, t, &out, &err), GL_OK);
	CHECK(!out.ok);
	CHECK_EQ(out.mismatches, 1);
	gl_launch_free(&l);
}

static void test_refusals(const struct gl_topic *t)
{
	struct gl_problem p;
	struct gl_err err = {0};
	problem(t, &p, 64, 0, 48, 0);
	CHECK_EQ(t->check(&p, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "32, 64 or 128") != NULL);
	problem(t, &p, 4, 20000, 64, 0);
	struct gl_err err2 = {0};
	struct gl_launch l = {0};
	CHECK_EQ(gl_topic_setup(t, gl_variant_find(t, "fused_row"), &p, &l, &err2), GL_EUSAGE);
	gl_launch_free(&l);
}

int main(void)
{
	const struct gl_topic *t = gl_topic_find("attention");
	CHECK(t != NULL);
	if (t) {
		test_launches(t);
		test_fp16_inputs(t);
		test_verify(t, 37, 0, 0);
		test_verify(t, 37, 51, 1);
		test_refusals(t);
	}
	CHECK_DONE();
}
