/* store_check.c — every value read back from a database is input: the file may have been written by
 * another program, edited by hand or crafted.  The loaders (store_load.c, store_trace.c,
 * store_findings.c, store_buffers.c, store_assemble.c) hand each row to these checks before any reader
 * sees it, and import and merge run the same loaders over everything they copy (store_import.c).  A row
 * that fails refuses the load with a sentence naming the database, the table, the row and the value.
 *
 * What is checked is what a reader relies on: ranges (launch geometry within CUDA's limits, sizes that
 * cannot overflow), consistency (warp and lane ids within the launch's block, CTA indices within its grid,
 * buffer shapes within their bytes, an event's named buffer holding the address it names it for) and
 * form (three numbers for a dim3, a well-formed JSON object for the parameters, known names for
 * spaces, operations and severities). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/outputs.h"
#include "store/store_int.h"

#define MAX_GRID_DIM 0x7fffffffu      /* CUDA: gridDim.x < 2^31 (gpulab sim takes it for y and z too) */
#define MAX_BLOCK_THREADS 1024u       /* CUDA: threads per block */
#define MAX_SMEM (1u << 20)           /* shared memory of a CTA, generously above any GPU's 228 KiB */
#define MAX_BUFFER_BYTES (1ull << 40) /* a buffer of a launch */
#define MAX_PARAMS_JSON 4096
#define MAX_LINE 100000000            /* a PTX line or instruction index */
#define MAX_PARTS 64                  /* launches of one variant */

int gl_store_bad_row(struct gl_store *s, const char *table, long id, struct gl_err *err, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return gl_errf(err, GL_EUSAGE,
		       "database %s: %s %ld %s, which gpulab never writes: the file was changed outside gpulab; "
		       "nothing was shown or copied from it (record the run again, or use another --db)",
		       s->path, table, id, what);
}

int gl_store_parse_xyz(struct gl_store *s, const char *table, long id, const char *column, const unsigned char *text,
		       unsigned min, const unsigned max[3], unsigned v[3], struct gl_err *err)
{
	const char *p = (const char *)text;
	for (int i = 0; i < 3; i++) {
		char *end = NULL;
		unsigned long x = p && *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
		if (!end || x < min || x > max[i] || (*end != (i < 2 ? ',' : '\0')))
			return gl_store_bad_row(s, table, id, err, "has %s '%.40s', not three numbers X,Y,Z from %u to "
						"CUDA's limits", column, text ? (const char *)text : "NULL", min);
		v[i] = (unsigned)x;
		p = end + 1;
	}
	return GL_OK;
}

int gl_store_grid_block(struct gl_store *s, const char *table, long id, const unsigned char *grid,
			const unsigned char *block, unsigned g[3], unsigned b[3], struct gl_err *err)
{
	static const unsigned gmax[3] = {MAX_GRID_DIM, MAX_GRID_DIM, MAX_GRID_DIM},
			      bmax[3] = {MAX_BLOCK_THREADS, MAX_BLOCK_THREADS, MAX_BLOCK_THREADS};
	int rc = gl_store_parse_xyz(s, table, id, "grid", grid, 1, gmax, g, err);
	if (rc == GL_OK)
		rc = gl_store_parse_xyz(s, table, id, "block", block, 1, bmax, b, err);
	if (rc == GL_OK && (unsigned long long)b[0] * b[1] * b[2] > MAX_BLOCK_THREADS)
		rc = gl_store_bad_row(s, table, id, err, "has a block of %u x %u x %u threads, more than CUDA's %u",
				      b[0], b[1], b[2], MAX_BLOCK_THREADS);
	return rc;
}

int gl_store_check_params(struct gl_store *s, const char *table, long id, const char *json, struct gl_err *err)
{
	if (!json || strlen(json) > MAX_PARAMS_JSON || !gl_json_valid_object(json))
		return gl_store_bad_row(s, table, id, err, "has params_json '%.60s%s', not a JSON object of at most %d "
					"bytes", json ? json : "NULL", json && strlen(json) > 60 ? "..." : "",
					MAX_PARAMS_JSON);
	return GL_OK;
}

static bool in_range(long long v, long long lo, long long hi)
{
	return v >= lo && v <= hi;
}

