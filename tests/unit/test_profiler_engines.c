/* test_profiler_engines.c — the differential test of the simulator's two engines: every kernel of the
 * test corpora runs on the interpreter (the reference) and on the compiled engine (sim/sim_jit*.c), and
 * the two must agree bit for bit: every counter, every finding (kind, line, address, message, count,
 * sample threads), the printf output, the abort state and every buffer.  The corpora: each variant of
 * each topic at the size its views record at (gl_topic_view_problem), and each kernel of
 * tests/fixtures/sim/NAME.ptx with generic arguments (a 16 KiB buffer of sequence data for each 8-byte
 * parameter, 64 for each smaller one, 2 CTAs of 96 threads: partial warps, findings and all).
 * It links gl_profiler because that is the lowest library with both the topics and the simulator.
 * Compiled kernels are cached under $TMPDIR/gpulab-test-jit-UID, so a second run compiles nothing. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/registry.h"
#include "sim/sim.h"
#include "tests/unit/check.h"

static int compared, mismatches, refused;

#define DIFF(cond, what)                                                                  \
	do {                                                                              \
		if (cond) {                                                               \
			fprintf(stderr, "%s: engines differ in %s\n", label, what);       \
			bad = true;                                                       \
		}                                                                         \
	} while (0)

static bool same_finding(const struct gl_finding *a, const struct gl_finding *b)
{
	return strcmp(a->kind, b->kind) == 0 && strcmp(a->space, b->space) == 0 && a->warning == b->warning &&
	       a->address == b->address && a->size == b->size && !memcmp(a->block, b->block, sizeof a->block) &&
	       !memcmp(a->thread, b->thread, sizeof a->thread) && a->line == b->line && a->src_line == b->src_line &&
	       strcmp(a->src_file, b->src_file) == 0 && strcmp(a->message, b->message) == 0 && a->count == b->count &&
	       a->nsamples == b->nsamples && !memcmp(a->samples, b->samples, (size_t)a->nsamples * sizeof *a->samples);
}

/* Compare two results and the buffers of their launches. */
static void compare(const char *label, const struct gl_sim_result *a, const struct gl_launch *la,
		    const struct gl_sim_result *b, const struct gl_launch *lb)
{
	bool bad = false;
	DIFF(memcmp(&a->c, &b->c, sizeof a->c) != 0, "the counters");
	DIFF(a->nfindings != b->nfindings || a->nerrors != b->nerrors || a->findings_total != b->findings_total ||
		     a->findings_dropped != b->findings_dropped, "the number of findings");
	for (int i = 0; i < a->nfindings && i < b->nfindings; i++)
		if (!same_finding(&a->findings[i], &b->findings[i])) {
			fprintf(stderr, "%s: finding %d: '%s' (line %d) vs '%s' (line %d)\n", label, i,
				a->findings[i].message, a->findings[i].line, b->findings[i].message, b->findings[i].line);
			bad = true;
		}
	DIFF(strcmp(a->printf_out ? a->printf_out : "", b->printf_out ? b->printf_out : "") != 0, "printf output");
	DIFF(a->printf_dropped != b->printf_dropped, "dropped printf records");
	DIFF(a->aborted != b->aborted || a->aborted_cta != b->aborted_cta || a->ctas_run != b->ctas_run, "the abort");
	for (int i = 0; i < la->nbuffers; i++)
		DIFF(memcmp(la->buffers[i].host, lb->buffers[i].host, la->buffers[i].count * gl_dtype_size(la->buffers[i].dtype)),
		     la->buffers[i].name);
	if (strcmp(b->engine, "compiled") != 0) { /* refused as a whole: only .func calls and grid.sync may be */
		fprintf(stderr, "%s: %s\n", label, b->engine_note);
		DIFF(!strstr(b->engine_note, "a call to") && !strstr(b->engine_note, "a cooperative launch"),
		     "the engine (not compiled)");
		refused++;
	}
	compared++;
	mismatches += bad;
	CHECK(!bad);
}

static int run(const struct ptx_module *m, struct gl_launch *l, int engine, struct gl_sim_result *res)
{
	/* one worker: atomics of different CTAs then land in the same order on both engines */
	struct gl_sim_opts o = {.threads = 1, .engine = engine, .max_instructions = 400000};
	struct gl_err err = {0};
	int rc = gl_sim_run(m, l, &o, res, &err);
	if (rc)
		fprintf(stderr, "%s: %s\n", l->entry, err.msg);
	return rc;
}

