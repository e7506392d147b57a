/* cmd_lesson.c — `gpulab lesson list|start|next|prev|show|check|reset|status`: options, the database,
 * then the lesson engine (lessons/) does the work. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/util.h"
#include "lessons/lesson_ui.h"
#include "cmd_profile.h" /* gl_cli_profile_app */
#include "run_options.h" /* gl_cli_run_line */
#include "store/store.h"

static const struct gl_cmd *self(void);


static const struct {
	const char *name;
	int min_args, max_args;
	bool writes; /* opens the database read-write (creating it) */
} subs[] = {
	{"list", 0, 0, false}, {"start", 1, 1, true},  {"next", 0, 0, true},  {"prev", 0, 0, true},
	{"show", 0, 1, false}, {"check", 0, 1, true},  {"reset", 0, 1, true}, {"status", 0, 0, false},
};

/* The same names, for completion and the man page (gl_cmd.subcommands). */
static const char *const sub_names[] = {"list", "start", "next", "prev", "show", "check", "reset", "status", NULL};

static int find_sub(struct gl_ctx *ctx, const char *name, int *index)
{
	const char *names[GL_ARRAY_LEN(subs)];
	for (size_t i = 0; i < GL_ARRAY_LEN(subs); i++) {
		names[i] = subs[i].name;
		if (strcmp(subs[i].name, name) == 0) {
			*index = (int)i;
			return GL_OK;
		}
	}
	const char *near = gl_suggest(name, names, GL_ARRAY_LEN(names));
	if (near)
		return gl_usage_error(ctx, self(), "unknown lesson command '%s' (did you mean '%s'?)", name, near);
	return gl_usage_error(ctx, self(), "unknown lesson command '%s'", name);
}

static int parse(struct gl_ctx *ctx, int argc, char **argv, struct lesson_ui *ui, int *sub, char **arg)
{
	struct gl_args args;
	int rc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (rc)
		return rc;
	ui->run = gl_args_has(&args, "run");
	ui->no_run = gl_args_has(&args, "no-run");
	ui->answer = gl_args_has(&args, "answer");
	if (gl_args_has(&args, "backend"))
		ui->env.backend = gl_args_get(&args, "backend");
	if (ui->run && ui->no_run)
		return gl_usage_error(ctx, self(), "--run and --no-run contradict each other");
	if (args.npos == 0)
		return gl_usage_error(ctx, self(), "lesson needs a command: list, start NAME, next, prev, show, check, "
						   "reset or status");
	if ((rc = find_sub(ctx, args.pos[0], sub)))
		return rc;
	int nargs = args.npos - 1;
	if (nargs < subs[*sub].min_args)
		return gl_usage_error(ctx, self(), "lesson %s needs a lesson NAME ('gpulab lesson list' shows them)",
				      subs[*sub].name);
	if (nargs > subs[*sub].max_args)
		return gl_usage_error(ctx, self(), "unexpected argument '%s' after 'lesson %s'",
				      args.pos[1 + subs[*sub].max_args], subs[*sub].name);
	*arg = nargs ? args.pos[1] : NULL;
	return GL_OK;
}

/* Read-write for commands that save progress; read-only (or none at all, before the first run) else. */
static int open_store(struct gl_ctx *ctx, bool writes, struct gl_store **store, char *path, size_t n)
{
	int rc = gl_store_path(ctx->db_path, path, n, &ctx->err);
	if (rc)
		return rc;
	if (!writes && access(path, F_OK) != 0)
		return GL_OK;
	return gl_store_open(path, writes ? 0 : 1, store, &ctx->err);
}

static int dispatch(struct lesson_ui *ui, int sub, const char *arg, struct gl_err *err)
{
	switch (sub) {
	case 0: return lesson_do_list(ui, err);
	case 1: return lesson_do_start(ui, arg, err);
	case 2: return lesson_do_move(ui, +1, err);
	case 3: return lesson_do_move(ui, -1, err);
	case 4: return lesson_do_show(ui, arg, err);
	case 5: return lesson_do_check(ui, arg, err);
	case 6: return lesson_do_reset(ui, arg, err);
	default: return lesson_do_status(ui, err);
	}
}

/* The command names a lesson's ```gpulab blocks may use: the command table's. */
static void hand_commands_to_lessons(void)
{
	static const char *names[32];
	size_t n = 0;
	for (const struct gl_cmd *const *c = gl_cmd_table; *c && n + 1 < sizeof names / sizeof *names; c++)
		names[n++] = (*c)->name;
	names[n] = NULL;
	lesson_set_commands(names);
	lesson_set_run_parser(gl_cli_run_line);
	lesson_set_profile_parser(gl_cli_profile_app);
}

static int exec_lesson(struct gl_ctx *ctx, int argc, char **argv)
{
	struct lesson_ui ui = {.tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)};
	int sub = 0;
	char *arg = NULL;
	int rc = parse(ctx, argc, argv, &ui, &sub, &arg);
	if (rc)
		return rc;
	ui.color = ui.env.color = ctx->color; /* after parsing: --color is known */
	hand_commands_to_lessons();
	struct gl_store *store = NULL;
	char path[1024];
	if ((rc = open_store(ctx, subs[sub].writes, &store, path, sizeof path)))
		return rc;
	ui.store = store;
	ui.env.exe = access("/proc/self/exe", X_OK) == 0 ? "/proc/self/exe" : ctx->argv0;
	ui.env.db_path = path;
	rc = dispatch(&ui, sub, arg, &ctx->err);
	fflush(stdout);
	gl_store_close(store);
	return rc;
}

static const struct gl_opt lesson_opts[] = {
	GL_FLAG("run", 0, "run the step's gpulab commands (and then its checks) without asking"),
	GL_FLAG("no-run", 0, "never ask to run the commands"),
	GL_FLAG("answer", 0, "show the step's answer to its question"),
	GL_STR("backend", "NAME", 0, "--backend for the lesson's 'gpulab run' commands that name none"),
	{0},
};

const struct gl_cmd gl_cmd_lesson_entry = {
	.no_formats = GL_TEXT_ONLY,
	.complete = "lesson",
	.subcommands = sub_names,
	.name = "lesson",
	.usage = "list | start NAME | next | prev | show [STEP] | check [NAME] | reset [NAME] | status  [options]",
	.summary = "guided lessons: read a step, run its commands, check what your run recorded",
	.help = "commands:\n"
		"  list            the lessons, with your progress\n"
		"  start NAME      start (or resume) a lesson; NAME may be its number ('1') or '01-coalescing'\n"
		"  next, prev      move to the next or previous step of the current lesson and show it\n"
		"  show [STEP]     show the current step again (or STEP of the current lesson)\n"
		"  check [NAME]    evaluate the checks of the current step, or of every step of lesson NAME\n"
		"  reset [NAME]    forget the progress in NAME (default: the current lesson)\n"
		"  status          where you are: the current lesson and step, steps seen and passed\n"
		"--run with check runs every step's commands first (what CI does).\n"
		"lessons are built in; GPULAB_LESSONS=DIR reads DIR/*.md instead (for authors).  A step's\n"
		"commands run with this --db.  Without a terminal, views print 3 frames.  See docs/lessons.md.\n"
		"exit status: 0 ok, 1 a check or a command failed, 2 usage or a malformed lesson (file:line)\n",
	.opts = lesson_opts,
	.max_args = -1, /* the lesson command counts its own arguments */
	.exec = exec_lesson,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_lesson_entry;
}
