/* store_assemble.c — the partial launches of one sharded launch (`--cta-range`, `gpulab sweep
 * --shard-ctas`) made whole again: when the CTA ranges of launches with the same sweep, backend, topic,
 * variant, parameters and geometry tile the grid exactly, one new run holds one launch whose counts are
 * the sums of theirs.  Every simulator metric is a sum over CTAs, so the sum over disjoint ranges that
 * cover the grid is the whole launch's count; the SASS instruction estimates, stored unrounded in a
 * partial launch, are rounded once here as the whole launch rounds them.  The assembled run's UUID is
 * derived from its parts' UUIDs, so assembling twice adds nothing.  A multi-launch variant is assembled
 * from its total rows (part 0) only: the assembled launch has no per-launch rows under it.  The parts'
 * output writes (launch_outputs) are joined when no two parts wrote a byte differently (CTA-disjoint
 * writes); the caller then verifies them (session/session_assembled.c), otherwise the note says why not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/metrics.h"
#include "common/sha256.h"
#include "common/util.h"
#include "store/store_int.h"

/* The columns that make launches parts of one launch. */
#define GROUP_COLS "r.sweep_id, r.backend, l.topic, l.variant, l.params_json, l.grid, l.block, l.dyn_smem"
#define GROUP_N 8

struct part {
	long launch, first, end;
	char uuid[40];
};

struct parts {
	struct part *v;
	size_t n, cap;
};

static long grid_ctas(const char *grid)
{
	unsigned long x = 1, y = 1, z = 1;
	if (sscanf(grid, "%lu,%lu,%lu", &x, &y, &z) != 3)
		return -1;
	return (long)(x * y * z);
}

static int load_parts(struct gl_store *s, sqlite3_stmt *group, struct parts *p, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db,
				    "SELECT l.id, l.cta_first, l.cta_end, r.uuid FROM launches l JOIN runs r ON r.id = l.run_id "
				    "WHERE l.cta_end IS NOT NULL AND l.part = 0 AND r.sweep_id = ?1 AND r.backend = ?2 AND l.topic = ?3 "
				    "AND l.variant = ?4 AND l.params_json = ?5 AND l.grid = ?6 AND l.block = ?7 "
				    "AND l.dyn_smem = ?8 ORDER BY l.cta_first, l.cta_end, r.uuid",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "reading partial launches", err);
	for (int i = 0; i < GROUP_N; i++)
		sqlite3_bind_value(st, i + 1, sqlite3_column_value(group, i));
	p->n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (p->n == p->cap)
			p->v = gl_xrealloc(p->v, (p->cap = p->cap ? 2 * p->cap : 16) * sizeof *p->v);
		struct part *q = &p->v[p->n++];
		q->launch = (long)sqlite3_column_int64(st, 0);
		q->first = (long)sqlite3_column_int64(st, 1);
		q->end = (long)sqlite3_column_int64(st, 2);
		gl_store_col_text(st, 3, q->uuid, sizeof q->uuid);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? GL_OK : gl_store_sql_error(s, rc, "reading partial launches", err);
}

/* Do the ranges (sorted) cover 0..total-1 once each? */
static int tiles(const struct parts *p, long total)
{
	long next = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (p->v[i].first != next)
			return 0;
		next = p->v[i].end;
	}
	return next == total;
}

/* A name-based UUID (SHA-256 of the parts' UUIDs, version and variant bits set like RFC 4122's v5). */
static void derived_uuid(const struct parts *p, char *out, size_t n)
{
	struct gl_sha256 h;
	char hex[65];
	unsigned char b[16];
	gl_sha256_init(&h);
	gl_sha256_add(&h, "gpulab-assembled", 16);
	for (size_t i = 0; i < p->n; i++)
		gl_sha256_add(&h, p->v[i].uuid, strlen(p->v[i].uuid));
	gl_sha256_hex(&h, hex);
	for (int i = 0; i < 16; i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		b[i] = (unsigned char)v;
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x50);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	gl_store_format_uuid(b, out, n);
}

static int exists_uuid(struct gl_store *s, const char *uuid, int *yes, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "SELECT 1 FROM runs WHERE uuid = ?1", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "looking up a run", err);
	sqlite3_bind_text(st, 1, uuid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*yes = rc == SQLITE_ROW;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? GL_OK : gl_store_sql_error(s, rc, "looking up a run", err);
}

/* The parts' launch ids as "1,5,9" (integers of our own: safe inside SQL text). */
static void id_list(const struct parts *p, struct gl_str *ids)
{
	for (size_t i = 0; i < p->n; i++)
		gl_str_addf(ids, "%s%ld", i ? "," : "", p->v[i].launch);
}

