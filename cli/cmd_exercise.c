/* cmd_exercise.c — `gpulab exercise list|start|check|hint|solution`: the learner writes the kernel, gpulab
 * checks it (lessons/exercise_check.c); the exercises are data (lessons/exercise.h), progress is stored in the
 * results database (store_exercise.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "common/json.h"
#include "common/util.h"
#include "lessons/exercise.h"
#include "run_options.h" /* gl_cli_session_env */
#include "store/store.h"

static const struct gl_cmd *self(void);

enum sub { SUB_LIST, SUB_START, SUB_CHECK, SUB_HINT, SUB_SOLUTION };

static const struct {
	const char *name;
	int min_args, max_args; /* after the subcommand */
	const char *usage;
} subs[] = {
	[SUB_LIST] = {"list", 0, 0, "exercise list"},
	[SUB_START] = {"start", 1, 1, "exercise start NAME [--dir D]"},
	[SUB_CHECK] = {"check", 1, 2, "exercise check NAME [FILE]"},
	[SUB_HINT] = {"hint", 1, 2, "exercise hint NAME [N]"},
	[SUB_SOLUTION] = {"solution", 1, 1, "exercise solution NAME [--give-up]"},
};

/* The same names, for completion and the man page (gl_cmd.subcommands). */
static const char *const sub_names[] = {"list", "start", "check", "hint", "solution", NULL};

struct ex_cmd {
	enum sub sub;
	const char *name, *extra;
	const char *dir;
	bool give_up;
	struct ex_check_opts check;
	struct exercise *all;
	int n;
	const struct exercise *e;
};

static int parse(struct gl_ctx *ctx, int argc, char **argv, struct ex_cmd *c)
{
	struct gl_args args;
	int rc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (rc)
		return rc;
	if (args.npos == 0)
		return gl_usage_error(ctx, self(), "exercise needs a command: list, start NAME, check NAME [FILE], hint "
						   "NAME [N] or solution NAME");
	const char *names[GL_ARRAY_LEN(subs)];
	int found = -1;
	for (size_t i = 0; i < GL_ARRAY_LEN(subs); i++) {
		names[i] = subs[i].name;
		if (strcmp(subs[i].name, args.pos[0]) == 0)
			found = (int)i;
	}
	if (found < 0) {
		const char *near = gl_suggest(args.pos[0], names, GL_ARRAY_LEN(names));
		return near ? gl_usage_error(ctx, self(), "unknown exercise command '%s' (did you mean '%s'?)", args.pos[0],
					     near)
			    : gl_usage_error(ctx, self(), "unknown exercise command '%s'", args.pos[0]);
	}
	c->sub = (enum sub)found;
	int nargs = args.npos - 1;
	if (nargs < subs[found].min_args)
		return gl_usage_error(ctx, self(), "usage: gpulab %s ('gpulab exercise list' names the exercises)",
				      subs[found].usage);
	if (nargs > subs[found].max_args)
		return gl_usage_error(ctx, self(), "unexpected argument '%s'; usage: gpulab %s",
				      args.pos[1 + subs[found].max_args], subs[found].usage);
	c->name = nargs ? args.pos[1] : NULL;
	c->extra = nargs > 1 ? args.pos[2] : NULL;
	c->dir = gl_args_get(&args, "dir");
	c->give_up = gl_args_has(&args, "give-up");
	c->check.max_instructions = (uint64_t)gl_args_long(&args, "max-instructions", 0);
	c->check.threads = (int)gl_args_long(&args, "threads", 0);
	if (c->dir && c->sub != SUB_START)
		return gl_usage_error(ctx, self(), "--dir goes with 'exercise start'");
	if (c->give_up && c->sub != SUB_SOLUTION)
		return gl_usage_error(ctx, self(), "--give-up goes with 'exercise solution'");
	if (ctx->format == GL_FMT_CSV || (ctx->format == GL_FMT_JSON && c->sub != SUB_LIST))
		return gl_usage_error(ctx, self(), "only 'exercise list' has --json; exercise prints text");
	return GL_OK;
}

/* Progress of one exercise; none when the database does not exist yet (nothing is created to read). */
static int progress(struct gl_ctx *ctx, const char *name, struct gl_exercise_progress *p)
{
	char path[4096];
	memset(p, 0, sizeof *p);
	int rc = gl_store_path(ctx->db_path, path, sizeof path, &ctx->err);
	if (rc || access(path, F_OK) != 0)
		return rc;
	struct gl_store *s = NULL;
	if ((rc = gl_store_open(path, 1, &s, &ctx->err)) == GL_OK)
		rc = gl_store_exercise_progress(s, name, p, &ctx->err);
	gl_store_close(s);
	return rc;
}

