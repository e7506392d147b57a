/* view_source.c — the trace a view shows: read from the results store in one call (the launch row and
 * its events), or taken from a launch just computed; then the problem, costs and buffers worked out
 * for the views. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "store/store.h"
#include "view_trace.h"

/* The shuffles and barrier arrivals apart from the memory accesses, each list in recorded order: the
 * views of memory accesses step through tr->ev alone. */
static void split_sync(struct view_trace *tr)
{
	uint32_t nmem = 0;
	tr->sync = gl_xmalloc((tr->n ? tr->n : 1) * sizeof *tr->sync);
	tr->nsync = 0;
	for (uint32_t i = 0; i < tr->n; i++) {
		if (gl_trace_is_memory(&tr->ev[i]))
			tr->ev[nmem++] = tr->ev[i];
		else
			tr->sync[tr->nsync++] = tr->ev[i];
	}
	tr->n = nmem;
}

/* What loading from the store and from a record share: the topic, its problem and the buffers, from the
 * launch's buffer map when it has one, else worked out again (launches stored before the map existed). */
static int finish(struct view_trace *tr, const struct gl_buffer_desc *map, int nmap, struct gl_err *err)
{
	split_sync(tr);
	tr->t = gl_topic_find(tr->topic);
	if (tr->t)
		gl_problem_from_json(tr->t, tr->params_json, &tr->problem); /* what it lacks: the defaults */
	int rc = GL_OK;
	if (nmap)
		view_buffers_from_map(tr, map, nmap);
	else
		rc = view_buffers_build(tr, err);
	if (rc)
		view_trace_free(tr);
	return rc;
}

int view_load(struct gl_store *s, long launch_id, struct view_trace *tr, struct gl_err *err)
{
	struct gl_traced_launch l;
	memset(tr, 0, sizeof *tr);
	int rc = gl_store_load_traced_launch(s, launch_id, &l, err);
	if (rc)
		return rc;
	tr->launch_id = l.launch_id;
	tr->run_id = l.run_id;
	snprintf(tr->topic, sizeof tr->topic, "%s", l.topic);
	snprintf(tr->variant, sizeof tr->variant, "%s", l.variant);
	snprintf(tr->params_json, sizeof tr->params_json, "%s", l.params_json);
	memcpy(tr->grid, l.grid, sizeof tr->grid);
	memcpy(tr->block, l.block, sizeof tr->block);
	tr->dyn_smem = l.dyn_smem;
	tr->ev = l.ev; /* the events move to the view's trace */
	tr->n = l.n;
	if (!tr->n) {
		view_trace_free(tr);
		return gl_errf(err, GL_EUSAGE, "launch %ld has no trace (run it with --trace on the simulator)",
		               launch_id);
	}
	snprintf(tr->origin, sizeof tr->origin, "stored trace: run %ld, launch %ld%s", tr->run_id, launch_id,
	         l.nbuffers ? "" : " (no buffer map stored)");
	rc = finish(tr, l.buffers, l.nbuffers, err);
	free(l.buffers);
	return rc;
}

int view_from_record(const struct gl_launch_record *rec, struct view_trace *tr, struct gl_err *err)
{
	const struct gl_launch_record *src = rec; /* a multi-launch variant: its first traced launch */
	for (int k = 0; !rec->ntrace && k < rec->nparts && src == rec; k++)
		if (rec->parts[k].ntrace)
			src = &rec->parts[k];
	memset(tr, 0, sizeof *tr);
	snprintf(tr->topic, sizeof tr->topic, "%s", rec->topic);
	snprintf(tr->variant, sizeof tr->variant, "%s", rec->variant);
	snprintf(tr->params_json, sizeof tr->params_json, "%s", rec->params_json ? rec->params_json : "{}");
	memcpy(tr->grid, src->grid, sizeof tr->grid);
	memcpy(tr->block, src->block, sizeof tr->block);
	tr->dyn_smem = src->dyn_smem;
	if (!src->ntrace)
		return gl_errf(err, GL_EUSAGE, "%s %s made no memory accesses the trace could record", rec->topic,
		               rec->variant);
	tr->ev = gl_xmalloc((size_t)src->ntrace * sizeof *tr->ev);
	memcpy(tr->ev, src->trace, (size_t)src->ntrace * sizeof *tr->ev);
	tr->n = src->ntrace;
	snprintf(tr->origin, sizeof tr->origin, "no stored trace: recorded now on the simulator");
	return finish(tr, src->buffers, src->nbuffers, err);
}
