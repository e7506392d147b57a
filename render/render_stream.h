/* run_stream.h — `gpulab run`'s table printed as the run goes: the title and column header once the
 * backend is known, each variant's row as soon as that variant has run, and what needs every row
 * (derived values, notes, guidance, findings) once the run is stored. */
#ifndef GL_RUN_STREAM_H
#define GL_RUN_STREAM_H

#include <stdio.h>

#include "run/run.h"
#include "store/store.h"

struct gl_run_stream {
	FILE *out;
	const struct gl_run_session *s;
	int variant_w; /* from the names of the variants that will run, so rows line up before all have run */
};

/* Print into `out` through env's started/finished hooks while session s runs. */
void gl_run_stream_attach(struct gl_run_stream *st, FILE *out, const struct gl_run_session *s,
			  struct gl_run_env *env);

/* After the run is stored: the lines that need every row, then which run it was stored as. */
void gl_run_stream_finish(struct gl_run_stream *st, const struct gl_run_record *r, int print_limit);

#endif
