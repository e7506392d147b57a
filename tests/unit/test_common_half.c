/* test_common_half.c — binary16 conversions: every half survives half -> float -> half, known values
 * and rounding cases (ties to even, subnormals, overflow), and, where the compiler has _Float16, ten
 * million floats of every exponent against the compiler's own conversion. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "common/half.h"

static float float_of(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static void every_half_round_trips(void)
{
	int bad = 0;
	for (uint32_t h = 0; h < 0x10000; h++) {
		bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
		uint16_t back = gl_f32_to_f16(gl_f16_to_f32((uint16_t)h));
		if (nan ? (back & 0x7c00) != 0x7c00 || !(back & 0x3ff) : back != h)
			bad++;
	}
	CHECK_EQ(bad, 0);
}

static void known_values(void)
{
	CHECK_EQ(gl_f32_to_f16(1.0f), 0x3c00);
	CHECK_EQ(gl_f32_to_f16(-2.0f), 0xc000);
	CHECK_EQ(gl_f32_to_f16(65504.0f), 0x7bff);       /* the largest half */
	CHECK_EQ(gl_f32_to_f16(65520.0f), 0x7c00);       /* halfway past it rounds to infinity */
	CHECK_EQ(gl_f32_to_f16(65519.0f), 0x7bff);
	CHECK_EQ(gl_f32_to_f16(1.0f + 1.0f / 2048), 0x3c00); /* a tie: to even (down) */
	CHECK_EQ(gl_f32_to_f16(1.0f + 3.0f / 2048), 0x3c02); /* a tie: to even (up) */
	CHECK_EQ(gl_f32_to_f16(5.9604645e-8f), 0x0001);  /* the smallest subnormal, 2^-24 */
	CHECK_EQ(gl_f32_to_f16(2.9802322e-8f), 0x0000);  /* 2^-25: a tie, to even (zero) */
	CHECK_EQ(gl_f32_to_f16(4.0e-8f), 0x0001);        /* above the tie: up */
	CHECK_EQ(gl_f32_to_f16(6.1035156e-5f), 0x0400);  /* the smallest normal */
	CHECK_EQ(gl_f32_to_f16(-0.0f), 0x8000);
	CHECK_NEAR(gl_f16_to_f32(0x3555), 0.333251953125, 0);
	CHECK_NEAR(gl_f16_to_f32(0x0001), 5.9604644775390625e-8, 0);
	CHECK(gl_f16_to_f32(0x7c00) > 1e38f);
}

static void against_the_compiler(void)
{
#ifdef __FLT16_MAX__
	uint64_t x = 0x9E3779B97F4A7C15ull;
	int bad = 0;
	for (int i = 0; i < 10000000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* exponents around the half range (2^-30 .. 2^17) so subnormals, overflow and ties all occur */
		uint32_t u = (uint32_t)(x & 0x807fffff) | (uint32_t)(97 + (x >> 40) % 48) << 23;
		if ((x >> 60) == 0)
			u &= ~0x1fffu; /* exact halves and ties are common in real data */
		float f = float_of(u);
		_Float16 h = (_Float16)f;
		uint16_t want;
		memcpy(&want, &h, sizeof want);
		if (gl_f32_to_f16(f) != want && bad++ < 5)
			fprintf(stderr, "0x%08x: got 0x%04x, want 0x%04x\n", u, gl_f32_to_f16(f), want);
	}
	CHECK_EQ(bad, 0);
#endif
}

int main(void)
{
	every_half_round_trips();
	known_values();
	against_the_compiler();
	CHECK_DONE();
}
