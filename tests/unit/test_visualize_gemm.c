/* test_visualize_gemm.c — the gemm view's model on hand-built 8x8x8 traces: K slabs found from the
 * shared-memory reads (staged) or from k (unstaged), one step per k, the CTA tile and the grid of tiles,
 * the thread storing each C element and every warp's share, a thread's register tile, the shared arrays
 * as filled (stores paired with the loads they copy, row-major and transposed), what the selected thread
 * reads at each k, the keys (zoom, pan, thread, warp) and the drawn text. */
#include "tests/unit/check.h"
#include "tests/unit/view_fixture.h"
#include "visualize/view.h"
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

static void base_trace(struct view_trace *tr, unsigned threads)
{
	memset(tr, 0, sizeof *tr);
	snprintf(tr->topic, sizeof tr->topic, "gemm");
	tr->t = &fake_gemm;
	gl_problem_defaults(&fake_gemm, &tr->problem);
	tr->grid[0] = tr->grid[1] = 2, tr->grid[2] = 1;
	tr->block[0] = threads, tr->block[1] = tr->block[2] = 1;
	fx_buffer(tr, "C", false, C0, N, N);
	fx_buffer(tr, "A", false, A0, N, N);
	fx_buffer(tr, "B", false, B0, N, N);
	fx_buffer(tr, "As", true, 0, 1, 16);
	fx_buffer(tr, "Bs", true, 64, 1, 16);
}

static uint64_t el(uint64_t base, long r, long c)
{
	return base + 4u * (uint64_t)(r * N + c);
}

/* 16 threads as a 4x4 block (lane = 4 * ty + tx), a 4x4 C tile at (r0, c0), K in slabs of 4.  Lane l
 * copies A[r0 + l/4][k0 + l%4] to As element l (row-major, As[4*i + j]) or, transposed, to As[4*j + i];
 * B[k0 + l/4][c0 + l%4] to Bs element l.  At each k lane l reads its row of As and its column of Bs. */
static void staged_cta(struct view_trace *tr, uint32_t block, long r0, long c0, bool transposed)
{
	uint64_t a[32];
	for (long k0 = 0; k0 < N; k0 += 4) {
		for (int l = 0; l < 16; l++)
			a[l] = el(A0, r0 + l / 4, k0 + l % 4);
		fx_event(tr, block, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xffff, "A", a);
		for (int l = 0; l < 16; l++)
			a[l] = transposed ? 4u * (uint64_t)(4 * (l % 4) + l / 4) : 4u * (uint64_t)l;
		fx_event(tr, block, 0, GL_TRACE_SHARED, GL_TRACE_ST, 4, 0xffff, "As", a);
		for (int l = 0; l < 16; l++)
			a[l] = el(B0, k0 + l / 4, c0 + l % 4);
		fx_event(tr, block, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xffff, "B", a);
		fx_strided(tr, block, 0, GL_TRACE_SHARED, GL_TRACE_ST, 4, 0xffff, "Bs", 64, 4);
		for (int k = 0; k < 4; k++) {
			for (int l = 0; l < 16; l++)
				a[l] = transposed ? 16u * (uint64_t)k + 4u * (uint64_t)(l / 4)
				                  : 16u * (uint64_t)(l / 4) + 4u * (uint64_t)k;
			fx_event(tr, block, 0, GL_TRACE_SHARED, GL_TRACE_LD, 4, 0xffff, "As", a);
			for (int l = 0; l < 16; l++)
				a[l] = 64 + 16u * (uint64_t)k + 4u * (uint64_t)(l % 4);
			fx_event(tr, block, 0, GL_TRACE_SHARED, GL_TRACE_LD, 4, 0xffff, "Bs", a);
		}
	}
	for (int l = 0; l < 16; l++)
		a[l] = el(C0, r0 + l / 4, c0 + l % 4);
	fx_event(tr, block, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 4, 0xffff, "C", a);
	fx_event(tr, block, 0, GL_TRACE_GLOBAL, GL_TRACE_ST, 4, 0xffff, "C", a);
}

static bool canvas_has(const struct view_canvas *cv, const char *text)
{
	char row[256];
	for (int y = 0; y < cv->h; y++) {
		view_canvas_row(cv, y, row, sizeof row);
		if (strstr(row, text))
			return true;
	}
	return false;
}

