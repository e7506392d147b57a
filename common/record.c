/* record.c — the record model's lifetime: an empty record, and freeing what a record owns. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/record.h"

void gl_launch_record_init(struct gl_launch_record *l)
{
	memset(l, 0, sizeof *l);
	l->verified = -1;
	l->max_abs_err = l->max_rel_err = NAN;
	l->duration_ns = NAN;
	l->regs = -1;
	l->static_smem = -1;
}

void gl_launch_record_free(struct gl_launch_record *l)
{
	if (!l)
		return;
	free(l->params_json);
	l->params_json = NULL;
	gl_metrics_free(&l->metrics);
	free(l->trace);
	l->trace = NULL;
	l->ntrace = 0;
	free(l->buffers);
	l->buffers = NULL;
	l->nbuffers = 0;
	free(l->findings);
	l->findings = NULL;
	l->nfindings = 0;
	free(l->guidance);
	l->guidance = NULL;
	l->nguidance = 0;
	for (int k = 0; k < l->noutputs; k++)
		free(l->outputs[k].segs);
	free(l->outputs);
	l->outputs = NULL;
	l->noutputs = 0;
	for (int k = 0; k < l->nparts; k++)
		gl_launch_record_free(&l->parts[k]);
	free(l->parts);
	l->parts = NULL;
	l->nparts = 0;
}

void gl_run_record_free(struct gl_run_record *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nlaunches; i++)
		gl_launch_record_free(&r->launches[i]);
	free(r->launches);
	r->launches = NULL;
	r->nlaunches = 0;
}
