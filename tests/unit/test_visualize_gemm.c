/* test_visualize_gemm.c — the gemm view's frames on hand-built 8x8x8 traces: K steps found from the
 * shared-memory reads (staged) or from k (unstaged), the A/B tiles lit per step, the C, warp and thread
 * tiles, the counts so far; and the grid scaling and panel layout. */
#include "tests/unit/check.h"
#include "tests/unit/view_fixture.h"
#include "visualize/view_states.h"

#define A0 0x7f0000000000ull
#define B0 0x7f0000100000ull
#define C0 0x7f0000200000ull
#define N  8

static const struct gl_param params[] = {
    {"m", "", 8, 1, 64, true, NULL},
    {"n", "", 8, 1, 64, true, NULL},
    {"k", "", 8, 1, 64, true, NULL},
};
static const struct gl_topic fake_gemm = {.name = "gemm", .params = params, .nparams = 3};

static void base_trace(struct view_trace *tr)
{
	memset(tr, 0, sizeof *tr);
	snprintf(tr->topic, sizeof tr->topic, "gemm");
	tr->t = &fake_gemm;
	gl_problem_defaults(&fake_gemm, &tr->problem);
	fx_buffer(tr, "C", false, C0, N, N);
	fx_buffer(tr, "A", false, A0, N, N);
	fx_buffer(tr, "B", false, B0, N, N);
	fx_buffer(tr, "As", true, 0, 4, 4);
	fx_buffer(tr, "Bs", true, 64, 4, 4);
}

static uint64_t el(uint64_t base, long r, long c)
{
	return base + 4u * (uint64_t)(r * N + c);
}

/* 16 threads as a 4x4 block (lane = 4 * ty + tx), a 4x4 C tile at (r0, c0), K in steps of 4. */
static void staged_cta(struct view_trace *tr, uint32_t block, long r0, long c0)
{
	uint64_t a[32];
	for (long k0 = 0; k0 < N; k0 += 4) {
		for (int l = 0; l < 16; l++)
			a[l] = el(A0, r0 + l / 4, k0 + l % 4);
		fx_event(tr, block, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xffff, "A", a);
		fx_strided(tr, block, 0, GL_TRACE_SHARED, GL_TRACE_ST, 4, 0xffff, "As", 0, 4);
		for (int l = 0; l < 16; l++)
			a[l] = el(B0, k0 + l / 4, c0 + l % 4);
		fx_event(tr, block, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xffff, "B", a);
		fx_strided(tr, block, 0, GL_TRACE_SHARED, GL_TRACE_ST, 4, 0xffff, "Bs", 64, 4);
		for (int k = 0; k < 4; k++) {
			for (int l = 0; l < 16; l++)
				a[l] = 16u * (uint64_t)(l / 4) + 4u * (uint64_t)k;
			fx_event(tr, block, 0, GL_TRACE_SHARED, GL_TRACE_LD, 4, 0xffff, "As", a);
			fx_strided(tr, block, 0, GL_TRACE_SHARED, GL_TRACE_LD, 4, 0xffff, "Bs", 64 + 16u * (uint64_t)k,
			           0);
		}
	}
	for (int l = 0; l < 16; l++)
		a[l] = el(C0, r0 + l / 4, c0 + l % 4);
	fx_event(tr, block, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xffff, "C", a);
	fx_event(tr, block, 0, GL_TRACE_GLOBAL, GL_TRACE_ST, 4, 0xffff, "C", a);
}

