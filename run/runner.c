/* runner.c — run, collect, verify, record: one variant. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "run/runner.h"

static void fill_record(struct gl_launch_record *rec, const struct gl_topic *t, const struct gl_variant *v,
			const struct gl_problem *p, const struct gl_launch *l, const struct gl_device_info *dev,
			const char *source)
{
	memset(rec, 0, sizeof *rec);
	snprintf(rec->topic, sizeof rec->topic, "%s", t->name);
	snprintf(rec->variant, sizeof rec->variant, "%s", v->name);
	rec->params_json = gl_problem_json(t, p);
	memcpy(rec->grid, l->grid, sizeof rec->grid);
	memcpy(rec->block, l->block, sizeof rec->block);
	rec->dyn_smem = l->dyn_smem;
	struct gl_resources res;
	gl_topic_resources(t, v->entry, dev->arch[0] ? dev->arch : "sm_80", &res);
	rec->regs = res.regs;
	rec->static_smem = res.static_smem;
	snprintf(rec->metric_source, sizeof rec->metric_source, "%s", source);
}

/* The backend ran the kernel more than once and the first run's outputs differ bytewise from the
 * last's: verify the first run's too, with the same tolerance.  Reordered float atomics pass both
 * (nothing to say); a run that fails is a verification failure, named in the note. */
static int verify_first_run(const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p,
			    struct gl_launch *l, struct gl_launch_result *res, struct gl_verify *first, struct gl_err *err)
{
	void *last[GL_MAX_BUFFERS] = {0};
	bool any = false;
	int rc = GL_OK;
	*first = (struct gl_verify){.ok = true};
	for (int i = 0; i < l->nbuffers; i++)
		if (res->first_outputs[i]) {
			last[i] = l->buffers[i].host;
			l->buffers[i].host = res->first_outputs[i];
			any = true;
		}
	if (any)
		rc = t->verify(v, p, l, t, first, err);
	for (int i = 0; i < l->nbuffers; i++)
		if (last[i])
			l->buffers[i].host = last[i];
	return rc;
}

int gl_run_variant(const struct gl_backend *b, void *bctx, const struct gl_device_info *dev, const struct gl_topic *t,
		   const struct gl_variant *v, const struct gl_problem *p, struct gl_launch_record *rec,
		   struct gl_variant_outcome *out, struct gl_err *err)
{
	struct gl_launch l = {.module = t->ptx, .module_name = t->name};
	l.sass = gl_topic_sass(t, &l.sass_why);
	memset(out, 0, sizeof *out);
	int rc = t->setup(v, p, &l, err);
	if (rc == GL_OK)
		rc = b->launch(bctx, &l, err);
	struct gl_launch_result res = {0};
	if (rc == GL_OK)
		rc = b->collect(bctx, &res, err);
	if (rc != GL_OK) {
		gl_launch_result_free(&res);
		gl_launch_free(&l);
		return rc;
	}
	/* outputs of unsimulated CTAs were never written: nothing to verify against */
	struct gl_verify first = {.ok = true};
	if (!res.outputs_partial) {
		rc = t->verify(v, p, &l, t, &out->verify, err);
		if (rc == GL_OK)
			rc = verify_first_run(t, v, p, &l, &res, &first, err);
	} else {
		out->verify = (struct gl_verify){.ok = true};
	}
	if (rc != GL_OK) { /* out of memory for the reference: an error, not a failed verification */
		gl_launch_result_free(&res);
		gl_launch_free(&l);
		return rc;
	}
	fill_record(rec, t, v, p, &l, dev, b->metric_source);
	rec->verified = res.outputs_partial ? (res.sanitizer_errors ? 0 : -1)
					    : out->verify.ok && res.sanitizer_errors == 0;
	rec->max_abs_err = out->verify.max_abs_err;
	rec->max_rel_err = out->verify.max_rel_err;
	rec->duration_ns = res.duration_ns;
	rec->cta_first = res.cta_first;
	rec->cta_end = res.cta_end;
	rec->metrics = res.metrics; /* moved to the record */
	memset(&res.metrics, 0, sizeof res.metrics);
	out->sanitizer_errors = res.sanitizer_errors;
	rec->sanitized = res.sanitized;
	rec->sanitizer_errors = res.sanitizer_errors;
	rec->sanitizer_warnings = res.sanitizer_warnings;
	rec->sanitizer_dropped = res.findings_dropped;
	rec->findings = res.findings; /* the record owns them now */
	rec->nfindings = res.nfindings;
	res.findings = NULL;
	rec->trace = res.trace; /* simulator traces (--trace) travel with the record into the store */
	rec->ntrace = res.ntrace;
	res.trace = NULL;
	rec->buffers = res.buffers; /* the buffer map goes with the trace */
	rec->nbuffers = res.nbuffers;
	res.buffers = NULL;
	for (int i = 0; i < rec->nbuffers; i++) /* the topic knows which buffers are matrices */
		if (!rec->buffers[i].shared)
			gl_topic_buffer_shape(t, p, rec->buffers[i].name, &rec->buffers[i].rows, &rec->buffers[i].cols);
	out->passes = res.passes;
	if (!out->verify.ok)
		snprintf(rec->note, sizeof rec->note, "verification failed: %lu mismatches, first %.100s%s%.100s",
			 (unsigned long)out->verify.mismatches, out->verify.first_mismatch, res.note[0] ? "; " : "",
			 res.note);
	else if (!first.ok)
		snprintf(rec->note, sizeof rec->note, "verification failed on the first run, passed after timing: %lu "
			 "mismatches, first %.60s", (unsigned long)first.mismatches, first.first_mismatch);
	else
		snprintf(rec->note, sizeof rec->note, "%s", res.note);
	if (!first.ok) {
		rec->verified = 0;
		out->verify.ok = false;
	}
	gl_launch_result_free(&res);
	gl_launch_free(&l);
	return GL_OK;
}

int gl_parse_variants(const struct gl_topic *t, const char *list, const struct gl_variant **out, int max, int *n,
		      struct gl_err *err)
{
	*n = 0;
	if (!list || strcmp(list, "all") == 0) {
		for (int i = 0; i < t->nvariants && i < max; i++)
			out[(*n)++] = &t->variants[i];
		return GL_OK;
	}
	char *copy = gl_xstrdup(list);
	int rc = GL_OK;
	for (char *save = NULL, *name = strtok_r(copy, ",", &save); name && rc == GL_OK;
	     name = strtok_r(NULL, ",", &save)) {
		if (*n >= max) {
			rc = gl_errf(err, GL_EUSAGE, "too many variants (at most %d)", max);
			break;
		}
		rc = gl_variant_lookup(t, name, &out[*n], err);
		if (rc == GL_OK)
			(*n)++;
	}
	if (rc == GL_OK && *n == 0)
		rc = gl_errf(err, GL_EUSAGE, "--variant needs a name, a comma-separated list or 'all'");
	free(copy);
	return rc;
}
