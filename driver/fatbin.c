/* fatbin.c — the fatbinary reader of fatbin.h: every field is read with memcpy at a checked offset, every
 * size is checked against what may be read before it is used, and payloads are decompressed by the
 * Debian-maintained codecs (libzstd, liblz4) into buffers of the size the entry declares. */
#include "fatbin.h"

#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define ENTRY_MIN_HEADER 64u
#define ENTRY_MAX_HEADER 4096u
#define FLAG_LZ4 0x2000ull
#define FLAG_ZSTD 0x8000ull

static uint16_t rd16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

bool fatbin_is_container(const void *data, size_t avail)
{
	return data && avail >= FATBIN_HEADER_BYTES && rd32(data) == FATBIN_MAGIC;
}

/* One entry at `at` of the container's `end` bytes; *next is where the following one starts. */
static int parse_entry(const uint8_t *base, size_t at, size_t end, struct fatbin_image *im, size_t *next,
		       struct gl_err *err)
{
	if (end - at < ENTRY_MIN_HEADER)
		return gl_errf(err, GL_EUSAGE, "fatbinary: entry at byte %zu is cut off (%zu bytes left, a header "
			       "has %u)", at, end - at, ENTRY_MIN_HEADER);
	const uint8_t *e = base + at;
	uint16_t kind = rd16(e);
	uint32_t header = rd32(e + 4);
	uint64_t padded = rd64(e + 8), stored = rd32(e + 16), uncompressed = rd64(e + 56);
	if (header < ENTRY_MIN_HEADER || header > ENTRY_MAX_HEADER || header > end - at)
		return gl_errf(err, GL_EUSAGE, "fatbinary: entry at byte %zu declares a %u-byte header (%zu bytes "
			       "left)", at, header, end - at);
	if (stored == 0 && !(rd64(e + 40) & (FLAG_LZ4 | FLAG_ZSTD)))
		stored = padded; /* a stored (uncompressed) payload leaves the field 0: it fills the padded size */
	if (padded > end - at - header || stored > padded)
		return gl_errf(err, GL_EUSAGE, "fatbinary: entry at byte %zu declares %llu payload bytes (%llu "
			       "padded) but %zu bytes follow its header", at, (unsigned long long)stored,
			       (unsigned long long)padded, end - at - header);
	*im = (struct fatbin_image){.kind = kind, .ptx_minor = rd16(e + 24), .ptx_major = rd16(e + 26),
				    .sm = (int)rd32(e + 28), .flags = rd64(e + 40), .payload = e + header,
				    .payload_size = (size_t)stored, .uncompressed_size = (size_t)stored};
	if (im->flags & (FLAG_LZ4 | FLAG_ZSTD)) {
		im->codec = im->flags & FLAG_ZSTD ? FATBIN_ZSTD : FATBIN_LZ4;
		if (uncompressed == 0 || uncompressed > FATBIN_MAX_UNCOMPRESSED)
			return gl_errf(err, GL_EUSAGE, "fatbinary: compressed entry at byte %zu declares %llu "
				       "uncompressed bytes (1 to %llu allowed)", at, (unsigned long long)uncompressed,
				       (unsigned long long)FATBIN_MAX_UNCOMPRESSED);
		im->uncompressed_size = (size_t)uncompressed;
	}
	*next = at + header + (size_t)padded;
	return GL_OK;
}

int fatbin_parse(const void *data, size_t avail, struct fatbin *out, struct gl_err *err)
{
	const uint8_t *p = data;
	out->n = 0;
	out->size = 0;
	if (!fatbin_is_container(data, avail))
		return gl_errf(err, GL_EUSAGE, "not a fatbinary: it does not start with the magic number 0x%08x",
			       FATBIN_MAGIC);
	uint16_t version = rd16(p + 4), header = rd16(p + 6);
	uint64_t body = rd64(p + 8);
	if (version != 1 || header < FATBIN_HEADER_BYTES || header > 4096)
		return gl_errf(err, GL_EUSAGE, "fatbinary: version %u with a %u-byte header is not the format gpulab "
			       "reads (version 1, 16 bytes)", version, header);
	if (body > FATBIN_MAX_BYTES || (avail != SIZE_MAX && (avail < header || body > avail - header)))
		return gl_errf(err, GL_EUSAGE, "fatbinary: declares %llu bytes after its header but %zu bytes are "
			       "there", (unsigned long long)body, avail == SIZE_MAX ? (size_t)FATBIN_MAX_BYTES : avail - header);
	size_t end = header + (size_t)body, at = header;
	while (end - at >= ENTRY_MIN_HEADER) {
		if (out->n == FATBIN_MAX_IMAGES)
			return gl_errf(err, GL_EUSAGE, "fatbinary: more than %d entries", FATBIN_MAX_IMAGES);
		size_t next = end;
		int rc = parse_entry(p, at, end, &out->images[out->n], &next, err);
		if (rc)
			return rc;
		out->n++;
		at = next;
	}
	out->size = end;
	return GL_OK;
}

