/* store_schema.c — is this file gpulab's, and at which schema version: the checks made (reading only)
 * before anything is written, WAL mode, and the forward migrations, applied in one transaction. */
#include <stdio.h>
#include <string.h>

#include "store/store_int.h"

extern const char gl_schema_sql[]; /* data/schema.sql, embedded at build time */
extern const char gl_migrate_2_sql[]; /* data/migrate_2.sql */
extern const char gl_migrate_3_sql[]; /* data/migrate_3.sql */
extern const char gl_migrate_4_sql[]; /* data/migrate_4.sql */
extern const char gl_migrate_5_sql[]; /* data/migrate_5.sql */
extern const char gl_migrate_6_sql[]; /* data/migrate_6.sql */
extern const char gl_migrate_7_sql[]; /* data/migrate_7.sql */
extern const char gl_migrate_8_sql[]; /* data/migrate_8.sql */

/* Migration step N brings a database from user_version N-1 to N.  Append steps; never edit old ones. */
static const char *const migrations[] = {
	gl_schema_sql, /* 1: the schema of data/schema.sql */
	gl_migrate_2_sql, /* 2: sanitizer findings (data/migrate_2.sql) */
	gl_migrate_3_sql, /* 3: each launch's buffer map (data/migrate_3.sql) */
	gl_migrate_4_sql, /* 4: multi-launch variants: launches.part and .entry (data/migrate_4.sql) */
	gl_migrate_5_sql, /* 5: each launch's guidance; run_summary with topic, variants, parameters (data/migrate_5.sql) */
	gl_migrate_6_sql, /* 6: run UUIDs and provenance, partial launches (data/migrate_6.sql) */
	gl_migrate_7_sql, /* 7: exercise progress (data/migrate_7.sql) */
	gl_migrate_8_sql, /* 8: why a run ran on its backend, runs.backend_note (data/migrate_8.sql) */
};

int gl_store_schema_version(void)
{
	return (int)(sizeof migrations / sizeof migrations[0]);
}

struct db_facts {
	int user_version;
	int app_id;
	int objects;       /* entries of sqlite_master */
	int gpulab_tables; /* how many of runs, launches, metrics exist */
};

static int read_int(struct gl_store *s, const char *sql, int *out, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*out = sqlite3_column_int(st, 0);
			rc = SQLITE_OK;
		}
		sqlite3_finalize(st);
	}
	return rc == SQLITE_OK ? GL_OK : gl_store_sql_error(s, rc, "reading it", err);
}

static int read_facts(struct gl_store *s, struct db_facts *f, struct gl_err *err)
{
	/* One read snapshot: another process may commit a new schema between two of these reads, and a
	 * version read before its commit with tables read after it would look like a half-written file. */
	sqlite3_exec(s->db, "SAVEPOINT gl_facts", NULL, NULL, NULL);
	int rc = read_int(s, "PRAGMA user_version", &f->user_version, err);
	if (rc == GL_OK)
		rc = read_int(s, "PRAGMA application_id", &f->app_id, err);
	if (rc == GL_OK)
		rc = read_int(s, "SELECT count(*) FROM sqlite_master", &f->objects, err);
	if (rc == GL_OK)
		rc = read_int(s,
			      "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
			      "AND name IN ('runs', 'launches', 'metrics')",
			      &f->gpulab_tables, err);
	sqlite3_exec(s->db, "RELEASE gl_facts", NULL, NULL, NULL);
	return rc;
}

static int is_fresh(const struct db_facts *f)
{
	return f->objects == 0 && f->user_version == 0 && (f->app_id == 0 || f->app_id == GL_STORE_APP_ID);
}

/* The schema sets PRAGMA application_id in the same transaction as its tables, so every file gpulab
 * wrote carries it; tables that merely have gpulab's names do not make a file gpulab's. */
static int is_gpulab(const struct db_facts *f)
{
	return f->app_id == GL_STORE_APP_ID;
}

static int foreign(struct gl_store *s, const char *why, struct gl_err *err)
{
	return gl_errf(err, GL_EENV,
		       "%s is a SQLite database but not gpulab's (%s); gpulab leaves it untouched: pass --db PATH "
		       "or set GPULAB_DB to use another file",
		       s->path, why);
}

