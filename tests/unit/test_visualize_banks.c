/* test_visualize_banks.c — the banks view's frames on hand-built shared accesses: each word in its
 * bank on the wavefront the memory model assigns, conflicts, broadcasts, 64-bit phases, ldmatrix,
 * the counts so far, and the drawn grid. */
#include "sim/memmodel.h"
#include "tests/unit/check.h"
#include "tests/unit/view_fixture.h"
#include "visualize/view_states.h"

static void build(struct view_trace *tr)
{
	memset(tr, 0, sizeof *tr);
	snprintf(tr->topic, sizeof tr->topic, "transpose");
	snprintf(tr->variant, sizeof tr->variant, "coalesced");
	fx_buffer(tr, "in", false, 0x7f0000000000ull, 64, 64);
	fx_buffer(tr, "tile", true, 0, 32, 32);
	fx_buffer(tr, "pad", true, 4096, 32, 33);
	/* 0: a row of tile: conflict-free */
	fx_strided(tr, 0, 0, GL_TRACE_SHARED, GL_TRACE_ST, 4, 0xffffffffu, "tile", 0, 4);
	/* skipped: global */
	fx_strided(tr, 0, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xffffffffu, "in", 0x7f0000000000ull, 4);
	/* 1: column 2 of tile[32][32]: all lanes in bank 2, 32 wavefronts */
	fx_strided(tr, 0, 1, GL_TRACE_SHARED, GL_TRACE_LD, 4, 0xffffffffu, "tile", 8, 128);
	/* 2: column 0 of pad[32][33]: conflict-free */
	fx_strided(tr, 0, 1, GL_TRACE_SHARED, GL_TRACE_LD, 4, 0xffffffffu, "pad", 4096, 132);
	/* 3: broadcast: every lane reads tile word 5 */
	fx_strided(tr, 1, 0, GL_TRACE_SHARED, GL_TRACE_LD, 4, 0xffffffffu, "tile", 20, 0);
	/* 4: 64-bit consecutive: two half-warp phases, 2 wavefronts, ideal 2 */
	fx_strided(tr, 1, 0, GL_TRACE_SHARED, GL_TRACE_LD, 8, 0xffffffffu, "tile", 0, 8);
	/* 5: ldmatrix .x4 with a 128-byte row stride: 8 rows per bank group, 32 wavefronts, ideal 4 */
	uint64_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = 128u * (l % 8) + 16u * (l / 8);
	fx_event(tr, 1, 1, GL_TRACE_SHARED, GL_TRACE_LDMATRIX, 16, 0xffffffffu, "tile", a);
	view_fill_costs(tr->ev, tr->n);
}

static void test_frames(void)
{
	struct view_trace tr;
	build(&tr);
	struct view_banks v;
	struct gl_err err = {0};
	CHECK_EQ(view_banks_build(&tr, -1, &v, &err), GL_OK);
	CHECK_EQ(v.n, 6);
	struct view_banks_frame f;

	view_banks_frame(&v, 0, &f);
	CHECK_EQ(f.wavefronts, 1);
	CHECK_EQ(f.conflicts, 0);
	for (int b = 0; b < 32; b++)
		CHECK_EQ(f.cell_lane[0][b], b);
	CHECK_EQ(f.cell_lane[1][0], -1);
	CHECK_EQ(f.lane_bank[17], 17);

	view_banks_frame(&v, 1, &f);
	CHECK_EQ(f.e->seq, 2);
	CHECK_EQ(f.wavefronts, 32);
	CHECK_EQ(f.wavefronts, f.e->cost);
	CHECK_EQ(f.ideal, 1);
	CHECK_EQ(f.conflicts, 31);
	CHECK_EQ(f.worst_bank, 2);
	CHECK_EQ(f.worst_words, 32);
	for (int l = 0; l < 32; l++) {
		CHECK_EQ(f.lane_bank[l], 2);
		CHECK_EQ(f.lane_wf[l], l);
		CHECK_EQ(f.cell_lane[l][2], l);
	}
	CHECK_EQ(f.cell_lane[0][3], -1);
	CHECK_EQ(f.lo.offset, 8);
	CHECK_EQ(f.hi.offset, 8 + 31 * 128);
	CHECK_EQ(f.conflicts_so_far, 31);
	CHECK_EQ(f.wf_so_far, 33);

	view_banks_frame(&v, 2, &f);
	CHECK_EQ(f.wavefronts, 1);
	CHECK_EQ(f.lane_bank[1], 1);
	CHECK_EQ(f.lane_bank[31], 31);
	CHECK(f.lo.buf && strcmp(f.lo.buf->name, "pad") == 0);

	view_banks_frame(&v, 3, &f);
	CHECK_EQ(f.wavefronts, 1);
	CHECK_EQ(f.cell_lane[0][5], 0);
	CHECK_EQ(f.cell_lanes[0][5], 32); /* one word, 32 readers: a broadcast */

	view_banks_frame(&v, 4, &f);
	CHECK_EQ(f.wavefronts, 2);
	CHECK_EQ(f.ideal, 2);
	CHECK_EQ(f.conflicts, 0);
	CHECK_EQ(f.cell_lane[0][0], 0);
	CHECK_EQ(f.cell_lane[0][1], 0);  /* lane 0's second word */
	CHECK_EQ(f.cell_lane[1][0], 16); /* lane 16 wraps onto bank 0 in the second phase */
	CHECK_EQ(f.lane_wf[15], 0);
	CHECK_EQ(f.lane_wf[16], 1);

	view_banks_frame(&v, 5, &f);
	CHECK_EQ(f.wavefronts, 32);
	CHECK_EQ(f.ideal, 4);
	CHECK_EQ(f.conflicts, 28);
	CHECK_EQ(f.cell_lane[0][0], 0);
	CHECK_EQ(f.cell_lane[7][3], 7); /* row 7 of matrix 0, its 4th word: bank 3 */
	CHECK_EQ(f.cell_lane[8][4], 8); /* matrix 1 starts at byte 16: banks 4..7 */
	CHECK_EQ(f.conflicts_so_far, 31 + 28);
	CHECK_EQ(f.inst_so_far, 6);

	/* drawn: the column-read frame puts lane 3 in bank 2 on wavefront 3 */
	struct view_canvas cv;
	view_canvas_init(&cv, 80, 23);
	view_banks_draw(&v, 1, &cv);
	char row[128];
	bool saw_wf3 = false, saw_conf = false, saw_more = false;
	for (int y = 0; y < cv.h; y++) {
		view_canvas_row(&cv, y, row, sizeof row);
		saw_wf3 |= strcmp(row, "wf  3  . . 3 . . . . . . . . . . . . . . . . . . . . . . . . . . . . .") == 0;
		saw_conf |= strstr(row, "32 wavefronts (ideal 1): 31 bank conflicts, bank 2 serves 32 words") != NULL;
		saw_more |= strstr(row, "more wavefronts") != NULL;
	}
	CHECK(saw_wf3);
	CHECK(saw_conf);
	CHECK(saw_more);
	CHECK_EQ(view_canvas_at(&cv, 11 + 3, 7 + 2 * 2)->style, view_wf_style(3));
	view_canvas_free(&cv);
	view_banks_free(&v);

	CHECK_EQ(view_banks_build(&tr, 1, &v, &err), GL_OK);
	CHECK_EQ(v.n, 3);
	view_banks_free(&v);
	view_trace_free(&tr);
}

int main(void)
{
	test_frames();
	CHECK_DONE();
}
