/* sweep_plan.c — a sweep spec expanded into jobs: the cartesian product of the parameters' values, each
 * combination checked by the topic's size rules and each variant's launch geometry (no inputs are made),
 * refusals listed; one `gpulab run` per combination, or per variant and CTA range with --shard-ctas. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "kernels/registry.h"
#include "sweep/sweep.h"

struct combo {
	const char *names[GL_SWEEP_MAX_PARAMS];
	const char *values[GL_SWEEP_MAX_PARAMS];
	int n;
	char label[256]; /* "size=256 causal=1" */
};

static void add_refused(struct gl_sweep_plan *plan, const char *label, const char *variant, const char *why)
{
	struct gl_str buf = {0}; /* label, variant name and reason can together exceed any fixed buffer */
	gl_str_addf(&buf, "%s%s%s: %s", label, variant ? " variant " : "", variant ? variant : "", why);
	plan->refused = gl_xrealloc(plan->refused, (size_t)(plan->nrefused + 1) * sizeof *plan->refused);
	plan->refused[plan->nrefused++] = buf.buf;
}

static struct gl_sweep_job *new_job(struct gl_sweep_plan *plan, const struct gl_sweep_spec *s, const struct combo *c)
{
	plan->jobs = gl_xrealloc(plan->jobs, (size_t)(plan->njobs + 1) * sizeof *plan->jobs);
	struct gl_sweep_job *j = &plan->jobs[plan->njobs++];
	memset(j, 0, sizeof *j);
	j->argv[j->argc++] = gl_xstrdup("run");
	j->argv[j->argc++] = gl_xstrdup(s->topic);
	if (s->backend[0]) {
		j->argv[j->argc++] = gl_xstrdup("--backend");
		j->argv[j->argc++] = gl_xstrdup(s->backend);
	}
	for (int i = 0; i < c->n; i++) {
		char flag[40];
		snprintf(flag, sizeof flag, "--%s", c->names[i]);
		j->argv[j->argc++] = gl_xstrdup(flag);
		j->argv[j->argc++] = gl_xstrdup(c->values[i]);
	}
	return j;
}

static void job_add(struct gl_sweep_job *j, const char *flag, const char *value)
{
	j->argv[j->argc++] = gl_xstrdup(flag);
	j->argv[j->argc++] = gl_xstrdup(value);
}

/* The variant's launches as `run` would make them, without their data (the topic's geometry): a refusal
 * is the variant's size rule. *ctas: its grid.  A variant of several launches has a grid per launch, so it
 * cannot be split into one set of CTA ranges. */
static int try_variant(const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p, bool shard,
		       long *ctas, struct gl_err *err)
{
	struct gl_geometry g;
	int rc = gl_topic_geometry(t, v, p, &g, err);
	if (rc == GL_OK && shard && g.n > 1)
		rc = gl_errf(err, GL_EUSAGE, "%s runs %d kernel launches with their own grids: --shard-ctas splits "
			     "single-launch variants only", v->name, g.n);
	if (rc == GL_OK)
		*ctas = (long)g.launch[0].grid[0] * g.launch[0].grid[1] * g.launch[0].grid[2];
	return rc;
}

static void shard_jobs(struct gl_sweep_plan *plan, const struct gl_sweep_spec *s, const struct combo *c,
		       const struct gl_variant *v, long ctas)
{
	long k = s->shard_ctas < ctas ? s->shard_ctas : ctas;
	for (long i = 0; i < k; i++) {
		char range[48];
		snprintf(range, sizeof range, "%ld:%ld", ctas * i / k, ctas * (i + 1) / k);
		struct gl_sweep_job *j = new_job(plan, s, c);
		job_add(j, "--variant", v->name);
		job_add(j, "--cta-range", range);
	}
}