static int record(struct gl_ctx *ctx, const char *name, enum gl_exercise_event ev, long run_id)
{
	struct gl_store *s = NULL;
	int rc = gl_store_open(ctx->db_path, 0, &s, &ctx->err);
	if (rc == GL_OK)
		rc = gl_store_exercise_record(s, name, ev, run_id, &ctx->err);
	gl_store_close(s);
	return rc;
}

static int do_list(struct gl_ctx *ctx, struct ex_cmd *c)
{
	struct gl_json j;
	bool json = ctx->format == GL_FMT_JSON;
	if (json) {
		gl_json_init(&j, stdout);
		gl_json_begin_array(&j, NULL);
	} else {
		printf("%-24s %-8s %-6s %s\n", "EXERCISE", "STATUS", "GOALS", "TITLE");
	}
	for (int i = 0; i < c->n; i++) {
		const struct exercise *e = &c->all[i];
		struct gl_exercise_progress p;
		int rc = progress(ctx, e->name, &p);
		if (rc)
			return rc;
		const char *status = p.passed ? "passed" : p.status[0] ? p.status : "-";
		if (!json) {
			printf("%-24s %-8s %-6d %s\n", e->name, status, e->ngoals, e->title);
			continue;
		}
		gl_json_begin_object(&j, NULL);
		gl_json_string(&j, "name", e->name);
		gl_json_string(&j, "title", e->title);
		gl_json_string(&j, "kernel", e->kernel);
		char sig[512];
		exercise_signature(e, sig, sizeof sig);
		gl_json_string(&j, "signature", sig);
		gl_json_string(&j, "reference", e->reference);
		gl_json_int(&j, "sizes", e->nsizes);
		gl_json_begin_array(&j, "goals");
		for (int g = 0; g < e->ngoals; g++)
			gl_json_string(&j, NULL, e->goals[g].check.text);
		gl_json_end_array(&j);
		gl_json_int(&j, "hints", e->nhints);
		gl_json_string(&j, "status", p.status[0] ? p.status : NULL);
		gl_json_bool(&j, "passed", p.passed);
		gl_json_int(&j, "checks", p.checks);
		gl_json_end_object(&j);
	}
	if (json) {
		gl_json_end_array(&j);
		printf("\n");
	} else {
		printf("\nstart one: gpulab exercise start NAME   (NAME may be its number)\n");
	}
	return GL_OK;
}

static int do_start(struct gl_ctx *ctx, struct ex_cmd *c)
{
	const char *dir = c->dir ? c->dir : ".";
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return gl_errf(&ctx->err, GL_EUSAGE, "--dir '%s' is not a directory", dir);
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.cu", dir, c->e->name);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644); /* never overwrites the learner's work */
	if (fd < 0 && errno == EEXIST)
		return gl_errf(&ctx->err, GL_EUSAGE, "'%s' exists and is never overwritten: check it with 'gpulab "
			       "exercise check %s %s', or move it away to start over", path, c->e->name, path);
	if (fd < 0)
		return gl_errf(&ctx->err, GL_EUSAGE, "cannot create '%s': %s", path, strerror(errno));
	char *text = exercise_starter(c->e);
	size_t len = strlen(text);
	bool wrote = write(fd, text, len) == (ssize_t)len;
	free(text);
	if (close(fd) != 0 || !wrote) {
		unlink(path);
		return gl_errf(&ctx->err, GL_EENV, "cannot write '%s': %s", path, strerror(errno));
	}
	int rc = record(ctx, c->e->name, GL_EXERCISE_STARTED, 0);
	if (rc)
		return rc;
	printf("%s\n\nwrote %s: the task, the limits and the kernel's signature; fill in the body, then\n"
	       "  gpulab exercise check %s %s\n", c->e->title, path, c->e->name, path);
	return GL_OK;
}

/* ex_check's hint: the CLI's, with the binary and the database this command runs with. */
static void hint(void *user, const char *args, char *buf, size_t n)
{
	gl_cli_hint(user, args, buf, n);
}

static int do_check(struct gl_ctx *ctx, struct ex_cmd *c)
{
	char path[4096];
	snprintf(path, sizeof path, "%s.cu", c->e->name);
	c->check.file = c->extra ? c->extra : path;
	c->check.hint = hint;
	c->check.hint_user = ctx;
	long run_id = 0;
	struct gl_session_env env = gl_cli_session_env(ctx);
	int rc = ex_check(&env, c->e, &c->check, stdout, &run_id);
	fflush(stdout);
	if (rc == GL_OK || rc == GL_EVERIFY) {
		int r = record(ctx, c->e->name, rc == GL_OK ? GL_EXERCISE_PASSED : GL_EXERCISE_FAILED, run_id);
		rc = r ? r : rc;
	}
	return rc;
}

