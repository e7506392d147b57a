/* launch.c — building a launch description. */
#include "launch.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const struct {
	const char *name;
	size_t size;
} dtypes[] = {
	[GL_F16] = {"f16", 2}, [GL_BF16] = {"bf16", 2}, [GL_F32] = {"f32", 4}, [GL_F64] = {"f64", 8},
	[GL_I8] = {"i8", 1},   [GL_U8] = {"u8", 1},     [GL_I16] = {"i16", 2}, [GL_U16] = {"u16", 2},
	[GL_I32] = {"i32", 4}, [GL_U32] = {"u32", 4},   [GL_I64] = {"i64", 8}, [GL_U64] = {"u64", 8},
};

size_t gl_dtype_size(enum gl_dtype t) { return dtypes[t].size; }
const char *gl_dtype_name(enum gl_dtype t) { return dtypes[t].name; }

int gl_dtype_parse(const char *name, enum gl_dtype *out)
{
	for (size_t i = 0; i < GL_ARRAY_LEN(dtypes); i++)
		if (strcmp(dtypes[i].name, name) == 0) {
			*out = (enum gl_dtype)i;
			return 0;
		}
	return -1;
}

int gl_launch_add_buffer(struct gl_launch *l, const char *name, enum gl_dtype t, size_t count, int is_output)
{
	if (l->nbuffers >= GL_MAX_BUFFERS)
		abort(); /* a harness bug, not a user error */
	struct gl_buffer *b = &l->buffers[l->nbuffers];
	snprintf(b->name, sizeof b->name, "%s", name);
	b->dtype = t;
	b->count = count;
	b->host = calloc(count ? count : 1, gl_dtype_size(t));
	if (!b->host && !l->oom_buffer)
		l->oom_buffer = l->nbuffers + 1;
	b->is_output = is_output;
	b->device_addr = 0;
	return l->nbuffers++;
}

void gl_launch_arg_buffer(struct gl_launch *l, int buffer)
{
	if (l->nargs >= GL_MAX_ARGS)
		abort();
	l->args[l->nargs++] = (struct gl_arg){.kind = GL_ARG_BUFFER, .buffer = buffer, .size = 8};
}

void gl_launch_arg_scalar(struct gl_launch *l, uint64_t bits, unsigned size)
{
	if (l->nargs >= GL_MAX_ARGS)
		abort();
	l->args[l->nargs++] = (struct gl_arg){.kind = GL_ARG_SCALAR, .bits = bits, .size = size};
}

int gl_launch_check(const struct gl_launch *l, struct gl_err *err)
{
	if (!l->oom_buffer)
		return GL_OK;
	const struct gl_buffer *b = &l->buffers[l->oom_buffer - 1];
	char what[96];
	snprintf(what, sizeof what, "buffer '%s' (%zu x %s)", b->name, b->count, gl_dtype_name(b->dtype));
	return gl_oom_error(err, what, (double)b->count * (double)gl_dtype_size(b->dtype));
}

void gl_launch_free(struct gl_launch *l)
{
	for (int i = 0; i < l->nbuffers; i++)
		free(l->buffers[i].host);
	l->nbuffers = 0;
	l->nargs = 0;
	l->oom_buffer = 0;
	l->nsteps = 0;
	l->steps_filed = false;
}

static void save_step(const struct gl_launch *l, struct gl_launch_step *st)
{
	st->entry = l->entry;
	memcpy(st->grid, l->grid, sizeof st->grid);
	memcpy(st->block, l->block, sizeof st->block);
	st->dyn_smem = l->dyn_smem;
	memcpy(st->args, l->args, sizeof st->args);
	st->nargs = l->nargs;
}

void gl_launch_next(struct gl_launch *l)
{
	if (l->nsteps + 1 >= GL_MAX_STEPS || l->steps_filed)
		abort(); /* a harness bug, not a user error */
	save_step(l, &l->steps[l->nsteps++]);
	l->entry = NULL;
	memset(l->grid, 0, sizeof l->grid);
	memset(l->block, 0, sizeof l->block);
	l->dyn_smem = 0;
	l->nargs = 0;
}

int gl_launch_count(struct gl_launch *l)
{
	if (l->nsteps == 0)
		return 1;
	if (!l->steps_filed) { /* file the launch the harness described last */
		save_step(l, &l->steps[l->nsteps++]);
		l->steps_filed = true;
	}
	return l->nsteps;
}

void gl_launch_select(struct gl_launch *l, int k)
{
	if (gl_launch_count(l) == 1)
		return;
	const struct gl_launch_step *st = &l->steps[k];
	l->entry = st->entry;
	memcpy(l->grid, st->grid, sizeof l->grid);
	memcpy(l->block, st->block, sizeof l->block);
	l->dyn_smem = st->dyn_smem;
	memcpy(l->args, st->args, sizeof l->args);
	l->nargs = st->nargs;
}
