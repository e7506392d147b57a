/* compare_render.h — a stored run's variants side by side (`gpulab compare`): global sectors, shared
 * wavefronts, bank conflicts, FLOPs and arithmetic intensity, each also as a ratio to a baseline. */
#ifndef GL_COMPARE_RENDER_H
#define GL_COMPARE_RENDER_H

#include <stdio.h>

#include "cli.h"
#include "common/derived.h"
#include "store/store.h"

enum gl_cmp_col { GL_CMP_LD, GL_CMP_ST, GL_CMP_SWF, GL_CMP_CONF, GL_CMP_FLOPS, GL_CMP_TFLOPS, GL_CMP_AI, GL_CMP_NCOLS };

/* One variant's derived figures; NAN where the backend did not report what they need. */
struct gl_cmp_row {
	double v[GL_CMP_NCOLS];
	double atom_sectors, global_bytes, ldgsts_sectors;
	struct gl_flops flops;
};

/* Derive a launch's figures through common/derived.h: load sectors with cp.async's, FLOPs of every kind
 * (CUDA cores and tensor cores), global bytes = 32 * (load + store + atomic + reduction sectors),
 * intensity = FLOPs / global bytes. */
void gl_cmp_row_from(const struct gl_launch_record *l, struct gl_cmp_row *row);

/* Print the run with launch `baseline` (an index into r->launches) as the reference. */
void gl_render_compare(FILE *out, const struct gl_run_record *r, size_t baseline, enum gl_format fmt);
/* The same for launches gathered from several stored runs: the table's title names them (`runs`, e.g.
 * "runs 1, 2") instead of r->id's run. */
void gl_render_compare_runs(FILE *out, const struct gl_run_record *r, size_t baseline, enum gl_format fmt,
			    const char *runs);

/* `compare --runs A,B[,C]`: the stored runs' launches side by side, labelled rRUN:VARIANT, the first
 * (or --baseline, a variant of the first run or a label) the reference (compare_runs.c). */
int gl_compare_runs(struct gl_ctx *ctx, const char *list, const char *baseline);

#endif
