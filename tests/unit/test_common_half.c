/* test_common_half.c — binary16 conversions against hand-computed encodings: exact values, ties to even,
 * subnormals, overflow, and a round trip of every finite half. */
#include <math.h>

#include "common/half.h"
#include "tests/unit/check.h"

int main(void)
{
	CHECK_EQ(gl_half_from_float(1.0f), 0x3c00);
	CHECK_EQ(gl_half_from_float(-2.0f), 0xc000);
	CHECK_EQ(gl_half_from_float(65504.0f), 0x7bff);
	CHECK_EQ(gl_half_from_float(65520.0f), 0x7c00); /* the tie above the largest half rounds to infinity */
	CHECK_EQ(gl_half_from_float(1.0f + 1.0f / 2048), 0x3c00); /* tie: to even (down) */
	CHECK_EQ(gl_half_from_float(1.0f + 3.0f / 2048), 0x3c02); /* tie: to even (up) */
	CHECK_EQ(gl_half_from_float(0.1f), 0x2e66);
	CHECK_EQ(gl_half_from_float(ldexpf(1.0f, -24)), 0x0001); /* the smallest subnormal */
	CHECK_EQ(gl_half_from_float(ldexpf(1.0f, -26)), 0x0000);
	CHECK_EQ(gl_half_from_float(ldexpf(3.0f, -25)), 0x0002); /* 1.5 x 2^-24: tie to even */
	CHECK_NEAR(gl_half_to_float(0x2e66), 0.0999755859375, 0);
	CHECK(isinf(gl_half_to_float(0xfc00)) && gl_half_to_float(0xfc00) < 0);
	CHECK(isnan(gl_half_to_float(gl_half_from_float(NAN))));
	int bad = 0;
	for (uint32_t h = 0; h < 0x10000u; h++)
		if (((h >> 10) & 0x1f) != 31 && gl_half_from_float(gl_half_to_float((uint16_t)h)) != h)
			bad++;
	CHECK_EQ(bad, 0);
	CHECK_DONE();
}
