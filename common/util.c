/* util.c — number parsing, suggestions, strings, allocation. */
#define _GNU_SOURCE
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int gl_parse_long(const char *s, long min, long max, const char *what, long *out, struct gl_err *err)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno == ERANGE)
		return gl_errf(err, GL_EUSAGE, "invalid %s '%s' (expected an integer from %ld to %ld)", what, s, min,
			       max);
	if (v < min || v > max)
		return gl_errf(err, GL_EUSAGE, "%s %ld is out of range (expected %ld to %ld)", what, v, min, max);
	*out = v;
	return GL_OK;
}

size_t gl_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = gl_xcalloc(lb + 1, sizeof *row);
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = diag + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	size_t d = row[lb];
	free(row);
	return d;
}

const char *gl_suggest(const char *word, const char *const *candidates, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	for (size_t i = 0; i < n; i++) {
		size_t d = gl_edit_distance(word, candidates[i]);
		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	/* Suggest only plausible typos: at most a third of the word changed, and never all of it ("v" is no
	 * typo of "n"). */
	size_t len = strlen(word), limit = len / 3 + 1;
	return best_d <= limit && best_d < len ? best : NULL;
}

void gl_str_vaddf(struct gl_str *s, const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	if (s->len + (size_t)n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 256;
		while (cap < s->len + (size_t)n + 1)
			cap *= 2;
		s->buf = gl_xrealloc(s->buf, cap);
		s->cap = cap;
	}
	vsnprintf(s->buf + s->len, s->cap - s->len, fmt, ap);
	s->len += (size_t)n;
}

void gl_str_addf(struct gl_str *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gl_str_vaddf(s, fmt, ap);
	va_end(ap);
}

void gl_str_add(struct gl_str *s, const char *text)
{
	gl_str_addf(s, "%s", text);
}

void gl_str_free(struct gl_str *s)
{
	free(s->buf);
	s->buf = NULL;
	s->len = s->cap = 0;
}

static void (*oom_handler)(size_t);

void gl_set_oom_handler(void (*handler)(size_t bytes))
{
	oom_handler = handler;
}

int gl_oom_error(struct gl_err *err, const char *what, double bytes)
{
	return gl_errf(err, GL_EENV, "out of memory: %s needs %.1f MiB of host memory that the system could not "
		       "give; close other programs or choose a smaller size", what, bytes / 1048576.0);
}

/* Out of host memory for a small allocation: the program's handler ends the run (exit status 3). */
static _Noreturn void oom(size_t n)
{
	if (oom_handler)
		oom_handler(n);
	fprintf(stderr, "gpulab: out of memory allocating %zu bytes\n", n);
	abort();
}

void *gl_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *gl_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *gl_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *gl_xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		oom(strlen(s) + 1);
	return p;
}

double gl_host_memory_limit(void)
{
	double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGE_SIZE);
	return phys > 0 ? phys / 2 : 0;
}

int gl_check_host_memory(const char *what, double bytes, struct gl_err *err)
{
	double limit = gl_host_memory_limit();
	if (limit > 0 && bytes > limit)
		return gl_errf(err, GL_EUSAGE, "%s needs %.1f GiB of host memory; gpulab allows itself %.1f GiB (half of "
			       "this machine's memory): choose a smaller size", what, bytes / 1073741824.0,
			       limit / 1073741824.0);
	return GL_OK;
}

double gl_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int gl_term_width(void)
{
	const char *cols = getenv("COLUMNS");
	char *end;
	long n = cols ? strtol(cols, &end, 10) : 0;
	if (cols && *cols && !*end && n > 0)
		return n > 1000 ? 1000 : (int)n;
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

int gl_read_file(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t cap = 4096, n = 0, got;
	char *buf = gl_xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0)
			buf = gl_xrealloc(buf, cap *= 2);
	}
	int saved = errno;
	bool bad = ferror(f) != 0;
	fclose(f);
	if (bad) {
		free(buf);
		errno = saved ? saved : EIO;
		return -1;
	}
	buf[n] = '\0';
	*text = buf;
	if (len)
		*len = n;
	return 0;
}

int gl_cache_dir(const char *sub, char *out, size_t n)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char base[4096], gl[4200];
	if (xdg && *xdg == '/')
		snprintf(base, sizeof base, "%s", xdg);
	else if (home && *home)
		snprintf(base, sizeof base, "%s/.cache", home);
	else
		return -1;
	snprintf(gl, sizeof gl, "%s/gpulab", base);
	if ((size_t)snprintf(out, n, "%s/%s", gl, sub) >= n)
		return -1;
	mkdir(base, 0700);
	mkdir(gl, 0700);
	return (mkdir(out, 0700) == 0 || errno == EEXIST) && access(out, W_OK) == 0 ? 0 : -1;
}
