/* test_common_outputs.c — changed-byte segments (common/outputs.h): a diff lists exactly the changed
 * runs, applying it rebuilds the buffer, disjoint shards join, overlapping different writes refuse to. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/outputs.h"

static void test_diff_apply(void)
{
	uint8_t before[64] = {0}, after[64] = {0}, rebuilt[64] = {0};
	memset(after + 8, 7, 4);   /* one run of 4 */
	after[40] = 9;             /* one of 1 */
	after[63] = 1;             /* at the end */
	uint8_t *segs;
	size_t len;
	gl_outputs_diff(before, after, sizeof before, &segs, &len);
	CHECK_EQ(len, 3 * 12 + 4 + 1 + 1);
	CHECK_EQ(gl_outputs_apply(rebuilt, sizeof rebuilt, segs, len), 0);
	CHECK(memcmp(rebuilt, after, sizeof after) == 0);
	CHECK_EQ(gl_outputs_apply(rebuilt, 40, segs, len), -1); /* a segment past the buffer */
	CHECK_EQ(gl_outputs_apply(rebuilt, sizeof rebuilt, segs, len - 1), -1); /* truncated */
	free(segs);
	gl_outputs_diff(before, before, sizeof before, &segs, &len);
	CHECK_EQ(len, 0);
	free(segs);
}

static void test_join(void)
{
	uint8_t init[32] = {0}, a[32] = {0}, b[32] = {0}, c[32] = {0}, whole[32] = {0}, out[32] = {0};
	memset(a, 1, 16), memset(whole, 1, 16);
	memset(b + 16, 2, 16), memset(whole + 16, 2, 16);
	memset(c + 8, 3, 16); /* overlaps both with other values */
	uint8_t *sa, *sb, *sc, *j;
	size_t la, lb, lc, lj;
	gl_outputs_diff(init, a, 32, &sa, &la);
	gl_outputs_diff(init, b, 32, &sb, &lb);
	gl_outputs_diff(init, c, 32, &sc, &lc);
	const uint8_t *two[] = {sa, sb};
	size_t lens[] = {la, lb};
	CHECK_EQ(gl_outputs_join(32, two, lens, 2, &j, &lj), 0);
	CHECK_EQ(gl_outputs_apply(out, 32, j, lj), 0);
	CHECK(memcmp(out, whole, 32) == 0);
	free(j);
	const uint8_t *same[] = {sa, sa}; /* the same bytes written twice with the same values: fine */
	size_t lsame[] = {la, la};
	CHECK_EQ(gl_outputs_join(32, same, lsame, 2, &j, &lj), 0);
	free(j);
	const uint8_t *clash[] = {sa, sc};
	size_t lclash[] = {la, lc};
	CHECK_EQ(gl_outputs_join(32, clash, lclash, 2, &j, &lj), -1);
	CHECK(j == NULL && lj == 0);
	free(sa), free(sb), free(sc);
}

int main(void)
{
	test_diff_apply();
	test_join();
	CHECK_DONE();
}
