/* metric_sets.c — the named metric sets and parsing of --metrics. */
#include "profiler/metric_sets.h"

#include <stdlib.h>
#include <string.h>

#include "common/metrics.h"
#include "common/util.h"

static const char *const sim_set[] = {
	GL_M_GLD_REQ,  GL_M_GLD_SECT, GL_M_GST_REQ,   GL_M_GST_SECT, GL_M_SLD_INST, GL_M_SST_INST,
	GL_M_SLD_WF,   GL_M_SST_WF,   GL_M_SLD_CONF,  GL_M_SST_CONF, GL_M_INST,     GL_M_THREAD_INST,
};

static const char *const memory_set[] = {
	GL_M_GLD_REQ, GL_M_GLD_SECT, GL_M_GST_REQ,  GL_M_GST_SECT, GL_M_SLD_INST, GL_M_SST_INST, GL_M_SLD_WF,
	GL_M_SST_WF,  GL_M_SLD_CONF, GL_M_SST_CONF, GL_M_DRAM_RD,  GL_M_DRAM_WR,  GL_M_DURATION,
};

static const char *const compute_set[] = {
	GL_M_INST, GL_M_THREAD_INST, GL_M_SM_THROUGHPUT, GL_M_OCCUPANCY, GL_M_DURATION,
};

static const char *const extra_set[] = {
	GL_M_DRAM_RD, GL_M_DRAM_WR, GL_M_DURATION, GL_M_SM_THROUGHPUT, GL_M_OCCUPANCY,
};

static const struct {
	const char *name;
	const char *const *names;
	size_t n;
} sets[] = {
	{"memory", memory_set, GL_ARRAY_LEN(memory_set)},
	{"compute", compute_set, GL_ARRAY_LEN(compute_set)},
	{"sim", sim_set, GL_ARRAY_LEN(sim_set)},
	{"all", sim_set, GL_ARRAY_LEN(sim_set)}, /* "all" adds extra_set below */
};

const char *const *gl_metric_set_sim(size_t *n)
{
	*n = GL_ARRAY_LEN(sim_set);
	return sim_set;
}

const char *gl_metric_sets_name(size_t i)
{
	for (size_t k = 0; k < GL_ARRAY_LEN(sets); k++) {
		if (i < sets[k].n)
			return sets[k].names[i];
		i -= sets[k].n;
	}
	return i < GL_ARRAY_LEN(extra_set) ? extra_set[i] : NULL;
}

const char *gl_metric_set_help(void) { return "memory, compute, all, sim"; }

void gl_metric_list_add(struct gl_metric_list *l, const char *name, bool named)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->names[i], name) == 0) {
			l->named[i] = l->named[i] || named;
			return;
		}
	l->names = gl_xrealloc(l->names, (l->n + 1) * sizeof *l->names);
	l->named = gl_xrealloc(l->named, (l->n + 1) * sizeof *l->named);
	l->named[l->n] = named;
	l->names[l->n++] = gl_xstrdup(name);
}

void gl_metric_list_remove(struct gl_metric_list *l, size_t i)
{
	if (i >= l->n)
		return;
	free(l->names[i]);
	memmove(&l->names[i], &l->names[i + 1], (l->n - i - 1) * sizeof *l->names);
	memmove(&l->named[i], &l->named[i + 1], (l->n - i - 1) * sizeof *l->named);
	l->n--;
}

void gl_metric_list_free(struct gl_metric_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	free(l->named);
	l->names = NULL;
	l->named = NULL;
	l->n = 0;
}

static int add_word(struct gl_metric_list *l, const char *word, struct gl_err *err)
{
	for (size_t i = 0; i < GL_ARRAY_LEN(sets); i++) {
		if (strcmp(word, sets[i].name) != 0)
			continue;
		for (size_t k = 0; k < sets[i].n; k++)
			gl_metric_list_add(l, sets[i].names[k], false);
		if (strcmp(word, "all") == 0)
			for (size_t k = 0; k < GL_ARRAY_LEN(extra_set); k++)
				gl_metric_list_add(l, extra_set[k], false);
		return GL_OK;
	}
	if (strstr(word, "__")) {
		gl_metric_list_add(l, word, true);
		return GL_OK;
	}
	static const char *const words[] = {"memory", "compute", "all", "sim"};
	const char *near = gl_suggest(word, words, GL_ARRAY_LEN(words));
	return gl_errf(err, GL_EUSAGE,
		       "unknown metric set '%s'%s%s%s (sets: %s; or Nsight Compute names such as "
		       "dram__bytes_read.sum, see 'gpulab metrics --search WORD')",
		       word, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "", gl_metric_set_help());
}

int gl_metric_list_parse(const char *spec, struct gl_metric_list *out, struct gl_err *err)
{
	memset(out, 0, sizeof *out);
	if (!spec || !*spec)
		spec = "all";
	char *copy = gl_xstrdup(spec), *save = NULL;
	int rc = GL_OK;
	for (char *w = strtok_r(copy, ", ", &save); w && rc == GL_OK; w = strtok_r(NULL, ", ", &save))
		rc = add_word(out, w, err);
	free(copy);
	if (rc == GL_OK && out->n == 0)
		rc = gl_errf(err, GL_EUSAGE, "--metrics '%s' names no metric (sets: %s)", spec, gl_metric_set_help());
	if (rc != GL_OK)
		gl_metric_list_free(out);
	return rc;
}
