/* lesson_exec.c — running a step's command: this same binary (/proc/self/exe) with the lesson's --db
 * (before the program's name for `profile`),
 * views with --frames 3 when there is no terminal to draw on, and `run` with the caller's --backend when
 * the command names none.  Quiet mode captures the output and shows it only when the command fails. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"
#include "lessons/lesson.h"

static bool has_opt(const struct lesson_cmd *c, const char *opt)
{
	size_t n = strlen(opt);
	for (int i = 0; i < c->argc; i++)
		if (strncmp(c->argv[i], opt, n) == 0 && (c->argv[i][n] == '\0' || c->argv[i][n] == '='))
			return true;
	return false;
}

/* The child's argv: "gpulab", the command's words, then the options the lesson adds. */
static char **child_argv(const struct lesson_env *env, const struct lesson_cmd *c)
{
	char **argv = gl_xcalloc((size_t)c->argc + 8, sizeof *argv);
	int n = 0;
	argv[n++] = "gpulab";
	/* profile's own options end at the program's name: --db goes right after the command word */
	bool before = strcmp(c->argv[0], "profile") == 0;
	int i = 0;
	if (before)
		argv[n++] = c->argv[i++];
	if (before && env->db_path && !has_opt(c, "--db")) {
		argv[n++] = "--db";
		argv[n++] = (char *)env->db_path;
	}
	for (; i < c->argc; i++)
		argv[n++] = c->argv[i];
	if (!before && env->db_path && !has_opt(c, "--db")) {
		argv[n++] = "--db";
		argv[n++] = (char *)env->db_path;
	}
	if (strcmp(c->argv[0], "view") == 0 && !env->interactive && !has_opt(c, "--frames")) {
		argv[n++] = "--frames";
		argv[n++] = "3";
	}
	if ((strcmp(c->argv[0], "run") == 0 || strcmp(c->argv[0], "compare") == 0) && env->backend &&
	    !has_opt(c, "--backend")) {
		argv[n++] = "--backend";
		argv[n++] = (char *)env->backend;
	}
	argv[n] = NULL;
	return argv;
}

/* One word as a shell would need it quoted, so the line can be copied and pasted. */
static void print_word(FILE *out, const char *w)
{
	if (*w && !strpbrk(w, " \t'\"\\$`*?;&|<>()[]{}#~!"))
		fprintf(out, " %s", w);
	else if (!strpbrk(w, "\"\\$`!"))
		fprintf(out, " \"%s\"", w);
	else {
		fprintf(out, " '");
		for (; *w; w++)
			if (*w == '\'')
				fputs("'\\''", out);
			else
				fputc(*w, out);
		fprintf(out, "'");
	}
}

static void print_argv(FILE *out, char **argv)
{
	fprintf(out, "$");
	for (char **a = argv; *a; a++)
		print_word(out, *a);
	fprintf(out, "\n");
}

/* Everything the child writes, until it closes the pipe. */
static void drain(int fd, struct gl_str *s)
{
	char buf[4096];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		gl_str_addf(s, "%.*s", (int)n, buf);
	}
}

static int wait_child(pid_t pid, int *exit_status, struct gl_err *err)
{
	int ws;
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return gl_errf(err, GL_EINTERNAL, "waiting for a lesson command: %s", strerror(errno));
	*exit_status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return GL_OK;
}

static void show_captured(FILE *out, const struct gl_str *s)
{
	const char *p = s->buf ? s->buf : "";
	while (*p) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);
		fprintf(out, "    | %.*s\n", n, p);
		p += n + (nl != NULL);
	}
}

int lesson_cmd_run(const struct lesson_env *env, const struct lesson_cmd *c, FILE *out, int *exit_status,
		   struct gl_err *err)
{
	char **argv = child_argv(env, c);
	int pipefd[2] = {-1, -1};
	fprintf(out, "  ");
	print_argv(out, argv);
	fflush(out);
	fflush(stdout);
	fflush(stderr);
	if (env->quiet && pipe(pipefd) != 0) {
		free(argv);
		return gl_errf(err, GL_EENV, "cannot make a pipe for a lesson command: %s", strerror(errno));
	}
	/* like system(): Ctrl-C stops the command, not the lesson */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid_t pid = fork();
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		if (env->quiet) {
			dup2(pipefd[1], STDOUT_FILENO);
			dup2(pipefd[1], STDERR_FILENO);
			close(pipefd[0]);
			close(pipefd[1]);
		}
		execv(env->exe, argv);
		fprintf(stderr, "gpulab: cannot run %s: %s\n", env->exe, strerror(errno));
		_exit(127);
	}
	int rc = GL_OK;
	struct gl_str captured = {0};
	if (pid < 0) {
		rc = gl_errf(err, GL_EENV, "cannot start a lesson command: %s", strerror(errno));
	} else {
		if (env->quiet) {
			close(pipefd[1]);
			pipefd[1] = -1;
			drain(pipefd[0], &captured);
		}
		rc = wait_child(pid, exit_status, err);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	for (int i = 0; i < 2; i++)
		if (pipefd[i] >= 0)
			close(pipefd[i]);
	if (rc == GL_OK && *exit_status != 0 && env->quiet)
		show_captured(out, &captured);
	gl_str_free(&captured);
	free(argv);
	return rc;
}
