/* view_states.h — the pure state of each view: from a trace, the frame at step k (0-based) — which
 * sectors, banks, lanes and tiles are lit, and the counts accumulated up to k.  No terminal here:
 * unit-tested on hand-built traces. */
#ifndef GL_VIEW_STATES_H
#define GL_VIEW_STATES_H

#include "kernels/conv2d.h"
#include "view_canvas.h"
#include "view_trace.h"

/* Indices of the events in `space` of CTA `block` (-1: every traced CTA), in recorded order. */
uint32_t *view_select(const struct view_trace *tr, int space, long block, uint32_t *n);

/* ---- coalesce: one global access per step, its lanes, sectors and 128-byte lines */
struct view_coalesce {
	const struct view_trace *tr;
	uint32_t *idx, n;
	uint64_t *sectors_prefix, *ideal_prefix; /* sums over steps < k, n + 1 entries */
};

#define VIEW_MAX_LINES 64
struct view_coalesce_frame {
	const struct gl_trace_event *e;
	int step, nsteps;
	unsigned nsectors, nlines, ideal;                /* nsectors == e->cost */
	uint64_t sectors[2 * 32], lines[VIEW_MAX_LINES]; /* sector (addr/32) and line (addr/128) numbers, ascending */
	int lane_sector[32], lane_line[32]; /* index into sectors[] / lines[] of the lane's first byte; -1 off */
	uint64_t req_so_far, sectors_so_far, ideal_so_far; /* steps 0..k */
	struct view_loc lo, hi;                            /* lowest and highest lane address */
	uint64_t lo_addr, hi_addr;
};

int view_coalesce_build(const struct view_trace *tr, long block, struct view_coalesce *v, struct gl_err *err);
void view_coalesce_free(struct view_coalesce *v);
void view_coalesce_frame(const struct view_coalesce *v, int step, struct view_coalesce_frame *f);
/* Lanes touching 4-byte word `word` (0..31) of 128-byte line `line`: the count, and the first one. */
int view_coalesce_word_lanes(const struct view_coalesce_frame *f, uint64_t line, int word, int *first);
void view_coalesce_draw(const struct view_coalesce *v, int step, struct view_canvas *cv);

/* ---- banks: one shared access per step, the 32 banks and the wavefront serving each word */
struct view_banks {
	const struct view_trace *tr;
	uint32_t *idx, n;
	uint64_t *wf_prefix, *conflict_prefix;
};

struct view_banks_frame {
	const struct gl_trace_event *e;
	int step, nsteps;
	unsigned wavefronts, ideal, conflicts;
	int8_t wf[32][4];           /* wavefront of each word of each lane (sim/memmodel.h), -1 off */
	int lane_bank[32];          /* bank of the lane's first word, -1 off */
	int lane_wf[32];            /* the wavefront that completes the lane (its words' latest), -1 off */
	int8_t cell_lane[32][32];   /* [wavefront][bank]: first lane served there, -1 none */
	uint8_t cell_lanes[32][32]; /* how many lanes share that word (broadcast) */
	int worst_bank;             /* the bank with the most distinct words, and how many */
	unsigned worst_words;
	uint64_t inst_so_far, wf_so_far, conflicts_so_far;
	struct view_loc lo, hi;
};

int view_banks_build(const struct view_trace *tr, long block, struct view_banks *v, struct gl_err *err);
void view_banks_free(struct view_banks *v);
void view_banks_frame(const struct view_banks *v, int step, struct view_banks_frame *f);
void view_banks_draw(const struct view_banks *v, int step, struct view_canvas *cv);

/* ---- gemm: one CTA, one K step per step (then the epilogue): the A and B tiles it loads, the C tile it
 * owns, warp and thread sub-tiles, and the counts so far */
struct view_box {
	long r0, c0, r1, c1; /* inclusive; r1 < r0 when empty */
};

enum view_gemm_mark { VG_NONE, VG_EARLIER, VG_NOW };
#define VIEW_GEMM_TILE_MAX 64

struct view_gemm {
	const struct view_trace *tr;
	long block;   /* the CTA shown */
	long m, n, k; /* problem dims */
	const struct view_buffer *A, *B, *C;
	uint32_t *idx, nidx;                    /* the CTA's events */
	int *phase;                             /* per selected event: K step (0-based), or nsteps - 1 for C accesses */
	int nsteps;                             /* K steps + 1 (the epilogue) */
	bool staged;                            /* the CTA stages tiles through shared memory */
	int *owner;                             /* m*n: thread (warp*32+lane) storing each C element, -1 none */
	struct view_box c_tile;                 /* elements of C the CTA stores */
	struct view_box warp_tile, thread_tile; /* of the first storing warp and its thread 0 (bounding boxes) */
	long warp_elems, thread_elems;          /* elements they store */
	int warps, first_warp;                  /* warps that store C; the first of them */
	/* The register tile of the first warp's thread 0: the distinct rows and columns of C it owns (its
	 * accumulators are their product when it owns every pair: `thread_outer`), ascending. */
	long trows[VIEW_GEMM_TILE_MAX], tcols[VIEW_GEMM_TILE_MAX];
	int ntrows, ntcols;
	bool thread_outer;
};

