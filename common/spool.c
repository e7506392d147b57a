/* spool.c — the hand-off of a program's kernel launches to `gpulab profile` (spool.h): one file per
 * launch, written whole and renamed in by the program's side, loaded and checked by gpulab's side.  The
 * directory and its files are made, read and removed through common/safe_dir.h, as every directory gpulab
 * shares; this file owns the format and the names.
 *
 * A file is the magic "GLSPOOL", the format version, then the launch's fields in a fixed order: integers
 * and doubles in this machine's byte order (writer and reader are one build on one machine), strings as a
 * 32-bit length and the bytes.  The decoder reads through a cursor that refuses to run past the end, a
 * string longer than its field or holding a NUL, a count beyond its limit, and a value outside what a
 * launch can have, so a truncated, corrupt or hostile file is rejected with a reason and never stored. */
#define _GNU_SOURCE
#include "spool.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safe_dir.h"
#include "util.h"

#define MAGIC "GLSPOOL"
#define MAX_METRICS 4096
#define MAX_TRACE (1u << 22)
#define MAX_BUFFERS 1024
#define MAX_JSON 65536
#define MAX_SMEM (256u << 10)

/* The spool directory, opened and checked as common/safe_dir.h checks every directory gpulab shares. */
static int open_spool(const char *dir, struct gl_safe_dir *d, struct gl_err *err)
{
	return gl_safe_dir_open(d, dir, 0, "the profile spool", err);
}

/* ---- writing */

struct wbuf {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct wbuf *b, const void *v, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = gl_xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, v, n);
	b->n += n;
}

#define PUT(b, v) put((b), &(v), sizeof(v))

static void put_str(struct wbuf *b, const char *s)
{
	uint32_t n = s ? (uint32_t)strlen(s) : 0;
	PUT(b, n);
	put(b, s ? s : "", n);
}

static void put_i64(struct wbuf *b, long long v)
{
	int64_t x = v;
	PUT(b, x);
}

static void encode_findings(struct wbuf *b, const struct gl_launch_record *r)
{
	uint32_t n = (uint32_t)r->nfindings;
	PUT(b, n);
	for (int i = 0; i < r->nfindings; i++) {
		const struct gl_finding *f = &r->findings[i];
		put_str(b, f->kind);
		put_str(b, f->space);
		uint8_t w = f->warning;
		PUT(b, w);
		PUT(b, f->address);
		PUT(b, f->size);
		PUT(b, f->block);
		PUT(b, f->thread);
		PUT(b, f->line);
		PUT(b, f->src_line);
		put_str(b, f->src_file);
		put_str(b, f->message);
		put_i64(b, f->count);
		PUT(b, f->nsamples);
		PUT(b, f->samples);
	}
}

static void encode_trace(struct wbuf *b, const struct gl_launch_record *r)
{
	PUT(b, r->ntrace);
	for (uint32_t i = 0; i < r->ntrace; i++) {
		const struct gl_trace_event *e = &r->trace[i];
		uint32_t head[5] = {e->seq, e->block, e->warp, e->pc, e->line};
		uint8_t small[4] = {e->space, e->op, e->bytes, e->strided};
		PUT(b, head);
		PUT(b, small);
		PUT(b, e->mask);
		PUT(b, e->addr_base);
		PUT(b, e->addr_stride);
		PUT(b, e->addrs);
		PUT(b, e->cost);
		put_str(b, e->buffer);
		PUT(b, e->buffer_base);
	}
	uint32_t nb = (uint32_t)r->nbuffers;
	PUT(b, nb);
	for (int i = 0; i < r->nbuffers; i++) {
		const struct gl_buffer_desc *d = &r->buffers[i];
		put_str(b, d->name);
		put_str(b, d->dtype);
		PUT(b, d->shared);
		PUT(b, d->base);
		PUT(b, d->bytes);
		PUT(b, d->elem);
		put_i64(b, d->rows);
		put_i64(b, d->cols);
	}
}

