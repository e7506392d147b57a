/* lesson_bind.c — which launch a check reads: the one made with the parameters the lesson asked for.
 * A check names TOPIC.VARIANT; the step's own commands (else an earlier step's) say with which sizes that
 * variant was run — as the command itself reads them (lesson_set_run_parser) — so a re-run of another
 * step at another size never changes what this check reads.  A profiled program's kernel (program.KERNEL)
 * is bound the same way to the program the step's `gpulab profile` runs (lesson_set_profile_parser). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "kernels/registry.h"
#include "lessons/lesson_int.h"

/* The problem a `run` or `compare` command describes, as the command reads it, when it runs
 * topic.variant; NULL otherwise (another command, topic or variant, or a line the command refuses). */
static char *command_params(const struct lesson_cmd *c, const struct gl_topic *t, const char *variant)
{
	struct lesson_run_line r;
	struct gl_err ignored = {0};
	if (lesson_run_line_of(c, &r, &ignored) != GL_OK || r.run.topic != t || !r.problem_ok)
		return NULL;
	for (int i = 0; i < r.run.nvariants; i++)
		if (strcmp(r.run.variants[i]->name, variant) == 0)
			return gl_problem_json(t, &r.run.problem);
	return NULL;
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

static lesson_profile_parser profile_parser;

void lesson_set_profile_parser(lesson_profile_parser parse)
{
	profile_parser = parse;
}

/* The program a `profile` command runs, as its real path (what gpulab profile stores); NULL otherwise. */
static char *command_program(const struct lesson_cmd *c)
{
	if (!profile_parser || c->argc < 2 || strcmp(c->argv[0], "profile") != 0)
		return NULL;
	int app = profile_parser(c->argc, c->argv);
	if (app >= c->argc)
		return NULL;
	char real[PATH_MAX];
	return gl_xstrdup(realpath(c->argv[app], real) ? real : c->argv[app]);
}

char *lesson_bound_program(const struct lesson *l, int step)
{
	if (!l || step < 1 || step > l->nsteps)
		return NULL;
	for (int s = step; s >= 1; s--) {
		const struct lesson_step *st = &l->steps[s - 1];
		for (int i = st->ncmds - 1; i >= 0; i--) {
			char *path = command_program(&st->cmds[i]);
			if (path)
				return path;
		}
	}
	return NULL;
}
