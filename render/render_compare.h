/* compare_render.h — a stored run's variants side by side (`gpulab compare`): global sectors, shared
 * wavefronts, bank conflicts, FLOPs and arithmetic intensity, each also as a ratio to a baseline. */
#ifndef GL_COMPARE_RENDER_H
#define GL_COMPARE_RENDER_H

#include <stdio.h>

#include "cli.h"
#include "store/store.h"

enum gl_cmp_col { GL_CMP_LD, GL_CMP_ST, GL_CMP_SWF, GL_CMP_CONF, GL_CMP_FLOPS, GL_CMP_AI, GL_CMP_NCOLS };

/* One variant's derived figures; NAN where the backend did not report what they need. */
struct gl_cmp_row {
	double v[GL_CMP_NCOLS];
	double atom_sectors, global_bytes;
};

/* Derive a launch's figures: FLOPs = 2*FFMA + FADD + FMUL (thread instructions), global bytes =
 * 32 * (load + store + atomic + reduction sectors), intensity = FLOPs / global bytes. */
void gl_cmp_row_from(const struct gl_launch_record *l, struct gl_cmp_row *row);

/* Print the run with launch `baseline` (an index into r->launches) as the reference. */
void gl_render_compare(FILE *out, const struct gl_run_record *r, size_t baseline, enum gl_format fmt);

/* `compare --runs A,B[,C]`: the stored runs' launches side by side, labelled rRUN:VARIANT, the first
 * (or --baseline, a variant of the first run or a label) the reference (compare_runs.c). */
int gl_compare_runs(struct gl_ctx *ctx, const char *list, const char *baseline);

#endif
