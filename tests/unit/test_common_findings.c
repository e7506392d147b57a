/* test_common_findings.c — the deduplicating findings set: one entry per (kind, PTX line) with exact
 * occurrence counts and the first distinct coordinates, the distinct-finding limit and its dropped
 * count, merging in order, errors before warnings, and the compute-sanitizer tool names. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/findings.h"

static const unsigned B0[3] = {0, 0, 0}, B1[3] = {1, 0, 0};

static struct gl_finding *note(struct gl_findings *s, const char *kind, int line, bool warning, const unsigned b[3],
                               unsigned tx, bool *fresh)
{
	unsigned t[3] = {tx, 0, 0};
	return gl_findings_note(s, kind, line, warning, b, t, fresh);
}

static void test_dedup(void)
{
	struct gl_findings s;
	gl_findings_init(&s, 16);
	bool fresh;
	/* 32 uninitialised-read warnings on line 60, then 64 race errors on line 53 from 64 threads. */
	for (unsigned t = 0; t < 32; t++) {
		struct gl_finding *f = note(&s, "uninitialized", 60, true, B0, t, &fresh);
		CHECK(f != NULL);
		CHECK_EQ(fresh, t == 0);
	}
	for (unsigned t = 0; t < 64; t++)
		note(&s, "race", 53, false, B0, 63 - t, &fresh);
	note(&s, "race", 54, false, B1, 7, &fresh); /* another line: another finding */
	CHECK(fresh);
	note(&s, "out-of-bounds", 53, false, B1, 7, &fresh); /* another kind on the same line */
	CHECK(fresh);
	CHECK_EQ(s.n, 4);
	CHECK_EQ(s.occurrences, 32 + 64 + 2);
	CHECK_EQ(s.errors, 64 + 2);
	CHECK_EQ(s.dropped, 0);
	CHECK_STR(s.items[0].kind, "uninitialized");
	CHECK_EQ(s.items[0].count, 32);
	CHECK_EQ(s.items[1].count, 64);
	CHECK_EQ(s.items[1].line, 53);
	CHECK_EQ(s.items[1].thread[0], 63); /* the first occurrence */
	CHECK_EQ(s.items[1].nsamples, GL_FINDING_SAMPLES);
	for (int i = 0; i < GL_FINDING_SAMPLES; i++)
		CHECK_EQ(s.items[1].samples[i].thread[0], 63 - (unsigned)i);

	/* The same thread again is no new sample. */
	note(&s, "race", 54, false, B1, 7, &fresh);
	CHECK(!fresh);
	CHECK_EQ(s.items[2].count, 2);
	CHECK_EQ(s.items[2].nsamples, 1);

	gl_findings_order(&s); /* errors first, each class in the order first seen */
	CHECK_STR(s.items[0].kind, "race");
	CHECK_EQ(s.items[0].line, 53);
	CHECK_EQ(s.items[1].line, 54);
	CHECK_STR(s.items[2].kind, "out-of-bounds");
	CHECK_STR(s.items[3].kind, "uninitialized");
	/* the index follows the new positions */
	note(&s, "uninitialized", 60, true, B0, 0, &fresh);
	CHECK(!fresh);
	CHECK_EQ(s.items[3].count, 33);

	gl_findings_clear(&s);
	CHECK_EQ(s.n, 0);
	CHECK_EQ(s.occurrences, 0);
	note(&s, "race", 53, false, B0, 1, &fresh);
	CHECK(fresh);
	CHECK_EQ(s.n, 1);
	CHECK_EQ(s.items[0].count, 1);
	gl_findings_free(&s);
}

static void test_limit(void)
{
	struct gl_findings s;
	gl_findings_init(&s, 3);
	bool fresh;
	for (int line = 1; line <= 10; line++)
		for (unsigned t = 0; t < 5; t++) {
			struct gl_finding *f = note(&s, "misaligned", line, false, B0, t, &fresh);
			CHECK_EQ(f != NULL, line <= 3);
		}
	CHECK_EQ(s.n, 3);
	CHECK_EQ(s.occurrences, 50);
	CHECK_EQ(s.errors, 50);
	CHECK_EQ(s.dropped, 35); /* lines 4..10, 5 each: counted, not kept */
	CHECK_EQ(s.items[2].count, 5);
	gl_findings_free(&s);
}

