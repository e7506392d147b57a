/* sim_float.c — half-precision conversions (IEEE binary16 and bfloat16) from any double, in the four
 * IEEE rounding modes, rounded once (no double rounding through f32). */
#include "sim_float.h"

#include <stdbool.h>

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

/* A 16-bit float format: significant bits (with the hidden one), the exponent of the smallest
 * subnormal's unit, the largest finite value and its encoding. */
struct half_format {
	int digits, min_ulp_exp;
	double max;
	uint16_t max_bits;
};

static const struct half_format F16 = {11, -24, 65504.0, 0x7bff};
static const struct half_format BF16 = {8, -133, 0x1.fep127, 0x7f7f};

/* Round |v| (finite, non-zero) to the format's grid in `mode` (for the magnitude: SIM_RM and SIM_RP
 * already swapped for negative values by the caller). */
static double round_magnitude(double av, const struct half_format *f, int mode)
{
	int e;
	frexp(av, &e); /* av in [2^(e-1), 2^e) */
	int ulp_exp = e - f->digits;
	if (ulp_exp < f->min_ulp_exp)
		ulp_exp = f->min_ulp_exp;
	double scaled = ldexp(av, -ulp_exp); /* exact: a power-of-two scaling */
	double r;
	switch (mode) {
	case SIM_RZ: case SIM_RM: r = floor(scaled); break;
	case SIM_RP: r = ceil(scaled); break;
	default: /* nearest, ties to even */
		r = floor(scaled);
		if (scaled - r > 0.5 || (scaled - r == 0.5 && fmod(r, 2.0) != 0.0))
			r += 1.0;
		break;
	}
	return ldexp(r, ulp_exp);
}

/* The rounded magnitude -> bits, with overflow per mode. */
static uint16_t encode(double r, const struct half_format *f, int mode, bool is_bf16)
{
	if (r > f->max)
		return (mode == SIM_RZ || mode == SIM_RM) ? f->max_bits : (uint16_t)(f->max_bits + 1);
	if (is_bf16)
		return (uint16_t)(sim_f32_bits((float)r) >> 16); /* exact in f32 */
	if (r < 0x1p-14) /* subnormal */
		return (uint16_t)ldexp(r, 24);
	int e;
	double m = frexp(r, &e); /* r = m * 2^e, m in [0.5, 1) */
	return (uint16_t)((e + 14) << 10 | (uint16_t)((m * 2.0 - 1.0) * 1024.0));
}

static uint16_t round_half(double v, int mode, const struct half_format *f, bool is_bf16)
{
	if (isnan(v))
		return 0x7fff; /* the canonical NaN the GPU produces */
	uint16_t sign = signbit(v) ? 0x8000 : 0;
	double av = fabs(v);
	if (sign && (mode == SIM_RM || mode == SIM_RP))
		mode = mode == SIM_RM ? SIM_RP : SIM_RM; /* rounding |v| up is rounding v down */
	if (isinf(av))
		return sign | (uint16_t)(f->max_bits + 1);
	if (av == 0.0)
		return sign;
	return sign | encode(round_magnitude(av, f, mode), f, mode, is_bf16);
}

uint16_t sim_round_f16(double v, int mode)
{
	return round_half(v, mode, &F16, false);
}

uint16_t sim_round_bf16(double v, int mode)
{
	return round_half(v, mode, &BF16, true);
}
