/* view_states.h — the pure state of each view: from a trace, the frame at step k (0-based) — which
 * sectors, banks, lanes and tiles are lit, and the counts accumulated up to k.  No terminal here:
 * unit-tested on hand-built traces. */
#ifndef GL_VIEW_STATES_H
#define GL_VIEW_STATES_H

#include "kernels/conv2d.h"
#include "kernels/registry.h"
#include "view_canvas.h"
#include "view_trace.h"

/* Indices of the events in `space` of CTA `block` (-1: every traced CTA), in recorded order. */
uint32_t *view_select(const struct view_trace *tr, int space, long block, uint32_t *n);
/* A shared access's conflict-free wavefronts (its phases, sim/memmodel.h; one per ldmatrix matrix) and
 * its bank conflicts (the event's wavefronts beyond them), as the simulator counted them. */
unsigned view_shared_ideal(const struct gl_trace_event *e);
unsigned view_shared_conflicts(const struct gl_trace_event *e);

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

/* ---- gemm: the CUTLASS hierarchy of one CTA, one k per step (then the epilogue).  From the trace: the
 * grid of CTA tiles over C (the tile is the C elements the CTA stores), the K slabs the CTA loads from A
 * and B (a slab ends at its shared-memory reads: staged variants; one k per slab without staging), the
 * shared arrays as the kernel filled them (each shared store paired with the same thread's oldest
 * unstored global load), every warp's exact C elements and the selected thread's register tile with
 * the As column and Bs row elements it reads at each k. */
struct view_box {
	long r0, c0, r1, c1; /* inclusive; r1 < r0 when empty */
};

enum view_gemm_mark { VG_NONE, VG_EARLIER, VG_NOW };
#define VIEW_GEMM_TILE_MAX 256 /* rows or columns of one thread's register tile listed */

/* What the keys change (thread, zoom, page): kept behind a pointer so the state stays const for drawing. */
struct view_gemm_ui {
	int thread;     /* the selected thread of the CTA */
	bool zoom;      /* the warp panel shows one C element per cell */
	long zr, zc;    /* the zoom window's first row and column in the CTA tile */
	int zh, zw;     /* the window's size when last drawn (panning moves half of it) */
	int page;       /* the page shown when both do not fit */
};

struct view_gemm {
	const struct view_trace *tr;
	long block;   /* the CTA shown */
	long m, n, k; /* problem dims */
	const struct view_buffer *A, *B, *C;
	uint32_t *idx, nidx; /* the CTA's events */
	int *slab;           /* per selected event: its K slab (0-based); C accesses: nslabs (the epilogue) */
	int nslabs;
	long *slab_k0, *slab_k1; /* the k range of each slab's A and B loads */
	int nsteps;              /* k + 1: one per k, then the epilogue */
	bool staged;             /* the CTA reads shared memory */
	/* the hierarchy */
	unsigned gx, gy;         /* the launch's grid of CTAs */
	long tiles_r, tiles_c;   /* the grid of CTA tiles over C (rows, columns of tiles) */
	long cta_r, cta_c;       /* the shown CTA's place in it */
	struct view_box tile;    /* the C elements the CTA stores (empty: no C stores traced) */
	long tile_elems;         /* how many it stores (== the box's area when the tile is dense) */
	int nthreads, nwarps;    /* of the CTA (launch config) */
	int *owner;              /* m*n: thread (warp*32+lane) storing each C element, -1 none */
	long *warp_elems;        /* per warp: C elements it stores */
	struct view_gemm_ui *ui; /* owned */
};

/* One shared array as a tile of its source: which elements of A (rows of the CTA tile x the slab's k)
 * or B (the slab's k x columns of the tile) it holds at this step, and its layout when affine. */
