/* test_render_verdict.c — a launch's verdict reads the same in every printer (render/render_verdict.c):
 * passed "yes" / true, failed "NO" / false, not checked (verified -1: a sampled launch, a program's own
 * launch) "n/a" / null / an empty CSV field, in `compare`'s table, JSON and CSV as in `report`'s. */
#include <math.h>
#include <stdlib.h>

#include "common/metrics.h"
#include "render/render.h"
#include "tests/unit/check.h"

static void launch(struct gl_launch_record *l, const char *variant, int verified)
{
	memset(l, 0, sizeof *l);
	snprintf(l->topic, sizeof l->topic, "program");
	snprintf(l->variant, sizeof l->variant, "%s", variant);
	snprintf(l->metric_source, sizeof l->metric_source, "sim");
	l->params_json = strdup("{}");
	l->verified = verified;
	l->duration_ns = NAN;
	gl_metrics_set(&l->metrics, GL_M_GST_SECT, 64, "sector");
}

static char *render(const struct gl_run_record *r, enum gl_format fmt, bool compare)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (compare)
		gl_render_compare(f, r, 0, fmt);
	else
		gl_render_run(f, r, fmt, 0);
	fclose(f);
	return buf;
}

/* The JSON value of the first "verified" after the object that names `variant` (spacing ignored). */
static bool json_verdict_is(const char *json, const char *variant, const char *want)
{
	char *flat = strdup(json), key[64], *w = flat;
	for (const char *c = json; *c; c++)
		if (*c != ' ' && *c != '\n')
			*w++ = *c;
	*w = '\0';
	snprintf(key, sizeof key, "\"variant\":\"%s\"", variant);
	const char *at = strstr(flat, key);
	const char *v = at ? strstr(at, "\"verified\":") : NULL;
	bool ok = v && strncmp(v + strlen("\"verified\":"), want, strlen(want)) == 0;
	if (!ok)
		fprintf(stderr, "the verdict of %s is not %s in %s\n", variant, want, json);
	free(flat);
	return ok;
}

static void test_words(void)
{
	CHECK_STR(gl_render_verdict(1), "yes");
	CHECK_STR(gl_render_verdict(0), "NO");
	CHECK_STR(gl_render_verdict(-1), "n/a");
	CHECK_STR(gl_render_csv_verdict(1), "true");
	CHECK_STR(gl_render_csv_verdict(0), "false");
	CHECK_STR(gl_render_csv_verdict(-1), "");
}

static void test_printers(void)
{
	struct gl_launch_record v[3];
	launch(&v[0], "passed", 1);
	launch(&v[1], "failed", 0);
	launch(&v[2], "unchecked", -1);
	struct gl_run_record r = {.id = 7, .launches = v, .nlaunches = 3};
	snprintf(r.info.backend, sizeof r.info.backend, "sim");
	for (int compare = 0; compare < 2; compare++) {
		char *table = render(&r, GL_FMT_TABLE, compare);
		CHECK(strstr(table, "passed       yes") != NULL);
		CHECK(strstr(table, "failed       NO") != NULL);
		CHECK(strstr(table, "unchecked    n/a") != NULL);
		char *json = render(&r, GL_FMT_JSON, compare);
		CHECK(json_verdict_is(json, "passed", "true"));
		CHECK(json_verdict_is(json, "failed", "false"));
		CHECK(json_verdict_is(json, "unchecked", "null"));
		char *csv = render(&r, GL_FMT_CSV, compare);
		if (compare) { /* run_id,topic,variant,verified,baseline,... */
			CHECK(strstr(csv, "\n7,program,passed,true,passed,") != NULL);
			CHECK(strstr(csv, "\n7,program,failed,false,passed,") != NULL);
			CHECK(strstr(csv, "\n7,program,unchecked,,passed,") != NULL);
		} else { /* ...,params,verified,max_abs_err,... */
			CHECK(strstr(csv, "\n7,sim,program,passed,0,,{},true,") != NULL);
			CHECK(strstr(csv, "\n7,sim,program,unchecked,0,,{},,") != NULL);
		}
		free(table);
		free(json);
		free(csv);
	}
	for (int i = 0; i < 3; i++)
		gl_launch_record_free(&v[i]);
}

int main(void)
{
	test_words();
	test_printers();
	CHECK_DONE();
}
