/* tex_fixture.h — the harness of the texture and surface tests: a launch of tests/fixtures/sim/tex.ptx
 * (nvcc's PTX of tex.cu) with a table of texture/surface objects whose texels the test owns, run on the
 * interpreter and then, when a C compiler is there, on the compiled engine from a fresh copy of the same
 * inputs: buffers, texels, counts and findings must be the same bit for bit.  Header-only. */
#ifndef GL_TEX_FIXTURE_H
#define GL_TEX_FIXTURE_H

#include <stdlib.h>
#include <unistd.h>

#include "common/texture.h"
#include "tests/unit/sim_fixture.h"

#define TX_MAX_OBJ 4

struct tx_case {
	struct gl_launch l;
	struct gl_tex_object obj[TX_MAX_OBJ];
	int nobj;
	void *texels[TX_MAX_OBJ]; /* owned */
	struct gl_sim_result res;
	int rc;
};

static bool tx_have_cc;
static const struct ptx_module *tx_module;

/* Describe the case's next object: handle, kind and resource shape (set depth, layers, the sampler on
 * the result), then give it texels with tx_texels. */
static inline struct gl_tex_object *tx_object(struct tx_case *c, uint64_t handle, enum gl_tex_kind kind,
					      enum gl_tex_res res, enum gl_tex_format fmt, unsigned ch, uint64_t w,
					      uint64_t h)
{
	struct gl_tex_object *o = &c->obj[c->nobj];
	memset(o, 0, sizeof *o);
	o->handle = handle, o->kind = kind;
	o->res = (struct gl_tex_resource){.kind = res, .format = fmt, .channels = ch, .width = w, .height = h};
	return o;
}

/* Give the last object its texels (after depth/layers are set): returns them, zeroed. */
static inline void *tx_texels(struct tx_case *c)
{
	struct gl_tex_object *o = &c->obj[c->nobj];
	uint64_t zs = o->res.depth ? o->res.depth : o->res.layers ? o->res.layers : 1;
	o->res.bytes = zs * gl_tex_slice(&o->res);
	o->res.data = c->texels[c->nobj] = calloc(1, o->res.bytes);
	c->nobj++;
	return o->res.data;
}

static inline struct gl_tex_object *tx_last(struct tx_case *c)
{
	return &c->obj[c->nobj - 1];
}

static inline void tx_run(struct tx_case *c, int engine)
{
	c->l.textures = c->obj;
	c->l.ntextures = c->nobj;
	struct gl_sim_opts o = {.threads = 2, .engine = engine};
	c->rc = fx_run_opts(tx_module, &c->l, &c->res, &o);
}

static inline void tx_free(struct tx_case *c)
{
	if (c->rc == GL_OK)
		gl_sim_result_free(&c->res);
	gl_launch_free(&c->l);
	for (int i = 0; i < c->nobj; i++)
		free(c->texels[i]);
	memset(c, 0, sizeof *c);
}

/* Both engines left the same buffers, texels, counts and findings. */
static inline void tx_same(const struct tx_case *a, const struct tx_case *b)
{
	CHECK_EQ(a->rc, b->rc);
	if (a->rc || b->rc)
		return;
	for (int i = 0; i < a->l.nbuffers; i++)
		CHECK(memcmp(a->l.buffers[i].host, b->l.buffers[i].host,
			     a->l.buffers[i].count * gl_dtype_size(a->l.buffers[i].dtype)) == 0);
	for (int i = 0; i < a->nobj; i++)
		CHECK(memcmp(a->obj[i].res.data, b->obj[i].res.data, a->obj[i].res.bytes) == 0);
	struct gl_metrics ma = {0}, mb = {0};
	gl_sim_metrics(&a->res, &ma);
	gl_sim_metrics(&b->res, &mb);
	CHECK_EQ(ma.n, mb.n);
	for (size_t i = 0; i < ma.n && i < mb.n; i++) {
		CHECK_STR(ma.items[i].name, mb.items[i].name);
		CHECK(ma.items[i].value == mb.items[i].value);
	}
	gl_metrics_free(&ma);
	gl_metrics_free(&mb);
	CHECK_EQ(a->res.nfindings, b->res.nfindings);
	for (int i = 0; i < a->res.nfindings && i < b->res.nfindings; i++) {
		CHECK_STR(a->res.findings[i].kind, b->res.findings[i].kind);
		CHECK_STR(a->res.findings[i].message, b->res.findings[i].message);
		CHECK_EQ(a->res.findings[i].count, b->res.findings[i].count);
	}
	CHECK_STR(b->res.engine, "compiled");
}

/* Build the case, run it on the interpreter and check it; then again on the compiled engine, which must
 * agree.  `check` reads the interpreter's run. */
static inline void tx_both(void (*build)(struct tx_case *), void (*check)(struct tx_case *))
{
	struct tx_case a = {0}, b = {0};
	build(&a);
	tx_run(&a, GL_ENGINE_INTERP);
	CHECK_EQ(a.rc, GL_OK);
	if (a.rc == GL_OK)
		check(&a);
	if (tx_have_cc) {
		build(&b);
		tx_run(&b, GL_ENGINE_COMPILED);
		tx_same(&a, &b);
		tx_free(&b);
	}
	tx_free(&a);
}

/* Load tex.ptx and set up a private cache for the compiled engine; returns the cache directory to
 * remove, or "" when there is no C compiler (the compiled runs are skipped, and said so). */
static inline void tx_setup(char *cache, size_t n)
{
	tx_module = fx_fixture("tex");
	cache[0] = '\0';
	tx_have_cc = fx_have_cc();
	if (!tx_have_cc) {
		fprintf(stderr, "no C compiler: the compiled engine's runs are skipped\n");
		return;
	}
	snprintf(cache, n, "%s/gpulab-test-tex-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(cache)) {
		tx_have_cc = false;
		cache[0] = '\0';
		return;
	}
	setenv("XDG_CACHE_HOME", cache, 1);
	setenv("GPULAB_JIT_CFLAGS", "-O0", 1);
}

static inline void tx_teardown(const char *cache)
{
	if (cache[0]) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
		CHECK_EQ(system(cmd), 0);
	}
	ptx_module_free((struct ptx_module *)tx_module);
}

#endif
