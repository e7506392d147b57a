/* exercise_launch.c — one size of an exercise as a launch (deterministic inputs, scalars, geometry), and
 * the comparison of its outputs with the CPU reference run on the same inputs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/half.h"
#include "common/util.h"
#include "kernels/exercise_ref.h"
#include "kernels/registry.h"
#include "lessons/exercise.h"

static int eval(const struct exercise *e, const struct ex_size *s, const char *text, long min, long max,
		const char *what, long *v, struct gl_err *err)
{
	if (exercise_expr_eval(text, e, s, v, err))
		return err->status;
	if (*v < min || *v > max)
		return gl_errf(err, GL_EUSAGE, "%s: %s '%s' is %ld at this size, outside [%ld, %ld]", e->path, what, text,
			       *v, min, max);
	return GL_OK;
}

/* Fills an input buffer as the exercise's init says; fails only when the host runs out of memory. */
static int fill(struct gl_buffer *b, const char *init, uint64_t seed, struct gl_err *err)
{
	size_t n = b->count;
	if (strcmp(init, "seq") == 0) {
		for (size_t i = 0; i < n; i++)
			if (b->dtype == GL_F32)
				((float *)b->host)[i] = (float)i;
			else
				((uint32_t *)b->host)[i] = (uint32_t)i;
	} else if (strncmp(init, "randint:", 8) == 0) {
		uint64_t k = strtoull(init + 8, NULL, 10), x = seed;
		for (size_t i = 0; i < n; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			((uint32_t *)b->host)[i] = k ? (uint32_t)((x >> 33) % k) : 0;
		}
	} else if (strcmp(init, "rand") == 0) {
		if (b->dtype == GL_F32)
			gl_fill_random_f32(b->host, n, seed);
		else /* f16: the same values rounded to half */
			return gl_fill_random_f16(b->host, n, seed, err);
	}
	return GL_OK;
}

static int add_param(const struct exercise *e, const struct ex_size *s, int i, uint64_t seed, struct gl_launch *l,
		     struct gl_err *err)
{
	const struct ex_param *p = &e->params[i];
	long v;
	if (p->pointer) {
		if (eval(e, s, p->count, 1, 1L << 28, "buffer size", &v, err))
			return err->status;
		int b = gl_launch_add_buffer(l, p->name, p->dtype, (size_t)v, p->output);
		if (gl_launch_check(l, err))
			return err->status;
		if (fill(&l->buffers[b], p->init, seed + (uint64_t)i * 7919, err))
			return err->status;
		gl_launch_arg_buffer(l, b);
		return GL_OK;
	}
	if (p->dtype == GL_F32) {
		float f = strtof(p->value, NULL);
		uint32_t bits;
		memcpy(&bits, &f, 4);
		gl_launch_arg_scalar(l, bits, 4);
		return GL_OK;
	}
	if (eval(e, s, p->value, INT32_MIN, UINT32_MAX, "scalar", &v, err))
		return err->status;
	gl_launch_arg_scalar(l, (uint32_t)v, 4);
	return GL_OK;
}

int exercise_launch(const struct exercise *e, const struct ex_size *s, unsigned long seed, struct gl_launch *l,
		    struct gl_err *err)
{
	long v;
	for (int k = 0; k < 3; k++) {
		if (eval(e, s, e->grid[k], 1, 0x7fffffff, "grid", &v, err))
			return err->status;
		l->grid[k] = (unsigned)v;
		if (eval(e, s, e->block[k], 1, 1024, "block", &v, err))
			return err->status;
		l->block[k] = (unsigned)v;
	}
	if (eval(e, s, e->smem, 0, 227 * 1024, "smem", &v, err))
		return err->status;
	l->dyn_smem = (unsigned)v;
	for (int i = 0; i < e->nparams; i++)
		if (add_param(e, s, i, seed, l, err))
			return err->status;
	return GL_OK;
}

static double value_at(const struct gl_buffer *b, size_t i)
{
	switch (b->dtype) {
	case GL_F32: return ((const float *)b->host)[i];
	case GL_U32: return ((const uint32_t *)b->host)[i];
	case GL_I32: return ((const int32_t *)b->host)[i];
	case GL_F16: return gl_f16_to_f32(((const uint16_t *)b->host)[i]);
	default: return NAN;
	}
}

