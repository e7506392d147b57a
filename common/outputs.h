/* outputs.h — the bytes a shard of a launch wrote (--cta-range): each output buffer's changed bytes as
 * segments, so shards' outputs can be put together over the same initial buffers.  A segment list is a
 * byte string of records: offset (8 bytes, little-endian), length (4 bytes), then that many bytes.
 * A byte a shard wrote with the value it already had is not in its list; that is harmless, since every
 * shard starts from the same inputs, so the assembled buffer has that value anyway. */
#ifndef GL_OUTPUTS_H
#define GL_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/util.h"

/* One output buffer of a shard: its name, size and the segments of bytes it changed. */
struct gl_output_bytes {
	char name[32];
	size_t bytes;
	uint8_t *segs; /* owned */
	size_t nsegs_bytes;
};

/* The segments where `after` differs from `before` (n bytes each), into *out (malloc'd) and *len. */
void gl_outputs_diff(const uint8_t *before, const uint8_t *after, size_t n, uint8_t **out, size_t *len);
/* Write the segments into buf (n bytes); -1 when a segment is malformed or lies outside buf. */
int gl_outputs_apply(uint8_t *buf, size_t n, const uint8_t *segs, size_t len);
/* Whether every segment of the list is well-formed and lies inside n bytes (a stored list is input). */
bool gl_outputs_valid(const uint8_t *segs, size_t len, size_t n);
/* Join the segment lists of several shards of one buffer (n bytes): 0 and the union in *out (malloc'd)
 * when every byte two shards both wrote has the same value (their writes are CTA-disjoint), else -1. */
int gl_outputs_join(size_t n, const uint8_t *const *segs, const size_t *lens, int count, uint8_t **out,
		    size_t *len);

#endif
