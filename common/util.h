/* util.h — small helpers shared by every module: checked number parsing, nearest-name suggestions,
 * a growable string buffer and checked allocation. */
#ifndef GL_UTIL_H
#define GL_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define GL_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Parse a whole string as a decimal integer in [min, max]; `what` names it in the error. */
int gl_parse_long(const char *s, long min, long max, const char *what, long *out, struct gl_err *err);

/* The candidate closest to `word` by edit distance, or NULL when none is close enough to suggest. */
const char *gl_suggest(const char *word, const char *const *candidates, size_t n);
size_t gl_edit_distance(const char *a, const char *b);

/* Growable string. */
struct gl_str {
	char *buf;
	size_t len, cap;
};
void gl_str_addf(struct gl_str *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gl_str_vaddf(struct gl_str *s, const char *fmt, va_list ap);
void gl_str_add(struct gl_str *s, const char *text);
void gl_str_free(struct gl_str *s);

/* Allocation that aborts on failure: out of memory on the host is not a recoverable user error. */
void *gl_xmalloc(size_t n);
void *gl_xcalloc(size_t n, size_t size);
void *gl_xrealloc(void *p, size_t n);
char *gl_xstrdup(const char *s);

/* Seconds on a monotonic clock. */
double gl_now(void);

#endif
