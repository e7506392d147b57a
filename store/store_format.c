/* store_format.c — printing a statement's rows: an aligned table, JSON (an array of objects, numbers as
 * numbers, NULL as null) or CSV (RFC 4180 quoting, header row). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/csv.h"
#include "common/json.h"
#include "common/util.h"
#include "store/store_int.h"

/* The shortest %g form that reads back as the same double. */
static void format_real(double v, char *buf, size_t n)
{
	if (isnan(v)) {
		snprintf(buf, n, "nan");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, n, v > 0 ? "inf" : "-inf");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

static void add_hex(struct gl_str *s, const unsigned char *p, int n)
{
	gl_str_add(s, "X'");
	for (int i = 0; i < n; i++)
		gl_str_addf(s, "%02X", p[i]);
	gl_str_add(s, "'");
}

/* A cell as text, for the table and CSV; NULL for SQL NULL.  The caller frees it. */
static char *cell_text(sqlite3_stmt *st, int i)
{
	char num[40];
	struct gl_str s = {0};
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return NULL;
	case SQLITE_INTEGER:
		snprintf(num, sizeof num, "%lld", (long long)sqlite3_column_int64(st, i));
		return gl_xstrdup(num);
	case SQLITE_FLOAT:
		format_real(sqlite3_column_double(st, i), num, sizeof num);
		return gl_xstrdup(num);
	case SQLITE_BLOB:
		add_hex(&s, sqlite3_column_blob(st, i), sqlite3_column_bytes(st, i));
		return s.buf ? s.buf : gl_xstrdup("X''");
	default: {
		const unsigned char *t = sqlite3_column_text(st, i);
		return gl_xstrdup(t ? (const char *)t : "");
	}
	}
}

/* ---- JSON */

static void json_cell(struct gl_json *j, sqlite3_stmt *st, int i)
{
	const char *key = sqlite3_column_name(st, i);
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		gl_json_null(j, key);
		break;
	case SQLITE_INTEGER:
		gl_json_int(j, key, (long long)sqlite3_column_int64(st, i));
		break;
	case SQLITE_FLOAT: {
		double v = sqlite3_column_double(st, i);
		if (!isfinite(v)) {
			gl_json_null(j, key);
			break;
		}
		char num[40];
		format_real(v, num, sizeof num);
		gl_json_raw(j, key, num);
		break;
	}
	default: {
		char *t = cell_text(st, i);
		gl_json_string(j, key, t);
		free(t);
	}
	}
}

static int print_json(sqlite3_stmt *st, FILE *out)
{
	struct gl_json j;
	gl_json_init(&j, out);
	int ncol = sqlite3_column_count(st);
	int rc = sqlite3_step(st); /* print nothing when the first step fails */
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return rc;
	gl_json_begin_array(&j, NULL);
	for (; rc == SQLITE_ROW; rc = sqlite3_step(st)) {
		gl_json_begin_object(&j, NULL);
		for (int i = 0; i < ncol; i++)
			json_cell(&j, st, i);
		gl_json_end_object(&j);
	}
	if (rc == SQLITE_DONE)
		gl_json_end_array(&j);
	return rc;
}

/* ---- CSV */

static int print_csv(sqlite3_stmt *st, FILE *out)
{
	int ncol = sqlite3_column_count(st);
	int rc = sqlite3_step(st); /* print nothing when the first step fails */
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return rc;
	for (int i = 0; i < ncol; i++) {
		if (i)
			fputc(',', out);
		gl_csv_field(out, sqlite3_column_name(st, i));
	}
	if (ncol)
		fputc('\n', out);
	for (; rc == SQLITE_ROW; rc = sqlite3_step(st)) {
		for (int i = 0; i < ncol; i++) {
			char *t = cell_text(st, i);
			if (i)
				fputc(',', out);
			gl_csv_field(out, t);
			free(t);
		}
		fputc('\n', out);
	}
	return rc;
}

/* ---- aligned table */

struct table {
	int ncol;
	size_t nrows, cap;
	char **cells;    /* nrows x ncol, display-ready (control characters escaped) */
	size_t *width;   /* per column, in characters */
	int *numeric;    /* per column: every non-NULL cell is a number */
};

