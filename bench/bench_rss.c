/* bench_rss.c — one measurement in a forked child, so each row's peak resident memory is its own:
 * getrusage's ru_maxrss is process-wide and only grows, so the bench measures the child's VmHWM
 * (/proc/self/status) after resetting it with /proc/self/clear_refs (Linux 4.0+, proc(5)). */
#include "bench_rss.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A "VmRSS:" or "VmHWM:" line of /proc/self/status, in bytes; -1 when absent. */
static double status_bytes(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	double kib = -1;
	size_t n = strlen(field);
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, field, n) == 0) {
			kib = atof(line + n);
			break;
		}
	if (f)
		fclose(f);
	return kib < 0 ? -1 : kib * 1024.0;
}

static int reset_peak(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (!f)
		return 0;
	int ok = fputs("5", f) >= 0; /* 5: reset the peak resident set size to the current one */
	return fclose(f) == 0 && ok;
}

static int write_all(int fd, const void *p, size_t n)
{
	for (const char *c = p; n;) {
		ssize_t w = write(fd, c, n);
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t n)
{
	for (char *c = p; n;) {
		ssize_t r = read(fd, c, n);
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

int bench_rss_run(int (*fn)(void *arg, void *out), void *arg, void *out, size_t outsize, struct bench_rss *rss)
{
	int fds[2];
	fflush(NULL); /* nothing buffered is printed twice */
	if (pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		struct bench_rss r = {.start = status_bytes("VmRSS:"), .peak_reset = reset_peak()};
		int rc = fn(arg, out);
		r.peak = status_bytes("VmHWM:");
		int bad = write_all(fds[1], &rc, sizeof rc) || write_all(fds[1], &r, sizeof r) ||
			  write_all(fds[1], out, outsize);
		fflush(NULL);
		_exit(bad ? 1 : 0);
	}
	close(fds[1]);
	int rc = -1;
	struct bench_rss r;
	if (read_all(fds[0], &rc, sizeof rc) || read_all(fds[0], &r, sizeof r) || read_all(fds[0], out, outsize))
		rc = -1;
	else
		*rss = r;
	close(fds[0]);
	int status = 0;
	pid_t got;
	while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	return got == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? rc : -1;
}
