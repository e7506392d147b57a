/* store_open.c — opening and closing the store: checks on the file before SQLite touches it, the
 * connection settings (busy timeout, foreign keys, read-only), and the error messages of sqlite calls. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "store/store_int.h"

static const char where_hint[] = "pass --db PATH or set GPULAB_DB to a writable location";

int gl_store_sql_error(struct gl_store *s, int rc, const char *doing, struct gl_err *err)
{
	const char *path = s->path;
	const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
	int sys = s->db ? sqlite3_system_errno(s->db) : 0;
	const char *why = sys ? strerror(sys) : msg;
	s->busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return gl_errf(err, GL_EENV,
			       "database %s is locked by another process (waited %d ms while %s); "
			       "wait for the other gpulab command to finish, or use another --db",
			       path, s->busy_ms, doing);
	case SQLITE_READONLY:
		return gl_errf(err, GL_EENV,
			       "cannot write database %s while %s: %s; check the permissions of the file and of "
			       "its directory (SQLite keeps -wal and -shm files beside it), or %s",
			       path, doing, msg, where_hint);
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_AUTH:
	case SQLITE_IOERR:
		return gl_errf(err, GL_EENV,
			       "cannot use database %s while %s: %s; check the permissions of the file and of its "
			       "directory, or %s",
			       path, doing, why, where_hint);
	case SQLITE_NOMEM:
		return gl_errf(err, GL_EENV, "out of memory while %s in database %s; close other programs and run again",
			       doing, path);
	case SQLITE_FULL:
		return gl_errf(err, GL_EENV, "disk full while %s in database %s; free some space or %s", doing,
			       path, where_hint);
	case SQLITE_NOTADB:
		return gl_errf(err, GL_EENV,
			       "%s is not a SQLite database; gpulab leaves it untouched: move it away or pass "
			       "--db PATH to use another file",
			       path);
	case SQLITE_CORRUPT:
		return gl_errf(err, GL_EENV,
			       "database %s is damaged (%s); move it away (gpulab then starts a new one) or pass "
			       "--db PATH",
			       path, msg);
	default:
		return gl_errf(err, GL_EINTERNAL, "sqlite error while %s in %s: %s", doing, path, msg);
	}
}

int gl_store_exec(struct gl_store *s, const char *sql, const char *doing, struct gl_err *err)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? GL_OK : gl_store_sql_error(s, rc, doing, err);
}

int gl_store_exec_bound(struct gl_store *s, const char *sql, long a, long b, const char *text, long *id,
			const char *doing, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, a);
		sqlite3_bind_int64(st, 2, b);
		if (text)
			sqlite3_bind_text(st, 3, text, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	if (rc != SQLITE_DONE)
		return gl_store_sql_error(s, rc, doing, err);
	if (id)
		*id = (long)sqlite3_last_insert_rowid(s->db);
	return GL_OK;
}

void gl_store_utc_now(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int is_memory(const char *path)
{
	return strcmp(path, ":memory:") == 0;
}

/* A file that exists and is not empty must start with SQLite's header: anything else is refused before
 * SQLite opens it, so that gpulab never writes into somebody's text file. */
static int check_header(const char *path, struct gl_err *err)
{
	static const char magic[16] = "SQLite format 3";
	char head[16] = {0};
	FILE *f = fopen(path, "rb");
	if (!f)
		return gl_errf(err, GL_EENV, "cannot read database %s: %s; check its permissions or %s", path,
			       strerror(errno), where_hint);
	size_t got = fread(head, 1, sizeof head, f);
	fclose(f);
	if (got != sizeof head || memcmp(head, magic, sizeof magic) != 0)
		return gl_errf(err, GL_EENV,
			       "%s is not a SQLite database (it does not start with the SQLite header); gpulab "
			       "leaves it untouched: move it away or pass --db PATH to use another file",
			       path);
	return GL_OK;
}

