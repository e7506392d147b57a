/* sim_store.c — one simulated launch stored as a run of its own (`gpulab sim --db/--trace`, `gpulab
 * exercise check`): its counts, sanitizer findings, and with a trace the buffer map the views read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/util.h"
#include "session/session.h"
#include "store/store.h"
#include "toolchain/toolchain.h"

static void fill_record(struct gl_launch_record *rec, const struct gl_simstore_in *in)
{
	const struct gl_sim_result *res = in->res;
	memset(rec, 0, sizeof *rec);
	snprintf(rec->topic, sizeof rec->topic, "%s", in->topic);
	snprintf(rec->variant, sizeof rec->variant, "%.31s", in->variant);
	snprintf(rec->entry, sizeof rec->entry, "%.63s", in->fn->name);
	rec->params_json = gl_xstrdup(in->params_json ? in->params_json : "{}");
	memcpy(rec->grid, in->launch->grid, sizeof rec->grid);
	memcpy(rec->block, in->launch->block, sizeof rec->block);
	rec->dyn_smem = in->launch->dyn_smem;
	rec->regs = -1;
	rec->static_smem = (int)in->fn->shared_static;
	rec->verified = in->verified;
	rec->cta_first = res->cta_first;
	rec->cta_end = res->cta_end;
	if (res->cta_end > 0 && rec->verified) /* a shard: its counts are partial, the run is not checked whole */
		rec->verified = -1;
	rec->max_abs_err = rec->max_rel_err = NAN;
	rec->duration_ns = NAN;
	snprintf(rec->metric_source, sizeof rec->metric_source, "sim");
	for (size_t i = 0; i < in->metrics->n; i++)
		gl_metrics_set(&rec->metrics, in->metrics->items[i].name, in->metrics->items[i].value,
			       in->metrics->items[i].unit);
	if (res->nerrors && res->nfindings && !res->findings[0].warning) /* errors come first */
		snprintf(rec->note, sizeof rec->note, "sanitizer: %ld error%s, first: %.180s (PTX line %d)", res->nerrors,
			 res->nerrors == 1 ? "" : "s", res->findings[0].message, res->findings[0].line);
	else if (res->cta_end > 0)
		snprintf(rec->note, sizeof rec->note, "CTAs %ld..%ld of %ld only (--cta-range): partial counts",
			 res->cta_first, res->cta_end - 1, res->ctas_total);
	rec->sanitized = true;
	rec->sanitizer_errors = res->nerrors;
	rec->sanitizer_warnings = res->findings_total - res->nerrors;
	rec->sanitizer_dropped = res->findings_dropped;
	if (res->nfindings) {
		rec->findings = gl_xmalloc((size_t)res->nfindings * sizeof *rec->findings);
		memcpy(rec->findings, res->findings, (size_t)res->nfindings * sizeof *rec->findings);
		rec->nfindings = res->nfindings;
	}
	if (res->ntrace) {
		rec->trace = gl_xmalloc((size_t)res->ntrace * sizeof *rec->trace);
		memcpy(rec->trace, res->trace, (size_t)res->ntrace * sizeof *rec->trace);
		rec->ntrace = res->ntrace;
		gl_sim_buffer_map(in->fn, in->launch, &rec->buffers, &rec->nbuffers); /* names the buffers */
	}
}

int gl_simstore_save(struct gl_ctx *ctx, struct gl_simstore_in *in, long *run_id)
{
	struct gl_store *store = NULL;
	int rc = gl_store_open(ctx->db_path, 0, &store, &ctx->err);
	if (rc)
		return rc;
	struct gl_run_info info = {0};
	snprintf(info.backend, sizeof info.backend, "sim");
	snprintf(info.device, sizeof info.device, "gpulab PTX simulator (%d CPU thread%s)", in->res->threads,
		 in->res->threads == 1 ? "" : "s");
	snprintf(info.cc, sizeof info.cc, "8.0");
	gethostname(info.host, sizeof info.host - 1);
	info.argv = ctx->argv_joined;
	gl_run_info_provenance(&info);
	struct gl_launch_record rec;
	fill_record(&rec, in);
	*run_id = 0;
	rc = gl_store_save_run(store, &info, &rec, 1, rec.verified ? "ok" : "failed", run_id, NULL, &ctx->err);
	snprintf(in->db_file, sizeof in->db_file, "%s", gl_store_file(store));
	gl_launch_record_free(&rec);
	gl_store_close(store);
	return rc;
}
