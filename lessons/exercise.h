/* exercise.h — exercises: the learner writes a kernel, gpulab checks it.  An exercise is a Markdown
 * file exercises/NN-name.md (embedded at build time, like the lessons; $GPULAB_EXERCISES overrides) whose
 * front-matter block says what the kernel is called, its parameters, the buffers and launch geometry as
 * integer expressions over the size variables, the sizes to try, the CPU reference (kernels/exercise_ref.h),
 * the tolerance, the efficiency goals (lesson check expressions over the stored launch) and the hints;
 * its solution is exercises/NN-name.cu.  docs/exercises.md is the spec. */
#ifndef GL_EXERCISE_H
#define GL_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "common/launch.h"
#include "lessons/lesson.h"

#define EX_MAX_VARS 4
#define EX_MAX_PARAMS 10
#define EX_MAX_SIZES 10
#define EX_MAX_GOALS 6
#define EX_MAX_HINTS 8
#define EX_EXPR_MAX 96

/* The topic name goals use for the learner's launch: `exercise.NAME METRIC`. */
#define EX_TOPIC "exercise"

/* One file compiled into the binary (gen/exercises_index.c); the table ends with a NULL name. */
struct exercise_embedded {
	const char *name;     /* "04-transpose-tiled" */
	const char *path;     /* "exercises/04-transpose-tiled.md" */
	const char *text;
	const char *solution; /* the .cu beside it, or NULL */
};
extern const struct exercise_embedded exercise_embedded[];

/* One kernel parameter: a pointer (a buffer) or a scalar. */
struct ex_param {
	char name[32];
	char decl[64];        /* as the signature writes it: "const float *in" */
	enum gl_dtype dtype;  /* element type of a pointer, the type of a scalar */
	bool pointer, is_const;
	/* a buffer */
	char count[EX_EXPR_MAX]; /* elements, an expression */
	char init[32];           /* zero | rand | randint:K | seq */
	bool output;             /* compared with the reference */
	/* a scalar: an integer expression, or a float literal */
	char value[EX_EXPR_MAX];
};

/* Values of the size variables, in the order of `vars`. */
struct ex_size {
	long v[EX_MAX_VARS];
};

struct ex_goal {
	struct lesson_check check;
	char view[16]; /* the view that shows why: coalesce, banks, gemm */
};

struct exercise {
	char name[64];   /* the file name without .md */
	char id[32];     /* the name without its number, '-' as '_': the variant goals read ("transpose_tiled") */
	char path[512];
	char *title;
	char kernel[64];
	char vars[EX_MAX_VARS][16];
	int nvars;
	struct ex_param params[EX_MAX_PARAMS];
	int nparams;
	struct ex_size sizes[EX_MAX_SIZES];
	int nsizes;
	struct ex_size measure; /* the size the goals are measured at (stored with a trace) */
	char grid[3][EX_EXPR_MAX], block[3][EX_EXPR_MAX], smem[EX_EXPR_MAX];
	char reference[32];
	double atol, rtol;
	struct ex_goal goals[EX_MAX_GOALS];
	int ngoals;
	char *hints[EX_MAX_HINTS];
	int nhints;
	char *task;      /* the Markdown body after the front matter */
	char *solution;  /* the solution's source, or NULL */
};

/* ---- files (exercise_source.c) */

/* Every exercise, sorted by name: $GPULAB_EXERCISES/NN-name.md (with NN-name.cu) when set, else the
 * embedded ones.  A file that does not parse is an error naming file:line. */
int exercise_list(struct exercise **out, int *n, struct gl_err *err);
void exercise_list_free(struct exercise *ex, int n);
/* By full name, number ("4", "04") or name without the number ("transpose-tiled"); unknown names are
 * refused with the nearest one suggested. */
int exercise_find(const struct exercise *ex, int n, const char *name, int *index, struct gl_err *err);

/* ---- the file format (exercise_parse.c) */

int exercise_parse(const char *name, const char *path, const char *text, const char *solution,
		   struct exercise *out, struct gl_err *err);
void exercise_free(struct exercise *e);

/* The C signature: `extern "C" __global__ void KERNEL(PARAMS)`. */
void exercise_signature(const struct exercise *e, char *buf, size_t n);
/* "rows=33 cols=47" */
void exercise_size_str(const struct exercise *e, const struct ex_size *s, char *buf, size_t n);

/* ---- integer expressions over the size variables (exercise_expr.c)
 *   expr := term (('+'|'-') term)*   term := factor (('*'|'/'|'%') factor)*
 *   factor := NUMBER | VAR | '(' expr ')' | '-' factor | cdiv(expr, expr) | min(expr, expr) | max(expr, expr) */
int exercise_expr_eval(const char *text, const struct exercise *e, const struct ex_size *s, long *out,
		       struct gl_err *err);

/* ---- the starter file (exercise_starter.c) */

/* The starter .cu: the task as a comment, the limits, the signature and a body to fill in. */
char *exercise_starter(const struct exercise *e);

/* ---- a launch for one size (exercise_launch.c) */

/* Buffers (inputs filled deterministically from `seed`), scalars, grid, block and shared memory of `e`
 * at size `s`.  The caller sets module/entry and frees with gl_launch_free. */
int exercise_launch(const struct exercise *e, const struct ex_size *s, unsigned long seed, struct gl_launch *l,
		    struct gl_err *err);

/* The first element of an output that differs from the reference beyond the tolerance. */
struct ex_mismatch {
	bool ok;
	char buffer[32];
	long index;       /* element index */
	char where[128];  /* "[row 3, col 17]" when the buffer is a matrix of the size, else "" */
	double expected, got;
	long bad;         /* elements outside the tolerance */
	bool all_zero;    /* the failing buffer holds only zeros: the kernel never wrote it */
};

/* Compute the reference on a copy of the launch's inputs and compare every output buffer. */
int exercise_compare(const struct exercise *e, const struct ex_size *s, const struct gl_launch *l,
		     struct ex_mismatch *m, struct gl_err *err);

/* ---- checking the learner's file (exercise_check.c): compiled, run at every size in the simulator under
 * the sanitizer, compared with the reference, then the measured size stored as a run (through a session:
 * topic EX_TOPIC, variant the exercise's id) and held against the goals */

struct ex_check_opts {
	const char *file;          /* the learner's .cu */
	uint64_t max_instructions; /* warp instructions per CTA; 0: the simulator's default */
	int threads;               /* CPU threads; 0: all cores */
	/* The gpulab command line for `args` ("report 3"), written to work when pasted (the CLI's hint: the
	 * binary as started and the database); the verdict's suggestions go through it. */
	void (*hint)(void *hint_user, const char *args, char *buf, size_t n);
	void *hint_user;
};

/* Prints the verdict of every size and goal to `out`.  GL_OK: correct and every goal met; GL_EVERIFY: a
 * size failed, the sanitizer found errors or a goal was missed; GL_EUSAGE: the file does not compile or
 * has no kernel of the expected signature (errors in env->err).  *run_id: the run stored for the measured
 * size (0 when none was stored). */
struct gl_session_env;
int ex_check(const struct gl_session_env *env, const struct exercise *e, const struct ex_check_opts *o, FILE *out,
	     long *run_id);

#endif
