/* sweep_dir.c — a sweep's directory and its tasks.  DIR holds sweep.conf (key=value lines: the sweep id,
 * the number of jobs, the gpulab binary, each Slurm submission's job id), jobs.txt (job I on line I+1:
 * the arguments of one `gpulab run`), logs/task-I.log, status/task-I (the task's exit status, written
 * when it ends) and shard-I.db (the task's own database).  Tasks never share a database, so they never
 * wait for each other's locks; `gpulab sweep collect` merges the shards. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "sweep/sweep.h"

static int self_exe(char *buf, size_t n, struct gl_err *err)
{
	ssize_t k = readlink("/proc/self/exe", buf, n - 1);
	if (k <= 0)
		return gl_errf(err, GL_EENV, "cannot find gpulab's own binary (/proc/self/exe): %s", strerror(errno));
	buf[k] = '\0';
	return GL_OK;
}

static int make_dir(const char *path, struct gl_err *err)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return gl_errf(err, GL_EENV, "cannot create %s: %s", path, strerror(errno));
	return GL_OK;
}

static int write_file(const char *path, const char *text, struct gl_err *err)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		return gl_errf(err, GL_EENV, "cannot write %s: %s", path, strerror(errno));
	return GL_OK;
}

int gl_sweep_dir_create(const char *dir, const struct gl_sweep_plan *plan, char *sweep_id,
			size_t n, struct gl_err *err)
{
	char path[PATH_MAX], exe[PATH_MAX];
	if (strpbrk(dir, "'\"\n\\$`"))
		return gl_errf(err, GL_EUSAGE, "--dir '%s': the sweep directory goes into a shell script; pick a "
			       "path without quotes, backslashes, '$', '`' or newlines", dir);
	snprintf(path, sizeof path, "%s/sweep.conf", dir);
	if (access(path, F_OK) == 0)
		return gl_errf(err, GL_EUSAGE, "%s holds a sweep already: pass another --dir, or follow it with "
			       "'gpulab sweep status %s'", dir, dir);
	int rc = self_exe(exe, sizeof exe, err);
	const char *subs[] = {"", "/logs", "/status"};
	for (int i = 0; rc == GL_OK && i < 3; i++) {
		snprintf(path, sizeof path, "%s%s", dir, subs[i]);
		rc = make_dir(path, err);
	}
	if (rc)
		return rc;
	unsigned char r[4];
	int fd = open("/dev/urandom", O_RDONLY);
	if (fd < 0 || read(fd, r, sizeof r) != (ssize_t)sizeof r)
		memset(r, 0, sizeof r);
	if (fd >= 0)
		close(fd);
	char stamp[32];
	time_t now = time(NULL);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", gmtime(&now));
	snprintf(sweep_id, n, "sweep-%s-%02x%02x%02x%02x", stamp, r[0], r[1], r[2], r[3]);
	struct gl_str jobs = {0}, conf = {0};
	for (int i = 0; i < plan->njobs; i++) {
		char line[1024];
		gl_sweep_job_line(&plan->jobs[i], line, sizeof line);
		gl_str_addf(&jobs, "%s\n", line);
	}
	gl_str_addf(&conf, "id=%s\njobs=%d\ngpulab=%s\n", sweep_id, plan->njobs, exe);
	snprintf(path, sizeof path, "%s/jobs.txt", dir);
	rc = write_file(path, jobs.buf ? jobs.buf : "", err);
	snprintf(path, sizeof path, "%s/sweep.conf", dir);
	if (rc == GL_OK)
		rc = write_file(path, conf.buf, err);
	gl_str_free(&jobs);
	gl_str_free(&conf);
	return rc;
}

/* The last value of `key` in DIR/sweep.conf ("" when absent); GL_EUSAGE when DIR holds no sweep. */
int gl_sweep_conf(const char *dir, const char *key, char *out, size_t n, struct gl_err *err)
{
	char path[PATH_MAX], line[PATH_MAX + 64];
	snprintf(path, sizeof path, "%s/sweep.conf", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return gl_errf(err, GL_EUSAGE, "%s is not a sweep directory (no sweep.conf): pass the --dir of "
			       "a 'gpulab sweep'", dir);
	size_t klen = strlen(key);
	out[0] = '\0';
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, klen) == 0 && line[klen] == '=') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, n, "%s", line + klen + 1);
		}
	fclose(f);
	return GL_OK;
}