int gl_store_insert_outputs(struct gl_store *s, long launch_id, const struct gl_output_bytes *o, int n,
			    struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "INSERT INTO launch_outputs (launch_id, name, bytes, segments) "
				    "VALUES (?1, ?2, ?3, ?4)", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "recording a shard's outputs", err);
	for (int i = 0; rc == SQLITE_OK && i < n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, launch_id);
		sqlite3_bind_text(st, 2, o[i].name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)o[i].bytes);
		sqlite3_bind_blob64(st, 4, o[i].segs ? (const void *)o[i].segs : "", o[i].nsegs_bytes, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? GL_OK : gl_store_sql_error(s, rc, "recording a shard's outputs", err);
}

/* The parts' outputs, buffer by buffer, joined when their writes are CTA-disjoint; *why says otherwise. */
static int join_outputs(struct gl_store *s, const struct parts *p, const char *ids, long launch, const char **why,
			struct gl_err *err)
{
	struct gl_str sql = {0};
	sqlite3_stmt *st;
	*why = NULL;
	gl_str_addf(&sql, "SELECT o.name, o.bytes, o.segments, r.argv LIKE '%% --seed%%' FROM launch_outputs o "
			  "JOIN launches l ON l.id = o.launch_id JOIN runs r ON r.id = l.run_id "
			  "WHERE o.launch_id IN (%s) ORDER BY o.name, o.launch_id", ids);
	int rc = sqlite3_prepare_v2(s->db, sql.buf, -1, &st, NULL);
	gl_str_free(&sql);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "reading the shards' outputs", err);
	const uint8_t **segs = gl_xcalloc(p->n, sizeof *segs);
	size_t *lens = gl_xcalloc(p->n, sizeof *lens);
	struct gl_output_bytes joined[GL_MAX_OUTPUTS_JOINED];
	int nj = 0, status = GL_OK;
	char name[32] = "";
	size_t k = 0, bytes = 0;
	/* rows come grouped by buffer; a group is complete when every part wrote its list */
	for (bool more = true; more && !*why;) {
		more = sqlite3_step(st) == SQLITE_ROW;
		const char *nm = more ? (const char *)sqlite3_column_text(st, 0) : "";
		if (k && (!more || strcmp(nm, name) != 0)) {
			if (k != p->n || nj == GL_MAX_OUTPUTS_JOINED)
				*why = "a shard did not keep its outputs";
			else {
				snprintf(joined[nj].name, sizeof joined[nj].name, "%s", name);
				joined[nj].bytes = bytes;
				if (gl_outputs_join(bytes, segs, lens, (int)k, &joined[nj].segs, &joined[nj].nsegs_bytes))
					*why = "the shards' writes overlap, not CTA-disjoint";
				else
					nj++;
			}
			for (size_t i = 0; i < k; i++)
				free((void *)segs[i]);
			k = 0;
		}
		if (!more || *why)
			break;
		if (sqlite3_column_int(st, 3))
			*why = "the shards' inputs came from --seed";
		snprintf(name, sizeof name, "%s", nm);
		bytes = (size_t)sqlite3_column_int64(st, 1);
		if (k < p->n) {
			size_t n = (size_t)sqlite3_column_bytes(st, 2);
			uint8_t *copy = gl_xmalloc(n ? n : 1);
			memcpy(copy, sqlite3_column_blob(st, 2), n);
			segs[k] = copy;
			lens[k++] = n;
		}
	}
	for (size_t i = 0; i < k; i++)
		free((void *)segs[i]);
	sqlite3_finalize(st);
	if (!*why && nj == 0)
		*why = "the shards kept no outputs";
	if (!*why)
		status = gl_store_insert_outputs(s, launch, joined, nj, err);
	for (int i = 0; i < nj; i++)
		free(joined[i].segs);
	free(segs);
	free(lens);
	return status;
}