static void encode(struct wbuf *b, const struct gl_spool_launch *l)
{
	const struct gl_launch_record *r = &l->rec;
	put(b, MAGIC, 8);
	uint32_t version = GL_SPOOL_VERSION;
	PUT(b, version);
	put_i64(b, l->seq);
	put_str(b, l->kernel);
	put_str(b, l->gpu);
	PUT(b, l->stream);
	PUT(b, l->estimate_us);
	PUT(b, l->error);
	put_str(b, r->topic);
	put_str(b, r->variant);
	put_str(b, r->entry);
	put_str(b, r->params_json);
	PUT(b, r->grid);
	PUT(b, r->block);
	PUT(b, r->dyn_smem);
	PUT(b, r->regs);
	PUT(b, r->static_smem);
	PUT(b, r->verified);
	PUT(b, r->duration_ns);
	put_str(b, r->metric_source);
	put_str(b, r->note);
	uint8_t flags[2] = {r->sanitized, r->outputs_partial};
	PUT(b, flags);
	long long counts[5] = {r->sanitizer_errors, r->sanitizer_warnings, r->sanitizer_dropped, r->cta_first, r->cta_end};
	for (int i = 0; i < 5; i++)
		put_i64(b, counts[i]);
	uint32_t nm = (uint32_t)r->metrics.n;
	PUT(b, nm);
	for (size_t i = 0; i < r->metrics.n; i++) {
		put_str(b, r->metrics.items[i].name);
		PUT(b, r->metrics.items[i].value);
		put_str(b, r->metrics.items[i].unit);
	}
	encode_findings(b, r);
	encode_trace(b, r);
}

int gl_spool_write(const char *dir, const struct gl_spool_launch *l, struct gl_err *err)
{
	struct wbuf b = {0};
	encode(&b, l);
	char name[32];
	snprintf(name, sizeof name, "launch-%06ld", l->seq);
	struct gl_safe_dir d;
	struct gl_err why = {0};
	int rc = open_spool(dir, &d, &why);
	if (rc == GL_OK)
		rc = gl_safe_dir_write(&d, name, b.p, b.n, &why);
	gl_safe_dir_close(&d);
	free(b.p);
	if (rc != GL_OK)
		return gl_errf(err, GL_EENV, "cannot write launch %ld into the profile spool: %s", l->seq, why.msg);
	return GL_OK;
}

/* ---- reading: a cursor that fails once and stays failed, with the first reason */

struct rd {
	const unsigned char *p;
	size_t n, off;
	const char *why;
};

static bool take(struct rd *r, void *out, size_t n)
{
	if (r->why || n > r->n - r->off) {
		r->why = r->why ? r->why : "the file ends early";
		memset(out, 0, n);
		return false;
	}
	memcpy(out, r->p + r->off, n);
	r->off += n;
	return true;
}

#define TAKE(r, v) take((r), &(v), sizeof(v))

static void fail(struct rd *r, const char *why)
{
	if (!r->why)
		r->why = why;
}

/* A string into a field of `size` bytes: shorter than it, no NUL inside. */
static void take_str(struct rd *r, char *out, size_t size)
{
	uint32_t n = 0;
	out[0] = 0;
	if (!TAKE(r, n))
		return;
	if (n >= size || n > r->n - r->off) {
		fail(r, n >= size ? "a string longer than its field" : "the file ends early");
		return;
	}
	memcpy(out, r->p + r->off, n);
	out[n] = 0;
	r->off += n;
	if (strlen(out) != n)
		fail(r, "a string with a NUL byte inside");
}

/* A string of at most max - 1 bytes, allocated to its length. */
static char *take_dup(struct rd *r, size_t max)
{
	uint32_t n = 0;
	if (!r->why && sizeof n <= r->n - r->off)
		memcpy(&n, r->p + r->off, sizeof n);
	char *s = gl_xmalloc(n < max ? (size_t)n + 1 : 1);
	take_str(r, s, n < max ? (size_t)n + 1 : 1);
	if (n >= max)
		fail(r, "a string longer than its field");
	return s;
}

static long long take_i64(struct rd *r)
{
	int64_t v = 0;
	TAKE(r, v);
	return v;
}

static void check(struct rd *r, bool ok, const char *why)
{
	if (!ok)
		fail(r, why);
}

static bool finite_or_nan(double v)
{
	return isnan(v) || isfinite(v);
}

