/* session_variant.c — one variant of a topic through a backend: set up, launch, collect each launch's record,
 * verify after the last (and the first run's outputs where the backend ran the kernel more than once), and
 * add what the topic knows (parameters, ptxas resources, buffer shapes, derived values, the verdict). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "session/session_int.h"

/* What the topic knows of a launch the backend recorded: topic, variant, parameters, the ptxas resources
 * of `entry` for the device's arch, and each buffer's logical shape (the buffer map's matrices). */
static void add_topic(struct gl_launch_record *rec, const char *entry, const struct gl_topic *t,
		      const struct gl_variant *v, const struct gl_problem *p, const struct gl_device_info *dev)
{
	snprintf(rec->topic, sizeof rec->topic, "%s", t->name);
	snprintf(rec->variant, sizeof rec->variant, "%s", v->name);
	free(rec->params_json);
	rec->params_json = gl_problem_json(t, p);
	struct gl_resources res;
	gl_topic_resources(t, entry[0] ? entry : v->entry, dev->arch[0] ? dev->arch : "sm_80", &res);
	rec->regs = res.regs;
	rec->static_smem = res.static_smem;
	for (int i = 0; i < rec->nbuffers; i++)
		if (!rec->buffers[i].shared)
			gl_topic_buffer_shape(t, p, rec->buffers[i].name, &rec->buffers[i].rows, &rec->buffers[i].cols);
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
		rec->outputs_partial |= part->outputs_partial;
	}
	gl_metrics_total_finish(&rec->metrics, time);
	rec->duration_ns = time; /* NAN when a launch was not timed */
	bool same = true;
	for (int k = 1; k < rec->nparts && same; k++)
		same = strcmp(rec->parts[k].note, rec->parts[0].note) == 0;
	snprintf(rec->note, sizeof rec->note, "%s", same ? rec->parts[0].note : "");
	memcpy(rec->grid, rec->parts[0].grid, sizeof rec->grid); /* the first launch's, as the store shows it */
	memcpy(rec->block, rec->parts[0].block, sizeof rec->block);
	rec->dyn_smem = rec->parts[0].dyn_smem;
	snprintf(rec->metric_source, sizeof rec->metric_source, "%s", rec->parts[0].metric_source);
	rec->cta_first = rec->parts[0].cta_first; /* every launch ran the same --cta-range */
	rec->cta_end = rec->parts[0].cta_end;
}

/* The backend ran the kernel more than once and the first run's outputs differ bytewise from the
 * last's: verify the first run's too, with the same tolerance.  Reordered float atomics pass both
 * (nothing to say); a run that fails is a verification failure, named in the note. */
static int verify_first_run(const struct gl_backend *b, void *bctx, const struct gl_topic *t,
			    const struct gl_variant *v, const struct gl_problem *p, struct gl_launch *l,
			    struct gl_verify *first, struct gl_err *err)
{
	void *outputs[GL_MAX_BUFFERS] = {0}, *last[GL_MAX_BUFFERS] = {0};
	bool any = false;
	int rc = GL_OK;
	*first = (struct gl_verify){.ok = true};
	if (b->first_outputs)
		b->first_outputs(bctx, outputs);
	for (int i = 0; i < l->nbuffers; i++)
		if (outputs[i]) {
			last[i] = l->buffers[i].host;
			l->buffers[i].host = outputs[i];
			any = true;
		}
	if (any)
		rc = t->verify(v, p, l, t, first, err);
	for (int i = 0; i < GL_MAX_BUFFERS; i++) {
		if (last[i])
			l->buffers[i].host = last[i];
		free(outputs[i]);
	}
	return rc;
}

/* Run the n launches of a variant in order on the same buffers, each launch's record into recs[k]: each
 * launch's outputs are copied back into the host buffers, which the next launch takes as its inputs. */
static int run_launches(const struct gl_backend *b, void *bctx, struct gl_launch *l, int n,
			struct gl_launch_record *recs, struct gl_err *err)
{
	int rc = GL_OK;
	for (int k = 0; k < n && rc == GL_OK; k++) {
		gl_launch_select(l, k);
		rc = b->launch(bctx, l, err);
		if (rc == GL_OK)
			rc = b->collect(bctx, &recs[k], err);
	}
	return rc;
}

