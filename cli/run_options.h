/* run_options.h — what `gpulab run` and `gpulab compare` share: their options (variants, sizes and topic
 * parameters, backend, simulator and CUPTI settings) and the problem they describe; the session that runs
 * them is run/run.h's. */
#ifndef GL_RUN_OPTIONS_H
#define GL_RUN_OPTIONS_H

#include <stdbool.h>

#include "cli.h"
#include "kernels/registry.h"
#include "profiler/backend.h"
#include "run/run.h"
#include "store/store.h"

#define GL_RUN_MAX_PARAM_OPTS 64

struct gl_run_opts {
	const char *topic_name, *variants, *backend;
	const char *size;
	const char *baseline;                             /* compare's --baseline, else NULL */
	const char *param_names[GL_RUN_MAX_PARAM_OPTS];   /* --NAME VALUE for topic parameters, in order */
	const char *param_values[GL_RUN_MAX_PARAM_OPTS];
	int nparams;
	struct gl_backend_opts b;
	int print_limit;                                  /* --print-limit: sanitizer findings shown */
	long seed;
	bool seed_set;
};

/* Topic parameters as long options (the union over all topics), appended at opts[n]; option codes
 * are code + index into names.  Returns how many; opts[n + count] is the terminator. */
int gl_topic_param_options(struct option *opts, int n, const char **names, int code);

/* --size sets every size parameter of `t`, each --NAME V one (names/values from the options above);
 * values are checked against the topic's limits, then the topic's check() runs. */
int gl_problem_apply_options(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_topic *t, const char *size,
			     const char *const *names, const char *const *values, int n, struct gl_problem *p);

/* Parse `cmd TOPIC [options]`; with_baseline also accepts --baseline V.  Returns 0, 'h' after --help,
 * or an error status recorded in ctx->err. */
int gl_run_opts_parse(struct gl_ctx *ctx, const struct gl_cmd *cmd, int argc, char **argv, bool with_baseline,
		      struct gl_run_opts *o);

/* The option lines `run` and `compare` both print in their --help. */
#define GL_RUN_OPTIONS_HELP                                                                                  \
	"  --variant LIST        variants to run, comma-separated, or 'all' (default)\n"                       \
	"  --size N              set every size parameter of the topic (see 'gpulab list TOPIC')\n"            \
	"  --PARAM V             set one topic parameter, e.g. --rows 512 --cols 2048\n"                       \
	"  --backend NAME        auto (default: cuda when a GPU is usable, else sim), cuda or sim\n"           \
	"  --seed S              seed of the random inputs\n"                                                  \
	"  --device N            GPU to use (cuda)\n"                                                          \
	"  --metrics SET         memory, compute, all, or metric names (cuda)\n"                               \
	"  --repeat N            timed launches, with an L2 flush between them (cuda)\n"                       \
	"  --threads N           CPU threads of the simulator (default: all cores)\n"                          \
	"  --sample-ctas N       simulate N CTAs spread over the grid and scale the counts\n"                  \
	"  --max-instructions N  simulator budget of warp instructions per CTA\n"                              \
	"  --printf-buffer BYTES device printf buffer of the simulator (default 1048576)\n"                    \
	"  --trace               record warp-level memory events (simulator)\n"                              \
	"  --tool LIST           simulator sanitizer checks: memcheck, racecheck, initcheck, synccheck, all\n" \
	"  --print-limit N       sanitizer findings shown per variant by run (default 100, 0 = all)\n"

/* Look up the topic and variants and build the problem (--size sets every size parameter, --NAME one;
 * values are checked against the topic's limits and its check()).  Nothing runs and nothing is written. */
int gl_run_session_prepare(struct gl_ctx *ctx, const struct gl_cmd *cmd, const struct gl_run_opts *o,
			   struct gl_run_session *s);

/* What run/ needs from the command line (--db, the command line, whether stderr is a terminal); call it
 * after the options are parsed. */
struct gl_run_env gl_cli_run_env(struct gl_ctx *ctx);

#endif