static void test_staged(void)
{
	struct view_trace tr;
	base_trace(&tr, 16);
	staged_cta(&tr, 0, 0, 0, false);
	staged_cta(&tr, 1, 0, 4, false);
	view_fill_costs(tr.ev, tr.n);
	struct view_gemm g;
	struct gl_err err = {0};
	CHECK_EQ(view_gemm_build(&tr, -1, &g, &err), GL_OK);
	CHECK_EQ(g.block, 0);
	CHECK(g.staged);
	CHECK_EQ(g.nslabs, 2);
	CHECK_EQ(g.slab_k0[1], 4);
	CHECK_EQ(g.slab_k1[1], 7);
	CHECK_EQ(g.nsteps, N + 1); /* one per k, then the epilogue */
	CHECK_EQ(view_gemm_slab_of(&g, 3), 0);
	CHECK_EQ(view_gemm_slab_of(&g, 4), 1);
	/* the hierarchy: a 2x2 grid of 4x4 tiles, one warp of 16 threads, one element each */
	CHECK_EQ(g.gx, 2);
	CHECK_EQ(g.gy, 2);
	CHECK_EQ(g.tiles_r, 2); /* 8x8 in tiles of 4x4 */
	CHECK_EQ(g.tiles_c, 2);
	CHECK_EQ(g.cta_r, 0);
	CHECK_EQ(g.cta_c, 0);
	CHECK_EQ(g.tile.r0, 0);
	CHECK_EQ(g.tile.r1, 3);
	CHECK_EQ(g.tile.c1, 3);
	CHECK_EQ(g.tile_elems, 16);
	CHECK_EQ(g.nthreads, 16);
	CHECK_EQ(g.nwarps, 1);
	CHECK_EQ(g.warp_elems[0], 16);
	CHECK_EQ(g.owner[3 * N + 2], 14); /* C[3][2] is stored by lane 4*3+2 */
	CHECK_EQ(g.owner[0 * N + 4], -1); /* CTA 1's */
	CHECK_EQ(view_gemm_warp_at(&g, 3, 2), 0);
	CHECK_EQ(view_gemm_warp_at(&g, 0, 4), -1);
	struct view_gemm_regs r;
	view_gemm_thread_regs(&g, 5, &r);
	CHECK_EQ(r.nrows, 1);
	CHECK_EQ(r.rows[0], 1);
	CHECK_EQ(r.cols[0], 1);
	CHECK(r.product);

	/* k 5: slab 1 (k 4..7); As holds A[0-3][4-7] row-major; thread 5 reads A[1][5] and B[5][1] there */
	g.ui->thread = 5;
	struct view_gemm_frame f;
	view_gemm_frame(&g, 5, &f);
	CHECK(!f.epilogue);
	CHECK_EQ(f.kk, 5);
	CHECK_EQ(f.slab, 1);
	CHECK_EQ(f.k0, 4);
	CHECK_EQ(f.k1, 7);
	CHECK_EQ(f.a_now.r1, 3);
	CHECK_EQ(f.a_now.c0, 4);
	CHECK_EQ(f.a[2 * N + 3], VG_EARLIER);
	CHECK_EQ(f.a[2 * N + 5], VG_NOW);
	CHECK_EQ(f.a[2 * N + 0], VG_EARLIER);
	CHECK_EQ(f.b[5 * N + 1], VG_NOW);
	CHECK_EQ(f.b[5 * N + 4], VG_NONE); /* CTA 1's columns */
	CHECK_EQ(f.a_req, 2);
	CHECK_EQ(f.a_sect, 8); /* four rows of 16 bytes, each in its own sector, twice */
	CHECK_EQ(f.c_req, 0);
	const struct view_gemm_smem *as = &f.sm[0], *bs = &f.sm[1];
	CHECK(as->buf && strcmp(as->buf->name, "As") == 0);
	CHECK(bs->buf && strcmp(bs->buf->name, "Bs") == 0);
	CHECK_EQ(as->r0, 0);
	CHECK_EQ(as->c0, 4);
	CHECK_EQ(as->rows, 4);
	CHECK_EQ(as->cols, 4);
	CHECK_EQ(as->nheld, 16);
	CHECK_EQ(as->outside, 0);
	CHECK(as->affine);
	CHECK_EQ(as->sr, 4);
	CHECK_EQ(as->sc, 1);
	CHECK_EQ(as->held[2 * 4 + 1], VG_NOW);
	CHECK_EQ(bs->r0, 4);
	CHECK_EQ(bs->c0, 0);
	CHECK_EQ(bs->sr, 4);
	CHECK_EQ(f.narow, 1);
	CHECK_EQ(f.arow[0], 1);
	CHECK_EQ(f.nbcol, 1);
	CHECK_EQ(f.bcol[0], 1);
	CHECK(f.a_from_shared && f.b_from_shared);
	CHECK_EQ(f.naoff, 1);
	CHECK_EQ(f.aoff[0], 5); /* As[4*1 + 1] holds A[1][5] */
	CHECK_EQ(f.nboff, 1);
	CHECK_EQ(f.boff[0], 5); /* Bs[4*1 + 1] holds B[5][1] */
	view_gemm_frame_free(&f);

	view_gemm_frame(&g, N, &f);
	CHECK(f.epilogue);
	CHECK_EQ(f.kk, -1);
	CHECK_EQ(f.c[3 * N + 3], VG_NOW);
	CHECK_EQ(f.c[3 * N + 4], VG_NONE);
	CHECK_EQ(f.c_req, 2);
	view_gemm_frame_free(&f);

	/* drawn at 80x23: three pages, the tiles, the warps and the thread, the thread's outer product; from
	 * 38 rows the first two share a screen */
	CHECK_EQ(view_gemm_pages(&g, 80, 23), 3);
	CHECK_EQ(view_gemm_pages(&g, 120, 39), 2);
	struct view_canvas cv;
	view_canvas_init(&cv, 80, 23);
	view_gemm_draw(&g, 5, &cv);
	CHECK(canvas_has(&cv, "CTA 0 (row 0 col 0 of 2x2): tile 4x4 = C[0-3][0-3], 1 warp"));
	CHECK(canvas_has(&cv, "k 5  K step 2/2: slab A[0-3][4-7], B[4-7][0-3]"));
	CHECK(canvas_has(&cv, "As = A[0-3][4-7]: A[0+i][4+j] at As[4*i + j], 16 of 16 held"));
	CHECK(canvas_has(&cv, "page 1/3, v: warps and thread"));
	char row[128];
	/* the first two grid rows: the CTA grid; A's tile rows 0 and 1 by slab (slab 0 earlier, slab 1 now);
	 * B's slabs 0 and 1 by the tile's columns; As and Bs rows 0 and 1 with what thread 5 reads at k 5 */
	view_canvas_row(&cv, 5, row, sizeof row);
	CHECK_STR(row, "o:              +#              ++++            ####            ####");
	view_canvas_row(&cv, 6, row, sizeof row);
	CHECK_STR(row, ":.              +#              ####            #@##            #@##");
	CHECK(canvas_has(&cv, "A[0-3][k]       B[k][0-3]       As 4x4          Bs 4x4"));
	CHECK(canvas_has(&cv, "slabs 1-2/2"));
	view_gemm_set_page(&g, 1);
	view_canvas_clear(&cv);
	view_gemm_draw(&g, 5, &cv);
	CHECK(canvas_has(&cv, "warp 0 stores 16 C elements:"));
	CHECK(canvas_has(&cv, "thread 5 (warp 0 lane 5): acc 1x1"));
	CHECK(canvas_has(&cv, "  rows 1"));
	CHECK(canvas_has(&cv, "k 5: a = A[1][5] (1) from As"));
	CHECK(canvas_has(&cv, "      = As[5]"));
	CHECK(canvas_has(&cv, "b = B[5][1] (1) from Bs"));
	CHECK(canvas_has(&cv, "acc[i][j] += a[i]*b[j]: 1 FMA"));
	CHECK(canvas_has(&cv, "1 warp, 16 C elements each"));
	view_canvas_row(&cv, 6, row, sizeof row); /* the tile's second row: lane 5 is '@' */
	CHECK(strncmp(row, "0@00", 4) == 0);
	/* the outer product: thread 5's one accumulator, C[1][1], updated at k 5 */
	view_gemm_set_page(&g, 2);
	view_canvas_clear(&cv);
	view_gemm_draw(&g, 5, &cv);
	CHECK(canvas_has(&cv, "thread 5's 1x1 accumulators at k 5: # acc[r][c] += A[r][k] * B[k][c]"));
	CHECK(canvas_has(&cv, "    c   1"));
	CHECK(canvas_has(&cv, "r   1   #"));
	CHECK(canvas_has(&cv, "page 3/3, v: tiles A B As Bs"));
	view_canvas_free(&cv);
	view_gemm_free(&g);

	CHECK_EQ(view_gemm_build(&tr, 1, &g, &err), GL_OK);
	CHECK_EQ(g.tile.c0, 4);
	CHECK_EQ(g.cta_r, 0); /* CTA 1 is the tile to the right */
	CHECK_EQ(g.cta_c, 1);
	view_gemm_free(&g);
	CHECK_EQ(view_gemm_build(&tr, 7, &g, &err), GL_EUSAGE);
	view_trace_free(&tr);
}