/* Job `index` of DIR/jobs.txt split at spaces into argv[first..]; returns the count or -1. */
static int job_args(const char *dir, long index, char *line, size_t n, char **argv, int first, int max)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/jobs.txt", dir);
	FILE *f = fopen(path, "r");
	long i = 0;
	int found = 0;
	while (f && fgets(line, (int)n, f))
		if (i++ == index) {
			found = 1;
			break;
		}
	if (f)
		fclose(f);
	if (!found)
		return -1;
	line[strcspn(line, "\n")] = '\0';
	int argc = first;
	for (char *save = NULL, *tok = strtok_r(line, " ", &save); tok && argc < max; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	return argc;
}

static void write_status(const char *dir, long index, int code)
{
	char path[PATH_MAX], text[32];
	snprintf(path, sizeof path, "%s/status/task-%ld", dir, index);
	snprintf(text, sizeof text, "%d\n", code);
	struct gl_err ignored = {0};
	write_file(path, text, &ignored);
}

int gl_sweep_task(const char *dir, long index, struct gl_err *err)
{
	char exe[PATH_MAX], line[2048], db[PATH_MAX], id[128];
	char *argv[GL_SWEEP_MAX_ARGS + 4];
	int rc = gl_sweep_conf(dir, "id", id, sizeof id, err);
	if (rc == GL_OK)
		rc = self_exe(exe, sizeof exe, err);
	if (rc)
		return rc;
	int argc = job_args(dir, index, line, sizeof line, argv, 1, GL_SWEEP_MAX_ARGS + 1);
	if (argc < 0)
		return gl_errf(err, GL_EUSAGE, "%s/jobs.txt has no job %ld", dir, index);
	snprintf(db, sizeof db, "%s/shard-%ld.db", dir, index);
	argv[0] = exe;
	argv[argc++] = "--db";
	argv[argc++] = db;
	argv[argc] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		setenv("GPULAB_SWEEP_ID", id, 1);
		execv(exe, argv);
		_exit(127);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return gl_errf(err, GL_EENV, "cannot start job %ld: %s", index, strerror(errno));
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	write_status(dir, index, code);
	return code;
}

/* Start `gpulab sweep task DIR I` with its output in DIR/logs/task-I.log. */
static pid_t start_task(const char *exe, const char *dir, long index)
{
	char log[PATH_MAX], num[32];
	snprintf(log, sizeof log, "%s/logs/task-%ld.log", dir, index);
	snprintf(num, sizeof num, "%ld", index);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execl(exe, exe, "sweep", "task", dir, num, (char *)NULL);
		_exit(127);
	}
	return pid;
}

int gl_sweep_run_local(const char *dir, int jobs, bool progress, struct gl_err *err)
{
	char exe[PATH_MAX], count[32];
	int rc = gl_sweep_conf(dir, "jobs", count, sizeof count, err);
	if (rc == GL_OK)
		rc = self_exe(exe, sizeof exe, err);
	if (rc)
		return rc;
	long n = atol(count), next = 0, running = 0, done = 0;
	while (done < n) {
		while (running < jobs && next < n) {
			if (start_task(exe, dir, next) < 0)
				return gl_errf(err, GL_EENV, "cannot start a task: %s", strerror(errno));
			next++;
			running++;
		}
		int st;
		if (wait(&st) < 0)
			return gl_errf(err, GL_EENV, "waiting for the sweep's tasks: %s", strerror(errno));
		running--;
		done++;
		if (progress)
			fprintf(stderr, "\rgpulab: sweep %ld/%ld tasks done", done, n);
	}
	if (progress)
		fputc('\n', stderr);
	return GL_OK;
}
