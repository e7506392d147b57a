/* safe_dir.c — the one way gpulab creates and reads files in directories another user might write to
 * (safe_dir.h has the rules). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "safe_dir.h"
#include "util.h"

#define MAX_TREE_DEPTH 8 /* temporary directories are flat; deeper trees are left alone */

/* mkdir -p with mode 0700 for the missing levels; the last one's problems are reported by the open. */
static void make_parents(const char *path)
{
	char buf[PATH_MAX];
	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
		return;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0700);
		*p = '/';
	}
	mkdir(buf, 0700);
}

static int refuse_link(const char *what, const char *path, struct gl_err *err)
{
	return gl_errf(err, GL_EENV,
		       "%s %s is a symbolic link; gpulab keeps its files in a real directory of its own, so that nobody "
		       "can point it elsewhere: remove the link (gpulab creates the directory again)",
		       what, path);
}

/* The checks on an open directory or file: owner and mode. */
static int check_owner_mode(const char *what, const char *path, const struct stat *st, struct gl_err *err)
{
	if (st->st_uid != geteuid())
		return gl_errf(err, GL_EENV,
			       "%s %s belongs to user %u, not to you (user %u): gpulab does not use what another user "
			       "could have put there; remove it",
			       what, path, (unsigned)st->st_uid, (unsigned)geteuid());
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return gl_errf(err, GL_EENV,
			       "%s %s is writable by %s (mode %04o): another user could put files there; run "
			       "'chmod go-w %s'",
			       what, path, (st->st_mode & S_IWOTH) ? "every user" : "its group",
			       (unsigned)(st->st_mode & 07777), path);
	return GL_OK;
}

int gl_safe_dir_open(struct gl_safe_dir *d, const char *path, unsigned flags, const char *what, struct gl_err *err)
{
	d->fd = -1;
	snprintf(d->what, sizeof d->what, "%s", what);
	if (snprintf(d->path, sizeof d->path, "%s", path) >= (int)sizeof d->path)
		return gl_errf(err, GL_EENV, "%s path '%.80s...' is too long", what, path);
	if (flags & GL_SAFE_DIR_CREATE)
		make_parents(path);
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		struct stat ls;
		if (lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode))
			return refuse_link(what, path, err);
		if (errno == ENOTDIR)
			return gl_errf(err, GL_EENV, "%s %s exists and is not a directory; move it away", what, path);
		return gl_errf(err, GL_EENV, "cannot open %s %s: %s", what, path, strerror(errno));
	}
	struct stat st;
	int rc = fstat(fd, &st) != 0 ? gl_errf(err, GL_EENV, "cannot read %s %s: %s", what, path, strerror(errno))
				      : check_owner_mode(what, path, &st, err);
	if (rc != GL_OK) {
		close(fd);
		return rc;
	}
	d->fd = fd;
	return GL_OK;
}

void gl_safe_dir_close(struct gl_safe_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* A fresh temporary name: the prefix, this process and 64 random bits; false (name untouched) when the
 * buffer cannot hold one whole (a cut name would lose its random part). */
static bool temp_name(char *name, size_t n)
{
	if (!name || n < GL_SAFE_DIR_TEMP_NAME)
		return false;
	unsigned long long r = 0;
	if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
		static unsigned long long counter;
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		r = ((unsigned long long)ts.tv_nsec << 20) ^ (unsigned long long)ts.tv_sec ^ ++counter;
	}
	snprintf(name, n, "%s%ld-%016llx", GL_SAFE_DIR_TEMP_PREFIX, (long)getpid(), r);
	return true;
}

static int short_name_buffer(size_t n, struct gl_err *err)
{
	return gl_errf(err, GL_EUSAGE, "internal error: a temporary name needs a buffer of %d bytes, got %zu",
		       GL_SAFE_DIR_TEMP_NAME, n);
}

