/* store_wait.c — waiting out other writers: a write that fails because another gpulab command holds the
 * database's lock is tried again until it succeeds or the wait bound passes, with a line on stderr every
 * few seconds so that a long wait is never silent. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "store/store_int.h"

#define GL_STORE_WAIT_S 600   /* ten minutes: longer than any single run's write */
#define GL_STORE_NOTE_MS 5000 /* how often a waiting writer says so */

long gl_store_lock_wait_ms(void)
{
	const char *env = getenv("GPULAB_LOCK_WAIT_S");
	long s;
	struct gl_err ignore = {0};
	if (env && *env && gl_parse_long(env, 0, 86400, "GPULAB_LOCK_WAIT_S", &s, &ignore) == GL_OK)
		return s * 1000;
	return GL_STORE_WAIT_S * 1000L;
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* 20-100 ms, different for each process, so that waiting writers do not retry in lockstep. */
static useconds_t backoff_us(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return 20000 + (*seed >> 8) % 80000;
}

int gl_store_retry_locked(struct gl_store *s, const char *what, gl_store_step step, void *arg,
			  struct gl_err *err)
{
	long start = now_ms(), next_note = start + GL_STORE_NOTE_MS;
	unsigned seed = (unsigned)getpid() ^ (unsigned)start;
	for (;;) {
		struct gl_err attempt = {0};
		s->busy = 0;
		int rc = step(s, arg, &attempt);
		long t = now_ms();
		if (rc == GL_OK)
			return GL_OK;
		if (!s->busy)
			return gl_errf(err, attempt.status, "%s", attempt.msg);
		if (t - start >= s->wait_ms)
			return gl_errf(err, GL_EENV,
				       "database %s stayed locked by another process for %ld s while waiting to "
				       "%s; wait for it to finish or use another --db (GPULAB_LOCK_WAIT_S sets how long "
				       "to wait)",
				       s->path, (t - start) / 1000, what);
		if (t >= next_note) {
			fprintf(stderr,
				"gpulab: database %s is locked by another process; still waiting to %s "
				"(%ld s so far, at most %ld s)\n",
				s->path, what, (t - start) / 1000, s->wait_ms / 1000);
			next_note = t + GL_STORE_NOTE_MS;
		}
		usleep(backoff_us(&seed));
	}
}