/* The column names of `table` in schema `db`, comma-separated ("" when there is no such table). */
static int columns_of(sqlite3 *db, const char *schema, const char *table, char *buf, size_t n)
{
	sqlite3_stmt *st;
	buf[0] = '\0';
	int rc = sqlite3_prepare_v2(db, "SELECT group_concat(name, ',') FROM pragma_table_info(?1, ?2)", -1, &st,
				    NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, schema, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 0);
		snprintf(buf, n, "%s", v ? (const char *)v : "");
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* A private in-memory database with the schema of `version`, built by the migration steps. */
static int reference_schema(int version, sqlite3 **out)
{
	int rc = sqlite3_open_v2(":memory:", out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	for (int v = 0; rc == SQLITE_OK && v < version; v++)
		rc = sqlite3_exec(*out, migrations[v], NULL, NULL, NULL);
	return rc;
}

/* Every table of the schema at the file's version must be there with the same columns in the same order;
 * checked by reading only, before gpulab writes anything (even the journal mode). */
static int check_tables(struct gl_store *s, int version, struct gl_err *err)
{
	sqlite3 *ref = NULL;
	sqlite3_stmt *st = NULL;
	int rc = reference_schema(version, &ref);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(ref, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1,
					&st, NULL);
	int status = GL_OK;
	while (rc == SQLITE_OK && status == GL_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *table = (const char *)sqlite3_column_text(st, 0);
		char want[1024], have[1024], why[1200];
		rc = columns_of(ref, "main", table, want, sizeof want);
		if (rc == SQLITE_OK && (rc = columns_of(s->db, "main", table, have, sizeof have)) != SQLITE_OK) {
			status = gl_store_sql_error(s, rc, "reading its tables", err);
			break;
		}
		if (rc == SQLITE_OK && strcmp(want, have) != 0) {
			if (have[0])
				snprintf(why, sizeof why, "its table '%s' does not have gpulab's columns", table);
			else
				snprintf(why, sizeof why, "it has no table '%s'", table);
			status = foreign(s, why, err);
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(ref);
	if (rc != SQLITE_OK && status == GL_OK)
		status = gl_errf(err, GL_EINTERNAL, "cannot build gpulab's schema version %d in memory: %s", version,
				 sqlite3_errstr(rc));
	return status;
}

/* Everything that is refused, from facts read without writing; `writer`: the command will record results
 * (so an empty file or an older schema is fine). */
static int judge(struct gl_store *s, const struct db_facts *f, int writer, struct gl_err *err)
{
	int known = gl_store_schema_version();
	if (is_fresh(f))
		return !writer ? gl_errf(err, GL_EUSAGE,
					 "the database %s is empty: no runs recorded yet; run 'gpulab run TOPIC' "
					 "first",
					 s->path)
			       : GL_OK;
	if (!is_gpulab(f))
		return foreign(s, f->gpulab_tables ? "it has tables named like gpulab's, but not gpulab's application id"
						  : "it has no gpulab tables",
			       err);
	if (f->user_version > known)
		return gl_errf(err, GL_EENV,
			       "database %s has schema version %d, newer than this gpulab %s knows (%d): upgrade "
			       "gpulab, or pass --db PATH to use another file",
			       s->path, f->user_version, GPULAB_VERSION, known);
	if (f->user_version <= 0)
		return gl_errf(err, GL_EENV,
			       "database %s has gpulab tables but no schema version (PRAGMA user_version is 0), so "
			       "gpulab did not finish writing it; move it away or pass --db PATH",
			       s->path);
	int rc = check_tables(s, f->user_version, err); /* a forged file is foreign, whatever its version */
	if (rc == GL_OK && f->user_version < known && !writer)
		return gl_errf(err, GL_EENV,
			       "database %s has schema version %d, older than this gpulab's %d; run a command "
			       "that records results (e.g. 'gpulab run') once to upgrade it",
			       s->path, f->user_version, known);
	return rc;
}

static int set_version(struct gl_store *s, int version, struct gl_err *err)
{
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", version); /* our constant, not a value */
	return gl_store_exec(s, sql, "recording the schema version", err);
}

/* Inside the write transaction, read the version again: another process may have migrated meanwhile. */
static int migrate_locked(struct gl_store *s, struct gl_err *err)
{
	struct db_facts f = {0};
	int rc = read_facts(s, &f, err);
	if (rc == GL_OK && !is_fresh(&f))
		rc = judge(s, &f, 1, err);
	for (int v = f.user_version; rc == GL_OK && v < gl_store_schema_version(); v++) {
		char doing[64];
		snprintf(doing, sizeof doing, "applying schema migration step %d", v + 1);
		rc = gl_store_exec(s, migrations[v], doing, err);
		if (rc == GL_OK)
			rc = set_version(s, v + 1, err);
	}
	return rc;
}

static int migrate(struct gl_store *s, struct gl_err *err)
{
	int rc = gl_store_exec(s, "BEGIN IMMEDIATE", "locking it to create or upgrade the schema", err);
	if (rc != GL_OK)
		return rc;
	rc = migrate_locked(s, err);
	if (rc == GL_OK)
		rc = gl_store_exec(s, "COMMIT", "committing the schema", err);
	if (rc != GL_OK)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static int use_wal(struct gl_store *s, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		rc = rc == SQLITE_ROW ? SQLITE_OK : rc;
		sqlite3_finalize(st);
	}
	return rc == SQLITE_OK ? GL_OK : gl_store_sql_error(s, rc, "switching it to WAL mode", err);
}

int gl_store_schema_check(struct gl_store *s, struct gl_err *err)
{
	struct db_facts f = {0};
	int rc = read_facts(s, &f, err);
	return rc == GL_OK ? judge(s, &f, 1, err) : rc;
}

/* One attempt: read the facts, judge them, and (for a writer) switch to WAL and migrate; retried while
 * another connection holds a lock (a new database is locked while another process creates its schema). */
static int prepare_once(struct gl_store *s, void *arg, struct gl_err *err)
{
	(void)arg;
	struct db_facts f = {0};
	int rc = read_facts(s, &f, err);
	if (rc == GL_OK)
		rc = judge(s, &f, !s->readonly, err);
	if (rc != GL_OK || s->readonly)
		return rc;
	/* From here on the file is known to be gpulab's (or empty): writing to it is allowed. */
	rc = use_wal(s, err);
	if (rc == GL_OK && f.user_version < gl_store_schema_version())
		rc = migrate(s, err);
	return rc;
}

/* Only writers wait out locks: they have a run to store (a reader fails fast and says why). */
int gl_store_schema_prepare(struct gl_store *s, struct gl_err *err)
{
	if (s->readonly)
		return prepare_once(s, NULL, err);
	return gl_store_retry_locked(s, "create or upgrade its schema", prepare_once, NULL, err);
}
