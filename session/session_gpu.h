/* insights_cli.h — what the insight commands (occupancy, plot, report --details, runs) share: the GPU
 * model a command reasons about, and a variant's launch geometry and ptxas resources. */
#ifndef GL_INSIGHTS_CLI_H
#define GL_INSIGHTS_CLI_H

#include "cli.h"
#include "insights/occupancy.h"
#include "kernels/registry.h"

/* --gpu G when given, else the model of the GPU present, else H100. */
int gl_cli_gpu(struct gl_ctx *ctx, const char *flag, const struct gl_gpu_model **out);
/* The occupancy input of a variant at the topic's default problem: its block size and dynamic shared
 * memory from the topic's setup, registers and static shared memory from ptxas -v for the model's arch. */
int gl_cli_variant_occ_input(const struct gl_topic *t, const struct gl_variant *v, const struct gl_gpu_model *g,
			     struct gl_occ_input *in, struct gl_err *err);

#endif
