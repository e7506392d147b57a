/* render_compare_runs.c — `gpulab compare --runs A,B[,C]`: stored runs side by side without running
 * anything (before and after an edit, the simulator against a GPU). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "render/render.h"

/* Move run `from`'s launches into `into`, labelled rID:VARIANT. */
static void take_launches(struct gl_run_record *into, struct gl_run_record *from)
{
	into->launches = gl_xrealloc(into->launches, (into->nlaunches + from->nlaunches) * sizeof *into->launches);
	for (size_t i = 0; i < from->nlaunches; i++) {
		struct gl_launch_record *l = &into->launches[into->nlaunches++];
		*l = from->launches[i];
		char label[96];
		snprintf(label, sizeof label, "r%ld:%s", from->id, from->launches[i].variant);
		snprintf(l->variant, sizeof l->variant, "%.*s", (int)sizeof l->variant - 1, label);
	}
	free(from->launches);
	from->launches = NULL;
	from->nlaunches = 0;
}

static size_t find_baseline(const struct gl_run_record *r, long first, const char *baseline)
{
	for (size_t i = 0; baseline && i < r->nlaunches; i++) {
		char label[64];
		snprintf(label, sizeof label, "r%ld:%s", first, baseline);
		if (strcmp(r->launches[i].variant, baseline) == 0 || strcmp(r->launches[i].variant, label) == 0)
			return i;
	}
	return 0;
}

/* The topic of a loaded run: its launches' (a run holds one topic's variants), "" when it has none. */
static const char *run_topic(const struct gl_run_record *r)
{
	return r->nlaunches ? r->launches[0].topic : "";
}

/* compare --runs sets the launches of one topic side by side: the columns of two topics (a transpose
 * against a GEMM) measure different problems, so runs of another topic are refused, naming them. */
static int same_topic(const struct gl_run_record *runs, int n, struct gl_err *err)
{
	for (int i = 1; i < n; i++)
		if (runs[0].nlaunches && runs[i].nlaunches && strcmp(run_topic(&runs[0]), run_topic(&runs[i])) != 0)
			return gl_errf(err, GL_EUSAGE, "compare --runs puts runs of one topic side by side, but run %ld "
				       "is %s and run %ld is %s: compare each topic's runs on their own (gpulab runs "
				       "--topic %s)", runs[0].id, run_topic(&runs[0]), runs[i].id, run_topic(&runs[i]),
				       run_topic(&runs[i]));
	return GL_OK;
}

/* "runs 1, 2, 3": the comparison's title. */
static void runs_title(const struct gl_run_record *runs, int n, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "runs");
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s %ld", i ? "," : "", runs[i].id);
}

/* The runs' launches in one record: the first run's id, the devices joined when they differ. */
static void join_runs(struct gl_run_record *all, struct gl_run_record *runs, int n)
{
	memset(all, 0, sizeof *all);
	for (int i = 0; i < n; i++) {
		if (i == 0) {
			all->id = runs[i].id;
			all->info = runs[i].info;
		} else if (strcmp(all->info.device, runs[i].info.device) != 0) {
			size_t len = strlen(all->info.device);
			snprintf(all->info.device + len, sizeof all->info.device - len, " / %s", runs[i].info.device);
		}
		take_launches(all, &runs[i]);
	}
}

int gl_render_compare_runs(FILE *out, struct gl_run_record *runs, int n, const char *baseline, enum gl_format fmt,
                           struct gl_err *err)
{
	struct gl_run_record all;
	long first = n ? runs[0].id : 0;
	char title[160];
	int rc = same_topic(runs, n, err);
	if (rc)
		return rc;
	runs_title(runs, n, title, sizeof title);
	join_runs(&all, runs, n);
	if (all.nlaunches == 0)
		rc = gl_errf(err, GL_EUSAGE, "the runs have no launches to compare");
	if (rc == GL_OK && baseline && find_baseline(&all, first, baseline) == 0 &&
	    strcmp(all.launches[0].variant, baseline) != 0) {
		char label[64];
		snprintf(label, sizeof label, "r%ld:%s", first, baseline);
		if (strcmp(all.launches[0].variant, label) != 0)
			rc = gl_errf(err, GL_EUSAGE, "--baseline %s is not a variant of run %ld (labels look like %s)",
			             baseline, first, all.launches[0].variant);
	}
	if (rc == GL_OK)
		gl_render_compare_titled(out, &all, find_baseline(&all, first, baseline), fmt, title);
	gl_run_record_free(&all);
	return rc;
}