/* The nvcc option that makes a fatbinary carry PTX for an architecture it has SASS for. */
static int no_ptx(const struct fatbin *fb, struct gl_err *err)
{
	int sm = 0;
	for (int i = 0; i < fb->n; i++)
		if (fb->images[i].kind == FATBIN_ELF && fb->images[i].sm > sm)
			sm = fb->images[i].sm;
	if (!sm)
		return gl_errf(err, GL_EUSAGE, "the fatbinary holds no PTX and no SASS (%d entries of unknown kinds)",
			       fb->n);
	return gl_errf(err, GL_EUSAGE, "the fatbinary holds SASS only (sm_%d) and gpulab simulates PTX: rebuild "
		       "with nvcc -arch=sm_%d (which embeds compute_%d PTX beside the SASS) or add -gencode "
		       "arch=compute_%d,code=compute_%d; a program built with -rdc=true (separate compilation, "
		       "device linking, dynamic parallelism) keeps no PTX at all and cannot run on gpulab", sm, sm, sm,
		       sm, sm);
}

const struct fatbin_image *fatbin_pick_ptx(const struct fatbin *fb, int sm, struct gl_err *err)
{
	const struct fatbin_image *best = NULL;
	int oldest = 0;
	for (int i = 0; i < fb->n; i++) {
		const struct fatbin_image *im = &fb->images[i];
		if (im->kind != FATBIN_PTX)
			continue;
		if (im->sm <= sm && (!best || im->sm > best->sm))
			best = im;
		if (!oldest || im->sm < oldest)
			oldest = im->sm;
	}
	if (best)
		return best;
	if (!oldest)
		no_ptx(fb, err);
	else
		gl_errf(err, GL_EUSAGE, "the fatbinary's PTX targets compute_%d and newer, but the modelled GPU is "
			"sm_%d: choose a newer GPU model (GPULAB_GPU) or rebuild with -arch=sm_%d", oldest, sm, sm);
	return NULL;
}

int fatbin_payload(const struct fatbin_image *im, char **out, size_t *len, struct gl_err *err)
{
	char *buf = malloc(im->uncompressed_size + 1);
	if (!buf)
		return gl_errf(err, GL_EENV, "out of memory for a %zu-byte fatbinary image", im->uncompressed_size);
	size_t got = 0;
	if (im->codec == FATBIN_PLAIN) {
		memcpy(buf, im->payload, im->payload_size);
		got = im->payload_size;
	} else if (im->codec == FATBIN_ZSTD) {
		size_t r = ZSTD_decompress(buf, im->uncompressed_size, im->payload, im->payload_size);
		got = ZSTD_isError(r) ? (size_t)-1 : r;
	} else if (im->payload_size <= (size_t)LZ4_MAX_INPUT_SIZE && im->uncompressed_size <= (size_t)LZ4_MAX_INPUT_SIZE) {
		int r = LZ4_decompress_safe((const char *)im->payload, buf, (int)im->payload_size,
					    (int)im->uncompressed_size);
		got = r < 0 ? (size_t)-1 : (size_t)r;
	} else {
		got = (size_t)-1;
	}
	if (got != im->uncompressed_size) {
		free(buf);
		return gl_errf(err, GL_EUSAGE, "fatbinary: the %s image for sm_%d does not decompress (%s, %zu bytes) "
			       "to the %zu bytes its header declares", im->kind == FATBIN_PTX ? "PTX" : "ELF", im->sm,
			       im->codec == FATBIN_ZSTD ? "zstd" : im->codec == FATBIN_LZ4 ? "LZ4" : "stored",
			       im->payload_size, im->uncompressed_size);
	}
	buf[got] = '\0';
	*out = buf;
	*len = got;
	return GL_OK;
}
