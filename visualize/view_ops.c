/* view_ops.c — the views as engine tables over their states. */
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

const struct view_ops view_conv_ops = {"conv", conv_steps, conv_draw};

static int mma_steps(const void *s)
{
	return ((const struct view_mma *)s)->nsteps;
}

static void mma_draw(const void *s, int step, struct view_canvas *cv)
{
	view_mma_draw(s, step, cv);
}

const struct view_ops view_coalesce_ops = {"coalesce", coalesce_steps, coalesce_draw};
const struct view_ops view_banks_ops = {"banks", banks_steps, banks_draw};
const struct view_ops view_gemm_ops = {"gemm", gemm_steps, gemm_draw};
const struct view_ops view_mma_ops = {"mma", mma_steps, mma_draw};
