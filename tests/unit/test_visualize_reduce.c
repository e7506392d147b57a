/* test_visualize_reduce.c — the reduce view's state on a hand-built trace of a two-warp CTA: barriers cut
 * it into intervals, each run of one kind of event is a step over the warps that made it (loads, a
 * shared level, each shuffle round, the atomic), idle warps and bank conflicts are its point, and the
 * lanes whose sums reach lane 0 are worked back from the later rounds. */
#include "check.h"
#include "view_fixture.h"
#include "visualize/view.h"
#include "visualize/view_states.h"

#define X0 0x7f0000100000ull

/* The view's trace keeps the shuffles and barriers apart from the memory accesses (view_load does). */
static void split(struct view_trace *tr)
{
	tr->sync = calloc(tr->n, sizeof *tr->sync);
	uint32_t n = 0;
	for (uint32_t i = 0; i < tr->n; i++) {
		if (gl_trace_is_memory(&tr->ev[i]))
			tr->ev[n++] = tr->ev[i];
		else
			tr->sync[tr->nsync++] = tr->ev[i];
	}
	tr->n = n;
}

static void shfl_down(struct view_trace *tr, uint32_t warp, int by)
{
	uint64_t from[32];
	for (int l = 0; l < 32; l++)
		from[l] = (uint64_t)(l + by < 32 ? l + by : l);
	fx_event(tr, 0, warp, GL_TRACE_WARP, GL_TRACE_SHFL, 4, 0xffffffffu, "", from);
}

static void bar(struct view_trace *tr, uint32_t warp)
{
	uint64_t id[32] = {0};
	fx_event(tr, 0, warp, GL_TRACE_CTA, GL_TRACE_BAR, 4, 0xffffffffu, "", id);
}

static void build_trace(struct view_trace *tr)
{
	memset(tr, 0, sizeof *tr);
	snprintf(tr->topic, sizeof tr->topic, "reduce");
	tr->block[0] = 64; /* two warps */
	fx_buffer(tr, "x", false, X0, 1, 64);
	fx_buffer(tr, "sum", false, X0 + 0x1000, 1, 1);
	fx_buffer(tr, "s", true, 0, 1, 64);
	for (uint32_t w = 0; w < 2; w++)
		fx_strided(tr, 0, w, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xffffffffu, "x", X0 + 128 * w, 4);
	for (uint32_t w = 0; w < 2; w++)
		fx_strided(tr, 0, w, GL_TRACE_SHARED, GL_TRACE_ST, 4, 0xffffffffu, "s", 128 * w, 4);
	bar(tr, 0);
	bar(tr, 1);
	/* interval 1: warp 0 alone reads s[2l] (two lanes per bank: a 2-way conflict) and writes back */
	fx_strided(tr, 0, 0, GL_TRACE_SHARED, GL_TRACE_LD, 4, 0xffffffffu, "s", 0, 8);
	fx_strided(tr, 0, 0, GL_TRACE_SHARED, GL_TRACE_ST, 4, 0xffffffffu, "s", 0, 4);
	bar(tr, 0);
	bar(tr, 1);
	/* interval 2: warp 0's butterfly of two rounds (the first round twice: a value of two halves) */
	shfl_down(tr, 0, 16);
	shfl_down(tr, 0, 16);
	shfl_down(tr, 0, 8);
	uint64_t sum[32] = {X0 + 0x1000};
	fx_event(tr, 0, 0, GL_TRACE_GLOBAL, GL_TRACE_ATOM, 4, 1u, "sum", sum);
	view_fill_costs(tr->ev, tr->n);
	split(tr);
}