/* "[row 3, col 17 of 33 x 47]" when the buffer's count is written ROWS*COLS (one top-level '*'). */
static void locate(const struct exercise *e, const struct ex_size *s, const char *count, long i, char *buf, size_t n)
{
	buf[0] = '\0';
	int depth = 0;
	const char *star = NULL;
	for (const char *c = count; *c; c++) {
		depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
		if (*c == '*' && depth == 0) {
			if (star)
				return; /* not a plain product of two */
			star = c;
		}
	}
	char left[EX_EXPR_MAX];
	long rows, cols;
	struct gl_err ignore = {0};
	if (!star)
		return;
	snprintf(left, sizeof left, "%.*s", (int)(star - count), count);
	if (exercise_expr_eval(left, e, s, &rows, &ignore) || exercise_expr_eval(star + 1, e, s, &cols, &ignore) ||
	    rows < 2 || cols < 2)
		return;
	snprintf(buf, n, " [row %ld, col %ld of %ld x %ld]", i / cols, i % cols, rows, cols);
}

static void compare_buffer(const struct exercise *e, const struct ex_size *s, const struct ex_param *p,
			   const struct gl_buffer *got, const struct gl_buffer *want, struct ex_mismatch *m)
{
	for (size_t i = 0; i < got->count; i++) {
		double g = value_at(got, i), w = value_at(want, i);
		bool ok = fabs(g - w) <= e->atol + e->rtol * fabs(w); /* false for NaN */
		if (ok)
			continue;
		if (m->ok) {
			m->ok = false;
			snprintf(m->buffer, sizeof m->buffer, "%s", got->name);
			m->index = (long)i;
			m->expected = w;
			m->got = g;
			locate(e, s, p->count, (long)i, m->where, sizeof m->where);
			m->all_zero = true;
			for (size_t k = 0; k < got->count && m->all_zero; k++)
				m->all_zero = value_at(got, k) == 0;
		}
		m->bad++;
	}
}

int exercise_compare(const struct exercise *e, const struct ex_size *s, const struct gl_launch *l,
		     struct ex_mismatch *m, struct gl_err *err)
{
	memset(m, 0, sizeof *m);
	m->ok = true;
	const struct gl_exref *ref = gl_exref_find(e->reference);
	if (!ref || (int)strlen(ref->shape) != e->nparams)
		return gl_errf(err, GL_EUSAGE, "%s: reference '%s' takes %d parameters, the kernel %d", e->path,
			       e->reference, ref ? (int)strlen(ref->shape) : 0, e->nparams);
	/* the reference runs on a fresh copy of the inputs: the kernel may have written its inputs */
	struct gl_launch want = {0};
	int rc = exercise_launch(e, s, 1, &want, err);
	struct gl_exref_io io = {.n = e->nparams};
	memcpy(io.block, l->block, sizeof io.block);
	for (int i = 0; rc == GL_OK && i < e->nparams; i++) {
		const struct gl_arg *a = &want.args[i];
		if (a->kind == GL_ARG_BUFFER) {
			io.ptr[i] = want.buffers[a->buffer].host;
			io.count[i] = want.buffers[a->buffer].count;
		} else if (e->params[i].dtype == GL_F32) {
			float f;
			uint32_t bits = (uint32_t)a->bits;
			memcpy(&f, &bits, 4);
			io.num[i] = f;
		} else {
			io.num[i] = e->params[i].dtype == GL_I32 ? (double)(int32_t)a->bits : (double)(uint32_t)a->bits;
		}
	}
	if (rc == GL_OK) {
		ref->fn(&io);
		for (int i = 0; i < e->nparams; i++) {
			const struct gl_arg *a = &l->args[i];
			if (a->kind == GL_ARG_BUFFER && l->buffers[a->buffer].is_output)
				compare_buffer(e, s, &e->params[i], &l->buffers[a->buffer], &want.buffers[a->buffer], m);
		}
	}
	gl_launch_free(&want);
	return rc;
}