static void decode_geometry(struct rd *r, struct gl_launch_record *rec)
{
	TAKE(r, rec->grid);
	TAKE(r, rec->block);
	TAKE(r, rec->dyn_smem);
	TAKE(r, rec->regs);
	TAKE(r, rec->static_smem);
	TAKE(r, rec->verified);
	TAKE(r, rec->duration_ns);
	unsigned long long threads = (unsigned long long)rec->block[0] * rec->block[1] * rec->block[2];
	check(r, rec->grid[0] && rec->grid[1] && rec->grid[2] && rec->grid[1] <= 65535 && rec->grid[2] <= 65535,
	      "a grid dimension out of range");
	check(r, threads >= 1 && threads <= 1024 && rec->block[2] <= 64, "a block of more than 1024 threads");
	check(r, rec->dyn_smem <= MAX_SMEM && rec->static_smem >= -1 && rec->static_smem <= (int)MAX_SMEM,
	      "shared memory out of range");
	check(r, rec->regs >= -1 && rec->regs <= 255, "registers out of range");
	check(r, rec->verified >= -1 && rec->verified <= 1, "a verdict other than -1, 0 or 1");
	check(r, finite_or_nan(rec->duration_ns), "an infinite duration");
}

static void decode_metrics(struct rd *r, struct gl_launch_record *rec)
{
	uint32_t n = 0;
	TAKE(r, n);
	check(r, n <= MAX_METRICS, "too many metrics");
	for (uint32_t i = 0; i < n && !r->why; i++) {
		char name[96], unit[16];
		double v;
		take_str(r, name, sizeof name);
		TAKE(r, v);
		take_str(r, unit, sizeof unit);
		check(r, name[0] != 0, "a metric without a name");
		check(r, finite_or_nan(v), "an infinite metric value");
		if (!r->why)
			gl_metrics_set(&rec->metrics, name, v, unit);
	}
}

static void decode_findings(struct rd *r, struct gl_launch_record *rec)
{
	uint32_t n = 0;
	TAKE(r, n);
	check(r, n <= GL_FINDINGS_MAX, "too many findings");
	if (r->why || !n)
		return;
	rec->findings = gl_xcalloc(n, sizeof *rec->findings);
	rec->nfindings = (int)n;
	for (uint32_t i = 0; i < n && !r->why; i++) {
		struct gl_finding *f = &rec->findings[i];
		uint8_t w = 0;
		take_str(r, f->kind, sizeof f->kind);
		take_str(r, f->space, sizeof f->space);
		TAKE(r, w);
		f->warning = w != 0;
		TAKE(r, f->address);
		TAKE(r, f->size);
		TAKE(r, f->block);
		TAKE(r, f->thread);
		TAKE(r, f->line);
		TAKE(r, f->src_line);
		take_str(r, f->src_file, sizeof f->src_file);
		take_str(r, f->message, sizeof f->message);
		f->count = (long)take_i64(r);
		TAKE(r, f->nsamples);
		TAKE(r, f->samples);
		check(r, f->kind[0] && w <= 1 && f->count >= 1 && f->line >= 0 && f->src_line >= 0,
		      "a finding without a kind, count or line");
		check(r, f->nsamples >= 0 && f->nsamples <= GL_FINDING_SAMPLES, "a finding's samples out of range");
	}
}

