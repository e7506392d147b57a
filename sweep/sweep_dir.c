/* sweep_dir.c — a sweep's directory and its tasks.  DIR holds sweep.conf (key=value lines: the sweep id,
 * the number of jobs, the SHA-256 of jobs.txt, each Slurm submission's job id), jobs.txt (job I on line
 * I+1: the arguments of one `gpulab run`), logs/task-I.log, status/task-I (the task's exit status,
 * written when it ends) and shard-I.db (the task's own database).  Tasks never share a database, so they
 * never wait for each other's locks; `gpulab sweep collect` merges the shards.
 *
 * A sweep directory is where tasks find the commands they run, so it is treated as input
 * (docs/sweeps.md, "Trust"): DIR, logs/ and status/ are created 0700 and must stay this user's and not
 * writable by others (common/safe_dir.h); every file is written under a temporary name and renamed in,
 * and read only when it is a regular file of this user's (a FIFO never blocks a reader); a task runs a job
 * line only when jobs.txt still has the digest recorded when the sweep was made and the line is one the
 * sweep's plan produces (gl_sweep_job_check). */
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

#include "common/safe_dir.h"
#include "common/sha256.h"
#include "common/util.h"
#include "sweep/sweep.h"

#define MAX_CONF (1 << 20)  /* bytes of sweep.conf */
#define MAX_JOBS_FILE (64 << 20)

int gl_sweep_self_exe(char *buf, size_t n, struct gl_err *err)
{
	ssize_t k = readlink("/proc/self/exe", buf, n - 1);
	if (k <= 0)
		return gl_errf(err, GL_EENV, "cannot find gpulab's own binary (/proc/self/exe): %s", strerror(errno));
	buf[k] = '\0';
	return GL_OK;
}

int gl_sweep_dir_open(const char *dir, const char *sub, bool create, struct gl_safe_dir *d, struct gl_err *err)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s%s%s", dir, sub ? "/" : "", sub ? sub : "");
	return gl_safe_dir_open(d, path, create ? GL_SAFE_DIR_CREATE : 0, "the sweep directory", err);
}

int gl_sweep_dir_write(const char *dir, const char *sub, const char *name, const char *text, struct gl_err *err)
{
	struct gl_safe_dir d;
	int rc = gl_sweep_dir_open(dir, sub, false, &d, err);
	if (rc == GL_OK)
		rc = gl_safe_dir_write(&d, name, text, strlen(text), err);
	gl_safe_dir_close(&d);
	return rc;
}

int gl_sweep_dir_read(const char *dir, const char *sub, const char *name, size_t max, char **text,
		      struct gl_err *err)
{
	struct gl_safe_dir d;
	*text = NULL;
	int rc = gl_sweep_dir_open(dir, sub, false, &d, err);
	if (rc == GL_OK)
		rc = gl_safe_dir_read(&d, name, max, text, NULL, err);
	gl_safe_dir_close(&d);
	return rc;
}

static void digest(const char *text, char hex[65])
{
	struct gl_sha256 s;
	gl_sha256_init(&s);
	gl_sha256_add(&s, text, strlen(text));
	gl_sha256_hex(&s, hex);
}

int gl_sweep_dir_create(const char *dir, const struct gl_sweep_plan *plan, char *sweep_id, size_t n,
			struct gl_err *err)
{
	char path[PATH_MAX], hex[65];
	if (strpbrk(dir, "'\"\n\\$`"))
		return gl_errf(err, GL_EUSAGE, "--dir '%s': the sweep directory goes into a shell script; pick a "
			       "path without quotes, backslashes, '$', '`' or newlines", dir);
	snprintf(path, sizeof path, "%s/sweep.conf", dir);
	if (access(path, F_OK) == 0)
		return gl_errf(err, GL_EUSAGE, "%s holds a sweep already: pass another --dir, or follow it with "
			       "'gpulab sweep status %s'", dir, dir);
	const char *subs[] = {NULL, "logs", "status"};
	int rc = GL_OK;
	for (int i = 0; rc == GL_OK && i < 3; i++) {
		struct gl_safe_dir d;
		rc = gl_sweep_dir_open(dir, subs[i], true, &d, err);
		gl_safe_dir_close(&d);
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
	digest(jobs.buf ? jobs.buf : "", hex);
	gl_str_addf(&conf, "id=%s\njobs=%d\njobs_sha256=%s\n", sweep_id, plan->njobs, hex);
	rc = gl_sweep_dir_write(dir, NULL, "jobs.txt", jobs.buf ? jobs.buf : "", err);
	if (rc == GL_OK) /* last: a directory with sweep.conf holds a whole sweep */
		rc = gl_sweep_dir_write(dir, NULL, "sweep.conf", conf.buf, err);
	gl_str_free(&jobs);
	gl_str_free(&conf);
	return rc;
}

/* The last value of `key` in DIR/sweep.conf ("" when absent); GL_EUSAGE when DIR holds no sweep. */
int gl_sweep_conf(const char *dir, const char *key, char *out, size_t n, struct gl_err *err)
{
	char *text = NULL;
	struct gl_err probe = {0};
	struct stat st;
	int rc = stat(dir, &st) == 0 ? gl_sweep_dir_read(dir, NULL, "sweep.conf", MAX_CONF, &text, &probe) : GL_EUSAGE;
	if (rc == GL_EUSAGE)
		return gl_errf(err, GL_EUSAGE, "%s is not a sweep directory (no sweep.conf): pass the --dir of "
			       "a 'gpulab sweep'", dir);
	if (rc)
		return gl_errf(err, rc, "%s", probe.msg);
	size_t klen = strlen(key);
	out[0] = '\0';
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, key, klen) == 0 && line[klen] == '=')
			snprintf(out, n, "%s", line + klen + 1);
	free(text);
	return GL_OK;
}

