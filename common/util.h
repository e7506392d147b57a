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

/* The whole file at `path`, NUL-terminated (*len, when asked, counts every byte read, so a caller can
 * tell a file that holds NUL bytes: strlen(*text) != *len).  -1 with errno set when it cannot be read. */
int gl_read_file(const char *path, char **text, size_t *len);

/* gpulab's cache folder `sub` ("ptx", "jit"): $XDG_CACHE_HOME/gpulab/SUB when XDG_CACHE_HOME is an absolute
 * path, else $HOME/.cache/gpulab/SUB, created (mode 0700) as needed, into out.  -1 when neither is set or
 * the folder cannot be made or written. */
int gl_cache_dir(const char *sub, char *out, size_t n);

/* Allocation of small, bounded things (names, lists, records).  On failure they call the handler the
 * program installed (the CLI's prints one line and exits with status 3, GL_EENV), else abort.  Large
 * allocations whose size the user chooses (buffers, references, simulator state) use malloc and
 * return GL_EENV through gl_oom_error instead. */
void gl_set_oom_handler(void (*handler)(size_t bytes));
int gl_oom_error(struct gl_err *err, const char *what, double bytes);
void *gl_xmalloc(size_t n);
void *gl_xcalloc(size_t n, size_t size);
void *gl_xrealloc(void *p, size_t n);
char *gl_xstrdup(const char *s);

/* The one rule for how much host memory gpulab allows itself: half of the machine's physical memory.
 * Refuses (GL_EUSAGE) when `bytes` is more, with a line naming `what`, the figure and the limit. */
int gl_check_host_memory(const char *what, double bytes, struct gl_err *err);
double gl_host_memory_limit(void);

/* Seconds on a monotonic clock. */
double gl_now(void);

/* The width text is wrapped to: $COLUMNS when set, else the width of the terminal on stdout, else 80. */
int gl_term_width(void);

#endif