static int do_hint(struct gl_ctx *ctx, struct ex_cmd *c)
{
	const struct exercise *e = c->e;
	long n = 1;
	if (c->extra && gl_parse_long(c->extra, 1, 1000, "hint number", &n, &ctx->err))
		return ctx->err.status;
	if (!e->nhints)
		return gl_errf(&ctx->err, GL_EUSAGE, "%s has no hints", e->name);
	if (n > e->nhints)
		return gl_errf(&ctx->err, GL_EUSAGE, "%s has %d hint%s; ask for 1 to %d", e->name, e->nhints,
			       e->nhints == 1 ? "" : "s", e->nhints);
	printf("hint %ld of %d for %s:\n  %s\n", n, e->nhints, e->name, e->hints[n - 1]);
	if (n < e->nhints)
		printf("(next: gpulab exercise hint %s %ld)\n", e->name, n + 1);
	return GL_OK;
}

static int do_solution(struct gl_ctx *ctx, struct ex_cmd *c)
{
	struct gl_exercise_progress p;
	int rc = progress(ctx, c->e->name, &p);
	if (rc)
		return rc;
	if (!p.passed && !c->give_up)
		return gl_errf(&ctx->err, GL_EUSAGE, "the solution of %s opens after a passing 'gpulab exercise check %s' "
			       "(or with --give-up)", c->e->name, c->e->name);
	if (!c->e->solution)
		return gl_errf(&ctx->err, GL_EUSAGE, "%s has no solution file (%s beside it)", c->e->name, "NN-name.cu");
	fputs(c->e->solution, stdout);
	return GL_OK;
}

static int exec_exercise(struct gl_ctx *ctx, int argc, char **argv)
{
	struct ex_cmd c = {0};
	int rc = parse(ctx, argc, argv, &c);
	if (rc == GL_OK)
		rc = exercise_list(&c.all, &c.n, &ctx->err);
	int index = 0;
	if (rc == GL_OK && c.name && (rc = exercise_find(c.all, c.n, c.name, &index, &ctx->err)) == GL_OK)
		c.e = &c.all[index];
	if (rc == GL_OK) {
		switch (c.sub) {
		case SUB_LIST: rc = do_list(ctx, &c); break;
		case SUB_START: rc = do_start(ctx, &c); break;
		case SUB_CHECK: rc = do_check(ctx, &c); break;
		case SUB_HINT: rc = do_hint(ctx, &c); break;
		case SUB_SOLUTION: rc = do_solution(ctx, &c); break;
		}
	}
	exercise_list_free(c.all, c.n);
	return rc;
}

static const struct gl_opt exercise_opts[] = {
	GL_STR("dir", "D", 0, "start: write the starter file into D (default: the current directory)"),
	GL_FLAG("give-up", 0, "solution: show it without a passing check"),
	GL_NUM("max-instructions", "N", 1, 1L << 62, 0,
	       "check: warp instructions per CTA before the kernel is stopped (default 2000000)"),
	GL_NUM("threads", "N", 1, 256, 0, "check: CPU threads for the simulator (default: all cores)"),
	{0},
};

const struct gl_cmd gl_cmd_exercise_entry = {
	.name = "exercise",
	.usage = "list | start NAME [--dir D] | check NAME [FILE] | hint NAME [N] | solution NAME [--give-up]",
	.summary = "exercises: write the kernel yourself; gpulab checks it is right and efficient",
	.help = "commands:\n"
		"  list               the exercises with your progress (--json too)\n"
		"  start NAME         write NAME.cu (never over an existing file): the task, its limits, the signature\n"
		"  check NAME [FILE]  compile FILE (default NAME.cu), run it in the simulator at every size (awkward\n"
		"                     ones too) under the sanitizer, compare with the CPU reference, then measure the\n"
		"                     goals\n"
		"  hint NAME [N]      hint N (default 1)\n"
		"  solution NAME      the reference solution, after a passing check (or --give-up)\n"
		"NAME may be the number ('4') or the name without it ('transpose-tiled').  The measured launch is\n"
		"stored as a run, so 'gpulab view coalesce --run N' shows why a goal was missed.  See docs/exercises.md.\n"
		"exit status: 0 passed, 1 wrong result, sanitizer errors, a stopped kernel or a missed goal, 2 usage, a\n"
		"file that does not compile or a wrong signature, 3 environment (no nvcc, database)\n",
	.opts = exercise_opts,
	.complete = "exercise",
	.subcommands = sub_names,
	.max_args = -1, /* the exercise command counts its own arguments */
	.exec = exec_exercise,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_exercise_entry;
}