int gl_sweep_jobs(const char *dir, long *n, struct gl_err *err)
{
	char count[32];
	int rc = gl_sweep_conf(dir, "jobs", count, sizeof count, err);
	if (rc == GL_OK && gl_parse_long(count, 0, GL_SWEEP_MAX_JOBS, "the job count in sweep.conf", n, err))
		rc = gl_errf(err, GL_EUSAGE, "%s/sweep.conf: jobs=%s is not a job count from 0 to %d; the file was "
			     "not written by gpulab", dir, count, GL_SWEEP_MAX_JOBS);
	return rc;
}

/* Job `index` of DIR/jobs.txt, split at spaces into argv[first..]: only when jobs.txt has the digest that
 * sweep.conf recorded and the job is one a sweep's plan makes. */
static int job_args(const char *dir, long index, char **text, char **argv, int first, int max, int *argc,
		    struct gl_err *err)
{
	char want[80], hex[65];
	int rc = gl_sweep_conf(dir, "jobs_sha256", want, sizeof want, err);
	if (rc == GL_OK)
		rc = gl_sweep_dir_read(dir, NULL, "jobs.txt", MAX_JOBS_FILE, text, err);
	if (rc)
		return rc;
	digest(*text, hex);
	if (strcmp(hex, want) != 0)
		return gl_errf(err, GL_EUSAGE, "%s/jobs.txt is not the file this sweep wrote (its SHA-256 is not "
			       "the one in sweep.conf): nothing was run; make the sweep again", dir);
	char *line = *text;
	for (long i = 0; line && i < index; i++)
		line = (line = strchr(line, '\n')) ? line + 1 : NULL;
	if (!line || !*line)
		return gl_errf(err, GL_EUSAGE, "%s/jobs.txt has no job %ld", dir, index);
	line[strcspn(line, "\n")] = '\0';
	*argc = first;
	for (char *save = NULL, *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (*argc == max)
			return gl_errf(err, GL_EUSAGE, "%s/jobs.txt: job %ld has too many words", dir, index);
		argv[(*argc)++] = tok;
	}
	return gl_sweep_job_check((const char *const *)argv + first, *argc - first, err);
}

static void write_status(const char *dir, long index, int code)
{
	char name[48], text[32];
	snprintf(name, sizeof name, "task-%ld", index);
	snprintf(text, sizeof text, "%d\n", code);
	struct gl_err ignored = {0}; /* the task's own exit status is what its caller sees */
	gl_sweep_dir_write(dir, "status", name, text, &ignored);
}

int gl_sweep_task(const char *dir, long index, struct gl_err *err)
{
	char exe[PATH_MAX], db[PATH_MAX], id[128], *text = NULL;
	char *argv[GL_SWEEP_MAX_ARGS + 4];
	int argc = 0;
	int rc = gl_sweep_conf(dir, "id", id, sizeof id, err);
	if (rc == GL_OK)
		rc = gl_sweep_self_exe(exe, sizeof exe, err);
	if (rc == GL_OK)
		rc = job_args(dir, index, &text, argv, 1, GL_SWEEP_MAX_ARGS + 1, &argc, err);
	if (rc) {
		free(text);
		return rc;
	}
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
	free(text); /* the child has its own copy (exec'd or exited) */
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return gl_errf(err, GL_EENV, "cannot start job %ld: %s", index, strerror(errno));
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	write_status(dir, index, code);
	return code;
}

/* DIR/logs/task-I.log, new: created under a temporary name and renamed in; its descriptor, or -1. */
static int open_log(const char *dir, long index)
{
	struct gl_safe_dir d;
	char tmp[64], name[48];
	int fd = -1;
	struct gl_err ignored = {0}; /* without its log a task still runs */
	snprintf(name, sizeof name, "task-%ld.log", index);
	if (gl_sweep_dir_open(dir, "logs", false, &d, &ignored) == GL_OK &&
	    gl_safe_dir_create_temp(&d, tmp, sizeof tmp, &fd, &ignored) == GL_OK &&
	    gl_safe_dir_publish(&d, tmp, name, &ignored) != GL_OK) {
		close(fd);
		fd = -1;
	}
	gl_safe_dir_close(&d);
	return fd;
}

/* Start `gpulab sweep task DIR I` with its output in DIR/logs/task-I.log. */
static pid_t start_task(const char *exe, const char *dir, long index)
{
	char num[32];
	snprintf(num, sizeof num, "%ld", index);
	int log = open_log(dir, index);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		if (log >= 0) {
			dup2(log, 1);
			dup2(log, 2);
		}
		execl(exe, exe, "sweep", "task", dir, num, (char *)NULL);
		_exit(127);
	}
	if (log >= 0)
		close(log);
	return pid;
}

int gl_sweep_run_local(const char *dir, int jobs, bool progress, struct gl_err *err)
{
	char exe[PATH_MAX];
	long n = 0, next = 0, running = 0, done = 0;
	int rc = gl_sweep_jobs(dir, &n, err);
	if (rc == GL_OK)
		rc = gl_sweep_self_exe(exe, sizeof exe, err);
	if (rc)
		return rc;
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