static void test_staged(void)
{
	struct view_trace tr;
	base_trace(&tr);
	staged_cta(&tr, 0, 0, 0);
	staged_cta(&tr, 1, 0, 4);
	view_fill_costs(tr.ev, tr.n);
	struct view_gemm g;
	struct gl_err err = {0};
	CHECK_EQ(view_gemm_build(&tr, -1, &g, &err), GL_OK);
	CHECK_EQ(g.block, 0);
	CHECK(g.staged);
	CHECK_EQ(g.nsteps, 3); /* two K steps, then the epilogue */
	CHECK_EQ(g.c_tile.r0, 0);
	CHECK_EQ(g.c_tile.r1, 3);
	CHECK_EQ(g.c_tile.c1, 3);
	CHECK_EQ(g.warps, 1);
	CHECK_EQ(g.warp_elems, 16);
	CHECK_EQ(g.thread_elems, 1);
	CHECK_EQ(g.thread_tile.r1, 0);
	CHECK_EQ(g.owner[3 * N + 2], 14); /* C[3][2] is stored by lane 4*3+2 */
	CHECK_EQ(g.owner[0 * N + 4], -1); /* CTA 1's */
	/* thread 0's register tile: the one element C[0][0], a whole 1x1 outer product */
	CHECK_EQ(g.ntrows, 1);
	CHECK_EQ(g.ntcols, 1);
	CHECK_EQ(g.trows[0], 0);
	CHECK(g.thread_outer);

	struct view_gemm_frame f;
	view_gemm_frame(&g, 0, &f);
	CHECK(!f.epilogue);
	CHECK_EQ(f.k_lo, 0);
	CHECK_EQ(f.k_hi, 3);
	CHECK_EQ(f.a_now.r0, 0);
	CHECK_EQ(f.a_now.r1, 3);
	CHECK_EQ(f.a_now.c1, 3);
	CHECK_EQ(f.b_now.r1, 3);
	CHECK_EQ(f.b_now.c0, 0);
	CHECK_EQ(f.a[2 * N + 3], VG_NOW);
	CHECK_EQ(f.a[2 * N + 4], VG_NONE);
	CHECK_EQ(f.k_done, 4);
	CHECK_EQ(f.a_req, 1);
	CHECK_EQ(f.a_sect, 4); /* four rows of 16 bytes, each in its own sector */
	CHECK_EQ(f.c_req, 0);
	CHECK_EQ(f.s_inst, 2 + 8);
	CHECK_STR(f.staged_into, "As, Bs");
	view_gemm_frame_free(&f);

	view_gemm_frame(&g, 1, &f);
	CHECK_EQ(f.k_lo, 4);
	CHECK_EQ(f.k_hi, 7);
	CHECK_EQ(f.a[2 * N + 3], VG_EARLIER);
	CHECK_EQ(f.a[2 * N + 5], VG_NOW);
	CHECK_EQ(f.b[5 * N + 1], VG_NOW);
	CHECK_EQ(f.k_done, 8);
	CHECK_EQ(f.a_req, 2);
	CHECK_EQ(f.c[0], VG_NONE);
	view_gemm_frame_free(&f);

	view_gemm_frame(&g, 2, &f);
	CHECK(f.epilogue);
	CHECK_EQ(f.c[3 * N + 3], VG_NOW);
	CHECK_EQ(f.c[3 * N + 4], VG_NONE);
	CHECK_EQ(f.c_req, 2);
	CHECK_EQ(f.k_lo, -1);
	view_gemm_frame_free(&f);

	/* the drawn first step */
	struct view_canvas cv;
	view_canvas_init(&cv, 80, 23);
	view_gemm_draw(&g, 0, &cv);
	char row[128];
	view_canvas_row(&cv, 2, row, sizeof row);
	CHECK(strstr(row, "CTA 0 owns C[0..3][0..3] (1 warps)") != NULL);
	CHECK(strstr(row, "K step 1/2: k 0..3") != NULL);
	view_canvas_row(&cv, 3, row, sizeof row);
	CHECK_STR(row, "loads A[0..3][0..3], B[0..3][0..3] -> As, Bs");
	view_canvas_row(&cv, 6, row, sizeof row); /* first grid row: A, B, C (this CTA's tile, then CTA 1's), the tile */
	CHECK_STR(row, "####....            ####....            oooo::::            @000");
	view_canvas_row(&cv, 5, row, sizeof row);
	CHECK(strstr(row, "C: 2x2 CTAs") != NULL); /* 8x8 in 4x4 tiles */
	view_canvas_free(&cv);
	view_gemm_free(&g);

	CHECK_EQ(view_gemm_build(&tr, 1, &g, &err), GL_OK);
	CHECK_EQ(g.c_tile.c0, 4);
	view_gemm_free(&g);
	CHECK_EQ(view_gemm_build(&tr, 7, &g, &err), GL_EUSAGE);
	view_trace_free(&tr);
}

