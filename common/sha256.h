/* sha256.h — SHA-256 (FIPS 180-4), for content-addressed caches and the checksums of what they hold, and a
 * profiled program's identity. */
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
/* The digest of everything read from `fd` until its end; 0, or -1 when a read fails. */
int gl_sha256_fd(int fd, char out[65]);
/* The digest of the file at `path`; 0, or -1 when it cannot be opened or read. */
int gl_sha256_file(const char *path, char out[65]);

#endif
