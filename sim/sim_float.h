/* sim_float.h — bit-exact float helpers: f32/f64 bit casts, f16 and bf16 conversions with the PTX
 * rounding modes, flush-to-zero and saturation. */
#ifndef GL_SIM_FLOAT_H
#define GL_SIM_FLOAT_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float sim_f32(uint64_t bits)
{
	uint32_t u = (uint32_t)bits;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static inline uint64_t sim_f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static inline double sim_f64(uint64_t bits)
{
	double d;
	memcpy(&d, &bits, sizeof d);
	return d;
}

static inline uint64_t sim_f64_bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

static inline float sim_ftz(float f)
{
	return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

static inline float sim_sat(float f)
{
	if (isnan(f))
		return 0.0f;
	return f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
}

/* IEEE rounding modes of the half-precision conversions. */
enum { SIM_RN, SIM_RZ, SIM_RM, SIM_RP };

/* A double (f32 and f64 values convert exactly) rounded once to f16 / bf16 in `mode`: overflow gives
 * infinity or the largest finite value as the mode says, NaN gives the canonical 0x7fff. */
uint16_t sim_round_f16(double v, int mode);
uint16_t sim_round_bf16(double v, int mode);
float sim_f16_to_f32(uint16_t h);
static inline float sim_bf16_to_f32(uint16_t h)
{
	return sim_f32((uint64_t)h << 16);
}

#endif
