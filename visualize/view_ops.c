/* view_ops.c — the views as engine tables over their states. */
#include <string.h>

#include "view.h"
#include "view_states.h"

static int coalesce_steps(const void *s)
{
	return (int)((const struct view_coalesce *)s)->n;
}

static void coalesce_draw(const void *s, int step, struct view_canvas *cv)
{
	view_coalesce_draw(s, step, cv);
}

static int banks_steps(const void *s)
{
	return (int)((const struct view_banks *)s)->n;
}

static void banks_draw(const void *s, int step, struct view_canvas *cv)
{
	view_banks_draw(s, step, cv);
}

static int gemm_steps(const void *s)
{
	return ((const struct view_gemm *)s)->nsteps;
}

static void gemm_draw(const void *s, int step, struct view_canvas *cv)
{
	view_gemm_draw(s, step, cv);
}

static int conv_steps(const void *s)
{
	return ((const struct view_conv *)s)->nsteps;
}

static void conv_draw(const void *s, int step, struct view_canvas *cv)
{
	view_conv_draw(s, step, cv);
}

/* Another warp (or CTA) than the step before. */
static unsigned new_warp(const struct view_trace *tr, const uint32_t *idx, int step)
{
	if (step == 0)
		return VIEW_MARK_NEW_WARP;
	const struct gl_trace_event *a = &tr->ev[idx[step - 1]], *b = &tr->ev[idx[step]];
	return a->warp != b->warp || a->block != b->block ? VIEW_MARK_NEW_WARP : 0;
}

/* More sectors than the ideal for the bytes the lanes asked for. */
static unsigned coalesce_marks(const void *s, int step)
{
	const struct view_coalesce *v = s;
	uint64_t sectors = v->sectors_prefix[step + 1] - v->sectors_prefix[step];
	uint64_t ideal = v->ideal_prefix[step + 1] - v->ideal_prefix[step];
	return (sectors > ideal ? VIEW_MARK_POINT : 0) | new_warp(v->tr, v->idx, step);
}

/* A bank conflict: more wavefronts than the conflict-free minimum. */
static unsigned banks_marks(const void *s, int step)
{
	const struct view_banks *v = s;
	bool conflict = v->conflict_prefix[step + 1] > v->conflict_prefix[step];
	return (conflict ? VIEW_MARK_POINT : 0) | new_warp(v->tr, v->idx, step);
}

/* A new K step: the first k of a slab after the first (so the view opens on the second K step). */
static unsigned gemm_marks(const void *s, int step)
{
	const struct view_gemm *g = s;
	if (step + 1 >= g->nsteps || step == 0)
		return 0;
	int slab = view_gemm_slab_of(g, step);
	return slab > 0 && g->slab_k0[slab] == step ? VIEW_MARK_POINT : 0;
}

static bool gemm_key(const void *s, int key)
{
	return view_gemm_key(s, key);
}

static int gemm_pages(const void *s, int w, int h)
{
	return view_gemm_pages(s, w, h);
}

static void gemm_set_page(const void *s, int page)
{
	view_gemm_set_page(s, page);
}

/* clang-format off */
static const char *const gemm_help[] = {
    "}  {     gemm: next / previous warp",
    "t  T     gemm: next / previous thread",
    "z        zoom: one C element per cell",
    "H J K L  pan the zoom: left down up right",
    "v  Tab   the next page",
    NULL,
};
/* clang-format on */

/* A load that re-reads pixels its tile loaded before; a new output tile (CTA). */
static unsigned conv_marks(const void *s, int step)
{
	const struct view_conv *v = s;
	int tile = view_conv_tile_of(v, step);
	return (v->reread[step] ? VIEW_MARK_POINT : 0) | (v->tiles[tile].first == (uint32_t)step ? VIEW_MARK_NEW_WARP : 0);
}

const struct view_ops view_conv_ops = {.name = "conv",
				       .nsteps = conv_steps,
				       .draw = conv_draw,
				       .marks = conv_marks,
				       .point = "load that re-reads pixels its tile loaded (an im2col copy)",
				       .group = "output tile",
				       .tall = true};
const struct view_ops view_coalesce_ops = {.name = "coalesce",
					   .nsteps = coalesce_steps,
					   .draw = coalesce_draw,
					   .marks = coalesce_marks,
					   .point = "access with more sectors than ideal",
					   .group = "warp",
					   .tall = true};
const struct view_ops view_banks_ops = {.name = "banks",
					.nsteps = banks_steps,
					.draw = banks_draw,
					.marks = banks_marks,
					.point = "access with bank conflicts",
					.group = "warp",
					.tall = true};
