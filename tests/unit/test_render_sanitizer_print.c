/* test_render_sanitizer_print.c — compute-sanitizer-style text of deduplicated findings: occurrence lines
 * with sample coordinates, the --print-limit cut and its "not shown" line, occurrences dropped beyond
 * the distinct-finding limit, and an ERROR SUMMARY that counts every occurrence. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "render/render.h"

static struct gl_finding make(const char *kind, bool warning, int line, long count, int nsamples)
{
	struct gl_finding f = {0};
	snprintf(f.kind, sizeof f.kind, "%s", kind);
	snprintf(f.space, sizeof f.space, "shared");
	f.warning = warning;
	f.size = 4;
	f.address = 0x80;
	f.line = line;
	f.count = count;
	f.nsamples = nsamples;
	for (int i = 0; i < nsamples; i++)
		f.samples[i] = (struct gl_finding_site){{1, 0, 0}, {32u + (unsigned)i, 0, 0}};
	memcpy(f.block, f.samples[0].block, sizeof f.block);
	memcpy(f.thread, f.samples[0].thread, sizeof f.thread);
	snprintf(f.message, sizeof f.message, "message of line %d", line);
	return f;
}

static char *print(const struct gl_sanitizer_summary *s, int limit)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	gl_simprint_findings(f, s, limit);
	fclose(f);
	return buf;
}

int main(void)
{
	struct gl_finding fs[3] = {make("race", false, 49, 64, 4), make("misaligned", false, 12, 1, 1),
	                           make("uninitialized", true, 51, 128, 2)};
	struct gl_sanitizer_summary s = {fs, 3, 65 + 7, 128, 7, false, false};

	char *all = print(&s, 0);
	CHECK(strstr(all, "========= Race reported between warps on __shared__ memory (4 bytes at 0x80) at PTX line 49 "
	                  "in block (1,0,0) thread (32,0,0)\n=========     message of line 49\n=========     64 "
	                  "occurrences; first in block (1,0,0) thread (32,0,0), block (1,0,0) thread (33,0,0), block "
	                  "(1,0,0) thread (34,0,0), block (1,0,0) thread (35,0,0), ...\n") != NULL);
	/* one occurrence: no occurrence line */
	CHECK(strstr(all, "message of line 12\n========= Warning: Uninitialized") != NULL);
	/* every sample shown: no "..." */
	CHECK(strstr(all, "=========     128 occurrences; first in block (1,0,0) thread (32,0,0), block (1,0,0) thread "
	                  "(33,0,0), ...\n") != NULL);
	CHECK(strstr(all, "not shown") == NULL);
	CHECK(strstr(all, "=========     (7 further occurrences at other lines not kept: more than 1024 distinct "
	                  "findings)\n") != NULL);
	CHECK(strstr(all, "========= ERROR SUMMARY: 72 errors, 128 warnings\n") != NULL);
	free(all);

	char *one = print(&s, 1);
	CHECK(strstr(one, "PTX line 49") != NULL);
	CHECK(strstr(one, "PTX line 12") == NULL);
	CHECK(strstr(one, "PTX line 51") == NULL);
	CHECK(strstr(one,
	             "=========     (2 more distinct findings with 129 occurrences not shown: --print-limit N shows "
	             "more, 0 all)\n") != NULL);
	CHECK(strstr(one, "========= ERROR SUMMARY: 72 errors, 128 warnings\n") != NULL);
	free(one);

	struct gl_sanitizer_summary clean = {NULL, 0, 0, 0, 0, true, false};
	char *none = print(&clean, 100);
	CHECK_STR(none, "========= ERROR SUMMARY: 0 errors (the launch was aborted)\n");
	free(none);
	CHECK_DONE();
}
