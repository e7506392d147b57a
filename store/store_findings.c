/* store_findings.c — the simulator's sanitizer findings of a launch (schema step 2, data/migrate_2.sql):
 * the occurrence counts as columns of its launches row, and one sanitizer_findings row per distinct
 * finding with its count and first coordinates, read back in the order written (errors first). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "store/store_int.h"

static void xyz(char *buf, size_t n, const unsigned v[3])
{
	snprintf(buf, n, "%u,%u,%u", v[0], v[1], v[2]);
}

/* [{"block":[x,y,z],"thread":[x,y,z]}, ...]: compact, so that load_samples can read it back. */
static void samples_json(const struct gl_finding *f, char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "[");
	for (int i = 0; i < f->nsamples && len < n; i++) {
		const struct gl_finding_site *p = &f->samples[i];
		len +=
		    (size_t)snprintf(buf + len, n - len, "%s{\"block\":[%u,%u,%u],\"thread\":[%u,%u,%u]}", i ? "," : "",
		                     p->block[0], p->block[1], p->block[2], p->thread[0], p->thread[1], p->thread[2]);
	}
	if (len < n)
		snprintf(buf + len, n - len, "]");
}

static void load_samples(const char *text, struct gl_finding *f)
{
	f->nsamples = 0;
	const char *p = text ? strchr(text, '{') : NULL;
	while (p && f->nsamples < GL_FINDING_SAMPLES) {
		struct gl_finding_site *s = &f->samples[f->nsamples];
		if (sscanf(p, "{\"block\":[%u,%u,%u],\"thread\":[%u,%u,%u]}", &s->block[0], &s->block[1], &s->block[2],
		           &s->thread[0], &s->thread[1], &s->thread[2]) != 6)
			break;
		f->nsamples++;
		p = strchr(p + 1, '{');
	}
}

static int update_counts(struct gl_store *s, long launch_id, const struct gl_launch_record *l, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db,
	                            "UPDATE launches SET sanitizer_errors = ?, sanitizer_warnings = ?, "
	                            "sanitizer_dropped = ? WHERE id = ?",
	                            -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "preparing the sanitizer counts", err);
	sqlite3_bind_int64(st, 1, l->sanitizer_errors);
	sqlite3_bind_int64(st, 2, l->sanitizer_warnings);
	sqlite3_bind_int64(st, 3, l->sanitizer_dropped);
	sqlite3_bind_int64(st, 4, launch_id);
	rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? GL_OK : gl_store_sql_error(s, rc, "recording the sanitizer counts", err);
}

static void bind_finding(sqlite3_stmt *st, long launch_id, int seq, const struct gl_finding *f)
{
	char block[40], thread[40], samples[GL_FINDING_SAMPLES * 80 + 4];
	xyz(block, sizeof block, f->block);
	xyz(thread, sizeof thread, f->thread);
	samples_json(f, samples, sizeof samples);
	sqlite3_bind_int64(st, 1, launch_id);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_text(st, 3, f->kind, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, gl_tool_name(gl_finding_tool(f->kind)), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, f->warning ? "warning" : "error", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, f->space, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 7, f->line);
	if (f->src_line > 0)
		sqlite3_bind_int(st, 8, f->src_line);
	else
		sqlite3_bind_null(st, 8);
	sqlite3_bind_int64(st, 9, f->count);
	sqlite3_bind_int64(st, 10, (sqlite3_int64)f->address);
	sqlite3_bind_int64(st, 11, f->size);
	sqlite3_bind_text(st, 12, block, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 13, thread, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 14, samples, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 15, f->message, -1, SQLITE_TRANSIENT);
}

int gl_store_insert_findings(struct gl_store *s, long launch_id, const struct gl_launch_record *l, struct gl_err *err)
{
	if (!l->sanitized)
		return GL_OK;
	int rc = update_counts(s, launch_id, l, err);
	if (rc != GL_OK || !l->nfindings)
		return rc;
	sqlite3_stmt *st;
	int r = sqlite3_prepare_v2(s->db,
	                           "INSERT INTO sanitizer_findings (launch_id, seq, kind, tool, severity, space, line, "
	                           "cuda_line, count, address, size, block, thread, samples, message) "
	                           "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	                           -1, &st, NULL);
	if (r != SQLITE_OK)
		return gl_store_sql_error(s, r, "preparing the sanitizer findings insert", err);
	for (int i = 0; i < l->nfindings && r == SQLITE_OK; i++) {
		sqlite3_reset(st);
		bind_finding(st, launch_id, i, &l->findings[i]);
		r = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
	}
	sqlite3_finalize(st);
	return r == SQLITE_OK ? GL_OK : gl_store_sql_error(s, r, "recording the sanitizer findings", err);
}

static void text_col(sqlite3_stmt *st, int i, char *buf, size_t n)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	snprintf(buf, n, "%s", t ? (const char *)t : "");
}

