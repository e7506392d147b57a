/* store_values.c — single values of a launch, by name, for readers such as lesson checks: a numeric
 * column of launch_summary or launches (the list below is the one list of them; test_store checks it
 * against the schema), or a metric. */
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "store/store_int.h"

/* Numeric columns of the launch_summary view (data/schema.sql), then of launches. */
static const char *const columns[] = {
	"launch_id", "run_id", "verified", "duration_ns", "gld_requests", "gld_sectors",
	"gld_sectors_per_request", "gst_requests", "gst_sectors", "gst_sectors_per_request",
	"sld_instructions", "sld_wavefronts", "sld_conflicts", "sld_wavefronts_per_instruction",
	"sld_conflicts_per_instruction", "sst_instructions", "sst_wavefronts", "sst_conflicts",
	"sst_wavefronts_per_instruction", "sst_conflicts_per_instruction", "instructions",
	"thread_instructions", "simt_efficiency", "global_bytes", "global_gbps",
	/* launches */
	"regs", "static_smem", "dyn_smem", "max_abs_err", "max_rel_err", "sanitizer_errors", "sanitizer_warnings",
};
#define N_LAUNCH_COLUMNS 7 /* the last ones, read from launches */

const char *const *gl_store_value_columns(size_t *n)
{
	*n = GL_ARRAY_LEN(columns);
	return columns;
}

static int sql_error(struct gl_store *s, const char *doing, struct gl_err *err)
{
	return gl_errf(err, GL_EENV, "%s in %s: %s", doing, s->path, sqlite3_errmsg(s->db));
}

int gl_store_latest_launch(struct gl_store *s, const char *topic, const char *variant, long *id, struct gl_err *err)
{
	return gl_store_latest_launch_with(s, topic, variant, NULL, id, err);
}

int gl_store_launch_params(struct gl_store *s, long id, char **params, struct gl_err *err)
{
	sqlite3_stmt *st;
	*params = NULL;
	if (sqlite3_prepare_v2(s->db, "SELECT params_json FROM launches WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
		return sql_error(s, "reading a launch's parameters", err);
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*params = gl_xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? GL_OK : sql_error(s, "reading a launch's parameters", err);
}

/* Step a bound query for one id: *id, 0 when no row; the statement is finalized. */
static int first_id(struct gl_store *s, sqlite3_stmt *st, long *id, const char *doing, struct gl_err *err)
{
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? GL_OK : sql_error(s, doing, err);
}

int gl_store_latest_launch_with(struct gl_store *s, const char *topic, const char *variant, const char *params_json,
				long *id, struct gl_err *err)
{
	sqlite3_stmt *st;
	*id = 0;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT id FROM launches WHERE topic = ?1 AND variant = ?2 AND part = 0 "
			       "AND (?3 IS NULL OR params_json = ?3) "
			       "ORDER BY id DESC LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_error(s, "finding the latest launch", err);
	sqlite3_bind_text(st, 1, topic, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, variant, -1, SQLITE_STATIC);
	if (params_json)
		sqlite3_bind_text(st, 3, params_json, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 3);
	return first_id(s, st, id, "finding the latest launch", err);
}

int gl_store_latest_program_launch(struct gl_store *s, const char *variant, const char *path, long *id,
				   struct gl_err *err)
{
	sqlite3_stmt *st;
	*id = 0;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT id FROM launches WHERE topic = 'program' AND variant = ?1 AND part = 0 "
			       "AND json_valid(params_json) AND json_extract(params_json, '$.program') = ?2 "
			       "ORDER BY id DESC LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_error(s, "finding a program's latest launch", err);
	sqlite3_bind_text(st, 1, variant, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
	return first_id(s, st, id, "finding a program's latest launch", err);
}

/* "launch_summary" or "launches" when `name` is one of the columns, else NULL (a metric). */
static const char *column_table(const char *name)
{
	for (size_t i = 0; i < GL_ARRAY_LEN(columns); i++)
		if (strcmp(columns[i], name) == 0)
			return i < GL_ARRAY_LEN(columns) - N_LAUNCH_COLUMNS ? "launch_summary" : "launches";
	return NULL;
}

int gl_store_launch_value(struct gl_store *s, long id, const char *name, double *v, bool *have, struct gl_err *err)
{
	char sql[256];
	const char *table = column_table(name);
	if (table) /* the column name comes from the fixed list above, never from the caller */
		snprintf(sql, sizeof sql, "SELECT %s FROM %s WHERE %s = ?1", name, table,
			 strcmp(table, "launches") == 0 ? "id" : "launch_id");
	else
		snprintf(sql, sizeof sql,
			 "SELECT value FROM metrics WHERE launch_id = ?1 AND name = ?2 "
			 "ORDER BY source = 'cupti' DESC LIMIT 1");
	sqlite3_stmt *st;
	*have = false;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_error(s, "reading a metric", err);
	sqlite3_bind_int64(st, 1, id);
	if (!table)
		sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*have = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL;
	if (*have)
		*v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? GL_OK : sql_error(s, "reading a metric", err);
}