/* Escape control characters so that a cell stays on its line. */
static char *display_text(const char *t)
{
	struct gl_str s = {0};
	for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
		if (*p == '\n')
			gl_str_add(&s, "\\n");
		else if (*p == '\t')
			gl_str_add(&s, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			gl_str_addf(&s, "\\x%02x", *p);
		else
			gl_str_addf(&s, "%c", *p);
	}
	return s.buf ? s.buf : gl_xstrdup("");
}

/* Width on a terminal: UTF-8 continuation bytes take no column. */
static size_t text_width(const char *t)
{
	size_t w = 0;
	for (const unsigned char *p = (const unsigned char *)t; *p; p++)
		w += (*p & 0xc0) != 0x80;
	return w;
}

static void table_put(struct table *t, size_t row, int col, char *text)
{
	t->cells[row * (size_t)t->ncol + (size_t)col] = text;
	size_t w = text_width(text);
	if (w > t->width[col])
		t->width[col] = w;
}

static void table_add_row(struct table *t, sqlite3_stmt *st)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->cells = gl_xrealloc(t->cells, t->cap * (size_t)t->ncol * sizeof *t->cells);
	}
	size_t row = t->nrows++;
	for (int i = 0; i < t->ncol; i++) {
		int type = sqlite3_column_type(st, i);
		if (type != SQLITE_NULL && type != SQLITE_INTEGER && type != SQLITE_FLOAT)
			t->numeric[i] = 0;
		char *raw = cell_text(st, i);
		table_put(t, row, i, raw ? display_text(raw) : gl_xstrdup("NULL"));
		free(raw);
	}
}

static void table_print_line(const struct table *t, char *const *cells, FILE *out)
{
	for (int i = 0; i < t->ncol; i++) {
		size_t pad = t->width[i] - text_width(cells[i]);
		int last = i == t->ncol - 1;
		if (i)
			fputs("  ", out);
		if (t->numeric[i])
			fprintf(out, "%*s%s", (int)pad, "", cells[i]);
		else
			fprintf(out, "%s%*s", cells[i], last ? 0 : (int)pad, "");
	}
	fputc('\n', out);
}

static void table_print(const struct table *t, char *const *header, FILE *out)
{
	table_print_line(t, header, out);
	for (int i = 0; i < t->ncol; i++) {
		if (i)
			fputs("  ", out);
		for (size_t k = 0; k < t->width[i]; k++)
			fputc('-', out);
	}
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++)
		table_print_line(t, t->cells + r * (size_t)t->ncol, out);
	if (t->nrows == 0)
		fputs("(0 rows)\n", out);
}

static int print_table(sqlite3_stmt *st, FILE *out)
{
	struct table t = {.ncol = sqlite3_column_count(st)};
	if (t.ncol == 0) {
		int rc;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			;
		return rc;
	}
	t.width = gl_xcalloc((size_t)t.ncol, sizeof *t.width);
	t.numeric = gl_xcalloc((size_t)t.ncol, sizeof *t.numeric);
	char **header = gl_xcalloc((size_t)t.ncol, sizeof *header);
	for (int i = 0; i < t.ncol; i++) {
		header[i] = display_text(sqlite3_column_name(st, i));
		t.width[i] = text_width(header[i]);
		t.numeric[i] = 1;
	}
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		table_add_row(&t, st);
	if (t.nrows == 0)
		memset(t.numeric, 0, (size_t)t.ncol * sizeof *t.numeric);
	if (rc == SQLITE_DONE)
		table_print(&t, header, out);
	for (size_t k = 0; k < t.nrows * (size_t)t.ncol; k++)
		free(t.cells[k]);
	for (int i = 0; i < t.ncol; i++)
		free(header[i]);
	free(header);
	free(t.cells);
	free(t.width);
	free(t.numeric);
	return rc;
}

int gl_store_print_rows(sqlite3_stmt *st, enum gl_query_format fmt, FILE *out)
{
	switch (fmt) {
	case GL_QUERY_JSON:
		return print_json(st, out);
	case GL_QUERY_CSV:
		return print_csv(st, out);
	default:
		return print_table(st, out);
	}
}