static int no_database(const char *path, struct gl_err *err)
{
	return gl_errf(err, GL_EUSAGE,
		       "no database exists at %s yet: run 'gpulab run TOPIC' first to record a run "
		       "(or pass --db PATH / set GPULAB_DB to an existing database)",
		       path);
}

/* How a path is opened: to read, to write (creating it), or to check that a writer could use it. */
enum open_mode { OPEN_WRITE, OPEN_READ, OPEN_CHECK };

/* A database that does not exist yet: a reader has nothing to read, a writer creates it and the
 * directories above it, a check asks whether that creation would work. */
static int missing_file(const char *path, enum open_mode mode, struct gl_err *err)
{
	if (mode == OPEN_READ)
		return no_database(path, err);
	if (mode == OPEN_WRITE) {
		/* SQLite's own failure to create the file names the wrong errno; say what is wrong first */
		int rc = gl_store_make_parent_dirs(path, err);
		return rc ? rc : gl_store_check_creatable(path, err);
	}
	return gl_store_check_creatable(path, err);
}

/* What can be said about the path before SQLite opens it. */
static int check_file(const char *path, enum open_mode mode, struct gl_err *err)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		if (errno == ENOENT || (mode == OPEN_READ && errno == ENOTDIR))
			return missing_file(path, mode, err);
		return gl_errf(err, GL_EENV, "cannot use database path %s: %s; %s", path, strerror(errno),
			       where_hint);
	}
	if (S_ISDIR(st.st_mode))
		return gl_errf(err, GL_EENV, "database path %s is a directory; pass --db with a file path, "
			       "e.g. --db %s/gpulab.db", path, path);
	if (!S_ISREG(st.st_mode))
		return gl_errf(err, GL_EENV, "database path %s is not a regular file; pass --db with a file path",
			       path);
	if (st.st_size == 0)
		return mode == OPEN_READ ? no_database(path, err) : GL_OK;
	return check_header(path, err);
}

static int busy_timeout_ms(void)
{
	const char *env = getenv("GPULAB_BUSY_TIMEOUT_MS"); /* for tests; not documented to users */
	long ms;
	struct gl_err ignore = {0};
	if (env && gl_parse_long(env, 0, 600000, "GPULAB_BUSY_TIMEOUT_MS", &ms, &ignore) == GL_OK)
		return (int)ms;
	return GL_STORE_BUSY_MS;
}

/* "file:" URI of the path with ?immutable=1, percent-encoding all but unreserved characters and '/'. */
static void immutable_uri(const char *path, char *buf, size_t n)
{
	struct gl_str u = {0};
	gl_str_add(&u, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (isalnum(*p) || strchr("/-._~", *p))
			gl_str_addf(&u, "%c", *p);
		else
			gl_str_addf(&u, "%%%02X", *p);
	}
	gl_str_add(&u, "?immutable=1");
	snprintf(buf, n, "%s", u.buf);
	gl_str_free(&u);
}

/* A WAL-mode database in a directory this user cannot write: SQLite cannot create the -shm file a
 * reader needs.  With no -wal file every commit is in the main file, so read it as immutable. */
static int reopen_immutable(struct gl_store *s)
{
	char side[PATH_MAX + 8];
	snprintf(side, sizeof side, "%s-wal", s->path);
	if (access(side, F_OK) == 0)
		return SQLITE_READONLY;
	char uri[3 * PATH_MAX + 32];
	immutable_uri(s->path, uri, sizeof uri);
	sqlite3_close_v2(s->db);
	s->db = NULL;
	return sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
}

static int open_readonly(struct gl_store *s)
{
	int rc = sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READONLY, NULL);
	if (rc != SQLITE_OK || is_memory(s->path))
		return rc;
	rc = sqlite3_exec(s->db, "PRAGMA schema_version", NULL, NULL, NULL);
	if ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN)
		return reopen_immutable(s);
	return SQLITE_OK; /* other errors are reported by the checks that follow */
}

