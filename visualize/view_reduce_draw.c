/* view_reduce_draw.c — the reduce view's picture: what the step is (a load of the input, a level of the
 * shared-memory tree, a shuffle round, the block's write to the grid), every warp of the CTA with the
 * lanes that take part (the idle ones wait), then the step's detail — the banks of a shared access, the
 * lane each lane reads in a shuffle and which of them still matter, the grid's writes — and the counts. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "view_states.h"

static const char *kind_title(int kind)
{
	switch (kind) {
	case VR_LOAD: return "global loads";
	case VR_SHARED: return "shared memory";
	case VR_SHFL: return "shuffles";
	default: return "writes and atomics";
	}
}

/* "lanes 0-15" / "lane 0" / "32 lanes" for a lane mask. */
static void lanes_text(uint32_t mask, char *buf, size_t n)
{
	int first = mask ? __builtin_ctz(mask) : 0, last = mask ? 31 - __builtin_clz(mask) : 0, count = __builtin_popcount(mask);
	if (count == 32)
		snprintf(buf, n, "all 32 lanes");
	else if (count == 1)
		snprintf(buf, n, "lane %d", first);
	else if (last - first + 1 == count)
		snprintf(buf, n, "lanes %d-%d", first, last);
	else
		snprintf(buf, n, "%d lanes", count);
}

static int draw_title(struct view_canvas *cv, int y, const struct view_reduce *v, const struct view_reduce_frame *f)
{
	const struct view_reduce_step *st = f->st;
	int ctas = 0, in_cta = 0, of_cta = 0;
	for (int s = 0; s < v->nsteps; s++) {
		ctas += s == 0 || v->steps[s].block != v->steps[s - 1].block;
		if (v->steps[s].block == st->block) {
			of_cta++;
			in_cta += s <= f->step;
		}
	}
	char where[48];
	if (st->interval)
		snprintf(where, sizeof where, "after barrier %d", st->interval);
	else
		snprintf(where, sizeof where, "before any barrier");
	view_canvas_printf(cv, y, 0, VS_TITLE, "CTA %u (of %d traced), %s, step %d of %d: %s", st->block, ctas, where,
			   in_cta, of_cta, kind_title(st->kind));
	char what[160];
	switch (st->kind) {
	case VR_LOAD:
		snprintf(what, sizeof what, "%d load%s of %s (%d a warp): %s", st->nev, view_s((uint64_t)st->nev), f->arrays,
			 st->nev / (v->nwarps - f->idle > 0 ? v->nwarps - f->idle : 1),
			 f->from_grid ? "a second stage reads what the blocks wrote" : "each thread gathers its share");
		break;
	case VR_SHARED:
		snprintf(what, sizeof what, "%d load%s and %d store%s (%s): partial results through shared memory",
			 f->loads, view_s((uint64_t)f->loads), f->stores, view_s((uint64_t)f->stores), f->arrays);
		break;
	case VR_SHFL:
		snprintf(what, sizeof what, "round %d of %d, %d shfl: each lane adds the value it reads from another lane",
			 f->round + 1, f->rounds, st->nev);
		break;
	default:
		snprintf(what, sizeof what, "%d store%s and %d atomic%s (%s): the block's result leaves it", f->stores,
			 view_s((uint64_t)f->stores), f->atomics, view_s((uint64_t)f->atomics), f->arrays);
		break;
	}
	view_canvas_text(cv, y + 1, 0, VS_PLAIN, what);
	return y + 3;
}

/* One row per warp of the CTA: '#' a lane that takes part, '.' one that does not; "idle" for a warp
 * without any. */
