/* runner.c — run, collect, verify, record: one variant. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "session/session_int.h"

static void fill_record(struct gl_launch_record *rec, const struct gl_topic *t, const struct gl_variant *v,
			const struct gl_problem *p, const struct gl_launch *l, const struct gl_device_info *dev,
			const char *source)
{
	memset(rec, 0, sizeof *rec);
	snprintf(rec->topic, sizeof rec->topic, "%s", t->name);
	snprintf(rec->variant, sizeof rec->variant, "%s", v->name);
	snprintf(rec->entry, sizeof rec->entry, "%s", l->entry ? l->entry : "");
	rec->params_json = gl_problem_json(t, p);
	memcpy(rec->grid, l->grid, sizeof rec->grid);
	memcpy(rec->block, l->block, sizeof rec->block);
	rec->dyn_smem = l->dyn_smem;
	struct gl_resources res;
	gl_topic_resources(t, l->entry ? l->entry : v->entry, dev->arch[0] ? dev->arch : "sm_80", &res);
	rec->regs = res.regs;
	rec->static_smem = res.static_smem;
	snprintf(rec->metric_source, sizeof rec->metric_source, "%s", source);
	rec->verified = -1;
	rec->max_abs_err = rec->max_rel_err = NAN;
}

/* What one launch measured goes into its record: metrics, time, sanitizer counts and findings, trace
 * and buffer map (moved; res keeps nothing of them). */
static void take_result(struct gl_launch_record *rec, const struct gl_topic *t, const struct gl_problem *p,
			struct gl_launch_result *res)
{
	rec->duration_ns = res->duration_ns;
	rec->metrics = res->metrics;
	memset(&res->metrics, 0, sizeof res->metrics);
	rec->sanitized = res->sanitized;
	rec->sanitizer_errors = res->sanitizer_errors;
	rec->sanitizer_warnings = res->sanitizer_warnings;
	rec->sanitizer_dropped = res->findings_dropped;
	rec->findings = res->findings;
	rec->nfindings = res->nfindings;
	res->findings = NULL;
	rec->trace = res->trace; /* simulator traces (--trace) travel with the record into the store */
	rec->ntrace = res->ntrace;
	res->trace = NULL;
	rec->buffers = res->buffers; /* the buffer map goes with the trace */
	rec->nbuffers = res->nbuffers;
	res->buffers = NULL;
	for (int i = 0; i < rec->nbuffers; i++) /* the topic knows which buffers are matrices */
		if (!rec->buffers[i].shared)
			gl_topic_buffer_shape(t, p, rec->buffers[i].name, &rec->buffers[i].rows, &rec->buffers[i].cols);
	snprintf(rec->note, sizeof rec->note, "%s", res->note);
	rec->cta_first = res->cta_first; /* --cta-range: a shard of the launch */
	rec->cta_end = res->cta_end;
	rec->outputs = res->outputs; /* and what it wrote */
	rec->noutputs = res->noutputs;
	res->outputs = NULL;
	res->noutputs = 0;
}

/* A multi-launch variant's total: metrics rolled up by their names, times and sanitizer counts added;
 * the note is the backend's when every launch has the same one. */
