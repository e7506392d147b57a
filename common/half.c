/* half.c — binary16 conversions by bit manipulation (no compiler _Float16 needed). */
#include <string.h>

#include "half.h"

static uint32_t bits_of(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static float float_of(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* Shift a mantissa right by `shift` bits, rounding to nearest even on the bits shifted out. */
static uint32_t shift_round_even(uint32_t mant, int shift)
{
	if (shift > 31)
		return 0;
	uint32_t kept = mant >> shift;
	uint32_t rest = mant & ((1u << shift) - 1);
	uint32_t half = 1u << (shift - 1);
	if (rest > half || (rest == half && (kept & 1)))
		kept++;
	return kept;
}

uint16_t gl_f32_to_f16(float f)
{
	uint32_t u = bits_of(f);
	uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
	int exp = (int)((u >> 23) & 0xff);
	uint32_t mant = u & 0x7fffff;
	if (exp == 0xff) /* infinity, or NaN kept quiet with its top payload bit */
		return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 | (mant >> 13) : 0));
	int e = exp - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (e <= 0) { /* subnormal (or zero) in binary16: the implicit 1 joins the mantissa */
		if (e < -10)
			return sign;
		uint32_t m = shift_round_even(mant | 0x800000, 14 - e);
		return (uint16_t)(sign | m); /* a carry into bit 10 is the smallest normal, correctly */
	}
	uint32_t m = shift_round_even(mant, 13);
	/* a carry out of the mantissa bumps the exponent, and past 30 becomes infinity, as it should */
	return (uint16_t)(sign | (((uint32_t)e << 10) + m));
}

float gl_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	int exp = (h >> 10) & 0x1f;
	uint32_t mant = h & 0x3ff;
	if (exp == 0x1f)
		return float_of(sign | 0x7f800000 | (mant << 13));
	if (exp == 0) { /* zero or subnormal: mant * 2^-24 */
		float v = (float)mant * (1.0f / 16777216.0f);
		return sign ? -v : v;
	}
	return float_of(sign | ((uint32_t)(exp - 15 + 127) << 23) | (mant << 13));
}

void gl_f32_to_f16_array(const float *in, uint16_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = gl_f32_to_f16(in[i]);
}
