/* registry.h — the kernel topics (tmux-style table: one entry per topic).  A topic names its parameters,
 * its variants (each a PTX entry in the topic's embedded module), how to build a launch for a variant
 * (buffers with random non-uniform inputs, grid, block, shared memory) and how to verify the output
 * against its CPU reference with an absolute plus relative tolerance. */
#ifndef GL_REGISTRY_H
#define GL_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>

#include "common/err.h"
#include "common/launch.h"
#include "common/metrics.h"
#include "common/util.h" /* gl_check_host_memory */

#define GL_MAX_PARAMS 16

struct gl_param {
	const char *name;     /* --NAME V on the command line */
	const char *help;
	long def, min, max;
	bool is_size;         /* set by --size N */
	/* A parameter that names one of a few choices (--layout nchw|nhwc): NULL-terminated names; the value
	 * (and def, min, max) is the index of the name.  NULL for a number. */
	const char *const *choices;
};

/* The index of `name` among a choice parameter's names, or -1. */
int gl_param_choice(const struct gl_param *param, const char *name);
/* Parse a parameter's value from the command line: a number in [min, max], or one of its choices;
 * `flag` ("--layout") names it in the error, with the choices or a "did you mean". */
int gl_param_parse(const struct gl_param *param, const char *text, const char *flag, long *out, struct gl_err *err);

struct gl_problem {
	long v[GL_MAX_PARAMS]; /* in the order of topic->params */
	uint64_t seed;
};

struct gl_variant {
	const char *name;
	const char *entry;    /* PTX .entry name */
	const char *summary;  /* what it teaches, one line */
};

struct gl_verify {
	bool ok;
	double max_abs_err, max_rel_err;
	size_t mismatches;
	char first_mismatch[256];
};

/* A buffer's logical row-major shape, as the topic's parameter names: rows x cols. */
struct gl_buffer_shape {
	const char *buffer, *rows, *cols;
};

/* A variant's launches without their data, as llm.c's launchers compute a grid: entry, grid, block and
 * dynamic shared memory of each kernel launch, in order.  Computing it allocates and fills nothing. */
struct gl_geometry_launch {
	const char *entry;
	unsigned grid[3], block[3];
	unsigned dyn_smem;
};
struct gl_geometry {
	struct gl_geometry_launch launch[GL_MAX_STEPS];
	int n;
};

/* Add the next launch to g (a topic's geometry function, once per launch in order). */
void gl_geometry_add(struct gl_geometry *g, const char *entry, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
		     unsigned by, unsigned dyn_smem);
/* Set l's current launch (entry, grid, block, dynamic shared memory) to launch k of g: a topic's setup
 * builds its launches from its geometry, so the two never disagree. */
void gl_geometry_apply(const struct gl_geometry *g, int k, struct gl_launch *l);

/* Which view shows a topic best. */
enum gl_topic_view { GL_VIEW_COALESCE, GL_VIEW_BANKS, GL_VIEW_GEMM, GL_VIEW_CONV, GL_VIEW_MMA, GL_VIEW_FLASH,
		     GL_VIEW_REDUCE };

struct gl_topic {
	const char *name;
	const char *summary;
	const char *ptx;        /* embedded module text */
	const char *res_sm80;   /* ptxas -v output for sm_80 and sm_90 */
	const char *res_sm90;
	const struct gl_param *params;
	int nparams;
	const struct gl_variant *variants;
	int nvariants;
	double atol, rtol;      /* |out - ref| <= atol + rtol * |ref| */
	/* Refuse problems the topic cannot run (memory, shapes) with a clear message. */
	int (*check)(const struct gl_problem *p, struct gl_err *err);
	/* The rule a variant puts on the problem beyond the topic's limits (float4 rows need multiples of 4):
	 * false with the rule in `rule` when v cannot run p.  NULL: every variant runs what check() accepts.
	 * `run --variant all` skips the variants that refuse and names the rule; an explicit one is an error. */
	bool (*accepts)(const struct gl_variant *v, const struct gl_problem *p, char *rule, size_t n);
	/* The launches' geometry (struct gl_geometry) with the variant's shape rules: GL_EUSAGE with the rule
	 * when v cannot run p; nothing allocated or filled. */
	int (*geometry)(const struct gl_variant *v, const struct gl_problem *p, struct gl_geometry *g,
			struct gl_err *err);
	/* Build the launch from its geometry g (computed above and handed in by gl_topic_setup; NULL for a topic
	 * without a geometry function): buffers, inputs, arguments. */
	int (*setup)(const struct gl_variant *v, const struct gl_problem *p, const struct gl_geometry *g,
		     struct gl_launch *l, struct gl_err *err);
	/* Compare the launch's outputs with the CPU reference. */
	/* GL_EENV when the host has no memory for the reference (never a verification failure). */
	int (*verify)(const struct gl_variant *v, const struct gl_problem *p, const struct gl_launch *l,
		      const struct gl_topic *t, struct gl_verify *out, struct gl_err *err);
	/* FLOPs and ideal global bytes of the problem, for derived ratios (may be NULL). */
	double (*flops)(const struct gl_variant *v, const struct gl_problem *p);
	/* What the views need to know of the topic: the buffers that are matrices (NULL-terminated; the
	 * others are vectors), the size a view records at when nothing is stored (a few CTAs, traces of a
	 * few thousand events; 0: 128), and the view that fits it. */
	const struct gl_buffer_shape *shapes;
	long view_size;
	enum gl_topic_view view;
	/* Topic-specific values derived from a launch's metrics, added to them under gpulab__TOPIC_ names
	 * (may be NULL); called for each launch and for a multi-launch variant's total. */
	void (*derive)(const struct gl_variant *v, const struct gl_problem *p, struct gl_metrics *m);
	const char *const *derived_names; /* the names derive sets, NULL-terminated (lesson checks read them) */
};