static void decode_trace(struct rd *r, struct gl_launch_record *rec)
{
	uint32_t n = 0;
	TAKE(r, n);
	check(r, n <= MAX_TRACE, "too many trace events");
	if (!r->why && n) {
		rec->trace = gl_xcalloc(n, sizeof *rec->trace);
		rec->ntrace = n;
	}
	for (uint32_t i = 0; i < n && !r->why; i++) {
		struct gl_trace_event *e = &rec->trace[i];
		uint32_t head[5];
		uint8_t small[4];
		TAKE(r, head);
		TAKE(r, small);
		*e = (struct gl_trace_event){.seq = head[0], .block = head[1], .warp = head[2], .pc = head[3],
					     .line = head[4], .space = small[0], .op = small[1], .bytes = small[2],
					     .strided = small[3] != 0};
		TAKE(r, e->mask);
		TAKE(r, e->addr_base);
		TAKE(r, e->addr_stride);
		TAKE(r, e->addrs);
		TAKE(r, e->cost);
		take_str(r, e->buffer, sizeof e->buffer);
		TAKE(r, e->buffer_base);
		check(r, e->space <= GL_TRACE_CTA && e->op <= GL_TRACE_BAR && small[3] <= 1, "a trace event out of range");
	}
	uint32_t nb = 0;
	TAKE(r, nb);
	check(r, nb <= MAX_BUFFERS, "too many buffers");
	if (!r->why && nb) {
		rec->buffers = gl_xcalloc(nb, sizeof *rec->buffers);
		rec->nbuffers = (int)nb;
	}
	for (uint32_t i = 0; i < nb && !r->why; i++) {
		struct gl_buffer_desc *d = &rec->buffers[i];
		take_str(r, d->name, sizeof d->name);
		take_str(r, d->dtype, sizeof d->dtype);
		TAKE(r, d->shared);
		TAKE(r, d->base);
		TAKE(r, d->bytes);
		TAKE(r, d->elem);
		d->rows = (long)take_i64(r);
		d->cols = (long)take_i64(r);
		check(r, (d->shared == 0 || d->shared == 1) && d->elem >= 1 && d->elem <= 16 && d->rows >= 0 && d->cols >= 0,
		      "a buffer description out of range");
	}
}

static void decode_record(struct rd *r, struct gl_launch_record *rec)
{
	take_str(r, rec->topic, sizeof rec->topic);
	take_str(r, rec->variant, sizeof rec->variant);
	take_str(r, rec->entry, sizeof rec->entry);
	rec->params_json = take_dup(r, MAX_JSON);
	check(r, strcmp(rec->topic, "program") == 0, "a topic other than 'program'");
	check(r, rec->variant[0] && rec->entry[0], "a launch without a kernel name");
	decode_geometry(r, rec);
	take_str(r, rec->metric_source, sizeof rec->metric_source);
	take_str(r, rec->note, sizeof rec->note);
	check(r, strcmp(rec->metric_source, "sim") == 0 || strcmp(rec->metric_source, "cupti") == 0,
	      "a metric source other than sim or cupti");
	uint8_t flags[2];
	TAKE(r, flags);
	rec->sanitized = flags[0] != 0;
	rec->outputs_partial = flags[1] != 0;
	rec->sanitizer_errors = (long)take_i64(r);
	rec->sanitizer_warnings = (long)take_i64(r);
	rec->sanitizer_dropped = (long)take_i64(r);
	rec->cta_first = (long)take_i64(r);
	rec->cta_end = (long)take_i64(r);
	check(r, flags[0] <= 1 && flags[1] <= 1, "a flag other than 0 or 1");
	check(r, rec->sanitizer_errors >= 0 && rec->sanitizer_warnings >= 0 && rec->sanitizer_dropped >= 0,
	      "a negative sanitizer count");
	check(r, rec->cta_first >= 0 && rec->cta_end >= 0, "a negative CTA range");
	decode_metrics(r, rec);
	decode_findings(r, rec);
	decode_trace(r, rec);
}

int gl_spool_decode(const unsigned char *buf, size_t n, struct gl_spool_launch *out, struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	gl_launch_record_init(&out->rec);
	struct rd r = {.p = buf, .n = n};
	char magic[8];
	uint32_t version = 0;
	TAKE(&r, magic);
	TAKE(&r, version);
	check(&r, memcmp(magic, MAGIC, 8) == 0, "not a gpulab spool file");
	check(&r, version == GL_SPOOL_VERSION, "a spool format of another gpulab version");
	out->seq = (long)take_i64(&r);
	take_str(&r, out->kernel, sizeof out->kernel);
	take_str(&r, out->gpu, sizeof out->gpu);
	TAKE(&r, out->stream);
	TAKE(&r, out->estimate_us);
	TAKE(&r, out->error);
	check(&r, out->seq >= 1 && out->kernel[0], "a launch without a number or a name");
	check(&r, finite_or_nan(out->estimate_us) && (isnan(out->estimate_us) || out->estimate_us >= 0),
	      "an estimate out of range");
	check(&r, out->error >= 0 && out->error <= 999, "an error code out of range");
	decode_record(&r, &out->rec);
	check(&r, r.off == r.n, "bytes after the launch");
	if (r.why) {
		gl_spool_launch_free(out);
		return gl_errf(err, GL_EUSAGE, "%s", r.why);
	}
	return GL_OK;
}