/* One sanitizer_findings row of launch l into f, checked against the launch (store_check.c). */
static int row_to_finding(struct gl_store *s, sqlite3_stmt *st, long launch_id, const struct gl_launch_record *l,
			  struct gl_finding *f, struct gl_err *err)
{
	static const unsigned max[3] = {0x7fffffffu, 0x7fffffffu, 0x7fffffffu};
	memset(f, 0, sizeof *f);
	text_col(st, 0, f->kind, sizeof f->kind);
	const unsigned char *sev = sqlite3_column_text(st, 1);
	f->warning = sev && strcmp((const char *)sev, "warning") == 0;
	text_col(st, 2, f->space, sizeof f->space);
	f->line = sqlite3_column_int(st, 3);
	f->src_line = sqlite3_column_type(st, 4) == SQLITE_NULL ? 0 : sqlite3_column_int(st, 4);
	f->count = (long)sqlite3_column_int64(st, 5);
	f->address = (uint64_t)sqlite3_column_int64(st, 6);
	long long size = sqlite3_column_int64(st, 7);
	f->size = size < 0 || size > UINT32_MAX ? UINT32_MAX : (unsigned)size;
	int rc = gl_store_parse_xyz(s, "the sanitizer findings of launch", launch_id, "block", sqlite3_column_text(st, 8), 0, max,
				    f->block, err);
	if (rc == GL_OK)
		rc = gl_store_parse_xyz(s, "the sanitizer findings of launch", launch_id, "thread", sqlite3_column_text(st, 9), 0, max,
					f->thread, err);
	load_samples((const char *)sqlite3_column_text(st, 10), f);
	text_col(st, 11, f->message, sizeof f->message);
	return rc == GL_OK ? gl_store_check_finding(s, launch_id, l, f, err) : rc;
}

static int load_counts(struct gl_store *s, long launch_id, struct gl_launch_record *l, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db,
	                            "SELECT sanitizer_errors, sanitizer_warnings, sanitizer_dropped FROM launches "
	                            "WHERE id = ?",
	                            -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "preparing a query", err);
	sqlite3_bind_int64(st, 1, launch_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		l->sanitized = sqlite3_column_type(st, 0) != SQLITE_NULL;
		l->sanitizer_errors = (long)sqlite3_column_int64(st, 0);
		l->sanitizer_warnings = (long)sqlite3_column_int64(st, 1);
		l->sanitizer_dropped = (long)sqlite3_column_int64(st, 2);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? GL_OK : gl_store_sql_error(s, rc, "reading the sanitizer counts", err);
}

int gl_store_load_findings(struct gl_store *s, long launch_id, struct gl_launch_record *l, struct gl_err *err)
{
	int rc = load_counts(s, launch_id, l, err);
	if (rc != GL_OK || !l->sanitized)
		return rc;
	sqlite3_stmt *st;
	int r =
	    sqlite3_prepare_v2(s->db,
	                       "SELECT kind, severity, space, line, cuda_line, count, address, size, block, thread, "
	                       "samples, message FROM sanitizer_findings WHERE launch_id = ? ORDER BY seq",
	                       -1, &st, NULL);
	if (r != SQLITE_OK)
		return gl_store_sql_error(s, r, "preparing a query", err);
	sqlite3_bind_int64(st, 1, launch_id);
	int cap = 0, bad = GL_OK;
	while (bad == GL_OK && (r = sqlite3_step(st)) == SQLITE_ROW) {
		if (l->nfindings == GL_FINDINGS_MAX) {
			bad = gl_store_bad_row(s, "launch", launch_id, err, "has more than the %d distinct sanitizer findings "
					       "gpulab keeps", GL_FINDINGS_MAX);
			break;
		}
		if (l->nfindings == cap) {
			cap = cap ? cap * 2 : 8;
			l->findings = gl_xrealloc(l->findings, (size_t)cap * sizeof *l->findings);
		}
		bad = row_to_finding(s, st, launch_id, l, &l->findings[l->nfindings++], err);
	}
	sqlite3_finalize(st);
	if (bad != GL_OK)
		return bad;
	return r == SQLITE_DONE ? GL_OK : gl_store_sql_error(s, r, "reading the sanitizer findings", err);
}