/* Merging per-CTA sets in grid order gives one answer however the CTAs were split among workers. */
static void test_merge(void)
{
	struct gl_findings cta[3], all;
	bool fresh;
	for (int k = 0; k < 3; k++)
		gl_findings_init(&cta[k], 8);
	note(&cta[0], "uninitialized", 60, true, B0, 5, &fresh);
	note(&cta[1], "race", 53, false, B1, 2, &fresh);
	note(&cta[1], "race", 53, false, B1, 3, &fresh);
	note(&cta[2], "race", 53, false, (unsigned[3]){2, 0, 0}, 2, &fresh);
	note(&cta[2], "race", 53, false, (unsigned[3]){2, 0, 0}, 3, &fresh);
	note(&cta[2], "race", 53, false, (unsigned[3]){2, 0, 0}, 4, &fresh);
	note(&cta[2], "budget", 9, false, (unsigned[3]){2, 0, 0}, 0, &fresh);
	snprintf(cta[1].items[0].message, sizeof cta[1].items[0].message, "first seen in CTA 1");
	gl_findings_init(&all, 2); /* room for two distinct findings: the third is dropped */
	for (int k = 0; k < 3; k++)
		gl_findings_merge(&all, &cta[k]);
	CHECK_EQ(all.n, 2);
	CHECK_EQ(all.occurrences, 7);
	CHECK_EQ(all.errors, 6);
	CHECK_EQ(all.dropped, 1);
	CHECK_STR(all.items[1].kind, "race");
	CHECK_EQ(all.items[1].count, 5);
	CHECK_STR(all.items[1].message, "first seen in CTA 1");
	CHECK_EQ(all.items[1].block[0], 1);
	CHECK_EQ(all.items[1].nsamples, 4); /* (1,2) (1,3) (2,2) (2,3) */
	CHECK_EQ(all.items[1].samples[2].block[0], 2);
	CHECK_EQ(all.items[1].samples[3].thread[0], 3);
	gl_findings_order(&all);
	CHECK_STR(all.items[0].kind, "race");
	for (int k = 0; k < 3; k++)
		gl_findings_free(&cta[k]);
	gl_findings_free(&all);
}

static void test_tools(void)
{
	CHECK_EQ(gl_tool_parse("memcheck"), GL_TOOL_MEMCHECK);
	CHECK_EQ(gl_tool_parse("racecheck,initcheck"), GL_TOOL_RACECHECK | GL_TOOL_INITCHECK);
	CHECK_EQ(gl_tool_parse("all"), GL_TOOL_ALL);
	CHECK_EQ(gl_tool_parse("synccheck"), GL_TOOL_SYNCCHECK);
	CHECK_EQ(gl_tool_parse("racecheck,"), -1);
	CHECK_EQ(gl_tool_parse(""), -1);
	CHECK_EQ(gl_tool_parse("race"), -1);
	CHECK_EQ(gl_tool_parse("memcheckx"), -1);
	CHECK_EQ(gl_finding_tool("race"), GL_TOOL_RACECHECK);
	CHECK_EQ(gl_finding_tool("misaligned"), GL_TOOL_MEMCHECK);
	CHECK_EQ(gl_finding_tool("budget"), 0);
	CHECK_STR(gl_tool_name(GL_TOOL_INITCHECK), "initcheck");
	CHECK_STR(gl_tool_name(0), "");
	CHECK(gl_finding_selected("race", GL_TOOL_RACECHECK));
	CHECK(!gl_finding_selected("race", GL_TOOL_MEMCHECK));
	CHECK(!gl_finding_selected("uninitialized", GL_TOOL_RACECHECK));
	CHECK(!gl_finding_selected("out-of-bounds", GL_TOOL_INITCHECK));
	/* findings that stop the launch are reported whichever tools run */
	CHECK(gl_finding_selected("deadlock", GL_TOOL_MEMCHECK));
	CHECK(gl_finding_selected("barrier-divergence", GL_TOOL_MEMCHECK));
	CHECK(gl_finding_selected("budget", GL_TOOL_INITCHECK));
}

int main(void)
{
	test_dedup();
	test_limit();
	test_merge();
	test_tools();
	CHECK_DONE();
}
