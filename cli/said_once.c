/* said_once.c — notes a terminal session needs to read once, not at every command (which backend runs and
 * why).  A terminal session is its session leader (getsid, the login shell of the terminal) together with
 * the leader's start time, so a process id reused later is another session.  What was said is a marker
 * file per note and session in the user's runtime directory (checked through common/safe_dir.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "common/safe_dir.h"

/* The start time of process `pid` in clock ticks since boot (/proc/PID/stat, field 22), 0 when unknown. */
static unsigned long long start_time(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
	unsigned long long t = 0;
	for (int field = 2; p && *p; p++)
		if (*p == ' ' && ++field == 22) {
			t = strtoull(p + 1, NULL, 10);
			break;
		}
	return t;
}

/* $XDG_RUNTIME_DIR/gpulab (private to the user, emptied at logout), else ~/.cache/gpulab/said, opened
 * through common/safe_dir.h: created 0700, and not used when it is a link, another user's or writable by
 * others (then a note is said again rather than remembered in a place others control).  -1 then. */
static int marker_dir(struct gl_safe_dir *d)
{
	const char *run = getenv("XDG_RUNTIME_DIR"), *home = getenv("HOME");
	char dir[4096];
	int len;
	if (run && run[0] == '/')
		len = snprintf(dir, sizeof dir, "%s/gpulab", run);
	else if (home && home[0] == '/')
		len = snprintf(dir, sizeof dir, "%s/.cache/gpulab/said", home);
	else
		return -1;
	struct gl_err ignored = {0};
	if (len < 0 || (size_t)len >= sizeof dir)
		return -1;
	return gl_safe_dir_open(d, dir, GL_SAFE_DIR_CREATE, "the directory of notes said once", &ignored);
}

/* Markers "WHAT-SID-START" of sessions that have ended: their leader is gone or is another process. */
static void forget_ended(const struct gl_safe_dir *dir)
{
	int fd = dup(dir->fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	if (!d && fd >= 0)
		close(fd);
	while (d && (e = readdir(d))) {
		char what[64];
		int sid;
		unsigned long long t;
		if (sscanf(e->d_name, "%63[^-]-%d-%llu", what, &sid, &t) != 3)
			continue;
		bool alive = sid > 0 && (kill(sid, 0) == 0 || errno == EPERM);
		if (!alive || start_time(sid) != t)
			unlinkat(dir->fd, e->d_name, 0);
	}
	if (d)
		closedir(d);
}

bool gl_cli_first_in_session(const char *what)
{
	if (!isatty(STDERR_FILENO))
		return false;
	pid_t sid = getsid(0);
	struct gl_safe_dir dir;
	char name[128];
	if (sid <= 0 || marker_dir(&dir) != GL_OK)
		return true; /* nowhere to remember it: better said twice than never */
	snprintf(name, sizeof name, "%.63s-%d-%llu", what, (int)sid, start_time(sid));
	/* empty, so made in place: O_EXCL is the test, and never through a planted link */
	int fd = openat(dir.fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	bool first = fd >= 0 || errno != EEXIST;
	if (fd >= 0) {
		close(fd);
		forget_ended(&dir);
	}
	gl_safe_dir_close(&dir);
	return first;
}
