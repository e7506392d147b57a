/* lesson.h — the lesson engine: lessons are Markdown files (lessons/NN-name.md, embedded into the binary;
 * $GPULAB_LESSONS overrides) with `## Step N: title` steps, fenced ```gpulab commands, `check:` lines
 * evaluated against the results database, and a question with its answer.  docs/lessons.md is the spec. */
#ifndef GL_LESSON_H
#define GL_LESSON_H

#include <stdbool.h>
#include <stdio.h>

#include "common/err.h"
#include "kernels/registry.h"
#include "session/session.h"

struct gl_store;

/* ---- the files (lesson_source.c) */

/* One lesson file compiled into the binary (gen/lessons_index.c); the table ends with a NULL name. */
struct lesson_embedded {
	const char *name; /* "01-coalescing" */
	const char *path; /* "lessons/01-coalescing.md", for messages */
	const char *text;
};
extern const struct lesson_embedded lesson_embedded[];

struct lesson_file {
	char name[64];
	char path[512];
	char *text; /* owned */
};

/* Every lesson, sorted by name: from the directory $GPULAB_LESSONS when it is set, else the embedded
 * copies.  Where they come from, in words, goes to `origin` ("built in" or the directory). */
int lesson_files_list(struct lesson_file **out, int *n, char *origin, size_t origin_n, struct gl_err *err);
void lesson_files_free(struct lesson_file *files, int n);
/* Find a lesson by its name, its number ("1", "01") or its name without the number ("coalescing");
 * unknown names are refused with the nearest one suggested. */
int lesson_file_find(const struct lesson_file *files, int n, const char *name, int *index, struct gl_err *err);
/* The same rules over any list of NN-name names; `kind` ("lesson", "exercise") words the message. */
int lesson_name_find(const char *const *list, int n, const char *name, const char *kind, int *index,
		     struct gl_err *err);

/* ---- check expressions (lesson_expr.c, lesson_eval.c) */

enum lesson_node_kind { LESSON_NUM, LESSON_REF, LESSON_BIN, LESSON_NEG };

/* A value: a number, a metric of the latest launch of topic.variant, or arithmetic on two values. */
struct lesson_node {
	enum lesson_node_kind kind;
	double num;
	char topic[32], variant[32], metric[96];
	char op; /* + - * / for LESSON_BIN */
	struct lesson_node *a, *b;
};

enum lesson_cmp { LESSON_EQ, LESSON_NE, LESSON_LT, LESSON_LE, LESSON_GT, LESSON_GE };

struct lesson_check {
	int line;
	char *text; /* the expression as written */
	struct lesson_node *lhs, *rhs;
	enum lesson_cmp cmp;
};

/* Parse `text` (what follows "check:") into `out`; topics, variants and metric names are checked against
 * the registry and the schema.  Errors name `path:line`. */
int lesson_check_parse(const char *text, const char *path, int line, struct lesson_check *out, struct gl_err *err);
/* The same, also accepting `self` ("exercise.map": TOPIC.VARIANT of a launch that no registry topic
 * names, an exercise's) as a reference. */
int lesson_check_parse_self(const char *text, const char *path, int line, const char *self,
			    struct lesson_check *out, struct gl_err *err);
void lesson_check_free(struct lesson_check *c);
/* Is `name` a value a check may read: a launch_summary column, a launches column or a metric name? */
bool lesson_metric_known(const char *name, const char **suggestion);
const char *lesson_cmp_str(enum lesson_cmp cmp);

struct lesson_check_result {
	bool passed;
	double lhs, rhs;
	char why[512]; /* why it could not be evaluated ("no launch of transpose.naive recorded yet"), or "" */
	char note[512]; /* the latest launch of a variant used other parameters than the step's, or "" */
};
struct lesson;
/* Evaluate a check of step `step` of lesson l: each TOPIC.VARIANT reads the latest launch made with the
 * parameters the step's commands (else an earlier step's) ran it with (lesson_bound_params); with no
 * such command, or l NULL, the latest launch of the variant. */
int lesson_check_eval(struct gl_store *store, const struct lesson *l, int step, const struct lesson_check *c,
		      struct lesson_check_result *r, struct gl_err *err);
/* The parameters (gl_problem_json) with which step `step`'s last command running topic.variant ran it,
 * else an earlier step's; NULL when no step runs it.  Caller frees. */
char *lesson_bound_params(const struct lesson *l, int step, const char *topic, const char *variant);
/* The program a check of topic "program" reads: the real path of the program the step's last `gpulab
 * profile` command runs, else an earlier step's (relative to the current directory, where the commands
 * run); NULL when no step profiles one.  Caller frees. */
char *lesson_bound_program(const struct lesson *l, int step);

/* The topic `gpulab profile` stores a program's launches under; a check's program.KERNEL names the kernel's
 * function and reads its latest launch profiled from the program the step profiles (lesson_bound_program). */
#define LESSON_PROGRAM_TOPIC "program"

/* ---- the Markdown (lesson_parse.c) */

struct lesson_cmd {
	int line;
	char *text;  /* "gpulab run transpose --variant naive" */
	char **argv; /* the words after "gpulab", NULL-terminated */
	int argc;
	int expect_status; /* the exit status the step expects: a trailing "# exits N", else 0 */
};