static int write_whole(struct gl_store *s, const struct parts *p, const char *uuid, struct gl_assembly *out,
		       struct gl_err *err)
{
	struct gl_str ids = {0}, sql = {0}, note = {0};
	long run = 0, launch = 0;
	id_list(p, &ids);
	gl_str_addf(&note, "assembled from %zu partial launches (CTA ranges); counts summed (footprints in distinct "
			   "sectors are not sums: left out); outputs not verified", p->n);
	gl_str_addf(&sql,
		    "INSERT INTO runs (started_at, finished_at, status, backend, device, chip, sm_count, cc, driver, "
		    "cupti_version, gpulab_version, host, argv, uuid, sweep_id, merged_from) "
		    "SELECT MIN(r.started_at), MAX(r.finished_at), CASE WHEN SUM(r.status <> 'ok') THEN 'failed' "
		    "ELSE 'ok' END, r.backend, r.device, r.chip, r.sm_count, r.cc, r.driver, r.cupti_version, "
		    "r.gpulab_version, group_concat(DISTINCT r.host), 'gpulab merge (assembled)', ?3, r.sweep_id, "
		    "'assembled' FROM runs r JOIN launches l ON l.run_id = r.id WHERE l.id IN (%s)", ids.buf);
	int rc = gl_store_exec_bound(s, sql.buf, 0, 0, uuid, &run, "recording an assembled run", err);
	sql.len = 0;
	gl_str_addf(&sql,
		    "INSERT INTO launches (run_id, topic, variant, params_json, grid, block, dyn_smem, regs, "
		    "static_smem, verified, metric_source, note, sanitizer_errors, sanitizer_warnings, "
		    "sanitizer_dropped, entry) SELECT ?1, topic, variant, params_json, grid, block, dyn_smem, MAX(regs), "
		    "MAX(static_smem), NULL, MAX(metric_source), CASE WHEN MIN(note) LIKE 'counts: %%' THEN "
		    "substr(MIN(note), 1, instr(MIN(note) || ';', ';') - 1) || '; ' ELSE '' END || ?3, "
		    "SUM(sanitizer_errors), SUM(sanitizer_warnings), "
		    "SUM(sanitizer_dropped), MAX(entry) FROM launches WHERE id IN (%s)", ids.buf);
	if (rc == GL_OK)
		rc = gl_store_exec_bound(s, sql.buf, run, 0, note.buf, &launch, "recording an assembled launch", err);
	sql.len = 0;
	/* values are non-negative counts: CAST(x + 0.5) rounds half up, as the simulator rounds estimates.
	 * Two kinds are not sums over CTAs: a launch's footprint (distinct sectors: a union, left out) and
	 * the threads-per-instruction ratio (recomputed from the summed counts, as the simulator does). */
	gl_str_addf(&sql,
		    "INSERT INTO metrics (launch_id, name, value, unit, source) SELECT ?1, name, "
		    "CAST(SUM(value) + 0.5 AS INTEGER), MAX(unit), source FROM metrics WHERE launch_id IN (%s) "
		    "AND name NOT IN ('" GL_M_UNIQ_LD_SECT "', '" GL_M_UNIQ_ST_SECT "', '" GL_M_THREADS_PER_INST "') "
		    "GROUP BY name, source", ids.buf);
	if (rc == GL_OK)
		rc = gl_store_exec_bound(s, sql.buf, launch, 0, "", NULL, "summing the partial counts", err);
	if (rc == GL_OK)
		rc = gl_store_exec_bound(s,
					 "INSERT INTO metrics (launch_id, name, value, unit, source) SELECT ?1, '" GL_M_THREADS_PER_INST
					 "', t.value / i.value, 'thread', t.source FROM metrics t JOIN metrics i ON i.launch_id = ?1 "
					 "AND i.name = '" GL_M_INST "' AND i.source = t.source WHERE t.launch_id = ?1 AND t.name = '"
					 GL_M_THREAD_INST "' AND i.value > 0",
					 launch, 0, "", NULL, "recomputing a ratio", err);
	const char *why = NULL;
	if (rc == GL_OK)
		rc = join_outputs(s, p, ids.buf, launch, &why, err);
	if (rc == GL_OK && why) { /* say why in the note: the outputs stay unverified */
		sql.len = 0;
		gl_str_addf(&sql, "UPDATE launches SET note = note || ?3 WHERE id = ?1");
		char because[160];
		snprintf(because, sizeof because, ": %s", why);
		rc = gl_store_exec_bound(s, sql.buf, launch, 0, because, NULL, "noting the assembly", err);
	} else if (rc == GL_OK && out->nverify < GL_MAX_ASSEMBLED) {
		out->verify[out->nverify++] = launch;
	}
	if (rc == GL_OK && out->nwhole < GL_MAX_ASSEMBLED) {
		out->runs[out->nwhole] = run;
		out->launches[out->nwhole++] = launch;
	}
	gl_str_free(&ids);
	gl_str_free(&sql);
	gl_str_free(&note);
	return rc;
}

static int assemble_group(struct gl_store *s, sqlite3_stmt *group, struct parts *p, struct gl_assembly *out,
			  struct gl_err *err)
{
	int rc = load_parts(s, group, p, err);
	if (rc != GL_OK || p->n == 0)
		return rc;
	long total = grid_ctas((const char *)sqlite3_column_text(group, 5));
	if (!tiles(p, total)) {
		out->incomplete++;
		return GL_OK;
	}
	char uuid[40];
	int dup = 0;
	derived_uuid(p, uuid, sizeof uuid);
	rc = exists_uuid(s, uuid, &dup, err);
	if (rc != GL_OK || dup) {
		out->already += dup;
		return rc;
	}
	rc = write_whole(s, p, uuid, out, err);
	out->assembled += rc == GL_OK;
	return rc;
}

