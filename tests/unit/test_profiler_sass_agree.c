/* test_profiler_sass_agree.c — for every embedded variant, the SASS ld/st instructions ptxas emitted
 * (counted by space, direction and width straight from the embedded nvdisasm text) are exactly those
 * the simulator's mapping assumes: every SASS access is attributed to a PTX access and every merge is
 * resolved.  The one exception is documented (docs/sim.md, "Tensor-core fragments"): wmma.load and
 * wmma.store are counted once per PTX instruction, so the SASS accesses on their lines are set aside,
 * and they must be exactly the accesses the mapping leaves unattributed.  A kernel edit or a new ptxas
 * that breaks the mapping fails here.  Exits 77 (skipped) when the build had no nvdisasm. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "kernels/registry.h"
#include "sim/ptx_ops.h"
#include "sim/sass_map.h"
#include "sim/sim.h"

static const unsigned widths[5] = {1, 2, 4, 8, 16};

static int compare(const char *topic, const char *entry, const struct sass_counts *sass, const struct sass_counts *map)
{
	int bad = 0;
	for (int s = 0; s < SASS_NSPACES; s++)
		for (int st = 0; st < 2; st++)
			for (int w = 0; w < 5; w++)
				if (sass->n[s][st][w] != map->n[s][st][w]) {
					fprintf(stderr, "%s/%s: %s %s of %u bytes: SASS has %u, the mapping assumes %u\n",
						topic, entry, sass_space_name((enum sass_space)s), st ? "stores" : "loads",
						widths[w], sass->n[s][st][w], map->n[s][st][w]);
					bad++;
				}
	return bad;
}

static unsigned total(const struct sass_counts *c)
{
	unsigned n = 0;
	for (int s = 0; s < SASS_NSPACES; s++)
		for (int st = 0; st < 2; st++)
			for (int w = 0; w < 5; w++)
				n += c->n[s][st][w];
	return n;
}

static bool wmma_line(const struct ptx_function *fn, int line)
{
	for (int i = 0; i < fn->ncode; i++)
		if (fn->code[i].line == line && (fn->code[i].op == OP_WMMA_LOAD || fn->code[i].op == OP_WMMA_STORE))
			return true;
	return false;
}

/* Take the SASS accesses of wmma.load/wmma.store lines out of `c`; returns how many there were. */
static int drop_wmma(const struct sass_func *sf, const struct ptx_function *fn, struct sass_counts *c)
{
	int dropped = 0;
	for (int i = 0; i < sf->nacc; i++) {
		const struct sass_access *a = &sf->acc[i];
		if (!wmma_line(fn, a->line))
			continue;
		for (int w = 0; w < 5; w++)
			if (widths[w] == a->width && c->n[a->space][a->store][w])
				c->n[a->space][a->store][w]--;
		dropped++;
	}
	return dropped;
}

static void check_topic(const struct gl_topic *t, int *variants)
{
	const char *why = NULL;
	const char *text = gl_topic_sass(t, &why);
	CHECK(text != NULL);
	if (!text)
		return;
	struct ptx_module *m = NULL;
	struct sass_text s;
	struct gl_err err = {0};
	CHECK_EQ(ptx_parse(t->ptx, t->name, &m, &err), GL_OK);
	CHECK_EQ(sass_parse(text, &s, &err), GL_OK);
	if (!m)
		return;
	int unmapped = -1;
	char problem[256];
	sass_map_apply(m, &s, &unmapped, problem, sizeof problem);
	if (unmapped)
		printf("%s: %d accesses unmapped, first: %s\n", t->name, unmapped, problem);
	CHECK(strncmp(m->counts_mode, "SASS-mapped (ptxas ", 19) == 0);
	int wmma = 0;
	for (int v = 0; v < t->nvariants; v++) {
		const char *entry = t->variants[v].entry;
		const struct ptx_function *fn = ptx_find_function(m, entry);
		const struct sass_func *sf = sass_find(&s, entry);
		CHECK(fn && sf && fn->sass);
		if (!fn || !sf || !fn->sass)
			continue;
		struct sass_counts from_sass, from_map;
		sass_counts_of_sass(sf, &from_sass);
		sass_counts_of_map(fn, &from_map);
		int dropped = drop_wmma(sf, fn, &from_sass);
		wmma += dropped;
		int differ = compare(t->name, entry, &from_sass, &from_map);
		CHECK_EQ(differ, 0);
		CHECK(total(&from_sass) + (unsigned)dropped > 0); /* every variant touches memory */
		printf("%-14s %-22s %4u SASS ld/st %s the mapping", t->name, entry, total(&from_sass),
		       differ ? "DIFFER from" : "agree with");
		printf(dropped ? " (+%d of wmma.load/store, counted per PTX)\n" : "\n", dropped);
		(*variants)++;
	}
	CHECK_EQ(unmapped, wmma); /* only wmma.load/store accesses are left to PTX counting */
	sass_text_free(&s);
	ptx_module_free(m);
}

int main(void)
{
	if (gl_sass_unavailable[0]) {
		printf("skipped: %s\n", gl_sass_unavailable);
		return 77;
	}
	int variants = 0;
	for (int i = 0; gl_topics[i]; i++)
		check_topic(gl_topics[i], &variants);
	CHECK(variants > 0);
	CHECK_DONE();
}