static void total_of_parts(struct gl_launch_record *rec)
{
	double time = 0;
	rec->duration_ns = 0;
	for (int k = 0; k < rec->nparts; k++) {
		const struct gl_launch_record *part = &rec->parts[k];
		gl_metrics_total_add(&rec->metrics, &part->metrics, k, part->duration_ns);
		time += part->duration_ns;
		rec->sanitized |= part->sanitized;
		rec->sanitizer_errors += part->sanitizer_errors;
		rec->sanitizer_warnings += part->sanitizer_warnings;
		rec->sanitizer_dropped += part->sanitizer_dropped;
	}
	gl_metrics_total_finish(&rec->metrics, time);
	rec->duration_ns = time; /* NAN when a launch was not timed */
	bool same = true;
	for (int k = 1; k < rec->nparts && same; k++)
		same = strcmp(rec->parts[k].note, rec->parts[0].note) == 0;
	snprintf(rec->note, sizeof rec->note, "%s", same ? rec->parts[0].note : "");
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

/* Run the n launches of a variant in order on the same buffers: each launch's outputs are copied back
 * into the host buffers, which the next launch takes as its inputs. */
static int run_launches(const struct gl_backend *b, void *bctx, struct gl_launch *l, int n,
			struct gl_launch_result *res, struct gl_err *err)
{
	int rc = GL_OK;
	for (int k = 0; k < n && rc == GL_OK; k++) {
		gl_launch_select(l, k);
		rc = b->launch(bctx, l, err);
		if (rc == GL_OK)
			rc = b->collect(bctx, &res[k], err);
	}
	return rc;
}

/* Verify after the last launch: the outputs of a run on sampled CTAs were partly never written, so
 * there is nothing to verify them against. */
static int verify_outputs(const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p,
			  struct gl_launch *l, struct gl_launch_result *last, bool partial, struct gl_verify *out,
			  struct gl_verify *first, struct gl_err *err)
{
	*first = (struct gl_verify){.ok = true};
	if (partial) {
		*out = (struct gl_verify){.ok = true};
		return GL_OK;
	}
	int rc = t->verify(v, p, l, t, out, err);
	return rc == GL_OK ? verify_first_run(t, v, p, l, last, first, err) : rc;
}

static void set_verdict(struct gl_launch_record *rec, bool partial, const struct gl_verify *vf,
			const struct gl_verify *first)
{
	char backend_note[sizeof rec->note];
	snprintf(backend_note, sizeof backend_note, "%s", rec->note);
	rec->verified = partial ? (rec->sanitizer_errors ? 0 : -1) : vf->ok && first->ok && rec->sanitizer_errors == 0;
	rec->max_abs_err = vf->max_abs_err;
	rec->max_rel_err = vf->max_rel_err;
	if (!vf->ok)
		snprintf(rec->note, sizeof rec->note, "verification failed: %lu mismatches, first %.100s%s%.100s",
			 (unsigned long)vf->mismatches, vf->first_mismatch, backend_note[0] ? "; " : "", backend_note);
	else if (!first->ok)
		snprintf(rec->note, sizeof rec->note, "verification failed on the first run, passed after timing: %lu "
			 "mismatches, first %.60s", (unsigned long)first->mismatches, first->first_mismatch);
}

int gl_run_variant(const struct gl_backend *b, void *bctx, const struct gl_device_info *dev, const struct gl_topic *t,
		   const struct gl_variant *v, const struct gl_problem *p, struct gl_launch_record *rec,
		   struct gl_variant_outcome *out, struct gl_err *err)
{
	struct gl_launch l = {.module = t->ptx, .module_name = t->name};
	l.sass = gl_topic_sass(t, &l.sass_why);
	memset(out, 0, sizeof *out);
	struct gl_launch_result res[GL_MAX_STEPS] = {0};
	int rc = t->setup(v, p, &l, err);
	int n = rc == GL_OK ? gl_launch_count(&l) : 0;
	if (rc == GL_OK)
		rc = run_launches(b, bctx, &l, n, res, err);
	bool partial = false;
	for (int k = 0; k < n; k++)
		partial |= res[k].outputs_partial;
	struct gl_verify first = {.ok = true};
	if (rc == GL_OK) /* out of memory for the reference is an error, not a failed verification */
		rc = verify_outputs(t, v, p, &l, &res[n - 1], partial, &out->verify, &first, err);
	if (rc == GL_OK) {
		gl_launch_select(&l, 0);
		fill_record(rec, t, v, p, &l, dev, b->metric_source);
		if (n == 1) {
			take_result(rec, t, p, &res[0]);
		} else {
			rec->entry[0] = '\0';
			rec->parts = gl_xcalloc((size_t)n, sizeof *rec->parts);
			rec->nparts = n;
			for (int k = 0; k < n; k++) {
				gl_launch_select(&l, k);
				fill_record(&rec->parts[k], t, v, p, &l, dev, b->metric_source);
				rec->parts[k].part = k + 1;
				take_result(&rec->parts[k], t, p, &res[k]);
			}
			total_of_parts(rec);
			rec->cta_first = rec->parts[0].cta_first; /* every launch ran the same --cta-range */
			rec->cta_end = rec->parts[0].cta_end;
		}
		for (int k = 0; t->derive && k < rec->nparts; k++)
			t->derive(v, p, &rec->parts[k].metrics);
		if (t->derive)
			t->derive(v, p, &rec->metrics);
		set_verdict(rec, partial, &out->verify, &first);
		out->verify.ok = out->verify.ok && first.ok;
		out->sanitizer_errors = rec->sanitizer_errors;
		for (int k = 0; k < n; k++)
			out->passes += res[k].passes;
	}
	for (int k = 0; k < GL_MAX_STEPS; k++)
		gl_launch_result_free(&res[k]);
	gl_launch_free(&l);
	return rc;
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
