/* store_query.c — `gpulab query`: one SQL statement, checked to be a read before it runs (the store is
 * also opened read-only and with query_only, so this check is for the message, not the only guard). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "store/store_int.h"

/* Skip blanks, SQL comments and (when `semicolons`) statement separators. */
static const char *skip_space(const char *p, int semicolons)
{
	for (;;) {
		if (isspace((unsigned char)*p) || (semicolons && *p == ';')) {
			p++;
		} else if (p[0] == '-' && p[1] == '-') {
			while (*p && *p != '\n')
				p++;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			p = end ? end + 2 : p + strlen(p);
		} else {
			return p;
		}
	}
}

/* The word at p, upper-cased ("SELECT"), or "" when p does not start with a letter. */
static const char *word_at(const char *p, char *buf, size_t n)
{
	size_t i = 0;
	while (i + 1 < n && (isalnum((unsigned char)p[i]) || p[i] == '_')) {
		buf[i] = (char)toupper((unsigned char)p[i]);
		i++;
	}
	buf[i] = '\0';
	return p + i;
}

/* PRAGMAs that only report: allowed without arguments, the first group also with one in parentheses. */
static const char *const pragma_with_arg[] = {
	"TABLE_INFO", "TABLE_XINFO", "TABLE_LIST", "INDEX_LIST", "INDEX_INFO", "INDEX_XINFO",
	"FOREIGN_KEY_LIST", "FOREIGN_KEY_CHECK", "INTEGRITY_CHECK", "QUICK_CHECK",
};
static const char *const pragma_bare[] = {
	"DATABASE_LIST", "COMPILE_OPTIONS", "COLLATION_LIST", "FUNCTION_LIST", "MODULE_LIST", "PRAGMA_LIST",
	"USER_VERSION", "APPLICATION_ID", "SCHEMA_VERSION", "PAGE_COUNT", "PAGE_SIZE", "FREELIST_COUNT",
	"JOURNAL_MODE", "ENCODING", "FOREIGN_KEYS", "DATA_VERSION",
};

static int in_list(const char *w, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(w, list[i]) == 0)
			return 1;
	return 0;
}

static int pragma_reads(const char *after_keyword)
{
	char name[64];
	const char *p = word_at(skip_space(after_keyword, 0), name, sizeof name);
	if (*p == '.') /* schema.name */
		p = word_at(p + 1, name, sizeof name);
	if (strchr(p, '='))
		return 0;
	p = skip_space(p, 0);
	if (*p == '(')
		return in_list(name, pragma_with_arg, GL_ARRAY_LEN(pragma_with_arg));
	return in_list(name, pragma_with_arg, GL_ARRAY_LEN(pragma_with_arg)) ||
	       in_list(name, pragma_bare, GL_ARRAY_LEN(pragma_bare));
}

static const char *refusal(const char *keyword)
{
	if (strcmp(keyword, "PRAGMA") == 0)
		return "' statements that change settings are refused";
	if (strcmp(keyword, "WITH") == 0 || strcmp(keyword, "EXPLAIN") == 0)
		return "' statements that write are refused";
	return "' statements are refused";
}

static int refuse_write(struct gl_store *s, const char *keyword, struct gl_err *err)
{
	return gl_errf(err, GL_EUSAGE,
		       "query is read-only: '%s%s; gpulab query runs one SELECT (or WITH, EXPLAIN, or a "
		       "reporting PRAGMA) and never changes %s",
		       keyword[0] ? keyword : "?", refusal(keyword), s->path);
}

/* Refuse anything that is not a plain read.  sqlite3_stmt_readonly() calls ATTACH, DETACH and some
 * PRAGMAs read-only because they change the connection rather than the file; refuse those too. */
static int check_read_only(struct gl_store *s, sqlite3_stmt *st, const char *sql, struct gl_err *err)
{
	char kw[16];
	const char *after = word_at(skip_space(sql, 0), kw, sizeof kw);
	int reads = sqlite3_stmt_readonly(st);
	if (strcmp(kw, "ATTACH") == 0 || strcmp(kw, "DETACH") == 0 || strcmp(kw, "VACUUM") == 0)
		reads = 0;
	if (strcmp(kw, "PRAGMA") == 0 && !pragma_reads(after))
		reads = 0;
	return reads ? GL_OK : refuse_write(s, kw, err);
}

static int sql_input_error(struct gl_store *s, int rc, struct gl_err *err)
{
	if ((rc & 0xff) == SQLITE_ERROR)
		return gl_errf(err, GL_EUSAGE, "SQL error: %s", sqlite3_errmsg(s->db));
	return gl_store_sql_error(s, rc, "running the query", err);
}

/* Prepare the one statement of `sql`; refuse an empty text or a second statement. */
static int prepare_one(struct gl_store *s, const char *sql, sqlite3_stmt **out, struct gl_err *err)
{
	*out = NULL;
	const char *start = skip_space(sql, 1);
	if (!*start)
		return gl_errf(err, GL_EUSAGE,
			       "no SQL statement given; e.g. gpulab query 'SELECT * FROM launch_summary'");
	const char *tail = NULL;
	int rc = sqlite3_prepare_v2(s->db, start, -1, out, &tail);
	if (rc != SQLITE_OK)
		return sql_input_error(s, rc, err);
	const char *rest = tail ? skip_space(tail, 1) : "";
	if (*rest) {
		sqlite3_finalize(*out);
		*out = NULL;
		return gl_errf(err, GL_EUSAGE,
			       "query runs exactly one SQL statement, but more follows the first: '%.60s%s'", rest,
			       strlen(rest) > 60 ? "..." : "");
	}
	return check_read_only(s, *out, start, err);
}

int gl_store_query(struct gl_store *s, const char *sql, enum gl_query_format fmt, FILE *out, struct gl_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = prepare_one(s, sql, &st, err);
	if (rc == GL_OK) {
		int step = gl_store_print_rows(st, fmt, out);
		if ((step & 0xff) == SQLITE_READONLY) {
			char kw[16];
			word_at(skip_space(sql, 1), kw, sizeof kw);
			rc = refuse_write(s, kw, err);
		}
		else if (step != SQLITE_DONE)
			rc = sql_input_error(s, step, err);
	}
	sqlite3_finalize(st);
	return rc;
}
