/* launch.h — what one kernel launch needs, independent of the backend that runs it: the PTX entry,
 * grid and block, dynamic shared memory, host buffers and the argument list in .param order. */
#ifndef GL_LAUNCH_H
#define GL_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

struct gl_tex_object;

enum gl_dtype { GL_F16, GL_BF16, GL_F32, GL_F64, GL_I8, GL_U8, GL_I16, GL_U16, GL_I32, GL_U32, GL_I64, GL_U64 };

size_t gl_dtype_size(enum gl_dtype t);
const char *gl_dtype_name(enum gl_dtype t);
int gl_dtype_parse(const char *name, enum gl_dtype *out);

#define GL_MAX_BUFFERS 16
#define GL_MAX_ARGS 32
#define GL_MAX_STEPS 8 /* kernel launches of one multi-launch variant */

struct gl_buffer {
	char name[32];
	enum gl_dtype dtype;
	size_t count;   /* elements */
	void *host;     /* count * dtype size bytes, owned by the launch */
	int is_output;  /* copied back after the kernel ran */
	uint64_t device_addr; /* filled by the backend; 256-byte aligned like cudaMalloc */
};

enum gl_arg_kind { GL_ARG_BUFFER, GL_ARG_SCALAR };

struct gl_arg {
	enum gl_arg_kind kind;
	int buffer;     /* index into buffers, for GL_ARG_BUFFER */
	uint64_t bits;  /* raw little-endian value, for GL_ARG_SCALAR */
	unsigned size;  /* bytes: 1, 2, 4 or 8 */
};

/* One kernel launch of a multi-launch variant: what differs between its launches (the buffers are shared). */
struct gl_launch_step {
	const char *entry;
	unsigned grid[3], block[3];
	unsigned dyn_smem;
	struct gl_arg args[GL_MAX_ARGS];
	int nargs;
};

struct gl_launch {
	const char *module;     /* PTX text */
	const char *module_name;/* for messages: "transpose.ptx" */
	const char *entry;      /* .entry name */
	const char *sass;       /* nvdisasm -gp text of the module's SASS (sass_map.h), or NULL */
	const char *sass_why;   /* why there is none, for the note: "nvdisasm not found" */
	unsigned grid[3], block[3];
	unsigned dyn_smem;
	struct gl_buffer buffers[GL_MAX_BUFFERS];
	int nbuffers;
	struct gl_arg args[GL_MAX_ARGS];
	int nargs;
	int oom_buffer;         /* 1 + index of a buffer the host had no memory for; 0 = none */
	/* The texture and surface objects the kernel may name by handle (common/texture.h), or NULL.  The
	 * caller owns them and keeps them valid while the launch runs; they are shared by every step. */
	const struct gl_tex_object *textures;
	int ntextures;
	/* A variant may be a sequence of kernel launches over the same buffers (S = QK^T, softmax, PV): the
	 * harness describes each in turn, calling gl_launch_next between them.  steps[] holds the finished
	 * ones; the fields above describe the one being written, and, once gl_launch_select(l, k) ran,
	 * launch k.  A single-launch variant never touches them. */
	struct gl_launch_step steps[GL_MAX_STEPS];
	int nsteps;
	bool steps_filed;       /* gl_launch_count filed the last one */
};

/* Add a zeroed buffer and return its index.  When the host has no memory for it, its host pointer is
 * NULL and gl_launch_check says so: check before writing the buffers. */
int gl_launch_add_buffer(struct gl_launch *l, const char *name, enum gl_dtype t, size_t count, int is_output);
/* GL_EENV (out of memory, naming the buffer) when a buffer could not be allocated, else GL_OK. */
int gl_launch_check(const struct gl_launch *l, struct gl_err *err);
void gl_launch_arg_buffer(struct gl_launch *l, int buffer);
void gl_launch_arg_scalar(struct gl_launch *l, uint64_t bits, unsigned size);
void gl_launch_free(struct gl_launch *l);

/* Finish the launch described so far and start describing the next one of the same variant: entry,
 * geometry, shared memory and arguments start empty, the buffers stay.  Aborts past GL_MAX_STEPS (a
 * harness bug). */
void gl_launch_next(struct gl_launch *l);
/* How many kernel launches the description holds (1 for a single-launch variant).  The first call after
 * the harness finished also files the last launch among the steps. */
int gl_launch_count(struct gl_launch *l);
/* Make launch k (0-based, < gl_launch_count) the one the fields describe, for a backend to run. */
void gl_launch_select(struct gl_launch *l, int k);

#endif
