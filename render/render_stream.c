/* render_stream.c — `gpulab run`'s table, one row per variant as soon as the variant has run.  The run's
 * id exists only once the run is stored (one transaction, after the last variant), so the title names the
 * topic, problem, backend and device, and the last line names the run. */
#include <stdlib.h>

#include "common/util.h"
#include "render/render.h"

void gl_render_stream_init(struct gl_render_stream *st, FILE *out, const char *topic, const char *params_json,
                           const char *const *variants, size_t n)
{
	*st = (struct gl_render_stream){.out = out,
	                                .topic = topic,
	                                .params_json = gl_xstrdup(params_json ? params_json : ""),
	                                .variant_w = gl_render_variant_width(variants, n)};
}

void gl_render_stream_started(struct gl_render_stream *st, const char *backend, const char *device)
{
	struct gl_str title = {0};
	gl_str_addf(&title, "%s  %s  backend %s  %s", st->topic, st->params_json, backend, device);
	gl_render_table_head(st->out, title.buf, st->variant_w);
	fflush(st->out);
	gl_str_free(&title);
}

void gl_render_stream_row(struct gl_render_stream *st, const struct gl_launch_record *rec)
{
	gl_render_table_row(st->out, rec, st->variant_w);
	fflush(st->out); /* a pipe or a file sees the row now, not when the run ends */
}

void gl_render_stream_finish(struct gl_render_stream *st, const struct gl_run_record *r, int print_limit,
			     const char *report)
{
	gl_render_table_tail(st->out, r, print_limit);
	fprintf(st->out, "stored as run %ld (%s)\n", r->id, report);
	free(st->params_json);
	st->params_json = NULL;
}