struct view_gemm_smem {
	const struct view_buffer *buf; /* the shared array, NULL when none holds this source */
	long r0, c0, rows, cols;       /* the source region shown */
	uint8_t *held;                 /* rows*cols: VG_NOW written in this slab, VG_EARLIER held before */
	long nheld, outside;           /* elements held in the region, and outside it */
	bool affine;                   /* offset (elements) = off0 + sr*row + sc*col over what it holds */
	long off0, sr, sc;
};

struct view_gemm_frame {
	int step, nsteps;
	bool epilogue;
	long kk;            /* the k of this step; -1 in the epilogue */
	int slab;           /* its slab; -1 when no load has this k */
	long k0, k1;        /* the slab's k range */
	uint8_t *a, *b, *c; /* marks per element (m*k, k*n, m*n), owned: NOW this slab, EARLIER before */
	struct view_box a_now, b_now;
	struct view_gemm_smem sm[2]; /* [0] holds A (As), [1] holds B (Bs) */
	/* the selected thread at this k: the A rows and B columns it reads, where from */
	long arow[VIEW_GEMM_TILE_MAX], bcol[VIEW_GEMM_TILE_MAX];
	int narow, nbcol;
	long aoff[VIEW_GEMM_TILE_MAX], boff[VIEW_GEMM_TILE_MAX]; /* the shared elements they came from */
	int naoff, nboff;
	bool a_from_shared, b_from_shared;
	uint64_t a_sect, a_req, b_sect, b_req, c_sect, c_req; /* global, slabs up to this one */
	uint64_t sst_wf, sld_wf, s_conflicts;                 /* shared, slabs up to this one */
};

/* A thread's register tile: the distinct rows and columns of the C elements it stores, ascending. */
struct view_gemm_regs {
	long rows[VIEW_GEMM_TILE_MAX], cols[VIEW_GEMM_TILE_MAX];
	int nrows, ncols;
	long elems;   /* C elements it stores */
	bool product; /* elems == nrows * ncols: an outer product updates them all */
};

int view_gemm_build(const struct view_trace *tr, long block, struct view_gemm *g, struct gl_err *err);
void view_gemm_free(struct view_gemm *g);
/* The hierarchy from the CTA's C stores (view_gemm_model.c): tile, owners, warps. */
void view_gemm_model(struct view_gemm *g);
void view_gemm_thread_regs(const struct view_gemm *g, int thread, struct view_gemm_regs *out);
/* The warp storing C[r][c] (global coordinates), -1 none. */
int view_gemm_warp_at(const struct view_gemm *g, long r, long c);
/* The slab holding k, -1 none. */
int view_gemm_slab_of(const struct view_gemm *g, long k);
void view_gemm_frame(const struct view_gemm *g, int step, struct view_gemm_frame *f);
void view_gemm_frame_free(struct view_gemm_frame *f);
void view_gemm_draw(const struct view_gemm *g, int step, struct view_canvas *cv);
/* The keys of the gemm view (view_gemm_ui.c); true when the screen changed. */
bool view_gemm_key(const struct view_gemm *g, int key);
int view_gemm_pages(const struct view_gemm *g, int w, int h);
void view_gemm_set_page(const struct view_gemm *g, int page);

/* "0-3,32-35" or "0-112 every 16": a sorted list of indices as runs, into buf. */
void view_ranges(const long *v, int n, char *buf, size_t size);

/* Elements per grid cell along a dimension of n elements shown in at most `cells` cells: the smallest
 * power of two that fits (so tile edges fall on cell edges). */
long view_grid_scale(long n, int cells);
/* The elements of a rows x cols matrix that cell (cy, cx) covers, rpc x cpc elements per cell. */
void view_grid_cell(long rows, long cols, long rpc, long cpc, int cy, int cx, struct view_box *out);

/* Drawing pieces of the gemm view (view_gemm_draw*.c). */
struct view_gemm_panel {
	int y, x, h, w; /* the panel's cells, below its title row */
};
void view_gemm_draw_tiles(struct view_canvas *cv, int y, int h, const struct view_gemm *g,
                          const struct view_gemm_frame *f);
