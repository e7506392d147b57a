/* check.h — the unit tests' assertions: each failure prints file:line and the values, the test
 * continues, and main returns 1 when any failed or none ran (CTest reads a non-zero exit as failure). */
#ifndef GL_CHECK_H
#define GL_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                         \
	do {                                                                                \
		check_count++;                                                              \
		if (!(cond)) {                                                              \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
			check_failures++;                                                   \
		}                                                                           \
	} while (0)

#define CHECK_EQ(a, b)                                                                                      \
	do {                                                                                                \
		long long va_ = (long long)(a), vb_ = (long long)(b);                                       \
		check_count++;                                                                              \
		if (va_ != vb_) {                                                                           \
			fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, #a, #b, \
				va_, vb_);                                                                  \
			check_failures++;                                                                   \
		}                                                                                           \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                                                              \
	do {                                                                                               \
		double va_ = (double)(a), vb_ = (double)(b);                                               \
		check_count++;                                                                             \
		if (!(fabs(va_ - vb_) <= (tol))) {                                                         \
			fprintf(stderr, "%s:%d: %s ~= %s failed: %.9g vs %.9g\n", __FILE__, __LINE__, #a, #b, \
				va_, vb_);                                                                 \
			check_failures++;                                                                  \
		}                                                                                          \
	} while (0)

#define CHECK_STR(a, b)                                                                                     \
	do {                                                                                                \
		const char *sa_ = (a), *sb_ = (b);                                                          \
		check_count++;                                                                              \
		if (!sa_ || !sb_ || strcmp(sa_, sb_) != 0) {                                                \
			fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__, __LINE__, #a, #b, \
				sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)");                                \
			check_failures++;                                                                   \
		}                                                                                           \
	} while (0)

/* A test that asserted nothing fails: it would pass whatever the code does.  (One that cannot run here
 * returns 77 before this, and CTest reports it as skipped.) */
#define CHECK_DONE()                                                                       \
	do {                                                                               \
		fprintf(stderr, "%d checks, %d failed\n", check_count, check_failures);    \
		if (check_count == 0)                                                      \
			fprintf(stderr, "no check ran: a test must assert something\n");  \
		return check_failures || check_count == 0 ? 1 : 0;                         \
	} while (0)

#endif
