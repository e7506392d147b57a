/* test_profiler_metric_sets.c — what --metrics memory|compute|all|sim|NAME,... expands to. */
#include <string.h>

#include "check.h"
#include "common/metrics.h"
#include "profiler/metric_sets.h"

static bool list_has(const struct gl_metric_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->names[i], name) == 0)
			return true;
	return false;
}

static void test_sets(void)
{
	struct gl_metric_list l;
	struct gl_err err = {0};
	size_t nsim;
	const char *const *sim = gl_metric_set_sim(&nsim);
	CHECK_EQ(nsim, 12);
	CHECK_EQ(gl_metric_list_parse("sim", &l, &err), GL_OK);
	CHECK_EQ(l.n, nsim);
	for (size_t i = 0; i < nsim; i++)
		CHECK_STR(l.names[i], sim[i]);
	gl_metric_list_free(&l);

	CHECK_EQ(gl_metric_list_parse(NULL, &l, &err), GL_OK); /* default: all */
	CHECK_EQ(l.n, 17);
	CHECK(list_has(&l, GL_M_SLD_CONF) && list_has(&l, GL_M_OCCUPANCY));
	CHECK(list_has(&l, GL_M_DRAM_RD) && list_has(&l, GL_M_DURATION));
	gl_metric_list_free(&l);

	CHECK_EQ(gl_metric_list_parse("memory", &l, &err), GL_OK);
	CHECK(list_has(&l, GL_M_GLD_SECT) && !list_has(&l, GL_M_SM_THROUGHPUT));
	gl_metric_list_free(&l);
	CHECK_EQ(gl_metric_list_parse("compute", &l, &err), GL_OK);
	CHECK(list_has(&l, GL_M_SM_THROUGHPUT) && !list_has(&l, GL_M_GLD_SECT));
	gl_metric_list_free(&l);
}

static void test_names(void)
{
	struct gl_metric_list l;
	struct gl_err err = {0};
	CHECK_EQ(gl_metric_list_parse("dram__bytes_read.sum, compute,dram__bytes_read.sum", &l, &err), GL_OK);
	CHECK_STR(l.names[0], "dram__bytes_read.sum");
	CHECK_EQ(l.n, 6); /* duplicates dropped */
	CHECK(l.named[0] && !l.named[1]);
	gl_metric_list_remove(&l, 0);
	CHECK_EQ(l.n, 5);
	CHECK_STR(l.names[0], GL_M_INST);
	CHECK(!l.named[0]);
	gl_metric_list_free(&l);
	CHECK_EQ(gl_metric_list_parse("memory,dram__bytes_read.sum", &l, &err), GL_OK);
	for (size_t i = 0; i < l.n; i++) /* typed later, still marked as typed */
		if (strcmp(l.names[i], "dram__bytes_read.sum") == 0)
			CHECK(l.named[i]);
	gl_metric_list_free(&l);
	CHECK_EQ(gl_metric_list_parse("memry", &l, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "did you mean 'memory'") != NULL);
	CHECK_EQ(l.n, 0);
	gl_err_clear(&err);
	CHECK_EQ(gl_metric_list_parse(",", &l, &err), GL_EUSAGE);
}

int main(void)
{
	test_sets();
	test_names();
	CHECK_DONE();
}