struct view_gemm_frame {
	int step, nsteps;
	bool epilogue;
	long k_lo, k_hi; /* k range of this step's A and B loads; -1 when none */
	long k_done;     /* distinct k loaded so far */
	struct view_box a_now, b_now;
	uint8_t *a, *b, *c;                                   /* marks per element (m*k, k*n, m*n), owned */
	uint64_t a_sect, a_req, b_sect, b_req, c_sect, c_req; /* global, steps 0..k */
	uint64_t sst_wf, sld_wf, s_conflicts, s_inst;         /* shared, steps 0..k */
	char staged_into[64];                                 /* shared arrays written at this step: "As, Bs" */
};

int view_gemm_build(const struct view_trace *tr, long block, struct view_gemm *g, struct gl_err *err);
void view_gemm_free(struct view_gemm *g);
void view_gemm_frame(const struct view_gemm *g, int step, struct view_gemm_frame *f);
void view_gemm_frame_free(struct view_gemm_frame *f);
void view_gemm_draw(const struct view_gemm *g, int step, struct view_canvas *cv);

/* "0-3,32-35": a sorted list of indices as ranges, into buf. */
void view_ranges(const long *v, int n, char *buf, size_t size);

/* Where the four gemm panels (A, B, C, the CTA's C tile) go on a w x h canvas. */
struct view_gemm_layout {
	int gw, gh; /* grid cells across and down, per panel */
	int x[4];   /* left column of each panel */
	int y;      /* row of the panel titles; grids start below */
	int counts; /* row of the counts under the grids */
};
void view_gemm_layout(int w, int h, struct view_gemm_layout *L);
/* Elements per grid cell along a dimension of n elements shown in at most `cells` cells: the smallest
 * power of two that fits (so tile edges fall on cell edges). */
long view_grid_scale(long n, int cells);
/* The elements of a rows x cols matrix that cell (cy, cx) covers, rpc x cpc elements per cell. */
void view_grid_cell(long rows, long cols, long rpc, long cpc, int cy, int cx, struct view_box *out);

/* ---- mma: the m16n8k16 fragment map (32 steps, one per lane), then each ldmatrix of one warp beside
 * its swizzled counterpart, then the CTA's K loop (view_mma.c) */
struct view_mma_matrix {
	int rows, cols;
	int8_t lane[16][16], elem[16][16]; /* the lane holding each element and its index (a0..a7: 0..7) */
};

#define VIEW_MMA_BLOCKS 16 /* 16x8 blocks of the CTA's C tile shown (rows, columns) */

struct view_mma {
	const struct view_trace *tr;
	long block;
	struct view_mma_matrix frag[3]; /* A 16x16, B 16x8, C/D 16x8 */
	uint32_t *idx, nidx;            /* the CTA's events */
	uint32_t *ldm, nldm;            /* indices into idx of the ldmatrix events of `warp` */
	int warp;                       /* the warp whose ldmatrix steps are shown */
	int *kstep, nk;                 /* K step of each event (per idx), number of K steps */
	int nsteps;                     /* 32 + nldm + nk */
};

struct view_mma_ldm {
	const struct gl_trace_event *e;
	const struct view_buffer *buf; /* the shared array read */
	unsigned nmat, wf, wf_swz;
	uint64_t offset[32], swz_offset[32]; /* each lane's row, recorded and swizzled, in the array */
	int group[32], group_swz[32];        /* 16-byte bank group (addr / 16) % 8 of each row */
	int8_t wf_rec[32][4], wf_alt[32][4];  /* wavefront of each row's words (sim/memmodel.h) */
	uint64_t inst_so_far, wf_so_far, conf_so_far;
};

struct view_mma_kstep {
	int k;
	struct view_box a_now, b_now, c_tile; /* A and B elements loaded from global at this step; C stored */
	int8_t owner[VIEW_MMA_BLOCKS][VIEW_MMA_BLOCKS]; /* warp storing each 16x8 block of the C tile, -1 */
	uint64_t gld_req, gld_sect, ldgsts_req, ldgsts_sect, lds, ldsm, sld_wf, sld_conf, sst_wf; /* so far */
	uint64_t warp_ldsm_now;
	char staged_into[64];
};

