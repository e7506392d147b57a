/* test_profiler_cupti_host.c — CUPTI's host half on the CPU: chips, the GH100 catalog, pass counts,
 * name checks, and the config image of a fixed metric list against its golden file.
 * Skipped (exit 77) when libcupti.so.13 cannot be found.  Built without ASan (CMakeLists.txt): CUPTI
 * dlopens libnvperf_host.so with RTLD_DEEPBIND, which ASan refuses (google/sanitizers#611). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profiler/cupti_catalog.h"
#include "profiler/metric_sets.h"

#define GOLDEN "tests/fixtures/cupti/config_GH100_sim.bin"

static void test_chips(const struct gl_cupti_api *api)
{
	struct gl_err err = {0};
	CHECK_EQ(gl_cupti_chip_check(api, "GH100", &err), GL_OK);
	CHECK_EQ(gl_cupti_chip_check(api, "gh100", &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "did you mean 'GH100'") != NULL);
	CHECK(strstr(err.msg, "valid chips:") && strstr(err.msg, "AD102") && strstr(err.msg, "GA100"));
	gl_err_clear(&err);
	CHECK_EQ(gl_cupti_chip_check(api, "sm_90", &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "unknown chip 'sm_90'") != NULL);
}

static const struct gl_cupti_metric *find(const struct gl_cupti_catalog *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->items[i].name, name) == 0)
			return &c->items[i];
	return NULL;
}

static void test_catalog(const struct gl_cupti_api *api)
{
	struct gl_cupti_host h;
	struct gl_cupti_catalog c;
	struct gl_err err = {0};
	CHECK_EQ(gl_cupti_host_open(&h, api, "GH100", NULL, &err), GL_OK);
	CHECK_EQ(gl_cupti_catalog_load(&h, &c, &err), GL_OK);
	CHECK(c.n >= 3000);
	CHECK(c.per_type[CUPTI_METRIC_TYPE_COUNTER] > 3000 && c.per_type[CUPTI_METRIC_TYPE_RATIO] > 100);
	const struct gl_cupti_metric *m = find(&c, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld");
	CHECK(m && strstr(m->description, "bank conflicts") && strcmp(m->unit, "l1data_bank_conflict") == 0);
	CHECK(m && gl_cupti_metric_matches(m, "BANK_CONFLICTS") && !gl_cupti_metric_matches(m, "dram"));
	for (size_t i = 1; i < c.n; i++)
		if (strcmp(c.items[i - 1].name, c.items[i].name) >= 0) {
			CHECK(!"catalog sorted and without duplicates");
			break;
		}
	gl_cupti_catalog_free(&c);
	gl_cupti_host_close(&h);
}

static void test_names(const struct gl_cupti_api *api)
{
	struct gl_cupti_host h;
	struct gl_err err = {0};
	CHECK_EQ(gl_cupti_host_open(&h, api, "GH100", NULL, &err), GL_OK);
	CHECK_EQ(gl_cupti_metric_check(&h, "dram__bytes_read.sum", &err), GL_OK);
	CHECK_EQ(gl_cupti_metric_check(&h, "dram__bytes_read", &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "rollup") && strstr(err.msg, "dram__bytes_read.sum"));
	gl_err_clear(&err);
	CHECK_EQ(gl_cupti_metric_check(&h, "dram__bytes_reed.sum", &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "did you mean 'dram__bytes_read'") != NULL);
	CHECK_EQ(gl_cupti_base_len("sm__throughput.avg.pct_of_peak_sustained_elapsed"), strlen("sm__throughput"));
	CHECK_EQ(gl_cupti_base_len("CTC.TriageCompute.ctc__rx_bytes.sum"), strlen("CTC.TriageCompute.ctc__rx_bytes"));
	gl_cupti_host_close(&h);
}

static void test_passes(const struct gl_cupti_api *api)
{
	const char *pair[] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
			      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"};
	size_t passes = 0;
	struct gl_err err = {0};
	CHECK_EQ(gl_cupti_passes(api, "GH100", pair, 1, &passes, &err), GL_OK);
	CHECK_EQ(passes, 1);
	CHECK_EQ(gl_cupti_passes(api, "GH100", pair, 2, &passes, &err), GL_OK);
	CHECK_EQ(passes, 2);
	const char *shared[] = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
				"smsp__inst_executed_op_shared_ld.sum", "dram__bytes_read.sum", "gpu__time_duration.sum"};
	CHECK_EQ(gl_cupti_passes(api, "GH100", shared, 4, &passes, &err), GL_OK);
	CHECK_EQ(passes, 1);
	CHECK_EQ(gl_cupti_passes(api, "gh100", shared, 4, &passes, &err), GL_EUSAGE);
}

static uint8_t *config_of(const struct gl_cupti_api *api, size_t *size)
{
	struct gl_cupti_host h;
	struct gl_metric_list list;
	struct gl_err err = {0};
	uint8_t *img = NULL;
	CHECK_EQ(gl_metric_list_parse("sim", &list, &err), GL_OK);
	CHECK_EQ(gl_cupti_host_open(&h, api, "GH100", NULL, &err), GL_OK);
	CHECK_EQ(gl_cupti_host_config(&h, (const char *const *)list.names, list.n, &img, size, &err), GL_OK);
	gl_cupti_host_close(&h);
	gl_metric_list_free(&list);
	return img;
}

static uint8_t *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*size = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *buf = malloc(*size ? *size : 1);
	if (fread(buf, 1, *size, f) != *size)
		*size = 0;
	fclose(f);
	return buf;
}

/* GPULAB_UPDATE_GOLDEN=1 rewrites the golden file (after a deliberate change to the "sim" set). */
static void test_config_golden(const struct gl_cupti_api *api)
{
	size_t a_size = 0, b_size = 0, g_size = 0;
	uint8_t *a = config_of(api, &a_size), *b = config_of(api, &b_size);
	CHECK(a && b && a_size == b_size && a_size > 0 && memcmp(a, b, a_size) == 0); /* deterministic */
	if (getenv("GPULAB_UPDATE_GOLDEN")) {
		FILE *f = fopen(GOLDEN, "wb");
		CHECK(f && fwrite(a, 1, a_size, f) == a_size);
		if (f)
			fclose(f);
	}
	uint8_t *g = read_all(GOLDEN, &g_size);
	CHECK(g != NULL);
	CHECK_EQ(g_size, a_size);
	CHECK(g && g_size == a_size && memcmp(g, a, a_size) == 0);
	free(a);
	free(b);
	free(g);
}

int main(void)
{
	struct gl_cupti_api api;
	struct gl_err err = {0};
	if (gl_cupti_api_load(&api, &err) != GL_OK) {
		fprintf(stderr, "skipped: %s\n", err.msg);
		return 77;
	}
	test_chips(&api);
	test_catalog(&api);
	test_names(&api);
	test_passes(&api);
	test_config_golden(&api);
	gl_cupti_api_unload(&api);
	CHECK_DONE();
}
