/* test_common_safe_dir.c — the one helper for files in directories another user could write
 * (common/safe_dir.h): a directory that is a symbolic link, belongs to another user or is writable by
 * group or others is refused with a sentence naming it and the fix; a file is created under a fresh name
 * with O_EXCL|O_NOFOLLOW and renamed in, so a symbolic link planted at its final name is replaced, never
 * followed; an existing file that is a link, a FIFO or another user's is refused (never opened for
 * reading, never blocking); a listing sees every entry each time; temporary entries are private and
 * stale ones are removed.  Another user is user 65534 when this runs as root, else the owner of "/". */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "common/safe_dir.h"
#include "common/util.h"
#include "tests/unit/check.h"
#include "tests/unit/tmp_fixture.h"

#define NOBODY 65534

static int open_dir(struct gl_safe_dir *d, const char *path, unsigned flags, struct gl_err *err)
{
	memset(err, 0, sizeof *err);
	return gl_safe_dir_open(d, path, flags, "the test cache", err);
}

static void test_directory_rules(void)
{
	struct gl_safe_dir d;
	struct gl_err err;
	/* created 0700 with its parents */
	CHECK_EQ(open_dir(&d, tmp_path("a/b/cache"), GL_SAFE_DIR_CREATE, &err), GL_OK);
	struct stat st;
	CHECK(stat(tmp_path("a/b/cache"), &st) == 0 && (st.st_mode & 0777) == 0700);
	gl_safe_dir_close(&d);
	/* without CREATE a missing one is an error */
	CHECK_EQ(open_dir(&d, tmp_path("missing"), 0, &err), GL_EENV);
	/* a symbolic link to a directory of ours: refused all the same (nobody may point it elsewhere) */
	CHECK(symlink(tmp_path("a/b/cache"), tmp_path("link")) == 0);
	CHECK_EQ(open_dir(&d, tmp_path("link"), GL_SAFE_DIR_CREATE, &err), GL_EENV);
	CHECK(strstr(err.msg, "is a symbolic link") && strstr(err.msg, "remove the link"));
	/* writable by others, and by the group */
	CHECK(mkdir(tmp_path("open"), 0700) == 0 && chmod(tmp_path("open"), 0777) == 0);
	CHECK_EQ(open_dir(&d, tmp_path("open"), 0, &err), GL_EENV);
	CHECK(strstr(err.msg, "writable by every user (mode 0777)") && strstr(err.msg, "chmod go-w"));
	CHECK(chmod(tmp_path("open"), 0770) == 0);
	CHECK_EQ(open_dir(&d, tmp_path("open"), 0, &err), GL_EENV);
	CHECK(strstr(err.msg, "writable by its group"));
	/* not a directory */
	FILE *f = fopen(tmp_path("plain"), "w");
	CHECK(f && fclose(f) == 0);
	CHECK_EQ(open_dir(&d, tmp_path("plain"), 0, &err), GL_EENV);
	CHECK(strstr(err.msg, "is not a directory"));
	/* another user's directory */
	const char *foreign = "/";
	if (geteuid() == 0) {
		CHECK(mkdir(tmp_path("theirs"), 0700) == 0 && chown(tmp_path("theirs"), NOBODY, NOBODY) == 0);
		foreign = tmp_path("theirs");
	}
	CHECK_EQ(open_dir(&d, foreign, 0, &err), GL_EENV);
	CHECK(strstr(err.msg, "not to you") && strstr(err.msg, "remove it"));
}

static char *read_back(const struct gl_safe_dir *d, const char *name)
{
	char *text = NULL;
	struct gl_err err = {0};
	return gl_safe_dir_read(d, name, 1 << 20, &text, NULL, &err) == GL_OK ? text : NULL;
}