/* Verify after the last launch: the outputs of a run on sampled CTAs were partly never written, so
 * there is nothing to verify them against. */
static int verify_outputs(const struct gl_backend *b, void *bctx, const struct gl_topic *t,
			  const struct gl_variant *v, const struct gl_problem *p, struct gl_launch *l, bool partial,
			  struct gl_verify *out, struct gl_verify *first, struct gl_err *err)
{
	*first = (struct gl_verify){.ok = true};
	if (partial) {
		*out = (struct gl_verify){.ok = true};
		return GL_OK;
	}
	int rc = t->verify(v, p, l, t, out, err);
	return rc == GL_OK ? verify_first_run(b, bctx, t, v, p, l, first, err) : rc;
}

static void set_verdict(struct gl_launch_record *rec, const struct gl_verify *vf, const struct gl_verify *first)
{
	char backend_note[sizeof rec->note];
	snprintf(backend_note, sizeof backend_note, "%s", rec->note);
	rec->verified = rec->outputs_partial ? (rec->sanitizer_errors ? 0 : -1)
					     : vf->ok && first->ok && rec->sanitizer_errors == 0;
	rec->max_abs_err = vf->max_abs_err;
	rec->max_rel_err = vf->max_rel_err;
	if (!vf->ok)
		snprintf(rec->note, sizeof rec->note, "verification failed: %lu mismatches, first %.100s%s%.100s",
			 (unsigned long)vf->mismatches, vf->first_mismatch, backend_note[0] ? "; " : "", backend_note);
	else if (!first->ok)
		snprintf(rec->note, sizeof rec->note, "verification failed on the first run, passed after timing: %lu "
			 "mismatches, first %.60s", (unsigned long)first->mismatches, first->first_mismatch);
}

/* The launches' records as the variant's one record: a single launch is the variant; several are its
 * parts under a total (part 0). */
static void variant_record(struct gl_launch_record *recs, int n, struct gl_launch_record *rec)
{
	if (n == 1) {
		*rec = recs[0];
		return;
	}
	gl_launch_record_init(rec);
	rec->parts = gl_xcalloc((size_t)n, sizeof *rec->parts);
	rec->nparts = n;
	for (int k = 0; k < n; k++) {
		rec->parts[k] = recs[k];
		rec->parts[k].part = k + 1;
	}
	total_of_parts(rec);
}

int gl_session_variant(const struct gl_backend *b, void *bctx, const struct gl_device_info *dev,
		       const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p,
		       struct gl_launch_record *rec, struct gl_variant_outcome *out, struct gl_err *err)
{
	struct gl_launch l = {.module = t->ptx, .module_name = t->name};
	l.sass = gl_topic_sass(t, &l.sass_why);
	memset(out, 0, sizeof *out);
	gl_launch_record_init(rec);
	struct gl_launch_record recs[GL_MAX_STEPS] = {0};
	int rc = gl_topic_setup(t, v, p, &l, err);
	int n = rc == GL_OK ? gl_launch_count(&l) : 0;
	if (rc == GL_OK)
		rc = run_launches(b, bctx, &l, n, recs, err);
	bool partial = false;
	for (int k = 0; k < n; k++)
		partial |= recs[k].outputs_partial;
	struct gl_verify first = {.ok = true};
	if (rc == GL_OK) /* out of memory for the reference is an error, not a failed verification */
		rc = verify_outputs(b, bctx, t, v, p, &l, partial, &out->verify, &first, err);
	if (rc == GL_OK) {
		variant_record(recs, n, rec);
		for (int k = 0; k < rec->nparts; k++) {
			add_topic(&rec->parts[k], rec->parts[k].entry, t, v, p, dev);
			if (t->derive)
				t->derive(v, p, &rec->parts[k].metrics);
		}
		add_topic(rec, rec->nparts ? rec->parts[0].entry : rec->entry, t, v, p, dev); /* a total: its first's */
		if (t->derive)
			t->derive(v, p, &rec->metrics);
		set_verdict(rec, &out->verify, &first);
		out->verify.ok = out->verify.ok && first.ok;
		out->sanitizer_errors = rec->sanitizer_errors;
	} else {
		for (int k = 0; k < n; k++)
			gl_launch_record_free(&recs[k]);
	}
	gl_launch_free(&l);
	return rc;
}