void view_gemm_draw_cta(struct view_canvas *cv, int y, int h, const struct view_gemm *g,
                        const struct view_gemm_frame *f);
/* A's slabs (the tile's rows x one column per K slab) or B's (one row per slab x the tile's columns),
 * a window of slabs around this one when they do not fit; returns the rows used (with the note). */
int view_gemm_draw_slabs(struct view_canvas *cv, const struct view_gemm_panel *P, const struct view_gemm *g,
                         const struct view_gemm_frame *f, bool b_side);
void view_gemm_slab_title(struct view_canvas *cv, int y, int x, const struct view_gemm *g, bool b_side);
/* The selected thread in lines: its warp's C elements, its register tile, what it reads at this k and
 * the accumulators that updates; returns the rows used. */
int view_gemm_thread_text(struct view_canvas *cv, int y, int x, int h, int w, const struct view_gemm *g,
                          const struct view_gemm_frame *f);
/* The thread's register tile drawn as its outer product at this k (view_gemm_draw_thread.c). */
void view_gemm_draw_thread(struct view_canvas *cv, int y, int h, const struct view_gemm *g,
                           const struct view_gemm_frame *f);
/* Wrap `text` into the box at (y, x) of width w, at most h rows (continuation lines indented by 4);
 * returns the rows used. */
int view_gemm_wrap(struct view_canvas *cv, int y, int x, int w, int h, int style, const char *text);

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
/* The mma view's point: an ldmatrix step, or a K step, with bank conflicts in its shared reads. */
bool view_mma_conflict(const struct view_mma *v, int step);
/* ---- conv: the implicit GEMM's gather, one warp instruction (a global load of the conv2d input x) per
 * step, grouped by the output tile it serves (the y elements its CTA stores): the pixels its lanes read,
 * for the lane that re-reads a pixel (else the first) every (output pixel, filter tap) = A(m, kk) of the
 * im2col matrix that holds that pixel, and how often each pixel of its channel was loaded so far (the
 * duplication im2col would store). */
struct view_conv_tile {
	uint32_t block, first; /* the CTA and its first step */
	long stores;           /* y elements it stores */
	long k[2], p[2], q[2]; /* their output channels, rows and columns (lo, hi; -1 none) */
};

struct view_conv {
	const struct view_trace *tr;
	struct gl_conv_dims d;
	const struct view_buffer *x;
	uint32_t *idx, nidx;   /* the global loads of x: one step each */
	int *reread;           /* per load: lanes reading a pixel an earlier load of its tile read */
	struct view_conv_tile *tiles;
	int ntiles;
	int nsteps;
};

#define VIEW_CONV_MAX_USES 64
struct view_conv_use {
	long m, p, q; /* output pixel (row of A) */
	long kk, r, s; /* tap (column of A) */
};

struct view_conv_frame {
	const struct gl_trace_event *e;
	int step, nsteps, lane; /* the lane of interest */
	int tile, reread;       /* the output tile (index into tiles), lanes re-reading a pixel */
	long elem, n, c, h, w;  /* the lane's element of x */
	struct view_conv_use use[VIEW_CONV_MAX_USES];
	int nuses;             /* how many (m, kk) of A hold the pixel (may exceed the ones listed) */
	uint64_t lane_loads, distinct; /* lane loads of x up to this warp load (whole warps), distinct elements */
	unsigned *plane; /* h x w: loads of each pixel of the lane's image and channel so far; owned */
};

int view_conv_build(const struct view_trace *tr, long block, struct view_conv *v, struct gl_err *err);
void view_conv_free(struct view_conv *v);
/* The output tile step `step` belongs to. */
int view_conv_tile_of(const struct view_conv *v, int step);
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
/* The flash view's point: a K/V block that raises the running max of a row shown, so O is rescaled. */
bool view_flash_rescales(const struct view_flash *f, int step);
/* The cell of the S block grid: 'N' now, 'D' done earlier, 'x' skipped (causal), 'o' another CTA's
 * (flash2), '.' later. */
