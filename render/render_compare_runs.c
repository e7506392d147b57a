/* compare_runs.c — `gpulab compare --runs A,B[,C]`: stored runs side by side without running anything
 * (before and after an edit, the simulator against a GPU). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "compare_render.h"

#define MAX_RUNS 8

static int parse_ids(struct gl_ctx *ctx, const char *list, long *ids, int *n)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", list);
	*n = 0;
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n == MAX_RUNS)
			return gl_errf(&ctx->err, GL_EUSAGE, "--runs takes at most %d run ids", MAX_RUNS);
		if (gl_parse_long(tok, 1, 1L << 62, "run id in --runs", &ids[(*n)++], &ctx->err))
			return ctx->err.status;
	}
	if (*n < 2)
		return gl_errf(&ctx->err, GL_EUSAGE, "--runs needs two run ids or more, comma-separated: --runs 3,4 "
			       "(see 'gpulab runs')");
	return GL_OK;
}

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

int gl_compare_runs(struct gl_ctx *ctx, const char *list, const char *baseline)
{
	long ids[MAX_RUNS];
	int n;
	int rc = parse_ids(ctx, list, ids, &n);
	if (rc)
		return rc;
	struct gl_store *store;
	if ((rc = gl_store_open(ctx->db_path, 1, &store, &ctx->err)))
		return rc;
	struct gl_run_record all = {0};
	for (int i = 0; i < n && rc == GL_OK; i++) {
		struct gl_run_record one;
		rc = gl_store_load_run(store, ids[i], &one, &ctx->err);
		if (rc)
			break;
		if (i == 0) {
			all.id = one.id;
			all.info = one.info;
		} else if (strcmp(all.info.device, one.info.device) != 0) {
			size_t len = strlen(all.info.device);
			snprintf(all.info.device + len, sizeof all.info.device - len, " / %s", one.info.device);
		}
		take_launches(&all, &one);
		gl_run_record_free(&one);
	}
	gl_store_close(store);
	if (rc == GL_OK && all.nlaunches == 0)
		rc = gl_errf(&ctx->err, GL_EUSAGE, "runs %s have no launches to compare", list);
	if (rc == GL_OK) {
		if (baseline && find_baseline(&all, ids[0], baseline) == 0 && strcmp(all.launches[0].variant, baseline) != 0) {
			char label[64];
			snprintf(label, sizeof label, "r%ld:%s", ids[0], baseline);
			if (strcmp(all.launches[0].variant, label) != 0)
				rc = gl_errf(&ctx->err, GL_EUSAGE, "--baseline %s is not a variant of run %ld (labels look like "
					     "%s)", baseline, ids[0], all.launches[0].variant);
		}
		if (rc == GL_OK)
			gl_render_compare(stdout, &all, find_baseline(&all, ids[0], baseline), ctx->format);
	}
	gl_run_record_free(&all);
	return rc;
}
