/* said_once.c — notes a terminal session needs to read once, not at every command (which backend runs and
 * why).  A terminal session is its session leader (getsid, the login shell of the terminal) together with
 * the leader's start time, so a process id reused later is another session.  What was said is a marker
 * file per note and session in the user's runtime directory. */
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

/* `path` and the directories above it, as mkdir -p would make them (private to the user); -1 when the
 * path did not fit its buffer (len, what snprintf returned) or a directory cannot be made. */
static int make_dirs(char *path, int len, size_t n)
{
	if (len < 0 || (size_t)len >= n)
		return -1;
	for (char *p = strchr(path + 1, '/');; p = strchr(p + 1, '/')) {
		if (p)
			*p = '\0';
		int rc = mkdir(path, 0700) == 0 || errno == EEXIST ? 0 : -1;
		if (p)
			*p = '/';
		if (rc || !p)
			return rc;
	}
}

/* $XDG_RUNTIME_DIR/gpulab (private to the user, emptied at logout), else ~/.cache/gpulab/said. */
static int marker_dir(char *dir, size_t n)
{
	const char *run = getenv("XDG_RUNTIME_DIR"), *home = getenv("HOME");
	if (run && run[0] == '/')
		return make_dirs(dir, snprintf(dir, n, "%s/gpulab", run), n);
	if (!home || home[0] != '/')
		return -1;
	return make_dirs(dir, snprintf(dir, n, "%s/.cache/gpulab/said", home), n);
}

/* Markers "WHAT-SID-START" of sessions that have ended: their leader is gone or is another process. */
static void forget_ended(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char what[64];
		int sid;
		unsigned long long t;
		if (sscanf(e->d_name, "%63[^-]-%d-%llu", what, &sid, &t) != 3)
			continue;
		bool alive = sid > 0 && (kill(sid, 0) == 0 || errno == EPERM);
		if (alive && start_time(sid) == t)
			continue;
		char path[4352];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
}

bool gl_cli_first_in_session(const char *what)
{
	if (!isatty(STDERR_FILENO))
		return false;
	pid_t sid = getsid(0);
	char dir[4096], path[4352];
	if (sid <= 0 || marker_dir(dir, sizeof dir) != 0)
		return true; /* nowhere to remember it: better said twice than never */
	snprintf(path, sizeof path, "%s/%s-%d-%llu", dir, what, (int)sid, start_time(sid));
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		return errno != EEXIST;
	close(fd);
	forget_ended(dir);
	return true;
}