int gl_store_check_launch(struct gl_store *s, long id, const struct gl_launch_record *l, struct gl_err *err)
{
	const char *why = NULL;
	long long v = 0;
	unsigned long long ctas = (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2];
	if (!in_range(v = l->dyn_smem, 0, MAX_SMEM))
		why = "dyn_smem";
	else if (!in_range(v = l->regs, -1, 255))
		why = "regs";
	else if (!in_range(v = l->static_smem, -1, MAX_SMEM))
		why = "static_smem";
	else if (!in_range(v = l->verified, -1, 1))
		why = "verified";
	else if (!in_range(v = l->part, 0, MAX_PARTS))
		why = "part";
	else if (!in_range(v = l->sanitizer_errors, 0, INT64_MAX) || !in_range(v = l->sanitizer_warnings, 0, INT64_MAX) ||
		 !in_range(v = l->sanitizer_dropped, 0, INT64_MAX))
		why = "a sanitizer count";
	else if (!in_range(v = l->cta_first, 0, (long long)ctas) || !in_range(l->cta_end, l->cta_first, (long long)ctas))
		why = "cta_first or cta_end";
	if (why)
		return gl_store_bad_row(s, "launch", id, err, "has %s = %lld, out of range", why, v);
	return gl_store_check_params(s, "launch", id, l->params_json, err);
}

/* A block or thread coordinate within the launch's grid or block. */
static bool within(const unsigned c[3], const unsigned lim[3])
{
	return c[0] < lim[0] && c[1] < lim[1] && c[2] < lim[2];
}

int gl_store_check_finding(struct gl_store *s, long launch_id, const struct gl_launch_record *l,
			   const struct gl_finding *f, struct gl_err *err)
{
	bool sites = within(f->block, l->grid) && within(f->thread, l->block);
	for (int i = 0; i < f->nsamples; i++)
		sites &= within(f->samples[i].block, l->grid) && within(f->samples[i].thread, l->block);
	if (!sites)
		return gl_store_bad_row(s, "the sanitizer findings of launch", launch_id, err,
					"name block (%u,%u,%u) thread (%u,%u,%u), outside the launch", f->block[0], f->block[1], f->block[2], f->thread[0], f->thread[1],
					f->thread[2]);
	if (!in_range(f->line, 0, MAX_LINE) || !in_range(f->src_line, 0, MAX_LINE) || f->count < 0 ||
	    f->size > (1u << 20) || !f->kind[0])
		return gl_store_bad_row(s, "the sanitizer findings of launch", launch_id, err,
					"have kind '%s', line %d, count %ld or size %u out of range", f->kind, f->line, f->count, f->size);
	return GL_OK;
}