static int expand_combo(const struct gl_sweep_spec *s, const struct gl_topic *t,
			const struct gl_variant *const *vars, int nvars, const struct combo *c,
			struct gl_sweep_plan *plan, struct gl_err *err)
{
	struct gl_err scratch = {0};
	struct gl_problem p;
	gl_problem_defaults(t, &p);
	const char *size = NULL, *names[GL_SWEEP_MAX_PARAMS], *values[GL_SWEEP_MAX_PARAMS];
	int n = 0;
	for (int i = 0; i < c->n; i++) {
		if (strcmp(c->names[i], "size") == 0) {
			size = c->values[i];
			continue;
		}
		names[n] = c->names[i];
		values[n++] = c->values[i];
	}
	if (gl_problem_apply(t, size, names, values, n, &p, &scratch)) {
		add_refused(plan, c->label, NULL, scratch.msg);
		return scratch.status == GL_EUSAGE ? GL_OK : gl_errf(err, scratch.status, "%s", scratch.msg);
	}
	char list[512] = "";
	for (int i = 0; i < nvars; i++) {
		struct gl_err e = {0};
		long ctas = 0;
		int rc = try_variant(t, vars[i], &p, s->shard_ctas > 0, &ctas, &e);
		if (rc == GL_EUSAGE) {
			add_refused(plan, c->label, vars[i]->name, e.msg);
			continue;
		}
		if (rc)
			return gl_errf(err, rc, "%s %s: %s", c->label, vars[i]->name, e.msg);
		if (s->shard_ctas)
			shard_jobs(plan, s, c, vars[i], ctas);
		else
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? "," : "",
				 vars[i]->name);
	}
	if (list[0])
		job_add(new_job(plan, s, c), "--variant", list);
	return GL_OK;
}

/* Unknown parameter names refuse the whole sweep (a typo, not a size rule). */
static int check_names(const struct gl_sweep_spec *s, const struct gl_topic *t, struct gl_err *err)
{
	for (int i = 0; i < s->nparams; i++)
		if (strcmp(s->param_names[i], "size") != 0 && gl_param_index(t, s->param_names[i]) < 0) {
			struct gl_str known = {0};
			for (int q = 0; q < t->nparams; q++)
				gl_str_addf(&known, "%s, ", t->params[q].name);
			gl_errf(err, GL_EUSAGE, "--param %s does not apply to topic %s (its parameters: %ssize)",
				s->param_names[i], t->name, known.buf ? known.buf : "");
			gl_str_free(&known);
			return GL_EUSAGE;
		}
	return GL_OK;
}

int gl_sweep_expand(const struct gl_sweep_spec *s, struct gl_sweep_plan *plan, struct gl_err *err)
{
	const struct gl_topic *t;
	const struct gl_variant *vars[64];
	int nvars = 0;
	memset(plan, 0, sizeof *plan);
	if (!s->topic[0])
		return gl_errf(err, GL_EUSAGE, "a sweep needs a topic: --topic T or topic = \"T\" in the spec");
	int rc = gl_topic_lookup(s->topic, &t, err);
	if (rc == GL_OK)
		rc = gl_parse_variants(t, s->variants[0] ? s->variants : "all", vars, 64, &nvars, err);
	if (rc == GL_OK)
		rc = check_names(s, t, err);
	int idx[GL_SWEEP_MAX_PARAMS] = {0};
	plan->combinations = 1;
	for (int i = 0; i < s->nparams; i++)
		plan->combinations *= s->nvalues[i];
	/* odometer over the parameters' values, the last parameter fastest */
	for (int n = 0; rc == GL_OK && n < plan->combinations; n++) {
		struct combo c = {.n = s->nparams};
		size_t len = 0;
		for (int i = 0; i < s->nparams; i++) {
			c.names[i] = s->param_names[i];
			c.values[i] = s->param_values[i][idx[i]];
			len += (size_t)snprintf(c.label + len, sizeof c.label - len, "%s%s=%s", i ? " " : "", c.names[i],
						c.values[i]);
			if (len >= sizeof c.label)
				len = sizeof c.label - 1;
		}
		if (!c.n)
			snprintf(c.label, sizeof c.label, "defaults");
		rc = expand_combo(s, t, vars, nvars, &c, plan, err);
		for (int i = s->nparams - 1; i >= 0 && ++idx[i] == s->nvalues[i]; i--)
			idx[i] = 0;
	}
	return rc;
}

void gl_sweep_plan_free(struct gl_sweep_plan *plan)
{
	for (int i = 0; i < plan->njobs; i++)
		for (int k = 0; k < plan->jobs[i].argc; k++)
			free(plan->jobs[i].argv[k]);
	for (int i = 0; i < plan->nrefused; i++)
		free(plan->refused[i]);
	free(plan->jobs);
	free(plan->refused);
	memset(plan, 0, sizeof *plan);
}

void gl_sweep_job_line(const struct gl_sweep_job *j, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < j->argc && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? " " : "", j->argv[i]);
}