/* ---- the directory */

int gl_spool_create(char *dir, size_t n, struct gl_err *err)
{
	struct gl_safe_dir d;
	struct gl_err why = {0};
	int rc = gl_safe_dir_temp(&d, "gpulab-profile", &why); /* mode 0700: only this user reads or writes it */
	if (rc == GL_OK && snprintf(dir, n, "%s", d.path) >= (int)n) {
		rc = gl_errf(&why, GL_EENV, "its path %s is too long", d.path);
		gl_safe_dir_remove_temp(&d);
	}
	gl_safe_dir_close(&d);
	if (rc != GL_OK)
		return gl_errf(err, rc, "cannot make a spool directory for the program's launches: %s", why.msg);
	return GL_OK;
}

static bool is_launch_file(const char *name)
{
	return strncmp(name, "launch-", 7) == 0 && name[7] && strspn(name + 7, "0123456789") == strlen(name + 7);
}

static int by_seq(const void *a, const void *b)
{
	long x = ((const struct gl_spool_launch *)a)->seq, y = ((const struct gl_spool_launch *)b)->seq;
	return (x > y) - (x < y);
}

struct loader {
	struct gl_spool_set *set;
	size_t cap;
};

static void reject(struct gl_spool_set *set, const char *name, const char *why)
{
	if (set->rejected++ == 0)
		snprintf(set->first_rejected, sizeof set->first_rejected, "%.60s: %.440s", name, why);
}

/* One launch file: read under safe_dir's rules (not a link, a regular file of this user's that no one else
 * may write, at most GL_SPOOL_MAX_FILE bytes), then decoded. */
static void load_entry(const struct gl_safe_dir *d, const char *name, void *arg)
{
	struct loader *ld = arg;
	if (!is_launch_file(name))
		return;
	char *buf = NULL;
	size_t n = 0;
	struct gl_spool_launch l;
	struct gl_err why = {0};
	if (gl_safe_dir_read(d, name, GL_SPOOL_MAX_FILE, &buf, &n, &why) == GL_OK &&
	    gl_spool_decode((const unsigned char *)buf, n, &l, &why) == GL_OK) {
		if (ld->set->n == ld->cap) {
			ld->cap = ld->cap ? 2 * ld->cap : 16;
			ld->set->launches = gl_xrealloc(ld->set->launches, ld->cap * sizeof *ld->set->launches);
		}
		ld->set->launches[ld->set->n++] = l;
	} else {
		reject(ld->set, name, why.msg);
	}
	free(buf);
}

int gl_spool_load(const char *dir, struct gl_spool_set *set, struct gl_err *err)
{
	memset(set, 0, sizeof *set);
	struct gl_safe_dir d;
	struct loader ld = {.set = set};
	int rc = open_spool(dir, &d, err);
	if (rc == GL_OK)
		rc = gl_safe_dir_each(&d, load_entry, &ld, err);
	gl_safe_dir_close(&d);
	if (set->n)
		qsort(set->launches, set->n, sizeof *set->launches, by_seq);
	return rc;
}

void gl_spool_launch_free(struct gl_spool_launch *l)
{
	gl_launch_record_free(&l->rec);
}

void gl_spool_set_free(struct gl_spool_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		gl_spool_launch_free(&set->launches[i]);
	free(set->launches);
	memset(set, 0, sizeof *set);
}

static void remove_launch_file(const struct gl_safe_dir *d, const char *name, void *arg)
{
	(void)arg;
	if (is_launch_file(name))
		gl_safe_dir_discard(d, name);
}

void gl_spool_remove(const char *dir)
{
	struct gl_safe_dir d;
	struct gl_err ignored = {0};
	if (open_spool(dir, &d, &ignored) != GL_OK)
		return;
	gl_safe_dir_each(&d, remove_launch_file, NULL, &ignored);
	gl_safe_dir_clean_stale(&d, 0); /* a write's temporary file, left by a program killed in the middle of it */
	gl_safe_dir_close(&d);
	rmdir(dir); /* only when nothing else is in it */
}