static int draw_warps(struct view_canvas *cv, int y, const struct view_reduce *v, const struct view_reduce_frame *f)
{
	view_canvas_text(cv, y, 0, VS_TITLE, "warp  lanes 0 .. 31");
	for (int w = 0; w < v->nwarps; w++) {
		uint32_t m = f->st->lanes[w];
		int row = y + 1 + w;
		view_canvas_printf(cv, row, 0, VS_DIM, "w%-4d", w);
		for (int l = 0; l < 32; l++)
			view_canvas_put(cv, row, 6 + l, m >> l & 1 ? '#' : '.', m >> l & 1 ? VS_NOW : VS_DIM);
		char lanes[32];
		lanes_text(m, lanes, sizeof lanes);
		view_canvas_printf(cv, row, 40, m ? VS_PLAIN : VS_WARN, "%s", m ? lanes : "idle");
	}
	int row = y + 1 + v->nwarps;
	if (f->idle)
		view_canvas_printf(cv, row, 0, VS_WARN, "%d of %d warp%s idle: waiting at the next barrier (or exited)",
				   f->idle, v->nwarps, view_s((uint64_t)v->nwarps));
	else
		view_canvas_printf(cv, row, 0, VS_GOOD, "every warp of the CTA takes part");
	return row + 2;
}

/* A shared access: the bank of each lane's word, and what the step's accesses cost. */
static int draw_banks(struct view_canvas *cv, int y, const struct view_reduce_frame *f)
{
	const struct gl_trace_event *e = f->e;
	int banks[32], style[32];
	for (int l = 0; l < 32; l++) {
		banks[l] = e->mask >> l & 1 ? (int)((e->addrs[l] / 4) % 32) : -1;
		style[l] = VS_PLAIN;
	}
	view_canvas_printf(cv, y, 0, VS_DIM, "warp %u's first access, %s.shared %u B (PTX line %u):", e->warp,
			   gl_trace_op_name(e->op), e->bytes, e->line);
	view_draw_lane_row(cv, y + 1, "bank", banks, style);
	const struct view_reduce_step *st = f->st;
	if (st->conflicts)
		view_canvas_printf(cv, y + 2, 0, VS_WARN, "this step: %" PRIu64 " wavefronts (ideal %" PRIu64 "): %" PRIu64
				   " bank conflict%s", st->wavefronts, st->ideal, st->conflicts, view_s(st->conflicts));
	else
		view_canvas_printf(cv, y + 2, 0, VS_GOOD, "this step: %" PRIu64 " wavefront%s (ideal %" PRIu64
				   "): no bank conflicts", st->wavefronts, view_s(st->wavefronts), st->ideal);
	return y + 4;
}

/* A shuffle round: the lane each lane reads ('.' its own value: the source is out of range) and the
 * lanes whose sum still reaches lane 0. */
static int draw_shuffle(struct view_canvas *cv, int y, const struct view_reduce_frame *f)
{
	const struct gl_trace_event *e = f->e;
	int lanes[32], from[32], style[32];
	int distance = -1;
	bool same = true;
	for (int l = 0; l < 32; l++) {
		bool on = e->mask >> l & 1, own = on && e->addrs[l] == (uint64_t)l;
		lanes[l] = on ? l : -1;
		from[l] = on && !own ? (int)e->addrs[l] : -1;
		style[l] = f->carry >> l & 1 ? VS_NOW : VS_DIM;
		if (from[l] >= 0) {
			int d = from[l] > l ? from[l] - l : l - from[l];
			same &= distance < 0 || d == distance;
			distance = d;
		}
	}
	view_canvas_printf(cv, y, 0, VS_DIM, "warp %u, PTX line %u: the lane each lane reads (lit: sums that reach "
			   "lane 0)", e->warp, e->line);
	view_draw_lane_row(cv, y + 1, "lane", lanes, style);
	view_draw_lane_row(cv, y + 2, "reads", from, style);
	int useful = __builtin_popcount(f->carry & e->mask);
	char pairs[96];
	if (same && distance > 0)
		snprintf(pairs, sizeof pairs, "pairs %d lane%s apart", distance, view_s((uint64_t)distance));
	else
		snprintf(pairs, sizeof pairs, "pairs of lanes");
	view_canvas_printf(cv, y + 3, 0, useful == 32 ? VS_GOOD : VS_WARN, "%s; %d of 32 lanes add a value that "
			   "reaches lane 0", pairs, useful);
	view_canvas_text(cv, y + 4, 0, useful == 32 ? VS_GOOD : VS_DIM,
			 useful == 32 ? "a butterfly: every lane ends with the total"
				      : "the other lanes add values nobody reads: the tree halves every round");
	return y + 6;
}

