/* sha256.h — SHA-256 (FIPS 180-4), for content-addressed caches (the nvcc PTX cache of `gpulab sim`). */
#ifndef GL_SHA256_H
#define GL_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct gl_sha256 {
	uint32_t h[8];
	uint64_t len;        /* bytes hashed so far */
	uint8_t buf[64];
	size_t nbuf;
};

void gl_sha256_init(struct gl_sha256 *s);
void gl_sha256_add(struct gl_sha256 *s, const void *data, size_t n);
/* The digest as 64 lower-case hex digits and a NUL. */
void gl_sha256_hex(struct gl_sha256 *s, char out[65]);

#endif