int view_mma_build(const struct view_trace *tr, long block, struct view_mma *v, struct gl_err *err);
void view_mma_free(struct view_mma *v);
uint64_t view_mma_swizzle(uint64_t offset);
void view_mma_ldmatrix_frame(const struct view_mma *v, int k, struct view_mma_ldm *f);
void view_mma_kstep_frame(const struct view_mma *v, int k, struct view_mma_kstep *f);
void view_mma_owners(const struct view_mma *v, struct view_mma_kstep *f);
void view_mma_draw(const struct view_mma *v, int step, struct view_canvas *cv);
/* ---- conv: the implicit GEMM's gather, one lane of one global load of x per step: the input pixel the
 * lane reads, every (output pixel, filter tap) = A(m, kk) of the im2col matrix that holds that pixel,
 * and how often each pixel of its channel was loaded so far (the duplication im2col would store). */
struct view_conv {
	const struct view_trace *tr;
	struct gl_conv_dims d;
	const struct view_buffer *x;
	uint32_t *idx, nidx; /* the global loads of x */
	uint32_t *first;     /* nidx + 1 entries: the first step of each load (steps are its active lanes) */
	int nsteps;
};

#define VIEW_CONV_MAX_USES 64
struct view_conv_use {
	long m, p, q; /* output pixel (row of A) */
	long kk, r, s; /* tap (column of A) */
};

struct view_conv_frame {
	const struct gl_trace_event *e;
	int step, nsteps, lane;
	long elem, n, c, h, w;  /* the lane's element of x */
	struct view_conv_use use[VIEW_CONV_MAX_USES];
	int nuses;             /* how many (m, kk) of A hold the pixel (may exceed the ones listed) */
	uint64_t lane_loads, distinct; /* lane loads of x up to this warp load (whole warps), distinct elements */
	unsigned *plane; /* h x w: loads of each pixel of the lane's image and channel so far; owned */
};

int view_conv_build(const struct view_trace *tr, long block, struct view_conv *v, struct gl_err *err);
void view_conv_free(struct view_conv *v);
void view_conv_frame(const struct view_conv *v, int step, struct view_conv_frame *f);
void view_conv_frame_free(struct view_conv_frame *f);
void view_conv_draw(const struct view_conv *v, int step, struct view_canvas *cv);

/* ---- flash: one CTA of a FlashAttention kernel (flash1, flash2, flash2_mma), one step per Q block x K/V
 * block combined (flash2: then the epilogue that writes O).  The steps come from the trace: a step
 * starts at a load of the loop's driving matrix (flash1: Q, the inner loop; flash2: K) once the step
 * before has read shared memory.  m and l are recomputed in double from the harness's inputs. */
#define VIEW_FLASH_BUFS 6 /* Q K V O m l */
#define VIEW_FLASH_ROWS 4 /* rows of the Q block whose m and l are shown */

struct view_flash_step {
	int qb, kb;          /* the Q block and K/V block combined; kb -1 in the epilogue */
	bool epilogue;       /* flash2: O divided by l and written */
	uint32_t first, end; /* the CTA's global events [first, end) */
};

struct view_flash {
	const struct view_trace *tr;
	long block, head;
	long nq, nk, d;
	int causal;
	bool v1;                 /* flash1's loop order: O goes back to global memory every step */
	long br, bc;             /* rows per Q block, keys per K/V block (from the loads) */
	int nqb, nkb;
	const struct view_buffer *buf[VIEW_FLASH_BUFS]; /* NULL when absent (m and l: flash1 only) */
	uint32_t *idx, nidx;     /* the CTA's global events */
	struct view_flash_step *steps;
	int nsteps;
	uint64_t (*ld)[VIEW_FLASH_BUFS], (*st)[VIEW_FLASH_BUFS]; /* sectors through step k, per buffer */
	double *m, *l;           /* [nq][nkb + 1]: after K/V blocks 0..kb-1 (index kb), natural units */
	double *s;               /* [nq][nk]: scores / sqrt(d) of the head (masked: -inf) */
};

int view_flash_build(const struct view_trace *tr, long block, struct view_flash *f, struct gl_err *err);
void view_flash_free(struct view_flash *f);
void view_flash_draw(const struct view_flash *f, int step, struct view_canvas *cv);
/* The cell of the S block grid: 'N' now, 'D' done earlier, 'x' skipped (causal), 'o' another CTA's
 * (flash2), '.' later. */
char view_flash_cell(const struct view_flash *f, int step, int qb, int kb);

/* Shared drawing helpers: the title rows every view starts with. */
int view_draw_header(struct view_canvas *cv, const struct view_trace *tr, const char *view);
/* "a lanes" strip: label then one base-32 character per lane, styled. */
void view_draw_lane_row(struct view_canvas *cv, int y, const char *label, const int value[32], const int style[32]);

#endif