int gl_safe_dir_create_temp(const struct gl_safe_dir *d, char *name, size_t n, int *fd, struct gl_err *err)
{
	for (int tries = 0; tries < 100; tries++) {
		if (!temp_name(name, n))
			return short_name_buffer(n, err);
		*fd = openat(d->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (*fd >= 0)
			return GL_OK;
		if (errno != EEXIST)
			break;
	}
	return gl_errf(err, GL_EENV, "cannot create a file in %s %s: %s", d->what, d->path, strerror(errno));
}

int gl_safe_dir_publish(const struct gl_safe_dir *d, const char *from, const char *to, struct gl_err *err)
{
	if (renameat(d->fd, from, d->fd, to) == 0)
		return GL_OK;
	int e = errno;
	gl_safe_dir_discard(d, from);
	return gl_errf(err, GL_EENV, "cannot store %s/%s: %s", d->path, to, strerror(e));
}

void gl_safe_dir_discard(const struct gl_safe_dir *d, const char *name)
{
	if (unlinkat(d->fd, name, 0) != 0 && (errno == EISDIR || errno == EPERM))
		unlinkat(d->fd, name, AT_REMOVEDIR);
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t k = write(fd, p, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

int gl_safe_dir_write(const struct gl_safe_dir *d, const char *name, const void *data, size_t len, struct gl_err *err)
{
	char tmp[64];
	int fd;
	int rc = gl_safe_dir_create_temp(d, tmp, sizeof tmp, &fd, err);
	if (rc)
		return rc;
	bool bad = write_all(fd, data, len) != 0;
	int e = errno;
	bad |= close(fd) != 0;
	if (bad) {
		gl_safe_dir_discard(d, tmp);
		return gl_errf(err, GL_EENV, "cannot write %s/%s: %s", d->path, name, strerror(e ? e : EIO));
	}
	return gl_safe_dir_publish(d, tmp, name, err);
}

int gl_safe_dir_open_file(const struct gl_safe_dir *d, const char *name, int *fd, struct stat *st, struct gl_err *err)
{
	*fd = openat(d->fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0) {
		int e = errno;
		struct stat ls;
		if (e == ENOENT)
			return gl_errf(err, GL_EUSAGE, "%s/%s does not exist", d->path, name);
		if (fstatat(d->fd, name, &ls, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(ls.st_mode))
			return gl_errf(err, GL_EENV, "%s/%s is a symbolic link, which gpulab does not follow in %s; "
				       "remove it", d->path, name, d->what);
		errno = e;
		return gl_errf(err, GL_EENV, "cannot open %s/%s: %s", d->path, name, strerror(e));
	}
	char path[PATH_MAX + 256];
	snprintf(path, sizeof path, "%s/%s", d->path, name);
	int rc = fstat(*fd, st) != 0 ? gl_errf(err, GL_EENV, "cannot read %s: %s", path, strerror(errno))
	       : !S_ISREG(st->st_mode)
		   ? gl_errf(err, GL_EENV, "%s is not a regular file (a FIFO, device or directory) in %s; remove it",
			     path, d->what)
		   : check_owner_mode("the file", path, st, err);
	if (rc != GL_OK) {
		close(*fd);
		*fd = -1;
	}
	return rc;
}

int gl_safe_dir_read(const struct gl_safe_dir *d, const char *name, size_t max, char **text, size_t *len,
		     struct gl_err *err)
{
	int fd;
	struct stat st;
	*text = NULL;
	int rc = gl_safe_dir_open_file(d, name, &fd, &st, err);
	if (rc)
		return rc;
	if ((unsigned long long)st.st_size > max) {
		close(fd);
		return gl_errf(err, GL_EENV, "%s/%s is %lld bytes, more than the %zu gpulab reads from %s; remove it",
			       d->path, name, (long long)st.st_size, max, d->what);
	}
	char *buf = gl_xmalloc((size_t)st.st_size + 2);
	size_t n = 0;
	ssize_t k;
	while (n <= (size_t)st.st_size && (k = read(fd, buf + n, (size_t)st.st_size + 1 - n)) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	if (n != (size_t)st.st_size) { /* it changed while being read */
		free(buf);
		return gl_errf(err, GL_EENV, "%s/%s changed while gpulab read it; run again", d->path, name);
	}
	buf[n] = '\0';
	*text = buf;
	if (len)
		*len = n;
	return GL_OK;
}

int gl_safe_dir_make_temp_dir(const struct gl_safe_dir *d, char *name, size_t n, struct gl_safe_dir *tmp,
			      struct gl_err *err)
{
	tmp->fd = -1;
	for (int tries = 0; tries < 100; tries++) {
		if (!temp_name(name, n))
			return short_name_buffer(n, err);
		if (mkdirat(d->fd, name, 0700) == 0)
			break;
		if (errno != EEXIST || tries == 99)
			return gl_errf(err, GL_EENV, "cannot make a directory in %s %s: %s", d->what, d->path,
				       strerror(errno));
	}
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/%s", d->path, name) >= (int)sizeof path) {
		gl_safe_dir_discard(d, name);
		return gl_errf(err, GL_EENV, "%s path %s is too long", d->what, d->path);
	}
	int rc = gl_safe_dir_open(tmp, path, 0, d->what, err);
	if (rc)
		gl_safe_dir_discard(d, name);
	return rc;
}

/* Remove everything inside the open directory dfd (depth levels more at most); closes dfd. */
static void empty_dir(int dfd, int depth)
{
	DIR *dir = fdopendir(dfd);
	if (!dir) {
		close(dfd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(dir), e->d_name, 0) == 0 || (errno != EISDIR && errno != EPERM) || depth <= 0)
			continue;
		int sub = openat(dirfd(dir), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			empty_dir(sub, depth - 1);
		unlinkat(dirfd(dir), e->d_name, AT_REMOVEDIR);
	}
	closedir(dir);
}

void gl_safe_dir_remove_tree(const struct gl_safe_dir *d, const char *name)
{
	int sub = openat(d->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0) {
		unlinkat(d->fd, name, 0);
		return;
	}
	empty_dir(sub, MAX_TREE_DEPTH);
	unlinkat(d->fd, name, AT_REMOVEDIR);
}

int gl_safe_dir_each(const struct gl_safe_dir *d, gl_safe_dir_entry_fn *fn, void *arg, struct gl_err *err)
{
	/* an open file description of its own (not a dup of d->fd, which would share the read position), so
	 * that every listing starts at the first entry */
	int fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return gl_errf(err, GL_EENV, "cannot list %s %s: %s", d->what, d->path, strerror(e));
	}
	struct dirent *e;
	while ((e = readdir(dir)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			fn(d, e->d_name, arg);
	closedir(dir);
	return GL_OK;
}

struct stale {
	time_t now;
	double max_age;
};

static void remove_if_stale(const struct gl_safe_dir *d, const char *name, void *arg)
{
	const struct stale *s = arg;
	struct stat st;
	if (strncmp(name, GL_SAFE_DIR_TEMP_PREFIX, strlen(GL_SAFE_DIR_TEMP_PREFIX)) == 0 &&
	    fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && difftime(s->now, st.st_mtime) >= s->max_age)
		gl_safe_dir_remove_tree(d, name);
}

void gl_safe_dir_clean_stale(const struct gl_safe_dir *d, double max_age)
{
	struct stale s = {.now = time(NULL), .max_age = max_age};
	struct gl_err ignored = {0};
	gl_safe_dir_each(d, remove_if_stale, &s, &ignored);
}

int gl_safe_dir_temp(struct gl_safe_dir *d, const char *prefix, struct gl_err *err)
{
	const char *base = getenv("TMPDIR");
	char path[PATH_MAX];
	d->fd = -1;
	if (!base || !*base)
		base = "/tmp";
	if (snprintf(path, sizeof path, "%s/%s-XXXXXX", base, prefix) >= (int)sizeof path)
		return gl_errf(err, GL_EENV, "TMPDIR '%.80s...' is too long; set TMPDIR to a shorter path", base);
	if (!mkdtemp(path))
		return gl_errf(err, GL_EENV, "cannot make a temporary directory in %s: %s; set TMPDIR to a writable "
			       "directory", base, strerror(errno));
	int rc = gl_safe_dir_open(d, path, 0, "the temporary directory", err);
	if (rc)
		rmdir(path);
	return rc;
}

void gl_safe_dir_remove_temp(struct gl_safe_dir *d)
{
	if (d->fd < 0)
		return;
	empty_dir(d->fd, MAX_TREE_DEPTH); /* closes it */
	d->fd = -1;
	rmdir(d->path);
}