extern const struct gl_topic *const gl_topics[];
/* Buffer `buffer`'s rows x cols under problem p from the topic's shapes; false for a vector. */
bool gl_topic_buffer_shape(const struct gl_topic *t, const struct gl_problem *p, const char *buffer, long *rows,
			   long *cols);
/* Variant v's launch on problem p, buffers and inputs included: its geometry, then the topic's setup built
 * from it (the caller sets l's module and frees l).  GL_EUSAGE with the variant's rule when it cannot run
 * p. */
int gl_topic_setup(const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p,
		   struct gl_launch *l, struct gl_err *err);
/* Variant v's launches on problem p without their data (the topic's geometry function): GL_EUSAGE with the
 * variant's rule when it cannot run p. */
int gl_topic_geometry(const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p,
		      struct gl_geometry *g, struct gl_err *err);
/* The problem a view records with: the topic's defaults with every size parameter at most view_size. */
void gl_topic_view_problem(const struct gl_topic *t, struct gl_problem *p);
const struct gl_topic *gl_topic_find(const char *name);
const struct gl_variant *gl_variant_find(const struct gl_topic *t, const char *name);
/* Messages with "did you mean" for unknown names. */
int gl_topic_lookup(const char *name, const struct gl_topic **out, struct gl_err *err);
int gl_variant_lookup(const struct gl_topic *t, const char *name, const struct gl_variant **out, struct gl_err *err);
/* The same, naming the variant's role in the message ("unknown baseline 'x' for topic ..."). */
int gl_variant_lookup_as(const struct gl_topic *t, const char *name, const char *role, const struct gl_variant **out,
			 struct gl_err *err);

/* Parse "all" or "a,b,c" into variant pointers (at most max); unknown names get a suggestion. */
int gl_parse_variants(const struct gl_topic *t, const char *list, const struct gl_variant **out, int max, int *n,
		      struct gl_err *err);

/* Defaults for every parameter, then a fixed seed. */
void gl_problem_defaults(const struct gl_topic *t, struct gl_problem *p);
int gl_param_index(const struct gl_topic *t, const char *name);
/* --size sets every size parameter of `t`, and names[k] = values[k] one parameter each (names must be
 * parameters of t: gl_param_index); values are checked against the topic's limits, then its check() runs. */
int gl_problem_apply(const struct gl_topic *t, const char *size, const char *const *names, const char *const *values,
		     int n, struct gl_problem *p, struct gl_err *err);
/* The seed of the inputs unless --seed says otherwise. */
#define GL_DEFAULT_SEED 20240611ull
/* {"rows":1024,"cols":1024}, and "seed" when it is not the default — caller frees.  What a launch was
 * made with: the store keeps it with the launch, and the same problem always writes the same text. */
char *gl_problem_json(const struct gl_topic *t, const struct gl_problem *p);
/* Its reader, the one place that reads a launch's parameters back: the problem `json` describes (numbers,
 * choices by name, the seed); a parameter missing or not valid for t keeps its default and makes the
 * result -1 (the launch cannot be made again exactly as it ran), else 0. */
int gl_problem_from_json(const struct gl_topic *t, const char *json, struct gl_problem *p);
/* A stored launch's inputs made again from its parameters and seed (params_json; a parameter it lacks takes
 * its default), the one place that recomputes them for a reader (a view's values, the buffers of a launch
 * stored before its buffer map, shards' outputs verified): the topic's setup of variant v.  The caller
 * frees l. */
int gl_topic_rebuild(const struct gl_topic *t, const struct gl_variant *v, const char *params_json,
		     struct gl_launch *l, struct gl_err *err);

/* The dynamic shared memory of a launch of v on p, from its geometry (the most any of its launches takes;
 * 0 when v cannot run p). */
unsigned gl_topic_dyn_smem(const struct gl_topic *t, const struct gl_variant *v, const struct gl_problem *p);

/* ptxas -v resource usage of an entry for an arch ("sm_80"/"sm_90"); -1 fields when not found. */
struct gl_resources {
	int regs, static_smem, spill_stores, spill_loads, stack;
};
void gl_topic_resources(const struct gl_topic *t, const char *entry, const char *arch, struct gl_resources *out);

/* The sm_80 SASS of each topic's module with PTX line info (nvdisasm -gp text), built beside the PTX
 * when nvdisasm is found (gen/sass_index.c).  gl_topic_sass returns NULL and why when there is none. */
struct gl_sass_entry {
	const char *topic, *sass;
};
extern const struct gl_sass_entry gl_sass_table[];
extern const char gl_sass_unavailable[];
const char *gl_topic_sass(const struct gl_topic *t, const char **why);

/* Shared verification helper: element-wise float comparison with atol + rtol*|ref|. */
void gl_verify_f32(const float *out, const float *ref, size_t n, double atol, double rtol, struct gl_verify *v);

/* Deterministic random inputs (xorshift), non-uniform: values in [-1, 1) with varied magnitudes. */
void gl_fill_random_f32(float *a, size_t n, uint64_t seed);
/* The same sequence in pieces: gl_random_f32_next(&state, ...) from state = gl_random_state(seed) gives
 * the values gl_fill_random_f32 writes, n at a time (for verifiers that stream a large matrix). */
uint64_t gl_random_state(uint64_t seed);
void gl_random_f32_next(uint64_t *state, float *a, size_t n);
/* The same values rounded to binary16 bits (round to nearest even), for fp16 inputs; GL_EENV when the host
 * has no memory for the float values on the way. */
int gl_fill_random_f16(uint16_t *h, size_t n, uint64_t seed, struct gl_err *err);

#endif
