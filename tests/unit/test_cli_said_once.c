/* test_cli_said_once.c — the notes said once per terminal session (cli/said_once.c) keep their markers in
 * a directory checked through common/safe_dir.h: said once, then remembered, in a directory created 0700;
 * a directory that is a link or another user's is not used (the note is said every time and nothing is
 * written there); a link planted at a marker's name is never followed. */
#include <dirent.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cli/cli.h"

static int tty = -1; /* the pseudo-terminal's end that stands in for a terminal on stderr */

/* gl_cli_first_in_session with stderr on a terminal (it remembers notes only for terminals). */
static bool first(const char *what)
{
	int saved = dup(STDERR_FILENO);
	dup2(tty, STDERR_FILENO);
	bool r = gl_cli_first_in_session(what);
	dup2(saved, STDERR_FILENO);
	close(saved);
	return r;
}

static int entries(const char *dir)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", dir);
	return system(cmd) == 0 ? 0 : 1;
}

int main(void)
{
	int master;
	char base[] = "/tmp/gl_test_said_once_XXXXXX", run[128], dir[160], elsewhere[160], target[200];
	if (openpty(&master, &tty, NULL, NULL, NULL) != 0 || getsid(0) <= 0 || !mkdtemp(base)) {
		fprintf(stderr, "no pseudo-terminal or session here: skipped\n");
		return 77;
	}
	snprintf(run, sizeof run, "%s/run", base);
	snprintf(dir, sizeof dir, "%s/gpulab", run);
	snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", base);
	CHECK(mkdir(run, 0700) == 0 && mkdir(elsewhere, 0700) == 0);
	setenv("XDG_RUNTIME_DIR", run, 1);

	/* said once, then remembered; the directory is made private */
	CHECK(first("note-a"));
	CHECK(!first("note-a"));
	CHECK(first("note-b"));
	struct stat st;
	CHECK(lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700);

	/* a link planted at the next marker's name (note-a's marker's name with note-c): not followed */
	char marker[300] = "", cmd[600];
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		if (strncmp(e->d_name, "note-a-", 7) == 0)
			snprintf(marker, sizeof marker, "%s/note-c-%s", dir, e->d_name + 7);
	if (d)
		closedir(d);
	snprintf(target, sizeof target, "%s/planted", elsewhere);
	CHECK(marker[0] && symlink(target, marker) == 0);
	CHECK(!first("note-c")); /* the name is taken: the note counts as said, the link is left alone */
	CHECK(access(target, F_OK) != 0);

	/* the directory is a link to another place: not used, nothing written there, said every time */
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && ln -s '%s' '%s'", dir, elsewhere, dir);
	CHECK(system(cmd) == 0);
	CHECK(first("note-d"));
	CHECK(first("note-d"));
	CHECK_EQ(entries(elsewhere), 0);

	/* another user's directory: not used either */
	if (geteuid() == 0) {
		snprintf(cmd, sizeof cmd, "rm -f '%s' && mkdir -m 0700 '%s' && chown 65534:65534 '%s'", dir, dir, dir);
		CHECK(system(cmd) == 0);
		CHECK(first("note-e"));
		CHECK(first("note-e"));
		CHECK_EQ(entries(dir), 0);
	}
	/* one others may write: not used */
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -m 0777 '%s' && chmod 0777 '%s'", dir, dir, dir);
	CHECK(system(cmd) == 0);
	CHECK(first("note-f"));
	CHECK(first("note-f"));
	CHECK_EQ(entries(dir), 0);

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", base);
	close(master);
	close(tty);
	CHECK_DONE();
}