/* naive-like: two warps (C columns 0 and 1), lanes on rows 0..3, each warp walking k = 0..7 in turn. */
static void test_unstaged(void)
{
	struct view_trace tr;
	base_trace(&tr);
	uint64_t a[32];
	for (uint32_t w = 0; w < 2; w++) {
		for (long k = 0; k < N; k++) {
			fx_strided(&tr, 0, w, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xf, "A", el(A0, 0, k), 4 * N);
			fx_strided(&tr, 0, w, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xf, "B", el(B0, k, w), 0);
		}
		for (int l = 0; l < 4; l++)
			a[l] = el(C0, l, w);
		fx_event(&tr, 0, w, GL_TRACE_GLOBAL, GL_TRACE_ST, 4, 0xf, "C", a);
	}
	view_fill_costs(tr.ev, tr.n);
	struct view_gemm g;
	struct gl_err err = {0};
	CHECK_EQ(view_gemm_build(&tr, -1, &g, &err), GL_OK);
	CHECK(!g.staged);
	CHECK_EQ(g.nsteps, N + 1);
	CHECK_EQ(g.warps, 2);
	CHECK_EQ(g.warp_tile.c1, 0);
	CHECK_EQ(g.warp_tile.r1, 3);
	CHECK_EQ(g.owner[2 * N + 1], 32 + 2);
	struct view_gemm_frame f;
	view_gemm_frame(&g, 2, &f);
	CHECK_EQ(f.k_lo, 2);
	CHECK_EQ(f.k_hi, 2);
	CHECK_EQ(f.a_now.r1, 3);
	CHECK_EQ(f.b_now.c0, 0);
	CHECK_EQ(f.b_now.c1, 1);
	CHECK_EQ(f.a[1 * N + 1], VG_EARLIER);
	CHECK_EQ(f.a_req, 2 * 3); /* both warps, k = 0..2 */
	CHECK_EQ(f.a_sect, 4 * 2 * 3);
	CHECK_EQ(f.k_done, 3);
	view_gemm_frame_free(&f);
	view_gemm_free(&g);
	view_trace_free(&tr);
}

static void test_not_gemm(void)
{
	struct view_trace tr;
	memset(&tr, 0, sizeof tr);
	snprintf(tr.topic, sizeof tr.topic, "transpose");
	fx_buffer(&tr, "in", false, A0, 8, 8);
	fx_strided(&tr, 0, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xf, "in", A0, 4);
	struct view_gemm g;
	struct gl_err err = {0};
	CHECK_EQ(view_gemm_build(&tr, -1, &g, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "needs a trace of the gemm topic") != NULL);
	view_trace_free(&tr);
}

static void test_layout(void)
{
	CHECK_EQ(view_grid_scale(128, 14), 16);
	CHECK_EQ(view_grid_scale(128, 18), 8);
	CHECK_EQ(view_grid_scale(32, 18), 2);
	CHECK_EQ(view_grid_scale(8, 18), 1);
	CHECK_EQ(view_grid_scale(1, 1), 1);
	CHECK_EQ(view_grid_scale(100, 16), 8); /* 13 cells */
	struct view_box c;
	view_grid_cell(100, 100, 8, 8, 12, 12, &c);
	CHECK_EQ(c.r0, 96);
	CHECK_EQ(c.r1, 99); /* clipped at the edge */
	struct view_gemm_layout L;
	view_gemm_layout(80, 23, &L);
	CHECK_EQ(L.gw, 18);
	CHECK_EQ(L.gh, 14);
	CHECK_EQ(L.x[3], 60);
	CHECK(L.x[3] + L.gw <= 80);
	CHECK(L.counts + 2 < 23);
	view_gemm_layout(120, 39, &L);
	CHECK_EQ(L.gw, 28);
	CHECK(L.counts + 2 < 39);
}

/* Index lists as runs (0-7) and progressions (0,16..112). */
static void test_ranges(void)
{
	char buf[96];
	const long a[] = {0, 1, 2, 3, 32, 33, 34, 35};
	view_ranges(a, 8, buf, sizeof buf);
	CHECK_STR(buf, "0-3,32-35");
	const long b[] = {0, 16, 32, 48, 64, 80, 96, 112};
	view_ranges(b, 8, buf, sizeof buf);
	CHECK_STR(buf, "0,16..112");
	const long c[] = {5, 9};
	view_ranges(c, 2, buf, sizeof buf);
	CHECK_STR(buf, "5,9");
	view_ranges(c, 0, buf, sizeof buf);
	CHECK_STR(buf, "");
}

int main(void)
{
	test_ranges();
	test_staged();
	test_unstaged();
	test_not_gemm();
	test_layout();
	CHECK_DONE();
}