static void test_files(void)
{
	struct gl_safe_dir d;
	struct gl_err err;
	CHECK_EQ(open_dir(&d, tmp_path("files"), GL_SAFE_DIR_CREATE, &err), GL_OK);
	/* a symbolic link planted at the final name points at a file of the caller: writing replaces the link,
	 * the file it pointed at is untouched */
	FILE *f = fopen(tmp_path("precious"), "w");
	CHECK(f && fputs("mine\n", f) >= 0 && fclose(f) == 0);
	CHECK(symlink(tmp_path("precious"), tmp_path("files/entry")) == 0);
	CHECK_EQ(gl_safe_dir_write(&d, "entry", "new\n", 4, &err), GL_OK);
	size_t n;
	char *text = slurp(tmp_path("precious"), &n);
	CHECK_STR(text, "mine\n");
	free(text);
	struct stat st;
	CHECK(lstat(tmp_path("files/entry"), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600);
	text = read_back(&d, "entry");
	CHECK_STR(text, "new\n");
	free(text);
	/* reading: a link is refused, not followed */
	CHECK(symlink(tmp_path("precious"), tmp_path("files/link")) == 0);
	int fd;
	memset(&err, 0, sizeof err);
	CHECK_EQ(gl_safe_dir_open_file(&d, "link", &fd, &st, &err), GL_EENV);
	CHECK(strstr(err.msg, "is a symbolic link"));
	/* a FIFO: refused at once, without waiting for a writer */
	CHECK(mkfifo(tmp_path("files/fifo"), 0600) == 0);
	memset(&err, 0, sizeof err);
	CHECK_EQ(gl_safe_dir_open_file(&d, "fifo", &fd, &st, &err), GL_EENV);
	CHECK(strstr(err.msg, "is not a regular file"));
	/* missing: GL_EUSAGE, so callers can tell a miss from a refusal */
	memset(&err, 0, sizeof err);
	CHECK_EQ(gl_safe_dir_open_file(&d, "none", &fd, &st, &err), GL_EUSAGE);
	/* writable by others, and (as root) another user's */
	CHECK_EQ(gl_safe_dir_write(&d, "shared", "x", 1, &err), GL_OK);
	CHECK(chmod(tmp_path("files/shared"), 0666) == 0);
	memset(&err, 0, sizeof err);
	CHECK_EQ(gl_safe_dir_open_file(&d, "shared", &fd, &st, &err), GL_EENV);
	CHECK(strstr(err.msg, "writable by every user"));
	if (geteuid() == 0) {
		CHECK_EQ(gl_safe_dir_write(&d, "planted", "x", 1, &err), GL_OK);
		CHECK(chown(tmp_path("files/planted"), NOBODY, NOBODY) == 0);
		memset(&err, 0, sizeof err);
		CHECK_EQ(gl_safe_dir_open_file(&d, "planted", &fd, &st, &err), GL_EENV);
		CHECK(strstr(err.msg, "belongs to user 65534"));
	}
	/* a size limit is applied before reading */
	char *big = NULL;
	memset(&err, 0, sizeof err);
	CHECK_EQ(gl_safe_dir_read(&d, "entry", 3, &big, NULL, &err), GL_EENV);
	CHECK(big == NULL && strstr(err.msg, "is 4 bytes, more than the 3"));
	gl_safe_dir_close(&d);
}

struct listing {
	int seen, removed;
};

/* Counts every entry; removes those named "drop-*". */
static void count_entry(const struct gl_safe_dir *d, const char *name, void *arg)
{
	struct listing *l = arg;
	l->seen++;
	if (strncmp(name, "drop-", 5) == 0) {
		gl_safe_dir_discard(d, name);
		l->removed++;
	}
}

/* gl_safe_dir_each: every entry but . and .., from the first one each time it is called; the callback may
 * remove the entry it is given. */
static void test_listing(void)
{
	struct gl_safe_dir d;
	struct gl_err err;
	CHECK_EQ(open_dir(&d, tmp_path("list"), GL_SAFE_DIR_CREATE, &err), GL_OK);
	CHECK_EQ(gl_safe_dir_write(&d, "keep-a", "a", 1, &err), GL_OK);
	CHECK_EQ(gl_safe_dir_write(&d, "keep-b", "b", 1, &err), GL_OK);
	CHECK_EQ(gl_safe_dir_write(&d, "drop-c", "c", 1, &err), GL_OK);
	CHECK(symlink("/etc/passwd", tmp_path("list/drop-link")) == 0);
	struct listing l = {0};
	CHECK_EQ(gl_safe_dir_each(&d, count_entry, &l, &err), GL_OK);
	CHECK_EQ(l.seen, 4);
	CHECK_EQ(l.removed, 2);
	struct stat st;
	CHECK(stat("/etc/passwd", &st) == 0); /* the link went, not what it pointed at */
	l = (struct listing){0};
	CHECK_EQ(gl_safe_dir_each(&d, count_entry, &l, &err), GL_OK); /* again from the first entry */
	CHECK_EQ(l.seen, 2);
	CHECK_EQ(l.removed, 0);
	gl_safe_dir_close(&d);
}

static void test_temporaries(void)
{
	struct gl_safe_dir d, tmp;
	struct gl_err err;
	CHECK_EQ(open_dir(&d, tmp_path("temps"), GL_SAFE_DIR_CREATE, &err), GL_OK);
	char name[64], sub[64];
	int fd;
	CHECK_EQ(gl_safe_dir_create_temp(&d, name, sizeof name, &fd, &err), GL_OK);
	CHECK(strncmp(name, GL_SAFE_DIR_TEMP_PREFIX, strlen(GL_SAFE_DIR_TEMP_PREFIX)) == 0);
	CHECK(write(fd, "abc", 3) == 3 && close(fd) == 0);
	CHECK_EQ(gl_safe_dir_publish(&d, name, "done", &err), GL_OK);
	char *text = read_back(&d, "done");
	CHECK_STR(text, "abc");
	free(text);
	/* a private directory inside, then removed with what is in it */
	CHECK_EQ(gl_safe_dir_make_temp_dir(&d, sub, sizeof sub, &tmp, &err), GL_OK);
	struct stat st;
	CHECK(fstat(tmp.fd, &st) == 0 && (st.st_mode & 0777) == 0700);
	CHECK_EQ(gl_safe_dir_write(&tmp, "inner", "1", 1, &err), GL_OK);
	gl_safe_dir_close(&tmp);
	gl_safe_dir_remove_tree(&d, sub);
	CHECK(fstatat(d.fd, sub, &st, 0) != 0);
	/* stale temporaries (an interrupted process's) go, fresh ones and other entries stay */
	CHECK_EQ(gl_safe_dir_make_temp_dir(&d, sub, sizeof sub, &tmp, &err), GL_OK);
	CHECK_EQ(gl_safe_dir_write(&tmp, "half.so", "x", 1, &err), GL_OK);
	gl_safe_dir_close(&tmp);
	struct timeval old[2] = {{1000000, 0}, {1000000, 0}};
	char path[PATH_MAX + 64];
	snprintf(path, sizeof path, "%s/%s", d.path, sub);
	CHECK(utimes(path, old) == 0);
	CHECK_EQ(gl_safe_dir_create_temp(&d, name, sizeof name, &fd, &err), GL_OK);
	close(fd);
	gl_safe_dir_clean_stale(&d, 3600);
	CHECK(fstatat(d.fd, sub, &st, 0) != 0);
	CHECK(fstatat(d.fd, name, &st, 0) == 0);
	CHECK(fstatat(d.fd, "done", &st, 0) == 0);
	/* a buffer too small for a whole name is refused, not cut (the cut name would lose its random part) */
	char small[16];
	CHECK_EQ(gl_safe_dir_create_temp(&d, small, sizeof small, &fd, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "needs a buffer of 48 bytes, got 16") != NULL);
	CHECK_EQ(gl_safe_dir_make_temp_dir(&d, small, sizeof small, &tmp, &err), GL_EUSAGE);
	gl_safe_dir_close(&d);
	/* a private directory in $TMPDIR, removed with what is in it */
	setenv("TMPDIR", tmp_path("temps"), 1);
	CHECK_EQ(gl_safe_dir_temp(&tmp, "gl-test", &err), GL_OK);
	CHECK(fstat(tmp.fd, &st) == 0 && (st.st_mode & 0777) == 0700 && st.st_uid == geteuid());
	CHECK_EQ(gl_safe_dir_write(&tmp, "x", "1", 1, &err), GL_OK);
	snprintf(path, sizeof path, "%s", tmp.path);
	gl_safe_dir_remove_temp(&tmp);
	CHECK(stat(path, &st) != 0);
}

int main(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/gl-safe-dir-XXXXXX");
	if (!mkdtemp(tmpdir))
		return 77;
	test_directory_rules();
	test_files();
	test_listing();
	test_temporaries();
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	CHECK_DONE();
}
