/* sim_float.c — half-precision conversions (IEEE binary16 and bfloat16). */
#include "sim_float.h"

float sim_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
	if (exp == 0x1f)
		return sim_f32(sign | 0x7f800000u | (mant << 13));
	if (exp == 0) {
		float v = ldexpf((float)mant, -24);
		return sign ? -v : v;
	}
	return sim_f32(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t sim_f32_to_f16(float f, int toward_zero)
{
	uint32_t x = (uint32_t)sim_f32_bits(f);
	uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
	uint32_t ax = x & 0x7fffffffu;
	if (ax > 0x7f800000u)
		return (uint16_t)(sign | 0x7e00); /* NaN */
	if (ax >= 0x47800000u) {           /* >= 65536: overflow */
		if (ax == 0x7f800000u || !toward_zero)
			return (uint16_t)(sign | 0x7c00);
		return (uint16_t)(sign | 0x7bff);
	}
	float a = sim_f32(ax);
	/* scale so that the f16 unit in the last place becomes 1, round there, then rebuild */
	int e;
	frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
	int ulp_exp = (e - 1) - 10;
	if (ulp_exp < -24)
		ulp_exp = -24; /* subnormal range */
	float scaled = ldexpf(a, -ulp_exp);
	float r = toward_zero ? truncf(scaled) : rintf(scaled); /* rintf: ties to even under default mode */
	double v = ldexp((double)r, ulp_exp);
	if (v >= 65520.0 || (toward_zero && v > 65504.0))
		return (uint16_t)(sign | (toward_zero ? 0x7bff : 0x7c00));
	if (v < ldexp(1.0, -14)) /* subnormal */
		return (uint16_t)(sign | (uint16_t)ldexp(v, 24));
	int ve;
	double m = frexp(v, &ve); /* v = m * 2^ve, m in [0.5,1) */
	uint16_t exp = (uint16_t)(ve - 1 + 15);
	uint16_t mant = (uint16_t)((m * 2.0 - 1.0) * 1024.0);
	return (uint16_t)(sign | (exp << 10) | mant);
}

uint16_t sim_f32_to_bf16(float f, int toward_zero)
{
	uint32_t x = (uint32_t)sim_f32_bits(f);
	if ((x & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((x >> 16) | 0x40); /* quiet NaN */
	if (toward_zero)
		return (uint16_t)(x >> 16);
	uint32_t rounding = 0x7fffu + ((x >> 16) & 1);
	return (uint16_t)((x + rounding) >> 16);
}