char view_flash_cell(const struct view_flash *f, int step, int qb, int kb);

/* ---- reduce: a reduction's combining structure from the trace of each traced CTA (view_reduce.c).  The
 * barriers cut a CTA into intervals; a step is the n-th run of one kind of event in an interval over all
 * the warps that made it: global loads of one buffer, shared-memory accesses (a tree level), one round of
 * shuffles (one lane pattern), global writes and atomics (the grid's stage). */
#define VIEW_REDUCE_WARPS 32
enum { VR_LOAD, VR_SHARED, VR_SHFL, VR_WRITE, VR_KINDS };

struct view_reduce_step {
	uint32_t block;          /* the CTA */
	int interval, kind, run; /* after `interval` barriers, the run-th run of this kind there */
	int id;                  /* (its index while the steps are built) */
	uint32_t first;          /* its first event (index into ev) */
	int nev;
	uint32_t lanes[VIEW_REDUCE_WARPS]; /* the lanes of each warp that took part; 0: the warp is idle */
	uint64_t wavefronts, ideal, conflicts; /* shared accesses */
	uint64_t requests, sectors;            /* global accesses */
};

struct view_reduce {
	const struct view_trace *tr;
	const struct gl_trace_event **ev; /* memory and sync events of the shown CTAs, in recorded order */
	uint32_t nev;
	int *step_of;                     /* per event: its step; -1 for a barrier */
	struct view_reduce_step *steps;
	int nsteps, nwarps;               /* nwarps: warps per CTA */
};

/* A step's shuffle round: where each lane read from, and which lanes' sums reach lane 0 by the end of
 * the interval's rounds (a butterfly: every lane's). */
struct view_reduce_frame {
	int step;
	const struct view_reduce_step *st;
	const struct gl_trace_event *e; /* the step's first event (shuffle: the pattern; shared: the banks) */
	int idle;                       /* warps without an event in this step */
	int loads, stores, atomics;     /* events of the step by operation */
	char arrays[64];                /* the buffers they touch: "ssum, skey" */
	bool from_grid;                 /* loads of what the grid's blocks wrote before: a second stage */
	int round, rounds;              /* shuffles: this round of the interval's */
	uint32_t carry;                 /* shuffles: lanes whose value after this round reaches lane 0 */
	uint64_t wf_so_far, conf_so_far, sectors_so_far, shuffles_so_far; /* the step's CTA, steps up to it */
};

int view_reduce_build(const struct view_trace *tr, long block, struct view_reduce *v, struct gl_err *err);
void view_reduce_free(struct view_reduce *v);
int view_reduce_idle_warps(const struct view_reduce *v, int step);
void view_reduce_frame(const struct view_reduce *v, int step, struct view_reduce_frame *f);
void view_reduce_draw(const struct view_reduce *v, int step, struct view_canvas *cv);

/* ---- any view by its kind (the topic's gl_topic_view): its state, and the engine table over it */
struct view_ops;
struct view_any {
	enum gl_topic_view kind;
	union {
		struct view_coalesce co;
		struct view_banks ba;
		struct view_gemm ge;
		struct view_conv cn;
		struct view_mma mm;
		struct view_flash fl;
		struct view_reduce re;
	} u;
	const struct view_ops *ops;
	const void *state; /* the member of u that `kind` names */
};

/* Build view `kind` of CTA `block` (-1: every traced CTA), as its own build function does; free it with
 * view_any_free (also after a failed build). */
int view_any_build(struct view_any *v, enum gl_topic_view kind, const struct view_trace *tr, long block,
		   struct gl_err *err);
void view_any_free(struct view_any *v);

/* Shared drawing helpers: the title rows every view starts with. */
int view_draw_header(struct view_canvas *cv, const struct view_trace *tr, const char *view);
/* "a lanes" strip: label then one base-32 character per lane, styled. */
void view_draw_lane_row(struct view_canvas *cv, int y, const char *label, const int value[32], const int style[32]);

#endif