static int read_only_file(const char *path, struct gl_err *err)
{
	return gl_errf(err, GL_EENV, "cannot write database %s: the file is read-only for this user; fix its "
		       "permissions or %s", path, where_hint);
}

static int connect(struct gl_store *s, struct gl_err *err)
{
	int rc = s->readonly ? open_readonly(s)
			     : sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "opening it", err);
	sqlite3_extended_result_codes(s->db, 1);
	if (!s->readonly && sqlite3_db_readonly(s->db, "main") == 1)
		return read_only_file(s->path, err);
	gl_store_set_busy_timeout(s, busy_timeout_ms());
	if (s->readonly)
		return gl_store_exec(s, "PRAGMA query_only = 1", "opening it read-only", err);
	return GL_OK;
}

static struct gl_store *store_new(const char *path, enum open_mode mode, struct gl_err *err, int *rc)
{
	struct gl_store *s = gl_xcalloc(1, sizeof *s);
	char resolved[PATH_MAX];
	*rc = gl_store_path(path, resolved, sizeof resolved, err);
	if (*rc == GL_OK && snprintf(s->path, sizeof s->path, "%s", resolved) >= (int)sizeof s->path)
		*rc = gl_errf(err, GL_EUSAGE, "database path '%s' is too long", resolved);
	s->readonly = mode != OPEN_WRITE;
	s->busy_ms = GL_STORE_BUSY_MS;
	s->wait_ms = gl_store_lock_wait_ms();
	if (*rc == GL_OK && !is_memory(s->path))
		*rc = check_file(s->path, mode, err);
	return s;
}

int gl_store_open(const char *path, int readonly, struct gl_store **out, struct gl_err *err)
{
	int rc;
	*out = NULL;
	struct gl_store *s = store_new(path, readonly ? OPEN_READ : OPEN_WRITE, err, &rc);
	if (rc == GL_OK)
		rc = connect(s, err);
	if (rc == GL_OK)
		rc = gl_store_schema_prepare(s, err);
	if (rc == GL_OK)
		rc = gl_store_exec(s, "PRAGMA foreign_keys = ON", "enabling foreign keys", err);
	if (rc != GL_OK) {
		gl_store_close(s);
		return rc;
	}
	*out = s;
	return GL_OK;
}

/* SQLite writes -wal and -shm files beside the database, so a writer needs its directory too. */
static int check_writable(const struct gl_store *s, struct gl_err *err)
{
	char dir[PATH_MAX];
	gl_store_parent_dir(s->path, dir, sizeof dir);
	if (access(s->path, W_OK) != 0)
		return read_only_file(s->path, err);
	if (access(dir, W_OK | X_OK) != 0)
		return gl_errf(err, GL_EENV, "cannot write database %s: its directory %s: %s (SQLite keeps -wal and "
			       "-shm files beside it); fix the permissions or %s", s->path, dir, strerror(errno),
			       where_hint);
	return GL_OK;
}

int gl_store_check(const char *path, char *resolved, size_t n, struct gl_err *err)
{
	int rc;
	struct stat st;
	struct gl_store *s = store_new(path, OPEN_CHECK, err, &rc);
	snprintf(resolved, n, "%s", s->path);
	int exists = rc == GL_OK && !is_memory(s->path) && stat(s->path, &st) == 0;
	if (exists && st.st_size > 0) {
		rc = connect(s, err);
		if (rc == GL_OK)
			rc = gl_store_schema_check(s, err);
	}
	if (rc == GL_OK && exists)
		rc = check_writable(s, err);
	gl_store_close(s);
	return rc;
}

void gl_store_set_busy_timeout(struct gl_store *s, int ms)
{
	s->busy_ms = ms;
	sqlite3_busy_timeout(s->db, ms);
}

void gl_store_close(struct gl_store *s)
{
	if (!s)
		return;
	if (s->db) {
		if (!sqlite3_get_autocommit(s->db))
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close_v2(s->db);
	}
	free(s);
}

const char *gl_store_file(const struct gl_store *s)
{
	return s->path;
}
