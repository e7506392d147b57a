/* test_profiler_golden.c — decoding counter-data images saved on a real GPU (tests/gpu/check.sh
 * writes them; copy them to tests/fixtures/cupti/) with CUPTI's host API only: the values must
 * match what the GPU run evaluated.  Skipped (exit 77) while no image is committed and when CUPTI is
 * missing.  Built without ASan (CMakeLists.txt: CUPTI's RTLD_DEEPBIND dlopen, google/sanitizers#611). */
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profiler/cupti_golden.h"
#include "profiler/cupti_host.h"

#define DIR_FIXTURES "tests/fixtures/cupti"

static void decode_one(const struct gl_cupti_api *api, const char *stem)
{
	struct gl_cupti_golden g;
	struct gl_cupti_host h;
	struct gl_err err = {0};
	double values[GL_GOLDEN_MAX_METRICS];
	const char *names[GL_GOLDEN_MAX_METRICS];
	CHECK_EQ(gl_cupti_golden_load(stem, &g, &err), GL_OK);
	CHECK_EQ(gl_cupti_host_open(&h, api, g.chip, NULL, &err), GL_OK);
	for (size_t i = 0; i < g.n; i++)
		names[i] = g.names[i];
	CHECK_EQ(gl_cupti_host_evaluate(&h, g.image, g.size, 0, names, g.n, values, &err), GL_OK);
	if (err.status)
		fprintf(stderr, "%s: %s\n", stem, err.msg);
	for (size_t i = 0; i < g.n && !err.status; i++)
		CHECK_NEAR(values[i], g.values[i], 1e-9 * fabs(g.values[i]) + 1e-9);
	fprintf(stderr, "decoded %s: %s, %zu metrics\n", stem, g.chip, g.n);
	gl_cupti_host_close(&h);
	gl_cupti_golden_free(&g);
}

static int decode_all(const struct gl_cupti_api *api)
{
	DIR *d = opendir(DIR_FIXTURES);
	struct dirent *e;
	int found = 0;
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		const char *ext = ".counterdata";
		if (len <= strlen(ext) || strcmp(e->d_name + len - strlen(ext), ext) != 0)
			continue;
		char stem[512];
		snprintf(stem, sizeof stem, "%s/%.*s", DIR_FIXTURES, (int)(len - strlen(ext)), e->d_name);
		decode_one(api, stem);
		found++;
	}
	if (d)
		closedir(d);
	return found;
}

/* Nothing to decode: a skip (exit 77), except under GPULAB_GOLDEN_REQUIRED=1 (tests/gpu/check.sh, right after
 * saving images), where decoding nothing is a failure. */
static int nothing_decoded(const char *why)
{
	bool required = getenv("GPULAB_GOLDEN_REQUIRED") && strcmp(getenv("GPULAB_GOLDEN_REQUIRED"), "1") == 0;
	fprintf(stderr, "%s: %s\n", required ? "FAILED, nothing decoded" : "skipped", why);
	return required ? 1 : 77;
}

int main(void)
{
	struct gl_cupti_api api;
	struct gl_err err = {0};
	if (gl_cupti_api_load(&api, &err) != GL_OK)
		return nothing_decoded(err.msg);
	if (decode_all(&api) == 0) {
		gl_cupti_api_unload(&api);
		return nothing_decoded("no counter-data image in " DIR_FIXTURES " yet (tests/gpu/check.sh saves one)");
	}
	gl_cupti_api_unload(&api);
	CHECK_DONE();
}
