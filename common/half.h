/* half.h — IEEE 754 binary16 on the host: the conversions a harness needs to hand fp16 inputs to a
 * kernel and to compute its CPU reference from the same rounded values. */
#ifndef GL_HALF_H
#define GL_HALF_H

#include <stddef.h>
#include <stdint.h>

/* Round to nearest even, as cvt.rn.f16.f32 does; overflow gives infinity, NaN stays NaN. */
uint16_t gl_f32_to_f16(float f);
/* Exact: every binary16 value is a float. */
float gl_f16_to_f32(uint16_t h);
/* Round n floats to binary16 in place of `out`. */
void gl_f32_to_f16_array(const float *in, uint16_t *out, size_t n);

#endif
