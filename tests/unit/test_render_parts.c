/* test_render_parts.c — a multi-launch variant as `run`/`report` print it: the table shows the total
 * then one indented row per launch with its entry, JSON nests the launches under "parts", CSV has a row
 * per total (part 0) and per launch (part 1, 2). */
#include <math.h>
#include <stdlib.h>

#include "render/render.h"
#include "common/metrics.h"
#include "tests/unit/check.h"

static void launch(struct gl_launch_record *l, const char *variant, int part, const char *entry, double sectors)
{
	memset(l, 0, sizeof *l);
	snprintf(l->topic, sizeof l->topic, "attention");
	snprintf(l->variant, sizeof l->variant, "%s", variant);
	snprintf(l->entry, sizeof l->entry, "%s", entry);
	snprintf(l->metric_source, sizeof l->metric_source, "sim");
	l->params_json = strdup("{\"seq\":8}");
	l->part = part;
	l->verified = part ? -1 : 1;
	l->duration_ns = NAN;
	l->max_abs_err = 0;
	gl_metrics_set(&l->metrics, GL_M_GST_SECT, sectors, "sector");
	gl_metrics_set(&l->metrics, GL_M_GST_REQ, sectors / 4, "request");
}

static char *render(const struct gl_run_record *r, enum gl_format fmt)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	gl_render_run(f, r, fmt, 0);
	fclose(f);
	return buf;
}

int main(void)
{
	struct gl_launch_record v[2];
	launch(&v[0], "naive", 0, "", 96);
	v[0].nparts = 3;
	v[0].parts = calloc(3, sizeof *v[0].parts);
	launch(&v[0].parts[0], "naive", 1, "attention_scores", 64);
	launch(&v[0].parts[1], "naive", 2, "attention_softmax", 24);
	launch(&v[0].parts[2], "naive", 3, "attention_pv", 8);
	launch(&v[1], "flash2", 0, "attention_flash2", 8);
	struct gl_run_record r = {.id = 5, .launches = v, .nlaunches = 2};
	snprintf(r.info.backend, sizeof r.info.backend, "sim");

	char *table = render(&r, GL_FMT_TABLE);
	CHECK(strstr(table, "naive        yes") != NULL);
	CHECK(strstr(table, "total of 3 launches") != NULL);
	CHECK(strstr(table, "  2/3") != NULL);
	CHECK(strstr(table, "attention_softmax\n") != NULL);
	CHECK(strstr(table, "flash2       yes") != NULL);
	char *json = render(&r, GL_FMT_JSON);
	CHECK(strstr(json, "\"parts\"") != NULL);
	CHECK(strstr(json, "\"part\": 3") != NULL || strstr(json, "\"part\":3") != NULL);
	CHECK(strstr(json, "attention_pv") != NULL);
	char *csv = render(&r, GL_FMT_CSV);
	CHECK(strncmp(csv, "run_id,backend,topic,variant,part,entry,params,", 47) == 0);
	CHECK(strstr(csv, "5,sim,attention,naive,0,,") != NULL);
	CHECK(strstr(csv, "5,sim,attention,naive,2,attention_softmax,") != NULL);
	CHECK(strstr(csv, "5,sim,attention,flash2,0,attention_flash2,") != NULL);
	int rows = 0;
	for (const char *c = csv; *c; c++)
		rows += *c == '\n';
	CHECK_EQ(rows, 1 + 1 + 3 + 1); /* header, naive's total and launches, flash2 */
	free(table);
	free(json);
	free(csv);
	for (int i = 0; i < 2; i++)
		gl_launch_record_free(&v[i]);
	CHECK_DONE();
}
