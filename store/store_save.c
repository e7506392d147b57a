/* store_save.c — storing a computed run so that it is never lost: the run's one transaction is retried
 * while other gpulab commands hold the lock, and when the wait bound passes the run goes to a spool
 * file beside the database (a gpulab database of its own) that `gpulab import` stores later. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* Write the run into a new file "<db>.spool-<time>-<pid>.db" beside the database. */
static int spool(struct gl_store *s, struct save_args *a, const char *why, struct gl_err *err)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof path, "%s.spool-%ld-%ld.db", s->path, (long)time(NULL), (long)getpid());
	struct gl_store *sp = NULL;
	struct gl_err e = {0};
	int rc = gl_store_open(path, 0, &sp, &e);
	a->launch_ids = NULL;
	if (rc == GL_OK)
		rc = save_once(sp, a, &e);
	gl_store_close(sp);
	if (rc != GL_OK)
		return gl_errf(err, GL_EENV, "%s; saving the run to %s instead failed too: %s", why, path, e.msg);
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
