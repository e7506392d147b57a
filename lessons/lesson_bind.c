/* lesson_bind.c — which launch a check reads: the one made with the parameters the lesson asked for.
 * A check names TOPIC.VARIANT; the step's own commands (else an earlier step's) say with which sizes that
 * variant was run, so a re-run of another step at another size never changes what this check reads. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "kernels/registry.h"
#include "lessons/lesson.h"

/* Flags of `run`/`compare` (and the common ones): every other --option takes a value. */
static bool is_flag(const char *name)
{
	static const char *const flags[] = {"trace", "json", "csv", "quiet", "help", "play"};
	for (size_t i = 0; i < GL_ARRAY_LEN(flags); i++)
		if (strcmp(name, flags[i]) == 0)
			return true;
	return false;
}

/* Does the comma-separated list (NULL: every variant) name `variant`? */
static bool list_has(const char *list, const char *variant)
{
	if (!list || strcmp(list, "all") == 0)
		return true;
	size_t n = strlen(variant);
	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',') {
		if (strncmp(p, variant, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	}
	return false;
}

struct opt_view {
	const char *name; /* without "--" */
	size_t len;
	const char *value;
};

/* The i-th word as an option with its value (--name=v or --name v); returns the words it used, 0 if the
 * word is not an option. */
static int read_opt(char **argv, int argc, int i, struct opt_view *o)
{
	if (strncmp(argv[i], "--", 2) != 0 || !argv[i][2])
		return 0;
	o->name = argv[i] + 2;
	const char *eq = strchr(o->name, '=');
	o->len = eq ? (size_t)(eq - o->name) : strlen(o->name);
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)o->len, o->name);
	if (eq) {
		o->value = eq + 1;
		return 1;
	}
	if (is_flag(name) || i + 1 >= argc) {
		o->value = NULL;
		return 1;
	}
	o->value = argv[i + 1];
	return 2;
}

static bool opt_is(const struct opt_view *o, const char *name)
{
	return strlen(name) == o->len && strncmp(o->name, name, o->len) == 0;
}

/* The problem `gpulab run|compare TOPIC ...` describes, when it runs topic.variant; NULL otherwise. */
static char *command_params(const struct lesson_cmd *c, const struct gl_topic *t, const char *variant)
{
	if (c->argc < 2 || (strcmp(c->argv[0], "run") != 0 && strcmp(c->argv[0], "compare") != 0))
		return NULL;
	struct gl_problem p;
	gl_problem_defaults(t, &p);
	const char *topic = NULL, *variants = NULL, *baseline = NULL;
	for (int i = 1; i < c->argc;) {
		struct opt_view o;
		int used = read_opt(c->argv, c->argc, i, &o);
		if (!used) {
			topic = topic ? topic : c->argv[i];
			i++;
			continue;
		}
		i += used;
		if (!o.value)
			continue;
		if (opt_is(&o, "variant"))
			variants = o.value;
		else if (opt_is(&o, "baseline"))
			baseline = o.value;
		for (int k = 0; k < t->nparams; k++)
			if (opt_is(&o, t->params[k].name) || (opt_is(&o, "size") && t->params[k].is_size)) {
				/* the topic's own reading: a number, or one of its choices (--layout nhwc) */
				struct gl_err ignored = {0};
				long v;
				if (gl_param_parse(&t->params[k], o.value, "--", &v, &ignored) == GL_OK)
					p.v[k] = v;
			}
	}
	if (!topic || strcmp(topic, t->name) != 0)
		return NULL;
	if (!list_has(variants, variant) && !(baseline && strcmp(baseline, variant) == 0))
		return NULL;
	return gl_problem_json(t, &p);
}

char *lesson_bound_params(const struct lesson *l, int step, const char *topic, const char *variant)
{
	const struct gl_topic *t = gl_topic_find(topic);
	if (!t || !l || step < 1 || step > l->nsteps)
		return NULL;
	for (int s = step; s >= 1; s--) {
		const struct lesson_step *st = &l->steps[s - 1];
		for (int i = st->ncmds - 1; i >= 0; i--) {
			char *json = command_params(&st->cmds[i], t, variant);
			if (json)
				return json;
		}
	}
	return NULL;
}