struct lesson_step {
	int number, line;  /* `## Step N: title` and its line */
	char *title;
	int first, last;   /* its body: lines [first, last) of the lesson */
	struct lesson_cmd *cmds;
	int ncmds;
	struct lesson_check *checks;
	int nchecks;
	bool has_question, has_answer;
};

struct lesson {
	char name[64];
	char path[512];
	char *title;         /* the `# ` heading */
	char **lines;        /* the file split into lines (owned) */
	int nlines;
	int intro_first, intro_last;
	struct lesson_step *steps;
	int nsteps;
};

/* The gpulab commands a ```gpulab block may name (NULL-terminated; the array must outlive the parses),
 * handed in by the command layer before lessons are parsed.  Until then every command is refused. */
void lesson_set_commands(const char *const *names);

/* What a `run` or `compare` line of a lesson runs, as the command line's own parser reads it (a topic run
 * as session.h describes one): the topic (NULL for a line that runs none, `compare --runs A,B`), every
 * variant it runs (those the problem lets run when it names none or 'all', compare's --baseline too) and
 * the problem, when the topic and its variants take it (problem_ok; else the command refuses the sizes
 * when it runs, and says so then). */
struct lesson_run_line {
	struct gl_topic_run run; /* topic, variants, problem (session.h) */
	bool problem_ok;
};
/* argv[0] is "run" or "compare"; GL_EUSAGE with the command's own message for a line whose options, topic
 * or variant names it would refuse. */
typedef int (*lesson_run_parser)(int argc, char **argv, struct lesson_run_line *out, struct gl_err *err);
/* The command layer hands its parser in, as it hands the command names: lessons sit below it.  Until then
 * `run` and `compare` lines are not checked when a lesson is read, and checks bind to no launch. */
void lesson_set_run_parser(lesson_run_parser parse);

/* Where the program's name is in a `profile` line (argv[0] "profile"); argc when there is none.  Handed
 * in by the command layer like the run parser; until then program checks read the latest launch. */
typedef int (*lesson_profile_parser)(int argc, char **argv);
void lesson_set_profile_parser(lesson_profile_parser parse);

/* Parse a lesson file.  A malformed file (no title, a step without a title or out of order, an
 * unterminated fence or <details>, a command that is not gpulab's, a check that does not parse or names
 * an unknown topic, variant or metric) is refused with GL_EUSAGE and "path:line: what". */
int lesson_parse(const char *name, const char *path, const char *text, struct lesson *out, struct gl_err *err);
void lesson_free(struct lesson *l);
/* Find and parse a lesson by name (lesson_file_find's rules). */
int lesson_load(const char *name, struct lesson *out, struct gl_err *err);

/* Split a command line into words: spaces separate, '...' and "..." quote, \ escapes.  Returns false
 * (with the reason in `why`) on an unterminated quote. */
bool lesson_split_words(const char *line, char ***argv, int *argc, char *why, size_t why_n);
void lesson_words_free(char **argv);

/* ---- showing a step (lesson_render.c, lesson_pager.c) */

struct lesson_render_opts {
	bool answer;   /* reveal the answer */
	bool color;    /* bold headings */
	int width;     /* prose is reflowed to this many columns (0: 80) */
};
/* The terminal's width: $COLUMNS when set, else the terminal's, else 80. */
int lesson_term_width(void);
/* `text`'s words in lines of at most `width` columns, each after `indent`; never breaks a word. */
void lesson_wrap(FILE *out, const char *indent, const char *text, int width);
/* The same with the first line after `first` and the others after `rest` (a list item's marker, then
 * its hanging indent). */
void lesson_wrap_hanging(FILE *out, const char *first, const char *rest, const char *text, int width);
void lesson_render_intro(FILE *out, const struct lesson *l, const struct lesson_render_opts *o);
void lesson_render_step(FILE *out, const struct lesson *l, int step, const struct lesson_render_opts *o);

/* On a terminal, a pager: $PAGER when set and not empty, else `less -R` (with LESS=FRX when LESS is unset,
 * as git does, so a page that fits the screen is just printed); else, or without less, stdout. */
FILE *lesson_pager_open(bool *paged);
void lesson_pager_close(FILE *out, bool paged);

/* Progress lives in the results store: gl_store_lesson_* (store/store.h). */

/* ---- running a step (lesson_exec.c, lesson_step.c) */

struct lesson_env {
	const char *exe;       /* this binary: /proc/self/exe */
	const char *db_path;   /* the lesson's database, passed to every command as --db */
	const char *backend;   /* --backend for `run` commands that name none, or NULL */
	bool interactive;      /* commands may use the terminal (views open); else views get --frames 3 */
	bool quiet;            /* capture each command's output, show it only when the command fails */
	bool color;            /* PASS green, FAIL red */
};

/* Run one step's command: the same binary with the lesson's --db.  *exit_status is its exit status
 * (128 + signal when killed). */
int lesson_cmd_run(const struct lesson_env *env, const struct lesson_cmd *c, FILE *out, int *exit_status,
		   struct gl_err *err);

/* Run a step's commands (when run_cmds), then its checks; print what happened to `out` and record the
 * step passed or failed.  Returns GL_OK when every command and check passed, GL_EVERIFY when one failed,
 * GL_EUSAGE when a command of the lesson was refused as a usage error (the lesson is malformed). */
int lesson_step_check(const struct lesson_env *env, struct gl_store *store, const struct lesson *l, int step,
		      bool run_cmds, FILE *out, int *passed, int *failed, struct gl_err *err);

#endif