/* As filled transposed (As[4*j + i]): the layout found is the transposed one, and reads map back. */
static void test_transposed(void)
{
	struct view_trace tr;
	base_trace(&tr, 16);
	staged_cta(&tr, 0, 0, 0, true);
	view_fill_costs(tr.ev, tr.n);
	struct view_gemm g;
	struct gl_err err = {0};
	CHECK_EQ(view_gemm_build(&tr, -1, &g, &err), GL_OK);
	g.ui->thread = 9; /* row 2, column 1 */
	struct view_gemm_frame f;
	view_gemm_frame(&g, 2, &f);
	CHECK(f.sm[0].affine);
	CHECK_EQ(f.sm[0].sr, 1);
	CHECK_EQ(f.sm[0].sc, 4);
	CHECK_EQ(f.narow, 1);
	CHECK_EQ(f.arow[0], 2);
	CHECK_EQ(f.bcol[0], 1);
	CHECK_EQ(f.aoff[0], 4 * 2 + 2); /* A[2][2] is at As[4*j + i] */
	view_gemm_frame_free(&f);
	view_gemm_free(&g);
	view_trace_free(&tr);
}

/* naive-like: two warps (C columns 0 and 1), lanes on rows 0..3, each warp walking k = 0..7 in turn. */
static void test_unstaged(void)
{
	struct view_trace tr;
	base_trace(&tr, 64);
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
	CHECK_EQ(g.nslabs, N);
	CHECK_EQ(g.nsteps, N + 1);
	CHECK_EQ(g.nwarps, 2);
	CHECK_EQ(g.warp_elems[1], 4);
	CHECK_EQ(g.owner[2 * N + 1], 32 + 2);
	CHECK_EQ(view_gemm_warp_at(&g, 2, 1), 1);
	g.ui->thread = 34;
	struct view_gemm_frame f;
	view_gemm_frame(&g, 2, &f);
	CHECK_EQ(f.k0, 2);
	CHECK_EQ(f.k1, 2);
	CHECK_EQ(f.b_now.c0, 0);
	CHECK_EQ(f.b_now.c1, 1);
	CHECK_EQ(f.a[1 * N + 1], VG_EARLIER);
	CHECK_EQ(f.a_req, 2 * 3); /* both warps, k = 0..2 */
	CHECK_EQ(f.a_sect, 4 * 2 * 3);
	CHECK(!f.sm[0].buf && !f.sm[1].buf); /* no shared tiles */
	CHECK_EQ(f.narow, 1);
	CHECK_EQ(f.arow[0], 2); /* thread 34 = lane 2 of warp 1: A[2][2], B[2][1] from global */
	CHECK_EQ(f.bcol[0], 1);
	CHECK(!f.a_from_shared);
	CHECK_EQ(f.naoff, 0);
	view_gemm_frame_free(&f);

	/* keys: warps and threads wrap around the CTA's 64; zoom starts at the thread's element */
	g.ui->thread = 0;
	CHECK(view_gemm_key(&g, '}'));
	CHECK_EQ(g.ui->thread, 32);
	CHECK(view_gemm_key(&g, 'T'));
	CHECK_EQ(g.ui->thread, 31);
	CHECK(view_gemm_key(&g, '{'));
	CHECK(view_gemm_key(&g, '{'));
	CHECK_EQ(g.ui->thread, 31 + 64 - 64);
	g.ui->thread = 33;
	CHECK(!view_gemm_key(&g, 'L')); /* no pan unless zoomed */
	CHECK(view_gemm_key(&g, 'z'));
	CHECK(g.ui->zoom);
	CHECK_EQ(g.ui->zr, 1);
	CHECK_EQ(g.ui->zc, 1);
	CHECK(!view_gemm_key(&g, 'x'));
	CHECK(view_gemm_key(&g, 'z'));
	CHECK(!g.ui->zoom);
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

static void test_scale(void)
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
}

/* Index lists as runs (0-7) and progressions (0-112 every 16). */
static void test_ranges(void)
{
	char buf[96];
	const long a[] = {0, 1, 2, 3, 32, 33, 34, 35};
	view_ranges(a, 8, buf, sizeof buf);
	CHECK_STR(buf, "0-3,32-35");
	const long b[] = {0, 16, 32, 48, 64, 80, 96, 112};
	view_ranges(b, 8, buf, sizeof buf);
	CHECK_STR(buf, "0-112 every 16");
	const long c[] = {5, 9};
	view_ranges(c, 2, buf, sizeof buf);
	CHECK_STR(buf, "5,9");
	const long d[] = {0, 1, 16, 17};
	view_ranges(d, 4, buf, sizeof buf);
	CHECK_STR(buf, "0-1,16-17");
	view_ranges(c, 0, buf, sizeof buf);
	CHECK_STR(buf, "");
}

int main(void)
{
	test_ranges();
	test_staged();
	test_transposed();
	test_unstaged();
	test_not_gemm();
	test_scale();
	CHECK_DONE();
}