static void steps_and_marks(void)
{
	struct view_trace tr;
	build_trace(&tr);
	struct view_reduce v;
	struct gl_err err = {0};
	CHECK_EQ(view_reduce_build(&tr, -1, &v, &err), GL_OK);
	CHECK_EQ(v.nwarps, 2);
	CHECK_EQ(v.nsteps, 6);
	static const int kinds[6] = {VR_LOAD, VR_SHARED, VR_SHARED, VR_SHFL, VR_SHFL, VR_WRITE};
	static const int intervals[6] = {0, 0, 1, 2, 2, 2};
	for (int s = 0; s < 6 && s < v.nsteps; s++) {
		CHECK_EQ(v.steps[s].kind, kinds[s]);
		CHECK_EQ(v.steps[s].interval, intervals[s]);
	}
	CHECK_EQ(v.steps[0].nev, 2);
	CHECK_EQ(v.steps[1].lanes[1], 0xffffffffu);
	CHECK_EQ(v.steps[2].lanes[1], 0u); /* warp 1 waits at the barrier */
	CHECK_EQ(v.steps[2].conflicts, 1);
	CHECK_EQ(v.steps[3].nev, 2); /* one round: both halves of the value */
	CHECK_EQ(view_reduce_idle_warps(&v, 2), 1);
	/* the point: idle warps or conflicts; a new group: another barrier interval */
	CHECK_EQ(view_reduce_ops.marks(&v, 0), VIEW_MARK_NEW_WARP);
	CHECK_EQ(view_reduce_ops.marks(&v, 1), 0);
	CHECK_EQ(view_reduce_ops.marks(&v, 2), VIEW_MARK_POINT | VIEW_MARK_NEW_WARP);
	CHECK_EQ(view_reduce_ops.marks(&v, 4), VIEW_MARK_POINT);
	CHECK_EQ(view_first_point(&view_reduce_ops, &v), 2);
	view_reduce_free(&v);
	view_trace_free(&tr);
}

static void frames(void)
{
	struct view_trace tr;
	build_trace(&tr);
	struct view_reduce v;
	struct gl_err err = {0};
	CHECK_EQ(view_reduce_build(&tr, -1, &v, &err), GL_OK);
	struct view_reduce_frame f;
	view_reduce_frame(&v, 3, &f);
	CHECK_EQ(f.round, 0);
	CHECK_EQ(f.rounds, 2);
	/* after round 1 (by 16), lane 0 and lane 8 (which round 2 adds into lane 0) still matter */
	CHECK_EQ(f.carry, 0x101u);
	view_reduce_frame(&v, 4, &f);
	CHECK_EQ(f.carry, 0x1u);
	CHECK_EQ(f.shuffles_so_far, 3);
	view_reduce_frame(&v, 2, &f);
	CHECK_EQ(f.loads, 1);
	CHECK_EQ(f.stores, 1);
	CHECK_STR(f.arrays, "s");
	CHECK_EQ(f.conf_so_far, 1);
	view_reduce_frame(&v, 5, &f);
	CHECK_EQ(f.atomics, 1);
	CHECK_STR(f.arrays, "sum");
	/* the drawing names what it shows */
	struct view_canvas cv;
	view_canvas_init_wide(&cv, VIEW_MIN_W, VIEW_TALL, VIEW_WIDE);
	view_reduce_draw(&v, 3, &cv);
	char line[VIEW_WIDE + 1];
	bool pairs = false;
	for (int y = 0; y < cv.h; y++) {
		view_canvas_row(&cv, y, line, sizeof line);
		pairs |= strstr(line, "pairs 16 lanes apart; 2 of 32 lanes add a value that reaches lane 0") != NULL;
	}
	CHECK(pairs);
	view_canvas_free(&cv);
	view_reduce_free(&v);
	view_trace_free(&tr);
}

static void refusals(void)
{
	struct view_trace tr;
	memset(&tr, 0, sizeof tr);
	snprintf(tr.topic, sizeof tr.topic, "reduce");
	tr.block[0] = 2048;
	struct view_reduce v;
	struct gl_err err = {0};
	CHECK_EQ(view_reduce_build(&tr, -1, &v, &err), GL_EUSAGE); /* 64 warps */
	tr.block[0] = 64;
	err = (struct gl_err){0};
	CHECK_EQ(view_reduce_build(&tr, -1, &v, &err), GL_EUSAGE); /* no events */
	CHECK(strstr(err.msg, "has no events") != NULL);
}

int main(void)
{
	steps_and_marks();
	frames();
	refusals();
	CHECK_DONE();
}
