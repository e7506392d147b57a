/* test_visualize_coalesce.c — the coalesce view's frames on a hand-built trace: which sectors and
 * 128-byte lines each step lights, the lanes in each word, the counts so far, and the drawn rows. */
#include "sim/memmodel.h"
#include "tests/unit/check.h"
#include "tests/unit/view_fixture.h"
#include "visualize/view_states.h"

#define BASE 0x7f0000000000ull

static void build(struct view_trace *tr)
{
	memset(tr, 0, sizeof *tr);
	snprintf(tr->topic, sizeof tr->topic, "transpose");
	snprintf(tr->variant, sizeof tr->variant, "naive");
	fx_buffer(tr, "in", false, BASE, 64, 64);
	fx_buffer(tr, "tile", true, 0, 32, 32);
	/* 0: a coalesced row of in: 32 floats, 1 line, 4 sectors */
	fx_strided(tr, 0, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xffffffffu, "in", BASE, 4);
	/* a shared access the coalesce view skips */
	fx_strided(tr, 0, 0, GL_TRACE_SHARED, GL_TRACE_ST, 4, 0xffffffffu, "tile", 0, 4);
	/* 1: a column of in (stride 256 B = one row): 32 lines, 32 sectors */
	fx_strided(tr, 0, 1, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xffffffffu, "in", BASE + 4, 256);
	/* 2: half a warp, misaligned by 4 bytes: lanes 0..15 at in[1][1..16], 3 sectors */
	fx_strided(tr, 1, 0, GL_TRACE_GLOBAL, GL_TRACE_ST, 4, 0x0000ffffu, "in", BASE + 256 + 4, 4);
	/* 3: float4s: 512 bytes, 4 lines, 16 sectors */
	fx_strided(tr, 1, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 16, 0xffffffffu, "in", BASE + 1024, 16);
	view_fill_costs(tr->ev, tr->n);
}

static void test_frames(void)
{
	struct view_trace tr;
	build(&tr);
	struct view_coalesce v;
	struct gl_err err = {0};
	CHECK_EQ(view_coalesce_build(&tr, -1, &v, &err), GL_OK);
	CHECK_EQ(v.n, 4);
	struct view_coalesce_frame f;

	view_coalesce_frame(&v, 0, &f);
	CHECK_EQ(f.e->seq, 0);
	CHECK_EQ(f.nsectors, 4);
	CHECK_EQ(f.nsectors, f.e->cost);
	CHECK_EQ(f.nlines, 1);
	CHECK_EQ(f.ideal, 4);
	CHECK_EQ(f.lines[0], BASE / 128);
	CHECK_EQ(f.lane_sector[0], 0);
	CHECK_EQ(f.lane_sector[7], 0);
	CHECK_EQ(f.lane_sector[8], 1);
	CHECK_EQ(f.lane_sector[31], 3);
	CHECK_EQ(f.lo.row, 0);
	CHECK_EQ(f.lo.col, 0);
	CHECK_EQ(f.hi.col, 31);
	int first;
	CHECK_EQ(view_coalesce_word_lanes(&f, f.lines[0], 9, &first), 1);
	CHECK_EQ(first, 9);

	view_coalesce_frame(&v, 1, &f);
	CHECK_EQ(f.e->seq, 2); /* the shared event is skipped */
	CHECK_EQ(f.nsectors, 32);
	CHECK_EQ(f.nlines, 32);
	CHECK_EQ(f.lane_line[5], 5);
	CHECK_EQ(f.lo.row, 0);
	CHECK_EQ(f.lo.col, 1);
	CHECK_EQ(f.hi.row, 31);
	CHECK_EQ(f.hi.col, 1);
	CHECK_EQ(f.req_so_far, 2);
	CHECK_EQ(f.sectors_so_far, 36);
	CHECK_EQ(f.ideal_so_far, 8);
	CHECK_EQ(view_coalesce_word_lanes(&f, f.lines[3], 1, &first), 1);
	CHECK_EQ(first, 3);
	CHECK_EQ(view_coalesce_word_lanes(&f, f.lines[3], 0, &first), 0);

	view_coalesce_frame(&v, 2, &f);
	CHECK_EQ(f.nsectors, 3); /* bytes 260..323: sectors 8, 9, 10 of the buffer */
	CHECK_EQ(f.nsectors, gl_mm_global_sectors(f.e->addrs, f.e->mask, 4));
	CHECK_EQ(f.ideal, 2);
	CHECK_EQ(f.lane_sector[16], -1);
	CHECK_EQ(f.sectors[0], (BASE + 256) / 32);

	view_coalesce_frame(&v, 3, &f);
	CHECK_EQ(f.nsectors, 16);
	CHECK_EQ(f.nlines, 4);
	CHECK_EQ(view_coalesce_word_lanes(&f, f.lines[0], 5, &first), 1);
	CHECK_EQ(first, 1); /* lane 1's float4 covers words 4..7 */
	CHECK_EQ(f.sectors_so_far, 4 + 32 + 3 + 16);

	view_coalesce_frame(&v, 99, &f); /* clamped */
	CHECK_EQ(f.step, 3);

	view_coalesce_free(&v);
	CHECK_EQ(view_coalesce_build(&tr, 1, &v, &err) == GL_OK && v.n == 2, 1); /* --block 1 */
	view_coalesce_free(&v);
	view_coalesce_build(&tr, -1, &v, &err);

	/* the drawn frame names the elements and shows the lanes in their words */
	struct view_canvas cv;
	view_canvas_init(&cv, 80, 23);
	view_coalesce_draw(&v, 1, &cv);
	char row[128];
	bool saw_range = false, saw_line3 = false, saw_count = false;
	for (int y = 0; y < cv.h; y++) {
		view_canvas_row(&cv, y, row, sizeof row);
		saw_range |= strstr(row, "in[0][1] .. in[31][1]") != NULL;
		saw_line3 |= strstr(row, " 3 in[3][0]") == row && strstr(row, "[.3......]") != NULL;
		saw_count |= strstr(row, "this request: 32 sectors in 32 lines (ideal 4)") != NULL;
	}
	CHECK(saw_range);
	CHECK(saw_line3);
	CHECK(saw_count);
	view_canvas_row(&cv, cv.h - 2, row, sizeof row);
	CHECK(strstr(row, "more lines") != NULL); /* 32 lines do not fit in 23 rows */
	view_canvas_free(&cv);
	view_coalesce_free(&v);
	view_trace_free(&tr);
}

static void test_empty(void)
{
	struct view_trace tr;
	memset(&tr, 0, sizeof tr);
	fx_buffer(&tr, "tile", true, 0, 32, 32);
	fx_strided(&tr, 0, 0, GL_TRACE_SHARED, GL_TRACE_ST, 4, 0xffffffffu, "tile", 0, 4);
	struct view_coalesce v;
	struct gl_err err = {0};
	CHECK_EQ(view_coalesce_build(&tr, -1, &v, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "no global-memory accesses") != NULL);
	view_trace_free(&tr);
}

int main(void)
{
	test_frames();
	test_empty();
	CHECK_DONE();
}
