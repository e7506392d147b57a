/* sector_ref.h — the definition the global-sector counts are tested against: the distinct 32-byte
 * sectors that the active lanes' bytes fall in, found by comparing each with every one seen before.
 * Header-only, for the tests of gl_mm_global_sectors' fast paths. */
#ifndef GL_TEST_SECTOR_REF_H
#define GL_TEST_SECTOR_REF_H

#include <stdint.h>

static inline unsigned ref_distinct_sectors(const uint64_t a[32], uint32_t mask, unsigned size)
{
	uint64_t seen[64]; /* a lane's access of at most 16 bytes spans at most 2 sectors */
	unsigned n = 0;
	for (int l = 0; l < 32; l++)
		for (uint64_t s = a[l] / 32; (mask >> l & 1) && s <= (a[l] + size - 1) / 32; s++) {
			unsigned i = 0;
			while (i < n && seen[i] != s)
				i++;
			if (i == n)
				seen[n++] = s;
		}
	return n;
}

#endif
