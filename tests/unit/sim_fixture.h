/* sim_fixture.h — helpers for the simulator's unit tests: parse a committed fixture
 * (tests/fixtures/sim/NAME.ptx, generated from NAME.cu by nvcc -ptx -arch=sm_80 -O3 -lineinfo) or PTX
 * text, describe a launch, run it, and read metrics.  Header-only: each test file includes it once. */
#ifndef GL_SIM_FIXTURE_H
#define GL_SIM_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/sim.h"
#include "sim/sim_float.h"
#include "tests/unit/check.h"

static inline char *fx_read(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s (run the tests from the source root)\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	s[n] = '\0';
	fclose(f);
	return s;
}

/* Parse PTX text; a parse failure is a test failure (message on stderr). */
static inline struct ptx_module *fx_parse(const char *text, const char *name)
{
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	int rc = ptx_parse(text, name, &m, &err);
	if (rc)
		fprintf(stderr, "parse %s: %s\n", name, err.msg);
	CHECK_EQ(rc, GL_OK);
	return rc ? NULL : m;
}

/* tests/fixtures/sim/NAME.ptx */
static inline struct ptx_module *fx_fixture(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "tests/fixtures/sim/%s.ptx", name);
	char *text = fx_read(path);
	CHECK(text != NULL);
	if (!text)
		return NULL;
	struct ptx_module *m = fx_parse(text, path);
	free(text);
	return m;
}

static inline void fx_geometry(struct gl_launch *l, const char *entry, unsigned gx, unsigned gy, unsigned bx,
			       unsigned by)
{
	l->entry = entry;
	l->grid[0] = gx, l->grid[1] = gy, l->grid[2] = 1;
	l->block[0] = bx, l->block[1] = by, l->block[2] = 1;
}

/* Add a buffer, pass it as the next argument, and return its host memory. */
static inline void *fx_buffer(struct gl_launch *l, const char *name, enum gl_dtype t, size_t count)
{
	int b = gl_launch_add_buffer(l, name, t, count, 1);
	gl_launch_arg_buffer(l, b);
	return l->buffers[b].host;
}

/* Run with `threads` workers (1 makes findings and printf order deterministic either way). */
static inline int fx_run_opts(const struct ptx_module *m, struct gl_launch *l, struct gl_sim_result *res,
		       const struct gl_sim_opts *o)
{
	struct gl_err err = {0};
	int rc = gl_sim_run(m, l, o, res, &err);
	if (rc)
		fprintf(stderr, "gl_sim_run %s: %s\n", l->entry, err.msg);
	for (int i = 0; rc == 0 && i < res->nfindings && i < 4; i++)
		fprintf(stderr, "  finding (%s) %s: %s [PTX line %d]\n", l->entry, res->findings[i].kind,
			res->findings[i].message, res->findings[i].line);
	return rc;
}

static inline int fx_run(const struct ptx_module *m, struct gl_launch *l, struct gl_sim_result *res)
{
	struct gl_sim_opts o = {.threads = 2};
	return fx_run_opts(m, l, res, &o);
}

/* Run and expect no findings at all. */
static inline void fx_run_clean(const struct ptx_module *m, struct gl_launch *l, struct gl_sim_result *res)
{
	CHECK_EQ(fx_run(m, l, res), GL_OK);
	CHECK_EQ(res->findings_total, 0);
	CHECK(!res->aborted);
}

static inline double fx_metric(const struct gl_sim_result *res, const char *name)
{
	struct gl_metrics m = {0};
	gl_sim_metrics(res, &m);
	const double *v = gl_metrics_get(&m, name);
	double r = v ? *v : -1;
	gl_metrics_free(&m);
	return r;
}

/* The first finding of `kind`, or NULL. */
static inline const struct gl_finding *fx_finding(const struct gl_sim_result *res, const char *kind)
{
	for (int i = 0; i < res->nfindings; i++)
		if (strcmp(res->findings[i].kind, kind) == 0)
			return &res->findings[i];
	return NULL;
}

/* Two paths that must agree found the same things: counts, and each finding's kind, line, count, address,
 * thread and message, in order. */
static inline void fx_same_findings(const struct gl_findings *a, const struct gl_findings *b)
{
	CHECK_EQ(a->n, b->n);
	CHECK_EQ(a->occurrences, b->occurrences);
	CHECK_EQ(a->errors, b->errors);
	for (int i = 0; i < a->n && i < b->n; i++) {
		CHECK(strcmp(a->items[i].kind, b->items[i].kind) == 0);
		CHECK_EQ(a->items[i].line, b->items[i].line);
		CHECK_EQ(a->items[i].count, b->items[i].count);
		CHECK_EQ(a->items[i].address, b->items[i].address);
		CHECK(memcmp(a->items[i].thread, b->items[i].thread, sizeof a->items[i].thread) == 0);
		CHECK(strcmp(a->items[i].message, b->items[i].message) == 0);
	}
}

/* fx_same_findings for two runs' results: the distinct findings' kind, space, line, count and message, in
 * order, and the error occurrences. */
static inline void fx_same_result_findings(const struct gl_sim_result *a, const struct gl_sim_result *b)
{
	CHECK_EQ(a->nfindings, b->nfindings);
	CHECK_EQ(a->nerrors, b->nerrors);
	for (int i = 0; i < a->nfindings && i < b->nfindings; i++) {
		CHECK(strcmp(a->findings[i].kind, b->findings[i].kind) == 0);
		CHECK(strcmp(a->findings[i].space, b->findings[i].space) == 0);
		CHECK_EQ(a->findings[i].line, b->findings[i].line);
		CHECK_EQ(a->findings[i].count, b->findings[i].count);
		CHECK(strcmp(a->findings[i].message, b->findings[i].message) == 0);
	}
}

/* Is there a C compiler for the compiled engine (cc, or the one GPULAB_CC names)?  Without one its runs are
 * skipped, and the tests say so. */
static inline bool fx_have_cc(void)
{
	return system("cc --version > /dev/null 2>&1") == 0 || getenv("GPULAB_CC");
}

/* Deterministic test data: splitmix64. */
static inline uint64_t fx_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Bit casts with the fixtures' types, through the simulator's own helpers (sim/sim_float.h). */
static inline float fx_f32(uint32_t bits)
{
	return sim_f32(bits);
}

static inline uint32_t fx_bits(float f)
{
	return (uint32_t)sim_f32_bits(f);
}

static inline uint64_t fx_bits64(double d)
{
	return sim_f64_bits(d);
}

#endif
