/* test_kernels_exercise_ref.c — the exercises' CPU references on hand-computed cases: each reads its
 * parameters in the kernel's order and writes only its outputs. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "kernels/exercise_ref.h"

static void run(const char *name, struct gl_exref_io *io)
{
	const struct gl_exref *r = gl_exref_find(name);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ((int)strlen(r->shape), io->n);
	r->fn(io);
}

static void test_transpose_and_copy(void)
{
	float in[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0};
	struct gl_exref_io io = {.n = 4, .ptr = {in, out}, .count = {6, 6}, .num = {0, 0, 2, 3}};
	run("transpose", &io); /* 2 x 3 -> 3 x 2 */
	const float want[6] = {1, 4, 2, 5, 3, 6};
	for (int i = 0; i < 6; i++)
		CHECK_NEAR(out[i], want[i], 0);
	float view[8] = {1, 2, 3, -1, 4, 5, 6, -1}, dense[6] = {0};
	struct gl_exref_io cv = {.n = 5, .ptr = {view, dense}, .count = {8, 6}, .num = {0, 0, 2, 3, 4}};
	run("copy_view", &cv);
	for (int i = 0; i < 6; i++)
		CHECK_NEAR(dense[i], i + 1, 0);
}

static void test_segments(void)
{
	float x[5] = {1, 2, 3, 4, 5}, sums[3] = {0}, scan[5] = {0}, total[1] = {0};
	struct gl_exref_io io = {.n = 3, .ptr = {x, sums}, .count = {5, 3}, .num = {0, 0, 5}, .block = {2, 1, 1}};
	run("block_sum", &io); /* segments of blockDim.x = 2: {1,2} {3,4} {5} */
	CHECK_NEAR(sums[0], 3, 0);
	CHECK_NEAR(sums[1], 7, 0);
	CHECK_NEAR(sums[2], 5, 0);
	io.ptr[1] = scan;
	io.count[1] = 5;
	run("scan_block", &io);
	const float want[5] = {1, 3, 3, 7, 5};
	for (int i = 0; i < 5; i++)
		CHECK_NEAR(scan[i], want[i], 0);
	io.ptr[1] = total;
	io.count[1] = 1;
	run("sum", &io);
	CHECK_NEAR(total[0], 15, 0);
}

static void test_histogram(void)
{
	uint32_t x[7] = {0, 3, 3, 1, 9, 3, 0}, h[4] = {0};
	struct gl_exref_io io = {.n = 4, .ptr = {x, h}, .count = {7, 4}, .num = {0, 0, 7, 4}};
	run("histogram", &io); /* 9 >= bins: not counted */
	CHECK_EQ(h[0], 2);
	CHECK_EQ(h[1], 1);
	CHECK_EQ(h[2], 0);
	CHECK_EQ(h[3], 3);
}

static void test_half_gemm(void)
{
	/* A (1 x 2) = [1, 2], Bt (2 x 2): columns of B [3, -2] and [1, 0.5]: C = [-1, 2] */
	uint16_t a[2] = {0x3c00, 0x4000}, bt[4] = {0x4200, 0xc000, 0x3c00, 0x3800};
	float c[2] = {0};
	struct gl_exref_io io = {.n = 6, .ptr = {a, bt, c}, .count = {2, 4, 2}, .num = {0, 0, 0, 1, 2, 2}};
	run("hgemm_nt", &io);
	CHECK_NEAR(c[0], -1, 0);
	CHECK_NEAR(c[1], 2, 0);
}

static void test_softmax_attention(void)
{
	float x[2] = {0, logf(3)}, y[2] = {0};
	struct gl_exref_io io = {.n = 4, .ptr = {x, y}, .count = {2, 2}, .num = {0, 0, 1, 2}};
	run("softmax_rows", &io);
	CHECK_NEAR(y[0], 0.25, 1e-7);
	CHECK_NEAR(y[1], 0.75, 1e-7);
	/* T = 2, width 32: row 0 sees only itself (o[0] = v[0]); row 1 weighs v[0] and v[1] by its scores */
	float q[64] = {0}, k[64] = {0}, v[64], o[64] = {0};
	for (int d = 0; d < 64; d++)
		v[d] = d < 32 ? 1.0f : 3.0f;
	q[32] = sqrtf(32.0f); /* q[1] . k[1] / sqrt(32) = ln 3 when k[1][0] = ln 3 */
	k[32] = logf(3);
	struct gl_exref_io at = {.n = 5, .ptr = {q, k, v, o}, .count = {64, 64, 64, 64}, .num = {0, 0, 0, 0, 2}};
	run("attention_causal", &at);
	CHECK_NEAR(o[5], 1.0, 1e-6);
	CHECK_NEAR(o[32 + 5], 0.25 * 1 + 0.75 * 3, 1e-6);
}

int main(void)
{
	CHECK(gl_exref_find("no-such") == NULL);
	for (size_t i = 0; gl_exref_at(i); i++)
		CHECK(gl_exref_at(i)->what && gl_exref_at(i)->shape[0]);
	test_transpose_and_copy();
	test_segments();
	test_histogram();
	test_half_gemm();
	test_softmax_attention();
	CHECK_DONE();
}
