/* test_visualize_mma.c — the mma view on a hand-built hgemm-like trace: the fragment map against the PTX
 * ISA's m16n8k16 tables (written out here, independently of the simulator), ldmatrix rows with their
 * bank groups and wavefronts beside the XOR-swizzled offsets, the K steps and the warps' mma tiles. */
#include <stdio.h>

#include "tests/unit/check.h"
#include "tests/unit/view_fixture.h"
#include "visualize/view_states.h"

#define GBASE 0x7f0000000000ull

/* PTX ISA, mma.m16n8k16 .f16: g = lane/4, t = lane%4. */
static void isa_a(int lane, int i, int *r, int *c)
{
	int g = lane / 4, t = lane % 4;
	*r = g + 8 * ((i / 2) % 2);
	*c = 2 * t + (i % 2) + 8 * (i / 4);
}

static void isa_b(int lane, int i, int *r, int *c)
{
	int g = lane / 4, t = lane % 4;
	*r = 2 * t + (i % 2) + 8 * (i / 2);
	*c = g;
}

static void isa_c(int lane, int i, int *r, int *c)
{
	int g = lane / 4, t = lane % 4;
	*r = g + 8 * (i / 2);
	*c = 2 * t + (i % 2);
}

/* One CTA of 2 warps, K = 32 in two K steps of 16: each step loads a 32x16 A tile (two loads) and a
 * 16x16 B tile (one), writes shared, and warp 0 issues one ldmatrix.x4 on a row-major tile with 64-byte
 * rows, warp 1 one with 128-byte rows.  C: warp w stores rows 16w..16w+15. */
static void build(struct view_trace *tr)
{
	memset(tr, 0, sizeof *tr);
	snprintf(tr->topic, sizeof tr->topic, "hgemm");
	snprintf(tr->variant, sizeof tr->variant, "mma_ldmatrix");
	struct view_buffer *a = fx_buffer(tr, "A", false, GBASE, 32, 32);
	struct view_buffer *b = fx_buffer(tr, "B", false, GBASE + 0x10000, 32, 16);
	fx_buffer(tr, "C", false, GBASE + 0x20000, 32, 16);
	fx_buffer(tr, "As", true, 0, 1, 4096);
	a->elem = b->elem = 2;
	uint64_t ad[32];
	for (int k = 0; k < 2; k++) {
		/* A: lanes 2r and 2r+1 read 8 halves each of row r (16r + 16..: rows 16h..16h+15), columns
		 * 16k..16k+15: one load covers the step's k range */
		for (int h = 0; h < 2; h++) {
			for (int l = 0; l < 32; l++)
				ad[l] = GBASE + 2u * (32u * (16u * (unsigned)h + (unsigned)l / 2) + 16u * (unsigned)k + 8u * (l % 2));
			fx_event(tr, 0, 0, GL_TRACE_GLOBAL, GL_TRACE_LD, 16, 0xffffffffu, "A", ad);
		}
		/* B: rows 16k..16k+15, two lanes a row */
		for (int l = 0; l < 32; l++)
			ad[l] = GBASE + 0x10000 + 2u * (16u * (16u * (unsigned)k + (unsigned)l / 2) + 8u * (l % 2));
		fx_event(tr, 0, 1, GL_TRACE_GLOBAL, GL_TRACE_LD, 16, 0xffffffffu, "B", ad);
		fx_strided(tr, 0, 0, GL_TRACE_SHARED, GL_TRACE_ST, 16, 0xffffffffu, "As", 0, 16);
		for (int l = 0; l < 32; l++)
			ad[l] = 64u * (l % 16) + 16u * (l / 16);
		fx_event(tr, 0, 0, GL_TRACE_SHARED, GL_TRACE_LDMATRIX, 16, 0xffffffffu, "As", ad);
		for (int l = 0; l < 32; l++)
			ad[l] = 128u * (l % 8) + 16u * (l / 8);
		fx_event(tr, 0, 1, GL_TRACE_SHARED, GL_TRACE_LDMATRIX, 16, 0xffffffffu, "As", ad);
	}
	for (int w = 0; w < 2; w++)
		for (int r = 0; r < 16; r++) {
			for (int l = 0; l < 32; l++)
				ad[l] = GBASE + 0x20000 + 4u * (16u * (16u * (unsigned)w + (unsigned)r) + (unsigned)(l % 16));
			fx_event(tr, 0, (uint32_t)w, GL_TRACE_GLOBAL, GL_TRACE_ST, 4, 0xffffu, "C", ad);
		}
	view_fill_costs(tr->ev, tr->n);
}

