/* trace.h — one warp-level event as the simulator records it and the store keeps it: which instruction
 * of which warp touched which addresses, how wide, and what it cost (sectors or wavefronts); and the
 * shuffles and barrier arrivals between those accesses.  Views and lessons replay these. */
#ifndef GL_TRACE_H
#define GL_TRACE_H

#include <stdbool.h>
#include <stdint.h>

enum gl_trace_op { GL_TRACE_LD, GL_TRACE_ST, GL_TRACE_ATOM, GL_TRACE_CP_ASYNC, GL_TRACE_LDMATRIX, GL_TRACE_SHFL,
		   GL_TRACE_BAR };
/* The memory spaces, then two events that move no memory but order and combine what lanes hold: a warp's
 * shuffle (space warp, op shfl: addrs[lane] is the lane it read, itself when its source was out of range)
 * and a warp's arrival at a CTA barrier (space cta, op bar: addrs[lane] is the barrier id). */
enum gl_trace_space { GL_TRACE_GLOBAL, GL_TRACE_SHARED, GL_TRACE_LOCAL, GL_TRACE_WARP, GL_TRACE_CTA };

struct gl_trace_event {
	uint32_t seq, block, warp, pc, line;
	uint8_t space;        /* enum gl_trace_space */
	uint8_t op;           /* enum gl_trace_op */
	uint8_t bytes;        /* per lane */
	bool strided;         /* every active lane is addr_base + lane * addr_stride */
	uint32_t mask;        /* active lanes */
	uint64_t addr_base;   /* address lane 0 would have (strided), else the first active lane's */
	int64_t addr_stride;
	uint64_t addrs[32];   /* every lane's address (valid for active lanes) */
	uint32_t cost;        /* global: sectors; shared: wavefronts */
	char buffer[32];      /* the buffer or shared array addressed, "" when unknown */
	uint64_t buffer_base; /* its first byte, so views can show offsets */
};

/* An access of a memory space (global, shared, local), not a shuffle or a barrier. */
static inline bool gl_trace_is_memory(const struct gl_trace_event *e)
{
	return e->space <= GL_TRACE_LOCAL;
}

const char *gl_trace_space_name(int space);
const char *gl_trace_op_name(int op);
int gl_trace_space_parse(const char *name);
int gl_trace_op_parse(const char *name);

#endif
