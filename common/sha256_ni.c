/* sha256_ni.c — the SHA-256 compression function on the x86 SHA extensions (SHA-NI: sha256rnds2,
 * sha256msg1, sha256msg2), which do two rounds and the message schedule in single instructions.  The
 * cache keys and checksums hash megabytes of generated C and compiled objects on every run; these
 * instructions do it several times faster than the portable rounds of sha256.c, with the same digest.
 *
 * The instructions keep the eight working variables as two vectors, {a, b, e, f} and {c, d, g, h}
 * (Intel, "Intel SHA Extensions", 2013; the instruction set reference for SHA256RNDS2), so the state
 * is rearranged on the way in and out.  Built only where the compiler can target the extensions; used
 * only where the CPU has them (gl_sha256_ni_available). */
#include "sha256_internal.h"

#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_include)
#if __has_include(<immintrin.h>) && __has_include(<cpuid.h>)
#define GL_SHA_NI 1
#endif
#endif

#ifdef GL_SHA_NI
#include <cpuid.h>
#include <immintrin.h>

bool gl_sha256_ni_available(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1))
		return false;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}

#define SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))

/* Four message words for rounds 4g..4g+3 from the sixteen before them (FIPS 180-4, 6.2.2 step 1):
 * msg1 adds sigma0 of the next word to W[t-16], the alignment brings W[t-7], msg2 adds sigma1 of W[t-2]. */
SHA_TARGET static inline __m128i next_words(__m128i w16, __m128i w12, __m128i w8, __m128i w4)
{
	__m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(w16, w12), _mm_alignr_epi8(w4, w8, 4));
	return _mm_sha256msg2_epu32(t, w4);
}

SHA_TARGET void gl_sha256_ni_blocks(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll); /* big-endian words */
	__m128i badc = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1); /* lanes 0..3: b, a, d, c */
	__m128i hgfe = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B); /* lanes 0..3: h, g, f, e */
	__m128i abef = _mm_alignr_epi8(badc, hgfe, 8);	   /* lanes 3..0: a, b, e, f */
	__m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xF0); /* lanes 3..0: c, d, g, h */
	for (; nblocks > 0; nblocks--, p += 64) {
		__m128i abef0 = abef, cdgh0 = cdgh, w[4];
		for (int g = 0; g < 16; g++) {
			if (g < 4)
				w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), swap);
			else
				w[g % 4] = next_words(w[g % 4], w[(g + 1) % 4], w[(g + 2) % 4], w[(g + 3) % 4]);
			__m128i wk = _mm_add_epi32(w[g % 4], _mm_loadu_si128((const __m128i *)&gl_sha256_k[4 * g]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk); /* rounds 4g, 4g + 1 */
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E)); /* 4g + 2, 4g + 3 */
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}
	__m128i abef_up = _mm_shuffle_epi32(abef, 0x1B); /* lanes 0..3: a, b, e, f */
	__m128i ghcd_up = _mm_shuffle_epi32(cdgh, 0xB1); /* lanes 0..3: g, h, c, d */
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(abef_up, ghcd_up, 0xF0)); /* a, b, c, d */
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(ghcd_up, abef_up, 8));   /* e, f, g, h */
}

#else

bool gl_sha256_ni_available(void)
{
	return false;
}

void gl_sha256_ni_blocks(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
	(void)h, (void)p, (void)nblocks; /* never called: not available */
}

#endif
