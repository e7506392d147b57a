/* sha256_internal.h — what sha256.c shares with its SHA-NI compression function (sha256_ni.c). */
#ifndef GL_SHA256_INTERNAL_H
#define GL_SHA256_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The round constants (FIPS 180-4, 4.2.2). */
extern const uint32_t gl_sha256_k[64];

/* Does this CPU have the SHA extensions (and SSSE3, SSE4.1 that the code around them uses)? */
bool gl_sha256_ni_available(void);
/* The compression function over nblocks 64-byte blocks at p, on the SHA extensions; only where available. */
void gl_sha256_ni_blocks(uint32_t h[8], const uint8_t *p, size_t nblocks);
/* Tests: false makes gl_sha256_add use the portable rounds even where the extensions are available. */
void gl_sha256_ni_allow(bool allow);

#endif
