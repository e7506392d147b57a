/* view_trace.h — a stored trace as the views use it: the events of one launch, the launch's problem
 * (topic parameters), and the buffers and shared arrays the addresses fall in (base, element size,
 * row-major shape), so that an address maps to "A[12][40]" or "tile +1152".  Loading goes through the
 * results store; the mapping and cost functions are pure. */
#ifndef GL_VIEW_TRACE_H
#define GL_VIEW_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/buffers.h"
#include "common/err.h"
#include "common/trace.h"
#include "kernels/registry.h"

struct gl_store;

#define VIEW_MAX_BUFFERS 24

struct view_buffer {
	char name[32];
	bool shared;   /* a shared array (offsets in the CTA's shared space) */
	uint64_t base; /* first byte */
	uint64_t bytes;
	unsigned elem;   /* bytes per element */
	long rows, cols; /* row-major shape in elements; rows = 1 for a vector */
};

struct view_trace {
	long launch_id, run_id;
	char topic[32], variant[32];
	char params_json[256];
	const struct gl_topic *t;  /* NULL when this binary does not know the topic */
	struct gl_problem problem; /* parsed from params_json */
	unsigned grid[3], block[3], dyn_smem;
	struct gl_trace_event *ev; /* owned: the memory accesses, in recorded order */
	uint32_t n;
	struct gl_trace_event *sync; /* owned: the shuffles and barrier arrivals between them (gl_trace_is_memory
				      * false), in recorded order; only the reduce view reads them */
	uint32_t nsync;
	struct view_buffer bufs[VIEW_MAX_BUFFERS];
	int nbufs;
	char origin[128]; /* "stored trace, run 3" or "recorded now (run 5)" */
};

void view_trace_free(struct view_trace *tr);

/* Where an address lies: its buffer, byte offset, element index, and (row, col) in the buffer's shape.
 * Returns false (loc->buf NULL) when no buffer holds it. */
struct view_loc {
	const struct view_buffer *buf;
	uint64_t offset;
	long elem, row, col;
};
bool view_locate(const struct view_trace *tr, const struct gl_trace_event *e, uint64_t addr, struct view_loc *loc);
const struct view_buffer *view_buffer_find(const struct view_trace *tr, const char *name, bool shared);
/* "A[3][17]", "in[40]", "tile +1152", or the raw address in hex. */
void view_loc_format(const struct view_loc *loc, uint64_t addr, char *buf, size_t n);

/* For launches stored without a buffer map (before schema 3): fill tr->bufs with global buffers where the simulator placed them for this launch (the harness's setup
 * and gl_sim_buffer_address), shared arrays from the entry's .shared variables, named after the events
 * that touch them.  Falls back to the extent of the traced addresses when the topic is unknown. */
int view_buffers_build(struct view_trace *tr, struct gl_err *err);
/* Fill tr->bufs from a stored buffer map, as it is (the shapes were the topic's when it was recorded). */
void view_buffers_from_map(struct view_trace *tr, const struct gl_buffer_desc *map, int n);

/* Load launch `launch_id` with its trace, problem, costs and buffers (the store's
 * gl_store_find_traced_launch finds the latest traced launch of a variant). */
int view_load(struct gl_store *s, long launch_id, struct view_trace *tr, struct gl_err *err);
/* The same from a launch just computed and not stored yet (so a view can be checked before anything is
 * written); the events are copied.  launch_id and run_id stay 0 until the caller stores it. */
struct gl_launch_record;
int view_from_record(const struct gl_launch_record *rec, struct view_trace *tr, struct gl_err *err);

#endif