static int assemble_once(struct gl_store *s, void *arg, struct gl_err *err)
{
	struct gl_assembly *out = arg;
	struct parts p = {0};
	sqlite3_stmt *st = NULL;
	memset(out, 0, sizeof *out);
	int rc = gl_store_exec(s, "BEGIN IMMEDIATE", "starting the assembly's transaction", err);
	if (rc != GL_OK)
		return rc;
	int src = sqlite3_prepare_v2(s->db,
				     "SELECT DISTINCT " GROUP_COLS " FROM launches l JOIN runs r ON r.id = l.run_id "
				     "WHERE l.cta_end IS NOT NULL AND l.part = 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8",
				     -1, &st, NULL);
	if (src != SQLITE_OK)
		rc = gl_store_sql_error(s, src, "finding partial launches", err);
	while (rc == GL_OK && (src = sqlite3_step(st)) == SQLITE_ROW)
		rc = assemble_group(s, st, &p, out, err);
	if (rc == GL_OK && src != SQLITE_DONE)
		rc = gl_store_sql_error(s, src, "finding partial launches", err);
	sqlite3_finalize(st);
	free(p.v);
	if (rc == GL_OK)
		rc = gl_store_exec(s, "COMMIT", "committing the assembled runs", err);
	if (rc != GL_OK)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int gl_store_assemble(struct gl_store *s, struct gl_assembly *out, struct gl_err *err)
{
	if (s->readonly)
		return gl_errf(err, GL_EINTERNAL, "store %s was opened read-only; nothing can be assembled", s->path);
	return gl_store_retry_locked(s, "assemble partial launches", assemble_once, out, err);
}

int gl_store_load_outputs(struct gl_store *s, long launch_id, struct gl_launch_record *rec, struct gl_err *err)
{
	sqlite3_stmt *st;
	memset(rec, 0, sizeof *rec);
	int rc = sqlite3_prepare_v2(s->db, "SELECT topic, variant, params_json FROM launches WHERE id = ?1", -1, &st,
				    NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "reading an assembled launch", err);
	sqlite3_bind_int64(st, 1, launch_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		gl_store_col_text(st, 0, rec->topic, sizeof rec->topic);
		gl_store_col_text(st, 1, rec->variant, sizeof rec->variant);
		rec->params_json = gl_xstrdup(sqlite3_column_text(st, 2) ? (const char *)sqlite3_column_text(st, 2) : "{}");
	}
	sqlite3_finalize(st);
	if (!rec->params_json)
		return gl_errf(err, GL_EUSAGE, "no launch %ld in %s", launch_id, s->path);
	rc = sqlite3_prepare_v2(s->db, "SELECT name, bytes, segments FROM launch_outputs WHERE launch_id = ?1 "
				"ORDER BY name", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "reading an assembled launch's outputs", err);
	sqlite3_bind_int64(st, 1, launch_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		rec->outputs = gl_xrealloc(rec->outputs, (size_t)(rec->noutputs + 1) * sizeof *rec->outputs);
		struct gl_output_bytes *o = &rec->outputs[rec->noutputs++];
		memset(o, 0, sizeof *o);
		gl_store_col_text(st, 0, o->name, sizeof o->name);
		o->bytes = (size_t)sqlite3_column_int64(st, 1);
		o->nsegs_bytes = (size_t)sqlite3_column_bytes(st, 2);
		o->segs = gl_xmalloc(o->nsegs_bytes ? o->nsegs_bytes : 1);
		memcpy(o->segs, sqlite3_column_blob(st, 2), o->nsegs_bytes);
	}
	sqlite3_finalize(st);
	return GL_OK;
}

int gl_store_set_verified(struct gl_store *s, long launch_id, int verified, double max_abs, double max_rel,
			  const char *note, struct gl_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db,
				    "UPDATE launches SET verified = ?2, max_abs_err = ?3, max_rel_err = ?4, "
				    "note = replace(note, 'outputs not verified', ?5) WHERE id = ?1",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return gl_store_sql_error(s, rc, "recording the assembled outputs' verification", err);
	sqlite3_bind_int64(st, 1, launch_id);
	sqlite3_bind_int(st, 2, verified ? 1 : 0);
	sqlite3_bind_double(st, 3, max_abs);
	sqlite3_bind_double(st, 4, max_rel);
	sqlite3_bind_text(st, 5, note, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? GL_OK : gl_store_sql_error(s, rc, "recording the assembled outputs' verification", err);
}