const struct view_ops view_gemm_ops = {.name = "gemm",
                                       .nsteps = gemm_steps,
                                       .draw = gemm_draw,
                                       .marks = gemm_marks,
                                       .point = "K step (a new slab of A and B)",
                                       .key = gemm_key,
                                       .pages = gemm_pages,
                                       .set_page = gemm_set_page,
                                       .help = gemm_help,
                                       .tall = false}; /* fits itself: pages and zoom instead of scrolling */

static int mma_steps(const void *s)
{
	return ((const struct view_mma *)s)->nsteps;
}

static void mma_draw(const void *s, int step, struct view_canvas *cv)
{
	view_mma_draw(s, step, cv);
}

/* A bank conflict: an ldmatrix, or a K step, whose shared reads took more wavefronts than ideal. */
static unsigned mma_marks(const void *s, int step)
{
	return view_mma_conflict(s, step) ? VIEW_MARK_POINT : 0;
}

const struct view_ops view_mma_ops = {.name = "mma",
				      .nsteps = mma_steps,
				      .draw = mma_draw,
				      .marks = mma_marks,
				      .point = "ldmatrix or K step with bank conflicts",
				      .opens_at_start = true, /* on the fragment map */
				      .tall = true};
static int flash_steps(const void *s)
{
	return ((const struct view_flash *)s)->nsteps;
}

static void flash_draw(const void *s, int step, struct view_canvas *cv)
{
	view_flash_draw(s, step, cv);
}

/* O rescaled: the K/V block raises the running max of a row that had seen keys. */
static unsigned flash_marks(const void *s, int step)
{
	return view_flash_rescales(s, step) ? VIEW_MARK_POINT : 0;
}

const struct view_ops view_flash_ops = {.name = "flash",
					.nsteps = flash_steps,
					.draw = flash_draw,
					.marks = flash_marks,
					.point = "K/V block that raises a row's max (O rescaled)",
					.opens_at_start = true, /* on the first block */
					.tall = true};

static int reduce_steps(const void *s)
{
	return ((const struct view_reduce *)s)->nsteps;
}

static void reduce_draw(const void *s, int step, struct view_canvas *cv)
{
	view_reduce_draw(s, step, cv);
}

/* Idle warps (the tree's upper levels, a warp-0 stage) or a bank conflict; a new barrier interval. */
static unsigned reduce_marks(const void *s, int step)
{
	const struct view_reduce *v = s;
	const struct view_reduce_step *st = &v->steps[step], *prev = step ? &v->steps[step - 1] : NULL;
	bool point = st->conflicts > 0 || view_reduce_idle_warps(v, step) > 0;
	bool group = !prev || prev->block != st->block || prev->interval != st->interval;
	return (point ? VIEW_MARK_POINT : 0) | (group ? VIEW_MARK_NEW_WARP : 0);
}

const struct view_ops view_reduce_ops = {.name = "reduce",
					 .nsteps = reduce_steps,
					 .draw = reduce_draw,
					 .marks = reduce_marks,
					 .point = "step with idle warps or bank conflicts",
					 .group = "barrier interval",
					 .tall = true};

int view_any_build(struct view_any *v, enum gl_topic_view kind, const struct view_trace *tr, long block,
		   struct gl_err *err)
{
	memset(v, 0, sizeof *v);
	v->kind = kind;
	v->state = &v->u;
	switch (kind) {
	case GL_VIEW_GEMM: v->ops = &view_gemm_ops; return view_gemm_build(tr, block, &v->u.ge, err);
	case GL_VIEW_MMA: v->ops = &view_mma_ops; return view_mma_build(tr, block, &v->u.mm, err);
	case GL_VIEW_CONV: v->ops = &view_conv_ops; return view_conv_build(tr, block, &v->u.cn, err);
	case GL_VIEW_FLASH: v->ops = &view_flash_ops; return view_flash_build(tr, block, &v->u.fl, err);
	case GL_VIEW_REDUCE: v->ops = &view_reduce_ops; return view_reduce_build(tr, block, &v->u.re, err);
	case GL_VIEW_BANKS: v->ops = &view_banks_ops; return view_banks_build(tr, block, &v->u.ba, err);
	case GL_VIEW_COALESCE: break;
	}
	v->ops = &view_coalesce_ops;
	return view_coalesce_build(tr, block, &v->u.co, err);
}

void view_any_free(struct view_any *v)
{
	switch (v->kind) {
	case GL_VIEW_GEMM: view_gemm_free(&v->u.ge); return;
	case GL_VIEW_MMA: view_mma_free(&v->u.mm); return;
	case GL_VIEW_CONV: view_conv_free(&v->u.cn); return;
	case GL_VIEW_FLASH: view_flash_free(&v->u.fl); return;
	case GL_VIEW_REDUCE: view_reduce_free(&v->u.re); return;
	case GL_VIEW_BANKS: view_banks_free(&v->u.ba); return;
	case GL_VIEW_COALESCE: break;
	}
	view_coalesce_free(&v->u.co);
}