static bool printable_name(const char *name)
{
	if (!name[0])
		return false;
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

int gl_store_check_buffers(struct gl_store *s, long launch_id, const struct gl_buffer_desc *b, int n,
			   struct gl_err *err)
{
	for (int i = 0; i < n; i++) {
		const struct gl_buffer_desc *d = &b[i];
		unsigned e = d->elem;
		bool ok = printable_name(d->name) && (d->shared == 0 || d->shared == 1) &&
			  (e == 1 || e == 2 || e == 4 || e == 8 || e == 16) && d->bytes <= MAX_BUFFER_BYTES &&
			  d->base <= UINT64_MAX - d->bytes && (!d->shared || d->base + d->bytes <= MAX_SMEM) &&
			  d->rows >= 1 && d->cols >= 1 && (unsigned long long)d->rows <= MAX_BUFFER_BYTES &&
			  (unsigned long long)d->cols <= MAX_BUFFER_BYTES / (unsigned long long)d->rows &&
			  (unsigned long long)d->rows * (unsigned long long)d->cols <= d->bytes / e;
		for (int k = 0; ok && k < i; k++)
			ok = b[k].shared != d->shared || strcmp(b[k].name, d->name) != 0;
		if (!ok)
			return gl_store_bad_row(s, "the buffer map of launch", launch_id, err,
						"describes buffer '%.31s' (base 0x%llx, %llu bytes, %u-byte elements, %ld x "
						"%ld) inconsistently", d->name,
						(unsigned long long)d->base, (unsigned long long)d->bytes, e, d->rows, d->cols);
	}
	return GL_OK;
}

/* The map's buffer of that name in that space, or NULL. */
static const struct gl_buffer_desc *map_find(const struct gl_traced_launch *l, const char *name, bool shared)
{
	for (int i = 0; i < l->nbuffers; i++)
		if (l->buffers[i].shared == shared && strcmp(l->buffers[i].name, name) == 0)
			return &l->buffers[i];
	return NULL;
}

/* What is wrong with a shuffle or a barrier arrival, or NULL: the pair (space warp, op shfl) or (space cta,
 * op bar) and never a memory operation with them; each active lane's value a lane (0..31) or a barrier id
 * (0..15), as the simulator records them (common/trace.h) and the reduce view indexes with them. */
static const char *bad_sync(const struct gl_trace_event *e)
{
	bool shfl = e->op == GL_TRACE_SHFL, bar = e->op == GL_TRACE_BAR;
	bool sync_space = e->space == GL_TRACE_WARP || e->space == GL_TRACE_CTA;
	if (sync_space != (shfl || bar) || (shfl && e->space != GL_TRACE_WARP) || (bar && e->space != GL_TRACE_CTA))
		return "a space and an operation that do not go together (a shuffle is space warp, a barrier space cta)";
	if (!sync_space)
		return NULL;
	for (int lane = 0; lane < 32; lane++)
		if (e->mask >> lane & 1 && e->addrs[lane] >= (shfl ? 32u : 16u))
			return shfl ? "a shuffle source lane above 31" : "a barrier id above 15";
	return NULL;
}

/* What is wrong with one event of launch l, or NULL. */
static const char *bad_event(const struct gl_traced_launch *l, const struct gl_trace_event *e)
{
	unsigned threads = l->block[0] * l->block[1] * l->block[2], warps = (threads + 31) / 32;
	unsigned long long ctas = (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2];
	if (e->block >= ctas)
		return "a block outside the launch's grid";
	if (e->warp >= warps)
		return "a warp outside the launch's block";
	unsigned lanes = threads - e->warp * 32 >= 32 ? 32 : threads - e->warp * 32;
	if (!e->mask || (lanes < 32 && (e->mask >> lanes)))
		return "an active lane outside the launch's block (or none)";
	if (e->bytes != 1 && e->bytes != 2 && e->bytes != 4 && e->bytes != 8 && e->bytes != 16)
		return "an access size other than 1, 2, 4, 8 or 16 bytes";
	if (e->pc > MAX_LINE || e->line > MAX_LINE || e->cost > 4096)
		return "a pc, line or cost out of range";
	const char *sync = bad_sync(e);
	if (sync)
		return sync;
	const struct gl_buffer_desc *b = e->buffer[0] ? map_find(l, e->buffer, e->space == GL_TRACE_SHARED) : NULL;
	uint64_t first = e->addrs[__builtin_ctz(e->mask)];
	if (b && first - b->base >= b->bytes)
		return "an address outside the buffer it names";
	return NULL;
}

int gl_store_check_trace(struct gl_store *s, const struct gl_traced_launch *l, struct gl_err *err)
{
	for (uint32_t i = 0; i < l->n; i++) {
		const struct gl_trace_event *e = &l->ev[i];
		const char *why = bad_event(l, e);
		if (why)
			return gl_store_bad_row(s, "the trace of launch", l->launch_id, err,
						"has an event (seq %u: block %u, warp %u, mask 0x%x, %u bytes at 0x%llx in "
						"'%.31s') with %s", e->seq, e->block, e->warp, e->mask, e->bytes,
						(unsigned long long)e->addrs[__builtin_ctz(e->mask ? e->mask : 1)], e->buffer,
						why);
	}
	return GL_OK;
}

int gl_store_check_outputs(struct gl_store *s, long launch_id, const char *name, long long bytes, const void *segs,
			   size_t len, struct gl_err *err)
{
	if (bytes < 0 || (unsigned long long)bytes > GL_STORE_MAX_OUTPUT || !gl_outputs_valid(segs, len, (size_t)bytes))
		return gl_store_bad_row(s, "the outputs of launch", launch_id, err,
					"have buffer '%.31s' of %lld bytes with segments that do not fit it",
					name ? name : "", bytes);
	return GL_OK;
}
