/* sim_buffers.c — a launch's buffer map as the simulator lays it out: each global buffer at its device
 * address (gl_sim_buffer_address), each .shared variable of the entry at its offset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/ptx.h"
#include "sim/sim.h"

static struct gl_buffer_desc *add(struct gl_buffer_desc **map, int *n)
{
	*map = gl_xrealloc(*map, (size_t)(*n + 1) * sizeof **map);
	struct gl_buffer_desc *b = &(*map)[(*n)++];
	memset(b, 0, sizeof *b);
	return b;
}

void gl_sim_buffer_map(const struct ptx_function *fn, const struct gl_launch *l, struct gl_buffer_desc **map,
		       int *n)
{
	*map = NULL;
	*n = 0;
	for (int i = 0; i < l->nbuffers; i++) {
		const struct gl_buffer *g = &l->buffers[i];
		struct gl_buffer_desc *b = add(map, n);
		snprintf(b->name, sizeof b->name, "%s", g->name);
		snprintf(b->dtype, sizeof b->dtype, "%s", gl_dtype_name(g->dtype));
		b->base = gl_sim_buffer_address(l, i);
		b->elem = (unsigned)gl_dtype_size(g->dtype);
		b->bytes = (uint64_t)g->count * b->elem;
		b->rows = 1;
		b->cols = (long)g->count;
	}
	for (int i = 0; fn && i < fn->nvars; i++) {
		const struct ptx_var *v = &fn->vars[i];
		uint64_t size = v->is_extern ? l->dyn_smem : v->size;
		if (v->space != PS_SHARED || !size)
			continue;
		struct gl_buffer_desc *b = add(map, n);
		gl_sim_plain_name(v->name, b->name, sizeof b->name);
		snprintf(b->dtype, sizeof b->dtype, "b32"); /* PTX declares shared arrays as bytes or words */
		b->shared = 1;
		b->base = v->offset;
		b->bytes = size;
		b->elem = 4;
		b->rows = 1;
		b->cols = (long)(size / 4);
	}
}