/* The step's global writes and atomics: who wrote what. */
static int draw_writes(struct view_canvas *cv, int y, const struct view_reduce *v, const struct view_reduce_frame *f)
{
	int row = y, shown = 0;
	for (uint32_t i = f->st->first; i < v->nev && shown < 4; i++) {
		const struct gl_trace_event *e = v->ev[i];
		if (v->step_of[i] != f->step)
			continue;
		char lanes[32];
		lanes_text(e->mask, lanes, sizeof lanes);
		view_canvas_printf(cv, row++, 0, VS_PLAIN, "warp %u %s: %s.global %s, %u B", e->warp, lanes,
				   gl_trace_op_name(e->op), e->buffer[0] ? e->buffer : "?", e->bytes);
		shown++;
	}
	if (f->st->nev > shown)
		view_canvas_printf(cv, row++, 0, VS_DIM, "... %d more", f->st->nev - shown);
	return row + 1;
}

/* The grid so far: each global buffer written, by which CTAs, through this step. */
static void draw_grid(struct view_canvas *cv, int y, const struct view_reduce *v, int step)
{
	view_canvas_text(cv, y, 0, VS_TITLE, "the grid so far (written by the traced CTAs):");
	char names[8][32];
	uint32_t by[8] = {0};
	int n = 0, row = y + 1;
	for (uint32_t i = 0; i < v->nev; i++) {
		const struct gl_trace_event *e = v->ev[i];
		int s = v->step_of[i];
		if (s < 0 || s > step || v->steps[s].kind != VR_WRITE || !e->buffer[0])
			continue;
		int k = 0;
		while (k < n && strcmp(names[k], e->buffer) != 0)
			k++;
		if (k == n && n < 8)
			snprintf(names[n++], sizeof names[0], "%s", e->buffer);
		if (k < n && e->block < 32)
			by[k] |= 1u << e->block;
	}
	for (int k = 0; k < n; k++) {
		int x = view_canvas_printf(cv, row, 2, VS_PLAIN, "%-10s by CTA", names[k]);
		for (int b = 0; b < 32; b++)
			if (by[k] >> b & 1)
				x = view_canvas_printf(cv, row, x + 1, VS_PLAIN, "%d", b);
		row++;
	}
	if (!n)
		view_canvas_text(cv, row, 2, VS_DIM, "nothing yet: the blocks are still reducing their own values");
}

void view_reduce_draw(const struct view_reduce *v, int step, struct view_canvas *cv)
{
	struct view_reduce_frame f;
	view_reduce_frame(v, step, &f);
	int y = view_draw_header(cv, v->tr, "reduce");
	y = draw_title(cv, y, v, &f);
	y = draw_warps(cv, y, v, &f);
	if (f.st->kind == VR_SHARED)
		y = draw_banks(cv, y, &f);
	else if (f.st->kind == VR_SHFL)
		y = draw_shuffle(cv, y, &f);
	else if (f.st->kind == VR_WRITE)
		y = draw_writes(cv, y, v, &f);
	view_canvas_printf(cv, y, 0, VS_PLAIN, "CTA %u so far: %" PRIu64 " global sector%s, %" PRIu64 " shared "
			   "wavefront%s (%" PRIu64 " conflict%s), %" PRIu64 " shfl", f.st->block, f.sectors_so_far,
			   view_s(f.sectors_so_far), f.wf_so_far, view_s(f.wf_so_far), f.conf_so_far, view_s(f.conf_so_far),
			   f.shuffles_so_far);
	draw_grid(cv, y + 1, v, step);
}
