/* sweep_merge.c — `gpulab merge SHARD... --into DB` and `gpulab sweep collect`: copy the runs of shard
 * databases (a sweep's, or any gpulab database) into one, a transaction per shard, then make sharded
 * launches whole again and verify the outputs their CTA-disjoint writes joined. */
#include <stdio.h>

#include "session/session.h"
#include "store/store.h"
#include "sweep/sweep.h"

/* Every shard must be a gpulab database this binary reads, checked before the target is opened: a
 * refused shard leaves the target exactly as it was. */
static int check_shards(const char *const *shards, int n, struct gl_err *err)
{
	for (int i = 0; i < n; i++) {
		struct gl_store *s = NULL;
		struct gl_err e = {0};
		int rc = gl_store_open(shards[i], 1, &s, &e);
		gl_store_close(s);
		if (rc != GL_OK)
			return gl_errf(err, rc, "shard %s refused, nothing was merged: %s", shards[i], e.msg);
	}
	return GL_OK;
}

static void say_assembly(FILE *out, const struct gl_assembly *a)
{
	if (a->assembled)
		fprintf(out, "assembled %d sharded launch%s from their CTA ranges (counts summed)\n", a->assembled,
		        a->assembled == 1 ? "" : "es");
	if (a->incomplete)
		fprintf(out, "%d sharded launch%s not assembled: the CTA ranges merged so far leave gaps or overlap\n",
		        a->incomplete, a->incomplete == 1 ? " is" : "es are");
}

int gl_merge_shards(const char *const *shards, int n, const char *into, FILE *out, struct gl_err *err)
{
	int rc = check_shards(shards, n, err);
	struct gl_store *store = NULL;
	if (rc == GL_OK)
		rc = gl_store_open(into, 0, &store, err);
	int total = 0;
	for (int i = 0; rc == GL_OK && i < n; i++) {
		int merged = 0, skipped = 0;
		rc = gl_store_import(store, shards[i], &merged, &skipped, err);
		if (rc == GL_OK)
			fprintf(out, "merged %d run%s from %s (%d already there)\n", merged, merged == 1 ? "" : "s",
			        shards[i], skipped);
		total += merged;
	}
	struct gl_assembly a = {0};
	if (rc == GL_OK)
		rc = gl_store_assemble(store, &a, err);
	if (rc == GL_OK)
		rc = gl_session_finish_assembled(store, &a, err);
	int failed = 0;
	for (int i = 0; rc == GL_OK && i < a.nverify; i++) {
		int verdict = -1;
		rc = gl_session_verify_assembled(store, a.verify[i], &verdict, err);
		if (rc == GL_OK && verdict >= 0)
			fprintf(out, "launch %ld: outputs joined from CTA-disjoint writes %s verification\n",
			        a.verify[i], verdict ? "passed" : "FAILED");
		failed += verdict == 0;
	}
	if (rc == GL_OK) {
		say_assembly(out, &a);
		fprintf(out, "%d run%s merged into %s\n", total, total == 1 ? "" : "s", gl_store_file(store));
	}
	gl_store_close(store);
	if (rc == GL_OK && failed)
		rc = gl_errf(err, GL_EVERIFY, "%d assembled launch%s failed verification", failed,
		             failed == 1 ? "" : "es");
	return rc;
}
