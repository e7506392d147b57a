/* sha256.c — SHA-256 as FIPS 180-4 section 6.2 defines it: 64-byte blocks, big-endian words. */
#include "sha256.h"

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sha256_internal.h"

const uint32_t gl_sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

static void block(struct gl_sha256 *s, const uint8_t *p)
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + gl_sha256_k[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
	s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

/* Whether the SHA extensions are used: -1 not yet asked, 0 no, 1 yes (the CPU is asked once). */
static _Atomic int use_ni = -1;

void gl_sha256_ni_allow(bool allow)
{
	atomic_store(&use_ni, allow && gl_sha256_ni_available());
}

/* n whole blocks at p, on the SHA extensions where the CPU has them. */
static void blocks(struct gl_sha256 *s, const uint8_t *p, size_t n)
{
	int ni = atomic_load_explicit(&use_ni, memory_order_relaxed);
	if (ni < 0) {
		ni = gl_sha256_ni_available();
		atomic_store_explicit(&use_ni, ni, memory_order_relaxed);
	}
	if (ni) {
		gl_sha256_ni_blocks(s->h, p, n);
		return;
	}
	for (; n > 0; n--, p += 64)
		block(s, p);
}

void gl_sha256_init(struct gl_sha256 *s)
{
	static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(s->h, h0, sizeof h0);
	s->len = 0;
	s->nbuf = 0;
}

void gl_sha256_add(struct gl_sha256 *s, const void *data, size_t n)
{
	const uint8_t *p = data;
	s->len += n;
	while (n > 0) {
		if (s->nbuf == 0 && n >= 64) { /* whole blocks straight from the input */
			size_t whole = n / 64;
			blocks(s, p, whole);
			p += 64 * whole;
			n -= 64 * whole;
			continue;
		}
		size_t k = 64 - s->nbuf < n ? 64 - s->nbuf : n;
		memcpy(s->buf + s->nbuf, p, k);
		s->nbuf += k;
		p += k;
		n -= k;
		if (s->nbuf == 64) {
			blocks(s, s->buf, 1);
			s->nbuf = 0;
		}
	}
}

void gl_sha256_hex(struct gl_sha256 *s, char out[65])
{
	uint64_t bits = s->len * 8;
	uint8_t pad[72] = {0x80};
	size_t npad = (s->nbuf < 56 ? 56 : 120) - s->nbuf;
	for (int i = 0; i < 8; i++)
		pad[npad + (size_t)i] = (uint8_t)(bits >> (56 - 8 * i));
	gl_sha256_add(s, pad, npad + 8);
	for (int i = 0; i < 8; i++)
		snprintf(out + 8 * i, 9, "%08x", s->h[i]);
}

int gl_sha256_fd(int fd, char out[65])
{
	struct gl_sha256 s;
	gl_sha256_init(&s);
	char buf[65536];
	ssize_t k;
	while ((k = read(fd, buf, sizeof buf)) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		gl_sha256_add(&s, buf, (size_t)k);
	}
	gl_sha256_hex(&s, out);
	return 0;
}

int gl_sha256_file(const char *path, char out[65])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = gl_sha256_fd(fd, out);
	close(fd);
	return rc;
}
