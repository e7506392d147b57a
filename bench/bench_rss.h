/* bench_rss.h — run one measurement in a forked child and report the resident memory it reached. */
#ifndef GL_BENCH_RSS_H
#define GL_BENCH_RSS_H

#include <stddef.h>

/* Resident memory of the child, in bytes: `start` when it began (what it inherited from the bench:
 * libraries, the parsed module), `peak` the most it held at once while `fn` ran (Linux VmHWM, reset at
 * the start so earlier rows do not count).  peak_reset says whether that reset worked; without it the
 * peak is at least the start. */
struct bench_rss {
	double start, peak;
	int peak_reset;
};

/* Runs fn(arg, out) in a child process; the child's `out` (outsize bytes, plain data) comes back.
 * Returns fn's result, or -1 when the child could not run or died. */
int bench_rss_run(int (*fn)(void *arg, void *out), void *arg, void *out, size_t outsize, struct bench_rss *rss);

#endif
