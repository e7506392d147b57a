/* outputs.c — changed-byte segments of output buffers (outputs.h): how the shards of a launch simulated
 * in CTA ranges put their outputs together. */
#include "common/outputs.h"

#include <stdlib.h>
#include <string.h>

static void put(struct gl_str *s, uint64_t off, const uint8_t *data, uint32_t len)
{
	uint8_t head[12];
	for (int i = 0; i < 8; i++)
		head[i] = (uint8_t)(off >> (8 * i));
	for (int i = 0; i < 4; i++)
		head[8 + i] = (uint8_t)(len >> (8 * i));
	/* gl_str holds text; segments are bytes, so grow it by hand */
	if (s->len + 12 + len + 1 > s->cap) {
		s->cap = 2 * (s->len + 12 + len + 1);
		s->buf = gl_xrealloc(s->buf, s->cap);
	}
	memcpy(s->buf + s->len, head, 12);
	memcpy(s->buf + s->len + 12, data, len);
	s->len += 12 + len;
}

/* The segment at *pos of segs: offset, length and data; -1 when malformed. */
static int next(const uint8_t *segs, size_t len, size_t *pos, uint64_t *off, uint32_t *n, const uint8_t **data)
{
	if (len - *pos < 12)
		return -1;
	*off = 0;
	*n = 0;
	for (int i = 0; i < 8; i++)
		*off |= (uint64_t)segs[*pos + i] << (8 * i);
	for (int i = 0; i < 4; i++)
		*n |= (uint32_t)segs[*pos + 8 + i] << (8 * i);
	if (len - *pos - 12 < *n)
		return -1;
	*data = segs + *pos + 12;
	*pos += 12 + *n;
	return 0;
}

bool gl_outputs_valid(const uint8_t *segs, size_t len, size_t n)
{
	uint64_t off;
	uint32_t k;
	const uint8_t *data;
	for (size_t pos = 0; pos < len;)
		if (!segs || next(segs, len, &pos, &off, &k, &data) || off > n || k > n - off)
			return false;
	return true;
}

void gl_outputs_diff(const uint8_t *before, const uint8_t *after, size_t n, uint8_t **out, size_t *len)
{
	struct gl_str s = {0};
	for (size_t i = 0; i < n;) {
		if (before[i] == after[i]) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && before[j] != after[j] && j - i < UINT32_MAX)
			j++;
		put(&s, i, after + i, (uint32_t)(j - i));
		i = j;
	}
	*out = (uint8_t *)s.buf;
	*len = s.len;
}

int gl_outputs_apply(uint8_t *buf, size_t n, const uint8_t *segs, size_t len)
{
	uint64_t off;
	uint32_t k;
	const uint8_t *data;
	for (size_t pos = 0; pos < len;) {
		if (next(segs, len, &pos, &off, &k, &data) || off > n || k > n - off)
			return -1;
		memcpy(buf + off, data, k);
	}
	return 0;
}

int gl_outputs_join(size_t n, const uint8_t *const *segs, const size_t *lens, int count, uint8_t **out,
		    size_t *len)
{
	/* who wrote each byte: 0 none, else 1 + the byte's value (so equal writes by two shards agree) */
	uint16_t *mark = gl_xcalloc(n ? n : 1, sizeof *mark);
	struct gl_str s = {0};
	int rc = 0;
	for (int c = 0; c < count && rc == 0; c++) {
		uint64_t off;
		uint32_t k;
		const uint8_t *data;
		for (size_t pos = 0; rc == 0 && pos < lens[c];) {
			if (next(segs[c], lens[c], &pos, &off, &k, &data) || off > n || k > n - off) {
				rc = -1;
				break;
			}
			for (uint32_t i = 0; i < k && rc == 0; i++) {
				uint16_t v = (uint16_t)(1 + data[i]);
				if (mark[off + i] && mark[off + i] != v)
					rc = -1; /* two shards wrote different values: not CTA-disjoint */
				mark[off + i] = v;
			}
			put(&s, off, data, k);
		}
	}
	free(mark);
	if (rc) {
		free(s.buf);
		s.buf = NULL;
		s.len = 0;
	}
	*out = (uint8_t *)s.buf;
	*len = s.len;
	return rc;
}
