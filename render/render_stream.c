/* run_stream.c — `gpulab run`'s table, one row per variant as soon as the variant has run.  The run's id
 * exists only once the run is stored (one transaction, after the last variant), so the title names the
 * topic, problem, backend and device, and the last line names the run. */
#include <stdlib.h>

#include "common/util.h"
#include "render.h"
#include "run_stream.h"

static void started(void *user, const char *backend, const struct gl_device_info *dev)
{
	struct gl_run_stream *st = user;
	char *params = gl_problem_json(st->s->topic, &st->s->problem);
	struct gl_str title = {0};
	gl_str_addf(&title, "%s  %s  backend %s  %s", st->s->topic->name, params ? params : "", backend, dev->name);
	gl_render_table_head(st->out, title.buf, st->variant_w);
	fflush(st->out);
	gl_str_free(&title);
	free(params);
}

static void finished(void *user, const struct gl_launch_record *rec)
{
	struct gl_run_stream *st = user;
	gl_render_table_row(st->out, rec, st->variant_w);
	fflush(st->out); /* a pipe or a file sees the row now, not when the run ends */
}

void gl_run_stream_attach(struct gl_run_stream *st, FILE *out, const struct gl_run_session *s,
			  struct gl_run_env *env)
{
	const char *names[GL_RUN_MAX_VARIANTS];
	for (int i = 0; i < s->nvariants; i++)
		names[i] = s->variants[i]->name;
	*st = (struct gl_run_stream){.out = out, .s = s, .variant_w = gl_render_variant_width(names, (size_t)s->nvariants)};
	env->started = started;
	env->finished = finished;
	env->user = st;
}

void gl_run_stream_finish(struct gl_run_stream *st, const struct gl_run_record *r, int print_limit)
{
	gl_render_table_tail(st->out, r, print_limit);
	fprintf(st->out, "stored as run %ld (gpulab report %ld)\n", r->id, r->id);
}
