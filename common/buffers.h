/* buffers.h — a launch's buffer map: where each global buffer and shared array lies, its element type and
 * logical shape.  The simulator builds it (gl_sim_buffer_map), the store keeps it with the launch, and
 * the views read it to name addresses. */
#ifndef GL_BUFFERS_H
#define GL_BUFFERS_H

#include <stdint.h>

/* One global buffer or shared array of a launch: what a reader of its trace needs to name an address. */
struct gl_buffer_desc {
	char name[32];
	char dtype[8];     /* "f32", "i32", ...; "b32" when unknown */
	int shared;        /* 1: base is an offset in the CTA's shared space */
	uint64_t base;     /* first byte: the simulator's device address, or the shared offset */
	uint64_t bytes;
	unsigned elem;     /* bytes per element */
	long rows, cols;   /* logical row-major shape in elements; rows = 1 for a vector */
};

#endif
