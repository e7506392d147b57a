/* store_save.c — storing a computed run so that it is never lost: the run's one transaction is retried
 * while other gpulab commands hold the lock, and when the wait bound passes the run goes to a spool
 * file beside the database (a gpulab database of its own) that `gpulab import` stores later.  A spool
 * file is made through common/safe_dir.h, in the database's directory only when that is the user's own. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/safe_dir.h"
#include "store/store_int.h"

struct save_args {
	const struct gl_run_info *info;
	const struct gl_launch_record *recs;
	size_t n;
	const char *status;
	long run_id;
	long *launch_ids;
};

static int save_once(struct gl_store *s, void *arg, struct gl_err *err)
{
	struct save_args *a = arg;
	int rc = gl_store_begin_run(s, a->info, &a->run_id, err);
	for (size_t i = 0; rc == GL_OK && i < a->n; i++)
		rc = gl_store_add_launch(s, a->run_id, &a->recs[i], a->launch_ids ? &a->launch_ids[i] : NULL, err);
	if (rc == GL_OK)
		return gl_store_commit_run(s, a->run_id, a->status, err);
	gl_store_abort_run(s);
	return rc;
}

/* Where a spool file goes, opened through common/safe_dir.h: beside the database when its directory is this
 * user's and not writable by others, else the user's own $XDG_DATA_HOME/gpulab/spool (~/.local/share/...). */
static int spool_dir(const struct gl_store *s, struct gl_safe_dir *d, struct gl_err *err)
{
	char dir[PATH_MAX], own[PATH_MAX];
	gl_store_parent_dir(s->path, dir, sizeof dir);
	struct gl_err ignored = {0};
	if (gl_safe_dir_open(d, dir, 0, "the database's directory", &ignored) == GL_OK)
		return GL_OK;
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	if (xdg && *xdg == '/')
		snprintf(own, sizeof own, "%s/gpulab/spool", xdg);
	else if (home && *home)
		snprintf(own, sizeof own, "%s/.local/share/gpulab/spool", home);
	else
		return gl_errf(err, GL_EENV, "%s may be written by other users, and neither $XDG_DATA_HOME nor $HOME "
			       "names a directory of your own for the spool file", dir);
	return gl_safe_dir_open(d, own, GL_SAFE_DIR_CREATE, "the spool directory", err);
}

/* The run written as a new gpulab database in a private temporary directory of d, then renamed in as `name`:
 * nothing of it can be found before it is whole, and a link planted at the name is replaced, not followed. */
static int spool_into(struct gl_safe_dir *d, const char *name, struct save_args *a, struct gl_err *err)
{
	struct gl_safe_dir tmp;
	char tname[64], path[PATH_MAX + 80];
	int rc = gl_safe_dir_make_temp_dir(d, tname, sizeof tname, &tmp, err);
	if (rc)
		return rc;
	snprintf(path, sizeof path, "%s/spool.db", tmp.path);
	struct gl_store *sp = NULL;
	rc = gl_store_open(path, 0, &sp, err);
	a->launch_ids = NULL;
	if (rc == GL_OK)
		rc = save_once(sp, a, err);
	gl_store_close(sp); /* the last connection: SQLite folds the -wal file into the database */
	if (rc == GL_OK && renameat(tmp.fd, "spool.db", d->fd, name) != 0)
		rc = gl_errf(err, GL_EENV, "cannot store %s/%s: %s", d->path, name, strerror(errno));
	gl_safe_dir_close(&tmp);
	gl_safe_dir_remove_tree(d, tname);
	return rc;
}

/* Write the run into a new file "<db>.spool-<time>-<pid>.db" beside the database (or in the spool
 * directory). */
static int spool(struct gl_store *s, struct save_args *a, const char *why, struct gl_err *err)
{
	char name[NAME_MAX + 1], path[PATH_MAX + NAME_MAX + 2];
	const char *base = strrchr(s->path, '/') ? strrchr(s->path, '/') + 1 : s->path;
	snprintf(name, sizeof name, "%.200s.spool-%ld-%ld.db", base, (long)time(NULL), (long)getpid());
	struct gl_safe_dir d;
	struct gl_err e = {0};
	int rc = spool_dir(s, &d, &e);
	if (rc == GL_OK)
		rc = spool_into(&d, name, a, &e);
	snprintf(path, sizeof path, "%s/%s", rc == GL_OK ? d.path : "?", name);
	gl_safe_dir_close(&d);
	if (rc != GL_OK)
		return gl_errf(err, GL_EENV, "%s; saving the run to a spool file instead failed too: %s", why, e.msg);
	return gl_errf(err, GL_EENV,
		       "%s; the run was saved to %s instead: store it with 'gpulab import %s --db %s' "
		       "(then remove that file)",
		       why, path, path, s->path);
}

int gl_store_save_run(struct gl_store *s, const struct gl_run_info *info, const struct gl_launch_record *recs,
		      size_t n, const char *status, long *run_id, long *launch_ids, struct gl_err *err)
{
	struct save_args a = {.info = info, .recs = recs, .n = n, .status = status, .launch_ids = launch_ids};
	struct gl_err e = {0};
	int rc = gl_store_retry_locked(s, "store the run", save_once, &a, &e);
	if (rc == GL_OK) {
		*run_id = a.run_id;
		return GL_OK;
	}
	if (s->busy && strcmp(s->path, ":memory:") != 0)
		return spool(s, &a, e.msg, err);
	return gl_errf(err, e.status, "%s", e.msg);
}