static void topic_variant(const struct gl_topic *t, const struct gl_variant *v, const struct ptx_module *m)
{
	struct gl_problem p;
	gl_topic_view_problem(t, &p);
	struct gl_err err = {0};
	if (t->check && t->check(&p, &err) != GL_OK) {
		fprintf(stderr, "%s %s: %s\n", t->name, v->name, err.msg);
		CHECK(false);
		return;
	}
	struct gl_launch la = {.module = t->ptx, .module_name = t->name}, lb = la;
	CHECK_EQ(gl_topic_setup(t, v, &p, &la, &err), GL_OK);
	CHECK_EQ(gl_topic_setup(t, v, &p, &lb, &err), GL_OK);
	struct gl_sim_result a, b;
	if (run(m, &la, GL_ENGINE_INTERP, &a) == GL_OK) {
		if (run(m, &lb, GL_ENGINE_COMPILED, &b) == GL_OK) {
			char label[128];
			snprintf(label, sizeof label, "%s:%s", t->name, v->name);
			compare(label, &a, &la, &b, &lb);
			gl_sim_result_free(&b);
		}
		gl_sim_result_free(&a);
	}
	gl_launch_free(&la);
	gl_launch_free(&lb);
}

static void topics(void)
{
	for (const struct gl_topic *const *t = gl_topics; *t; t++) {
		struct ptx_module *m = NULL;
		struct gl_err err = {0};
		CHECK_EQ(ptx_parse_lazy((*t)->ptx, (*t)->name, &m, &err), GL_OK);
		if (!m)
			continue;
		const char *why = NULL;
		gl_sim_apply_sass(m, gl_topic_sass(*t, &why), why); /* count as gpulab run does */
		for (int i = 0; i < (*t)->nvariants; i++)
			topic_variant(*t, &(*t)->variants[i], m);
		ptx_module_free(m);
	}
}

/* A launch of `fn` with generic arguments; false when a parameter cannot be built (a by-value struct). */
static bool generic_launch(const struct ptx_function *fn, struct gl_launch *l)
{
	l->entry = fn->name;
	l->grid[0] = 2, l->grid[1] = l->grid[2] = 1;
	l->block[0] = 96, l->block[1] = l->block[2] = 1;
	for (int i = 0; i < fn->nvars; i++)
		if (fn->vars[i].space == PS_SHARED && fn->vars[i].is_extern)
			l->dyn_smem = 4096;
	for (int i = 0; i < fn->nparams; i++) {
		const struct ptx_param *p = &fn->params[i];
		if (p->is_array)
			return false;
		if (p->size == 8) {
			char name[16];
			snprintf(name, sizeof name, "b%d", i);
			int b = gl_launch_add_buffer(l, name, GL_U32, 4096, 1);
			uint32_t *h = l->buffers[b].host;
			for (int k = 0; k < 4096; k++)
				h[k] = (uint32_t)k;
			gl_launch_arg_buffer(l, b);
		} else {
			gl_launch_arg_scalar(l, 64, p->size);
		}
	}
	return true;
}

static void fixture(const char *path)
{
	FILE *f = fopen(path, "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	static char text[1 << 21];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = 0;
	fclose(f);
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	CHECK_EQ(ptx_parse_lazy(text, path, &m, &err), GL_OK);
	for (int i = 0; m && i < m->nfuncs; i++) {
		const struct ptx_function *fn = &m->funcs[i];
		if (!fn->is_entry || !fn->code || ptx_check_function(m, fn, &err) != GL_OK)
			continue;
		struct gl_launch la = {.module = text, .module_name = path}, lb = la;
		if (!generic_launch(fn, &la) || !generic_launch(fn, &lb)) {
			gl_launch_free(&la);
			gl_launch_free(&lb);
			continue;
		}
		struct gl_sim_result a, b;
		if (run(m, &la, GL_ENGINE_INTERP, &a) == GL_OK) {
			if (run(m, &lb, GL_ENGINE_COMPILED, &b) == GL_OK) {
				char label[1024];
				snprintf(label, sizeof label, "%s:%s", path, fn->name);
				compare(label, &a, &la, &b, &lb);
				gl_sim_result_free(&b);
			}
			gl_sim_result_free(&a);
		}
		gl_launch_free(&la);
		gl_launch_free(&lb);
	}
	ptx_module_free(m);
}

static void fixtures(void)
{
	const char *dir = "tests/fixtures/sim";
	DIR *d = opendir(dir);
	CHECK(d != NULL);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n > 4 && strcmp(e->d_name + n - 4, ".ptx") == 0) {
			char path[512];
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			fixture(path);
		}
	}
	closedir(d);
}

int main(void)
{
	if (system("cc --version > /dev/null 2>&1") != 0 && !getenv("GPULAB_CC")) {
		fprintf(stderr, "no C compiler: the compiled engine cannot run here\n");
		return 77;
	}
	char cache[512];
	snprintf(cache, sizeof cache, "%s/gpulab-test-jit-%ld", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (long)getuid());
	setenv("XDG_CACHE_HOME", cache, 1);
	topics();
	/* The fixtures are many small kernels: compiled without optimisation, which keeps the first run's
	 * compiles short and checks the generated C's semantics, not the optimiser's. */
	setenv("GPULAB_JIT_CFLAGS", "-O0", 1);
	fixtures();
	fprintf(stderr, "%d kernels compared on both engines, %d differ, %d left to the interpreter as a whole\n",
		compared, mismatches, refused);
	CHECK(compared >= 40);
	CHECK_DONE();
}