static void test_fragments(const struct view_mma *v)
{
	int bad = 0;
	for (int lane = 0; lane < 32; lane++) {
		for (int i = 0; i < 8; i++) {
			int r, c;
			isa_a(lane, i, &r, &c);
			bad += v->frag[0].lane[r][c] != lane || v->frag[0].elem[r][c] != i;
		}
		for (int i = 0; i < 4; i++) {
			int r, c;
			isa_b(lane, i, &r, &c);
			bad += v->frag[1].lane[r][c] != lane || v->frag[1].elem[r][c] != i;
			isa_c(lane, i, &r, &c);
			bad += v->frag[2].lane[r][c] != lane || v->frag[2].elem[r][c] != i;
		}
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(v->frag[0].rows, 16);
	CHECK_EQ(v->frag[0].cols, 16);
	CHECK_EQ(v->frag[1].cols, 8);
}

static void test_ldmatrix(const struct view_mma *v)
{
	CHECK_EQ(v->warp, 0);
	CHECK_EQ(v->nldm, 2); /* warp 0's two ldmatrix */
	struct view_mma_ldm f;
	view_mma_ldmatrix_frame(v, 0, &f);
	CHECK_EQ(f.nmat, 4);
	/* 64-byte rows: rows r and r+2 share a bank group, 4 rows per group, 4 wavefronts a matrix */
	CHECK_EQ(f.wf, 16);
	CHECK_EQ(f.group[0], 0);
	CHECK_EQ(f.group[1], 4);
	CHECK_EQ(f.group[2], 0);
	CHECK_EQ(f.group[16], 1); /* matrix 2: columns 8..15, 16 bytes on */
	/* swizzled: offset 128 (row 2) is line 1: its chunk 0 goes to chunk 1 */
	CHECK_EQ(f.offset[2], 128);
	CHECK_EQ(f.swz_offset[2], 144);
	CHECK_EQ(f.group_swz[2], 1);
	CHECK_EQ(f.wf_swz, 4);
	CHECK_EQ(f.wf_rec[2][0], 1); /* the second row of group 0 in matrix 0 */
	CHECK_EQ(f.inst_so_far, 1);
	CHECK_EQ(f.conf_so_far, 12);
	view_mma_ldmatrix_frame(v, 1, &f);
	CHECK_EQ(f.inst_so_far, 2);
	CHECK_EQ(f.wf_so_far, 32);
	CHECK_EQ(view_mma_swizzle(view_mma_swizzle(4000)), 4000);
	CHECK_EQ(view_mma_swizzle(128 * 7 + 16 * 2), 128 * 7 + 16 * 5);
}

static void test_ksteps(const struct view_mma *v)
{
	CHECK_EQ(v->nk, 2);
	CHECK_EQ(v->nsteps, 32 + 2 + 2);
	struct view_mma_kstep f;
	view_mma_kstep_frame(v, 0, &f);
	CHECK_EQ(f.a_now.r0, 0);
	CHECK_EQ(f.a_now.r1, 31);
	CHECK_EQ(f.a_now.c0, 0);
	CHECK_EQ(f.a_now.c1, 15);
	CHECK_EQ(f.b_now.r0, 0);
	CHECK_EQ(f.b_now.r1, 15);
	CHECK_EQ(f.c_tile.r1, 31);
	CHECK_EQ(f.c_tile.c1, 15);
	CHECK_EQ(f.gld_req, 3);
	CHECK_EQ(f.ldsm, 2); /* both warps' first ldmatrix */
	CHECK_EQ(f.warp_ldsm_now, 1);
	CHECK_EQ(f.sld_conf, 12 + 28);
	CHECK(strcmp(f.staged_into, "As") == 0);
	/* warp w stores 16x8 tiles (w, 0) and (w, 1) */
	CHECK_EQ(f.owner[0][0], 0);
	CHECK_EQ(f.owner[0][1], 0);
	CHECK_EQ(f.owner[1][1], 1);
	CHECK_EQ(f.owner[2][0], -1);
	view_mma_kstep_frame(v, 1, &f);
	CHECK_EQ(f.a_now.c0, 16);
	CHECK_EQ(f.a_now.c1, 31);
	CHECK_EQ(f.b_now.r0, 16);
	CHECK_EQ(f.gld_req, 6);
	CHECK_EQ(f.ldsm, 4);
}

static void test_draw(const struct view_mma *v)
{
	struct view_canvas cv;
	char row[128];
	view_canvas_init(&cv, 80, 23);
	view_mma_draw(v, 5, &cv); /* lane 5: g = 1, t = 1 */
	view_canvas_row(&cv, 2, row, sizeof row);
	CHECK(strstr(row, "lane 5 (g=1, t=1) selected") != NULL);
	/* A row 1 (canvas row 6): lane 5 holds columns 2, 3 (a0 a1) and 10, 11 (a4 a5) */
	view_canvas_row(&cv, 6, row, sizeof row);
	CHECK(strstr(row, " 1 4 4 0*1*") == row);
	view_canvas_row(&cv, 21, row, sizeof row);
	CHECK(strcmp(row, "A: a0(1,2) a1(1,3) a2(9,2) a3(9,3) a4(1,10) a5(1,11) a6(9,10) a7(9,11)") == 0);
	view_canvas_clear(&cv);
	view_mma_draw(v, 32, &cv);
	view_canvas_row(&cv, 3, row, sizeof row);
	CHECK(strcmp(row, "recorded: 16 wavefronts (ideal 4), 12 conflicts | swizzled: 4, 0 conflicts") == 0);
	view_canvas_clear(&cv);
	view_mma_draw(v, 35, &cv);
	view_canvas_row(&cv, 3, row, sizeof row);
	CHECK(strcmp(row, "global -> A[0..31][16..31]  B[16..31][0..15]") == 0);
	view_canvas_free(&cv);
}

int main(void)
{
	struct view_trace tr;
	build(&tr);
	struct view_mma v;
	struct gl_err err = {0};
	CHECK_EQ(view_mma_build(&tr, -1, &v, &err), GL_OK);
	test_fragments(&v);
	test_ldmatrix(&v);
	test_ksteps(&v);
	test_draw(&v);
	view_mma_free(&v);
	CHECK_EQ(view_mma_build(&tr, 3, &v, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "no accesses by CTA 3") != NULL);
	view_trace_free(&tr);
	CHECK_DONE();
}
