/* half.h — IEEE 754 binary16 conversions on the host, for fp16 inputs and the references that read them. */
#ifndef GL_HALF_H
#define GL_HALF_H

#include <stdint.h>

/* Round to nearest even; overflow to infinity, NaN stays NaN. */
uint16_t gl_half_from_float(float f);
/* Exact. */
float gl_half_to_float(uint16_t h);

#endif
