/* half.c — binary16 <-> binary32 (IEEE 754-2008 §3.6: 1 sign, 5 exponent bits biased by 15, 10 fraction bits). */
#include "half.h"

#include <math.h>
#include <string.h>

static uint32_t bits_of(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

uint16_t gl_half_from_float(float f)
{
	uint32_t x = bits_of(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
	if (ax > 0x7f800000u) /* NaN: keep it quiet */
		return (uint16_t)(sign | 0x7e00u);
	if (ax >= 0x477ff000u) /* rounds to 65536 or more: infinity */
		return (uint16_t)(sign | 0x7c00u);
	if (ax < 0x38800000u) /* below 2^-14: a subnormal half, a multiple of 2^-24, rounded to nearest even */
		return (uint16_t)(sign | (uint32_t)nearbyintf(fabsf(f) * 16777216.0f));
	uint32_t h = (((ax >> 23) - 112) << 10) | ((ax >> 13) & 0x3ffu), rest = ax & 0x1fffu;
	if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
		h++; /* a carry into the exponent is the right rounding too */
	return (uint16_t)(sign | h);
}

float gl_half_to_float(uint16_t h)
{
	uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
	float v = exp == 0    ? ldexpf((float)mant, -24)
		  : exp == 31 ? (mant ? NAN : INFINITY)
			      : ldexpf((float)(mant | 0x400u), (int)exp - 25);
	return h & 0x8000u ? -v : v;
}
