/* test_kernels_verify.c — the gemm and reduce harnesses on the CPU: their verification accepts a correct
 * output (computed here in plain C), rejects one that is off by a little more than rounding, and the
 * float4 gemm variants refuse sizes that are not multiples of 4. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernels/registry.h"

static const struct gl_topic *topic(const char *name)
{
	const struct gl_topic *t = gl_topic_find(name);
	if (!t) {
		fprintf(stderr, "topic %s is not registered\n", name);
		exit(1);
	}
	return t;
}

static void problem(const struct gl_topic *t, struct gl_problem *p, const char *const *names, const long *values,
		    int n)
{
	gl_problem_defaults(t, p);
	for (int i = 0; i < n; i++)
		p->v[gl_param_index(t, names[i])] = values[i];
}

/* C = 1.0 * A * B + 0.5 * C in double, as a correct kernel would (within rounding). */
static void gemm_cpu(struct gl_launch *l, long m, long n, long k)
{
	float *c = l->buffers[0].host;
	const float *a = l->buffers[1].host, *b = l->buffers[2].host;
	for (long i = 0; i < m; i++)
		for (long j = 0; j < n; j++) {
			double acc = 0.0;
			for (long p = 0; p < k; p++)
				acc += (double)a[i * k + p] * b[p * n + j];
			c[i * n + j] = (float)(acc + 0.5 * c[i * n + j]);
		}
}

static void test_gemm(void)
{
	const struct gl_topic *t = topic("gemm");
	static const char *const names[] = {"m", "n", "k"};
	struct gl_problem p;
	problem(t, &p, names, (const long[]){37, 29, 53}, 3);
	struct gl_err err = {0};
	CHECK_EQ(t->check(&p, &err), GL_OK);
	struct gl_launch l = {0};
	const struct gl_variant *naive = gl_variant_find(t, "naive");
	CHECK_EQ(gl_topic_setup(t, naive, &p, &l, &err), GL_OK);
	CHECK_STR(l.buffers[0].name, "C");
	CHECK_EQ(l.grid[0], 2); /* naive: blockIdx.x walks the 37 rows in 32s */
	CHECK_EQ(l.grid[1], 1);
	gemm_cpu(&l, 37, 29, 53);
	struct gl_verify v;
	t->verify(naive, &p, &l, t, &v, &err);
	CHECK(v.ok);
	CHECK_EQ(v.mismatches, 0);
	float *c = l.buffers[0].host;
	c[5 * 29 + 7] += 1e-3f; /* far above the rounding bound of a 53-term dot product */
	t->verify(naive, &p, &l, t, &v, &err);
	CHECK(!v.ok);
	CHECK_EQ(v.mismatches, 1);
	CHECK(strstr(v.first_mismatch, "C[5][7]") != NULL);
	gl_launch_free(&l);

	/* float4 variants: n = 29 is refused, naming the multiple */
	struct gl_launch l2 = {0};
	CHECK_EQ(gl_topic_setup(t, gl_variant_find(t, "vectorized"), &p, &l2, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "multiples of 4") && strstr(err.msg, "n=29"));
	gl_launch_free(&l2);
}

static uint64_t argmax_key(float v, uint32_t i)
{
	uint32_t b;
	memcpy(&b, &v, sizeof b);
	uint32_t ordered = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
	return ((uint64_t)ordered << 32) | (0xffffffffu - i);
}

static void test_reduce(void)
{
	const struct gl_topic *t = topic("reduce");
	static const char *const names[] = {"n"};
	struct gl_problem p;
	problem(t, &p, names, (const long[]){10007}, 1);
	struct gl_err err = {0};
	struct gl_launch l = {0};
	const struct gl_variant *two = gl_variant_find(t, "two_stage");
	CHECK_EQ(gl_topic_setup(t, two, &p, &l, &err), GL_OK);
	CHECK_EQ(l.nbuffers, 6); /* sum, best, x, partials, keys, ticket */
	CHECK_EQ(l.grid[0], 5);  /* 10007 / (256 * 8), rounded up */
	const float *x = l.buffers[2].host;
	double sum = 0.0;
	uint32_t arg = 0;
	for (uint32_t i = 0; i < 10007; i++) {
		sum += x[i];
		arg = x[i] > x[arg] ? i : arg;
	}
	*(float *)l.buffers[0].host = (float)sum;
	*(uint64_t *)l.buffers[1].host = argmax_key(x[arg], arg);
	struct gl_verify v;
	t->verify(two, &p, &l, t, &v, &err);
	CHECK(v.ok);
	*(float *)l.buffers[0].host = (float)(sum + 0.5); /* half an average element: a lost element or worse */
	t->verify(two, &p, &l, t, &v, &err);
	CHECK(!v.ok);
	CHECK(strstr(v.first_mismatch, "sum:") != NULL);
	*(float *)l.buffers[0].host = (float)sum;
	*(uint64_t *)l.buffers[1].host = argmax_key(x[arg], arg + 1);
	t->verify(two, &p, &l, t, &v, &err);
	CHECK(!v.ok);
	CHECK(strstr(v.first_mismatch, "argmax") != NULL);
	gl_launch_free(&l);
}

int main(void)
{
	test_gemm();
	test_reduce();
	CHECK_DONE();
}
