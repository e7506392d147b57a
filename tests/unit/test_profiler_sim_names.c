/* test_profiler_sim_names.c — every metric name the simulator reports (sim/sim_metrics.c) is a real
 * metric of GH100 by CUPTI's own host API, so that the two backends' rows line up in the store.
 * Skipped (exit 77) when libcupti.so.13 cannot be found.  Built without ASan (CMakeLists.txt: CUPTI dlopens
 * libnvperf_host.so with RTLD_DEEPBIND, which ASan refuses). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "profiler/cupti_catalog.h"
#include "sim/sim.h"

/* A result in which every counter is non-zero, so that the metrics reported only when used appear. */
static void all_metrics(struct gl_metrics *out)
{
	struct gl_sim_result res;
	memset(&res, 0, sizeof res);
	uint64_t *c = (uint64_t *)&res.c;
	for (size_t i = 0; i < sizeof res.c / sizeof *c; i++)
		c[i] = i + 1;
	res.scale = 1.0;
	gl_sim_metrics(&res, out);
}

static void test_names(const struct gl_cupti_api *api, const char *chip)
{
	struct gl_cupti_host h;
	struct gl_err err = {0};
	struct gl_metrics m = {0};
	all_metrics(&m);
	CHECK(m.n >= 30);
	CHECK_EQ(gl_cupti_host_open(&h, api, chip, NULL, &err), GL_OK);
	for (size_t i = 0; i < m.n; i++) {
		if (strncmp(m.items[i].name, GL_M_OWN_PREFIX, strlen(GL_M_OWN_PREFIX)) == 0)
			continue; /* gpulab's own counts (PTX-level, ideal sectors, footprint): not CUPTI metrics */
		gl_err_clear(&err);
		int rc = gl_cupti_metric_check(&h, m.items[i].name, &err);
		if (rc != GL_OK)
			fprintf(stderr, "%s: %s\n", chip, err.msg);
		CHECK_EQ(rc, GL_OK);
	}
	gl_cupti_host_close(&h);
	gl_metrics_free(&m);
}

/* The names collected together need a bounded number of replay passes (they form one config). */
static void test_config(const struct gl_cupti_api *api)
{
	struct gl_metrics m = {0};
	all_metrics(&m);
	const char *names[128];
	size_t n = 0;
	for (size_t i = 0; i < m.n && n < 128; i++)
		if (strncmp(m.items[i].name, GL_M_OWN_PREFIX, strlen(GL_M_OWN_PREFIX)) != 0)
			names[n++] = m.items[i].name;
	size_t passes = 0;
	struct gl_err err = {0};
	CHECK_EQ(gl_cupti_passes(api, "GH100", names, n, &passes, &err), GL_OK);
	if (err.msg[0])
		fprintf(stderr, "%s\n", err.msg);
	CHECK(passes >= 1 && passes < 64);
	gl_metrics_free(&m);
}

int main(void)
{
	struct gl_cupti_api api;
	struct gl_err err = {0};
	if (gl_cupti_api_load(&api, &err) != GL_OK) {
		fprintf(stderr, "skipped: %s\n", err.msg);
		return 77;
	}
	test_names(&api, "GH100");
	test_names(&api, "GA100");
	test_config(&api);
	gl_cupti_api_unload(&api);
	CHECK_DONE();
}
