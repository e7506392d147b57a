/* store_path.c — where the database lives (--db, $GPULAB_DB, XDG data dir, ~/.local/share) and
 * creating the directories above it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store_int.h"

static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static int put_path(char *buf, size_t n, struct gl_err *err, const char *a, const char *b)
{
	int len = snprintf(buf, n, "%s%s", a, b);
	if (len < 0 || (size_t)len >= n)
		return gl_errf(err, GL_EUSAGE, "database path '%s%s' is too long (at most %zu bytes)", a, b,
			       n ? n - 1 : 0);
	return GL_OK;
}

int gl_store_path(const char *explicit_path, char *buf, size_t n, struct gl_err *err)
{
	if (explicit_path) {
		if (!*explicit_path)
			return gl_errf(err, GL_EUSAGE, "--db needs a file path, got an empty string");
		return put_path(buf, n, err, explicit_path, "");
	}
	const char *env = env_nonempty("GPULAB_DB");
	if (env)
		return put_path(buf, n, err, env, "");
	/* The XDG spec says to ignore a relative $XDG_DATA_HOME. */
	const char *xdg = env_nonempty("XDG_DATA_HOME");
	if (xdg && xdg[0] == '/')
		return put_path(buf, n, err, xdg, "/gpulab/gpulab.db");
	const char *home = env_nonempty("HOME");
	if (home)
		return put_path(buf, n, err, home, "/.local/share/gpulab/gpulab.db");
	return gl_errf(err, GL_EENV,
		       "cannot choose a database path: neither $GPULAB_DB, $XDG_DATA_HOME nor $HOME is set; "
		       "pass --db PATH or set GPULAB_DB");
}

static int make_dir(const char *dir, const char *db_path, struct gl_err *err)
{
	struct stat st;
	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return GL_OK;
		return gl_errf(err, GL_EENV,
			       "cannot create the database %s: '%s' exists and is not a directory; "
			       "pass --db PATH or set GPULAB_DB to a writable location",
			       db_path, dir);
	}
	if (mkdir(dir, 0777) == 0 || errno == EEXIST)
		return GL_OK;
	return gl_errf(err, GL_EENV,
		       "cannot create directory '%s' for the database %s: %s; "
		       "pass --db PATH or set GPULAB_DB to a writable location",
		       dir, db_path, strerror(errno));
}

void gl_store_parent_dir(const char *path, char *dir, size_t n)
{
	snprintf(dir, n, "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, n, ".");
	else
		slash[slash == dir] = '\0';
}

int gl_store_make_parent_dirs(const char *path, struct gl_err *err)
{
	char dir[PATH_MAX];
	if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
		return gl_errf(err, GL_EUSAGE, "database path '%s' is too long", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return GL_OK; /* relative file in the current directory, or directly under / */
	*slash = '\0';
	/* Create each level in turn, from the top. */
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = make_dir(dir, path, err);
		*p = '/';
		if (rc)
			return rc;
	}
	return make_dir(dir, path, err);
}

int gl_store_check_creatable(const char *path, struct gl_err *err)
{
	char dir[PATH_MAX];
	struct stat st;
	if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
		return gl_errf(err, GL_EUSAGE, "database path '%s' is too long", path);
	/* Walk up to the nearest path component that exists. */
	for (;;) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			snprintf(dir, sizeof dir, ".");
		else
			slash[slash == dir] = '\0';
		if (stat(dir, &st) == 0 || !slash)
			break;
	}
	if (!S_ISDIR(st.st_mode))
		return gl_errf(err, GL_EENV,
			       "cannot create the database %s: '%s' exists and is not a directory; "
			       "pass --db PATH or set GPULAB_DB to a writable location",
			       path, dir);
	if (access(dir, W_OK | X_OK) != 0)
		return gl_errf(err, GL_EENV,
			       "cannot create the database %s: directory '%s': %s; "
			       "pass --db PATH or set GPULAB_DB to a writable location",
			       path, dir, strerror(errno));
	return GL_OK;
}
