/* xorshift.h — the unit tests' reproducible random numbers: xorshift64* (S. Vigna, "An experimental
 * exploration of Marsaglia's xorshift generators, scrambled", ACM TOMS 42(4), 2016), each test file with
 * its own state and seed, so that a file's sequence does not depend on the others. */
#ifndef GL_TEST_XORSHIFT_H
#define GL_TEST_XORSHIFT_H

#include <stdint.h>

/* Advance the state and return 64 bits; the high ones are the best. */
static inline uint64_t xs_next64(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

/* A number below n, from the high 31 bits. */
static inline unsigned xs_below(uint64_t *s, unsigned n)
{
	return (unsigned)(xs_next64(s) >> 33) % n;
}

#endif
