/* test_kernels_geometry.c — a topic's geometry (grid, block, shared memory, entry of each launch, computed
 * without allocating anything) is exactly what its setup launches, for every variant of every topic at its
 * default sizes, at the sizes views record at, and at sizes a variant refuses (both refuse, alike). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "kernels/registry.h"

static void same_launches(const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p)
{
	struct gl_geometry g = {0};
	struct gl_launch l = {.module = t->ptx, .module_name = t->name};
	struct gl_err ge = {0}, se = {0};
	int grc = gl_topic_geometry(t, v, p, &g, &ge);
	int src = gl_topic_setup(t, v, p, &l, &se);
	if (grc != src || strcmp(ge.msg, se.msg) != 0)
		fprintf(stderr, "%s %s: geometry %d '%s', setup %d '%s'\n", t->name, v->name, grc, ge.msg, src, se.msg);
	CHECK_EQ(grc, src);
	CHECK_STR(ge.msg, se.msg);
	if (grc == GL_OK && src == GL_OK) {
		int n = gl_launch_count(&l);
		CHECK_EQ(g.n, n);
		for (int k = 0; k < n && k < g.n; k++) {
			gl_launch_select(&l, k);
			CHECK_STR(g.launch[k].entry, l.entry);
			CHECK(memcmp(g.launch[k].grid, l.grid, sizeof l.grid) == 0);
			CHECK(memcmp(g.launch[k].block, l.block, sizeof l.block) == 0);
			CHECK_EQ(g.launch[k].dyn_smem, l.dyn_smem);
		}
	}
	gl_launch_free(&l);
}

/* Every size parameter at `size`, the others at their defaults. */
static void sized(const struct gl_topic *t, long size, struct gl_problem *p)
{
	gl_problem_defaults(t, p);
	for (int i = 0; i < t->nparams; i++)
		if (t->params[i].is_size && size >= t->params[i].min && size <= t->params[i].max)
			p->v[i] = size;
}

int main(void)
{
	for (const struct gl_topic *const *t = gl_topics; *t; t++) {
		CHECK((*t)->geometry != NULL);
		for (int i = 0; i < (*t)->nvariants; i++) {
			const struct gl_variant *v = &(*t)->variants[i];
			struct gl_problem p;
			gl_problem_defaults(*t, &p);
			same_launches(*t, v, &p);
			gl_topic_view_problem(*t, &p);
			same_launches(*t, v, &p);
			sized(*t, 100, &p); /* not a multiple of the tiles or of 4: some variants refuse */
			same_launches(*t, v, &p);
		}
	}
	CHECK_DONE();
}
