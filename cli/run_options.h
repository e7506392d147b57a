/* run_options.h — what `gpulab run` and `gpulab compare` share: their options (variants, sizes and topic
 * parameters, backend, simulator and CUPTI settings) and the problem they describe; the session that runs
 * them is session/session.h's. */
#ifndef GL_RUN_OPTIONS_H
#define GL_RUN_OPTIONS_H

#include <stdbool.h>

#include "cli.h"
#include "kernels/registry.h"
#include "lessons/lesson.h"
#include "profiler/profiler.h"
#include "session/session.h"
#include "engine_opt.h"
#include "sim/sim.h" /* GL_SIM_PRINTF_BUFFER_MAX */
#include "store/store.h"

#define GL_RUN_MAX_PARAM_OPTS 64

struct gl_run_opts {
	const char *topic_name, *variants, *backend;
	const char *size;
	const char *baseline;                             /* compare's --baseline, else NULL */
	const char *runs;                                 /* compare's --runs A,B[,C], else NULL */
	bool strict;                                      /* compare's --strict (with --runs) */
	const char *param_names[GL_RUN_MAX_PARAM_OPTS];   /* --NAME VALUE for topic parameters, in order */
	const char *param_values[GL_RUN_MAX_PARAM_OPTS];
	int nparams;
	struct gl_backend_opts b;
	int print_limit;                                  /* --print-limit: sanitizer findings shown */
	long seed;
	bool seed_set;
};

/* Option codes of `run` and `compare` (their handler switches on them). */
enum {
	GL_RUN_OPT_VARIANT = 1, GL_RUN_OPT_SIZE, GL_RUN_OPT_BACKEND, GL_RUN_OPT_DEVICE, GL_RUN_OPT_METRICS,
	GL_RUN_OPT_REPEAT, GL_RUN_OPT_TRACE, GL_RUN_OPT_SAMPLE, GL_RUN_OPT_THREADS, GL_RUN_OPT_MAXINST,
	GL_RUN_OPT_SEED, GL_RUN_OPT_BASELINE, GL_RUN_OPT_PRINTF_BUFFER, GL_RUN_OPT_TOOL, GL_RUN_OPT_PRINT_LIMIT,
	GL_RUN_OPT_PARAM, GL_RUN_OPT_RUNS, GL_RUN_OPT_CTA_RANGE, GL_RUN_OPT_ENGINE, GL_RUN_OPT_STRICT,
};

/* The option rows `run` and `compare` share (a table entry's .opts lists them, compare adds --baseline). */
#define GL_RUN_OPT_ROWS                                                                                       \
	GL_STR("variant", "LIST", GL_RUN_OPT_VARIANT, "variants to run, comma-separated, or 'all' (default)"),  \
	GL_STR("size", "N", GL_RUN_OPT_SIZE, "set every size parameter of the topic (see 'gpulab list TOPIC')"), \
	GL_STR("backend", "NAME", GL_RUN_OPT_BACKEND,                                                          \
	       "auto (default: cuda when a GPU is usable, else sim), cuda or sim"),                             \
	GL_NUM("seed", "S", 0, 1L << 62, GL_RUN_OPT_SEED, "seed of the random inputs"),                        \
	GL_NUM("device", "N", 0, 63, GL_RUN_OPT_DEVICE, "GPU to use (cuda)"),                                   \
	GL_STR("metrics", "SET", GL_RUN_OPT_METRICS, "memory, compute, all, or metric names (cuda)"),           \
	GL_NUM("repeat", "N", 1, 10000, GL_RUN_OPT_REPEAT, "timed launches, with an L2 flush between them (cuda)"), \
	GL_NUM("threads", "N", 1, 256, GL_RUN_OPT_THREADS, "CPU threads of the simulator (default: all cores)"), \
	GL_NUM("sample-ctas", "N", 1, 1L << 30, GL_RUN_OPT_SAMPLE,                                             \
	       "simulate N CTAs spread over the grid and scale the counts"),                                   \
	GL_STR("cta-range", "A:B", GL_RUN_OPT_CTA_RANGE,                                                      \
	       "simulate only CTAs A..B-1 in grid order: partial counts, for 'gpulab merge' (simulator)"),      \
	GL_NUM("max-instructions", "N", 1, 1L << 62, GL_RUN_OPT_MAXINST,                                      \
	       "simulator budget of warp instructions per CTA"),                                               \
	GL_NUM("printf-buffer", "BYTES", 1, (long)GL_SIM_PRINTF_BUFFER_MAX, GL_RUN_OPT_PRINTF_BUFFER,          \
	       "device printf buffer of the simulator (default 1048576)"),                                     \
	GL_STR("engine", "auto|interp|compiled", GL_RUN_OPT_ENGINE, GL_ENGINE_HELP),                               \
	GL_FLAG("trace", GL_RUN_OPT_TRACE, "record warp-level memory events (simulator)"),                     \
	GL_STR("tool", "LIST", GL_RUN_OPT_TOOL,                                                                \
	       "simulator sanitizer checks: memcheck, racecheck, initcheck, synccheck, all"),                  \
	GL_STR("print-limit", "N", GL_RUN_OPT_PRINT_LIMIT,                                                     \
	       "sanitizer findings shown per variant by run (default 100, 0 = all)")

/* The prose after the option lines: topic parameters are options too, one per parameter name. */
#define GL_RUN_PARAMS_HELP                                                                                   \
	"--PARAM V sets one topic parameter, e.g. --rows 512 --cols 2048 (see 'gpulab list TOPIC').\n"

/* Topic parameters as options (the union over all topics, checked later against the chosen one), code
 * `code`; writes up to max - 1 rows and the terminator into opts. */
void gl_topic_param_options(struct gl_opt *opts, int max, int code);

/* --size sets every size parameter of `t`, each --NAME V one (names/values from the options above);
 * values are checked against the topic's limits, then the topic's check() runs. */
int gl_problem_apply_options(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_topic *t, const char *size,
			     const char *const *names, const char *const *values, int n, struct gl_problem *p);

/* Parse `cmd TOPIC [options]` (cmd's table holds GL_RUN_OPT_ROWS, compare's also --baseline).  Returns 0,
 * 'h' after --help, or an error status recorded in ctx->err. */
int gl_run_opts_parse(struct gl_ctx *ctx, const struct gl_cmd *cmd, int argc, char **argv, struct gl_run_opts *o);

/* Look up the topic and variants and build the problem (--size sets every size parameter, --NAME one;
 * values are checked against the topic's limits and its check()).  Nothing runs and nothing is written. */
int gl_topic_run_prepare(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_run_opts *o,
			 struct gl_topic_run *s);

/* --cta-range A:B (0 <= A < B): the CTAs a shard of a launch simulates, in grid order. */
int gl_parse_cta_range(struct gl_ctx *ctx, const struct gl_cmd *cmd, const char *v, long *first, long *end);

/* A `run` or `compare` line as these commands read it, for lessons (lesson_set_run_parser): argv[0] is the
 * command's name.  An unknown option, topic or variant is an error; a size the topic or a variant refuses
 * is not (problem_ok false: the command refuses it when the lesson runs it).  Nothing is printed, run or
 * written. */
int gl_cli_run_line(int argc, char **argv, struct lesson_run_line *out, struct gl_err *err);

/* What a session needs from the command line (--db, the command line, whether stderr is a terminal); call it
 * after the options are parsed. */
struct gl_session_env gl_cli_session_env(struct gl_ctx *ctx);

#endif
