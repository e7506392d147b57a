/* sim_printf.h — device printf: gpulab's own formatter (the host's printf never sees a kernel's format
 * string) and the fixed-size buffer the records go to, like the device's printf FIFO. */
#ifndef GL_SIM_PRINTF_H
#define GL_SIM_PRINTF_H

#include <stddef.h>
#include <stdint.h>

#include "common/util.h"

#define SIM_PRINTF_MAX_ARGS 32 /* CUDA: later conversions are printed as written */

/* Reads the simulated memory the arguments and %s strings live in. */
struct sim_printf_reader {
	/* Copy `size` bytes at `addr` into `out`; -1 when they cannot be read (the reader reports why). */
	int (*read)(void *ctx, uint64_t addr, unsigned size, void *out);
	void *ctx;
};

/* Conversions gpulab does not support: printed as written, counted, the first one kept for the note. */
struct sim_printf_note {
	uint64_t unsupported;
	char first[24];
};

/* Format `fmt` with the arguments packed at `args` (each aligned to its size, as nvcc packs them) and
 * append the text to `out`.  Field widths and precisions are clamped so the text never grows past
 * `limit` bytes.  Returns 0, 1 when the text does not fit in `limit` (`out` then holds part of it),
 * -1 when an argument or string could not be read. */
int sim_printf_format(const char *fmt, uint64_t args, const struct sim_printf_reader *rd, size_t limit,
		      struct gl_str *out, struct sim_printf_note *note);

/* A printf buffer: records (one printf call of one thread) kept in order while they fit in `size` bytes
 * of text; a record that does not fit is dropped and counted. */
struct sim_printf_fifo {
	char *buf;         /* records, each followed by a NUL */
	size_t len, cap;   /* bytes of buf in use / allocated */
	size_t used;       /* bytes of text (without the separators) */
	size_t size;       /* the buffer's size */
	uint64_t dropped;  /* records that did not fit */
	struct sim_printf_note note;
};

size_t sim_printf_room(const struct sim_printf_fifo *f);
void sim_printf_record(struct sim_printf_fifo *f, const char *text, size_t n);
void sim_printf_drop(struct sim_printf_fifo *f);
/* Append the records of `from` in order, dropping those that no longer fit; counts and notes add up. */
void sim_printf_merge(struct sim_printf_fifo *into, const struct sim_printf_fifo *from);
/* The records as one string (the separators removed); the fifo gives up its memory. */
char *sim_printf_text(struct sim_printf_fifo *f);
void sim_printf_free(struct sim_printf_fifo *f);

#endif
