/* sweep_slurm.c — a sweep as a Slurm job array, and following any sweep: the sbatch script (one array
 * task per job, each running `gpulab sweep task DIR $SLURM_ARRAY_TASK_ID`), submission with sbatch, each
 * task's state (its status file once it ended, else squeue, else sacct when accounting is on), and
 * collecting: merge the finished shards, list the failed tasks with their logs, resubmit them alone. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "sweep/sweep.h"

enum task_state { T_UNKNOWN, T_PENDING, T_RUNNING, T_DONE, T_FAILED, T_LOST };
static const char *const state_names[] = {"not run", "pending", "running", "done", "failed", "lost"};

struct task {
	enum task_state state;
	int code;            /* exit status, for done/failed with a status file */
	char slurm[24];      /* squeue's or sacct's state name */
};

/* Slurm values go into the script: letters, digits and :_,.=- only. */
static int safe_value(const char *what, const char *v, struct gl_err *err)
{
	for (const char *p = v; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(":_,.=-", *p))
			return gl_errf(err, GL_EUSAGE, "%s '%s': only letters, digits and :_,.=- are allowed", what, v);
	return GL_OK;
}

static int write_script(const char *dir, const struct gl_sweep_spec *s, long njobs, char *path,
			size_t n, struct gl_err *err)
{
	char id[128], exe[PATH_MAX];
	int rc = gl_sweep_conf(dir, "id", id, sizeof id, err);
	if (rc == GL_OK)
		rc = gl_sweep_conf(dir, "gpulab", exe, sizeof exe, err);
	for (int i = 0; rc == GL_OK && i < 3; i++) {
		const char *v[] = {s->partition, s->gres, s->time};
		const char *what[] = {"--partition", "--gres", "--time"};
		rc = safe_value(what[i], v[i], err);
	}
	if (rc)
		return rc;
	snprintf(path, n, "%s/sweep.sbatch", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return gl_errf(err, GL_EENV, "cannot write %s: %s", path, strerror(errno));
	fprintf(f, "#!/bin/bash\n# written by gpulab sweep: one array task per line of jobs.txt\n");
	fprintf(f, "#SBATCH --job-name=gpulab-%s\n#SBATCH --array=0-%ld", id, njobs - 1);
	if (s->array_limit > 0)
		fprintf(f, "%%%ld", s->array_limit);
	fprintf(f, "\n#SBATCH --output=%s/logs/task-%%a.log\n", dir);
	if (s->partition[0])
		fprintf(f, "#SBATCH --partition=%s\n", s->partition);
	if (s->gres[0])
		fprintf(f, "#SBATCH --gres=%s\n", s->gres);
	if (s->time[0])
		fprintf(f, "#SBATCH --time=%s\n", s->time);
	fprintf(f, "exec '%s' sweep task '%s' \"$SLURM_ARRAY_TASK_ID\"\n", exe, dir);
	return fclose(f) == 0 ? GL_OK : gl_errf(err, GL_EENV, "cannot write %s: %s", path, strerror(errno));
}

/* Run `cmd` (our own arguments only: paths we wrote, digits), its first output line into out. */
static int run_capture(const char *cmd, char *out, size_t n)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	out[0] = '\0';
	if (!fgets(out, (int)n, p))
		out[0] = '\0';
	char rest[512];
	while (fgets(rest, sizeof rest, p))
		; /* drain */
	out[strcspn(out, "\n")] = '\0';
	int st = pclose(p);
	return st == 0 ? 0 : -1;
}

static int sbatch(const char *dir, const char *script, const char *array, struct gl_err *err)
{
	char cmd[PATH_MAX * 2], out[512];
	snprintf(cmd, sizeof cmd, "sbatch --parsable %s%s '%s' 2>&1", array ? "--array=" : "", array ? array : "",
		 script);
	if (run_capture(cmd, out, sizeof out) != 0 || !isdigit((unsigned char)out[0]))
		return gl_errf(err, GL_EENV, "sbatch refused the sweep's job array: %s (is Slurm's client "
			       "installed and a controller reachable? 'sinfo' tells)",
			       out[0] ? out : "sbatch not found");
	out[strspn(out, "0123456789")] = '\0';
	char conf[PATH_MAX];
	snprintf(conf, sizeof conf, "%s/sweep.conf", dir);
	FILE *f = fopen(conf, "a");
	if (!f || fprintf(f, "slurm_job=%s\n", out) < 0 || fclose(f) != 0)
		return gl_errf(err, GL_EENV, "submitted Slurm job %s but cannot record it in %s", out, conf);
	printf("submitted Slurm job %s%s%s\n", out, array ? " for tasks " : "", array ? array : "");
	return GL_OK;
}

int gl_sweep_submit(const char *dir, const struct gl_sweep_spec *s, struct gl_err *err)
{
	char count[32], script[PATH_MAX];
	int rc = gl_sweep_conf(dir, "jobs", count, sizeof count, err);
	if (rc == GL_OK)
		rc = write_script(dir, s, atol(count), script, sizeof script, err);
	if (rc == GL_OK)
		rc = sbatch(dir, script, NULL, err);
	if (rc == GL_OK)
		printf("follow it with 'gpulab sweep status %s', merge it with 'gpulab sweep collect %s'\n", dir, dir);
	return rc;
}

/* Every Slurm job id of the sweep, comma-separated ("" for a local sweep). */
static void slurm_jobs(const char *dir, char *out, size_t n)
{
	char path[PATH_MAX], line[256];
	snprintf(path, sizeof path, "%s/sweep.conf", dir);
	FILE *f = fopen(path, "r");
	size_t len = 0;
	out[0] = '\0';
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "slurm_job=", 10) == 0) {
			line[strspn(line + 10, "0123456789") + 10] = '\0';
			len += (size_t)snprintf(out + len, n > len ? n - len : 0, "%s%s", len ? "," : "", line + 10);
		}
	if (f)
		fclose(f);
}

/* "JOB_TASK STATE" lines (squeue -r -o '%i %T', sacct -P 'JobID|State'): the state of each task. */
static void read_queue(const char *cmd, struct task *t, long n, bool from_sacct)
{
	FILE *p = popen(cmd, "r");
	char line[256];
	while (p && fgets(line, sizeof line, p)) {
		char *us = strchr(line, '_'), *sep = strpbrk(line, from_sacct ? "|" : " ");
		if (!us || !sep || us > sep)
			continue;
		long i = atol(us + 1);
		char state[24];
		snprintf(state, sizeof state, "%.*s", (int)strcspn(sep + 1, " |\n"), sep + 1);
		if (i < 0 || i >= n || t[i].state == T_DONE || t[i].state == T_FAILED)
			continue;
		snprintf(t[i].slurm, sizeof t[i].slurm, "%s", state);
		if (!from_sacct)
			t[i].state = strcmp(state, "RUNNING") == 0 || strcmp(state, "COMPLETING") == 0 ? T_RUNNING : T_PENDING;
		else if (t[i].state == T_LOST && strcmp(state, "RUNNING") != 0 && strcmp(state, "PENDING") != 0)
			t[i].state = T_FAILED; /* ended without writing its status: timeout, cancelled, node failure */
	}
	if (p)
		pclose(p);
}

static void task_states(const char *dir, struct task *t, long n)
{
	char jobs[512], path[PATH_MAX];
	slurm_jobs(dir, jobs, sizeof jobs);
	for (long i = 0; i < n; i++) {
		memset(&t[i], 0, sizeof t[i]);
		snprintf(path, sizeof path, "%s/status/task-%ld", dir, i);
		FILE *f = fopen(path, "r");
		if (f && fscanf(f, "%d", &t[i].code) == 1)
			/* exit 1: the run was stored and a variant failed verification (a result, not a failure) */
			t[i].state = t[i].code == 0 || t[i].code == GL_EVERIFY ? T_DONE : T_FAILED;
		else if (jobs[0])
			t[i].state = T_LOST; /* unless squeue or sacct knows it */
		if (f)
			fclose(f);
	}
	if (!jobs[0])
		return;
	char cmd[768];
	snprintf(cmd, sizeof cmd, "squeue -h -r -j %s -o '%%i %%T' 2>/dev/null", jobs);
	read_queue(cmd, t, n, false);
	snprintf(cmd, sizeof cmd, "sacct -n -P -X -j %s -o JobID,State 2>/dev/null", jobs);
	read_queue(cmd, t, n, true);
}

static int load_states(const char *dir, struct task **t, long *n, struct gl_err *err)
{
	char count[32];
	int rc = gl_sweep_conf(dir, "jobs", count, sizeof count, err);
	if (rc)
		return rc;
	*n = atol(count);
	*t = gl_xcalloc((size_t)(*n > 0 ? *n : 1), sizeof **t);
	task_states(dir, *t, *n);
	return GL_OK;
}

int gl_sweep_status(const char *dir, struct gl_err *err)
{
	struct task *t;
	long n, counts[6] = {0};
	int rc = load_states(dir, &t, &n, err);
	if (rc)
		return rc;
	printf("task  state     exit  log\n");
	for (long i = 0; i < n; i++) {
		counts[t[i].state]++;
		char code[16] = "-";
		if (t[i].state == T_DONE || (t[i].state == T_FAILED && !t[i].slurm[0]))
			snprintf(code, sizeof code, "%d", t[i].code);
		printf("%-5ld %-9s %-5s %s/logs/task-%ld.log%s%s\n", i, state_names[t[i].state], code, dir, i,
		       t[i].slurm[0] ? "  slurm: " : "", t[i].slurm);
	}
	printf("%ld tasks: %ld done, %ld failed, %ld running, %ld pending, %ld lost, %ld not run\n", n,
	       counts[T_DONE], counts[T_FAILED], counts[T_RUNNING], counts[T_PENDING], counts[T_LOST],
	       counts[T_UNKNOWN]);
	free(t);
	return GL_OK;
}

static void show_log_tail(const char *dir, long i)
{
	char path[PATH_MAX], line[512], ring[5][512];
	int k = 0;
	snprintf(path, sizeof path, "%s/logs/task-%ld.log", dir, i);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof line, f))
		snprintf(ring[k++ % 5], sizeof ring[0], "%s", line);
	if (f)
		fclose(f);
	for (int j = k > 5 ? k - 5 : 0; j < k; j++)
		printf("    | %s%s", ring[j % 5], strchr(ring[j % 5], '\n') ? "" : "\n");
}

static int retry(const char *dir, const struct task *t, long n, struct gl_err *err)
{
	char list[4096] = "", path[PATH_MAX], jobs[512];
	size_t len = 0;
	slurm_jobs(dir, jobs, sizeof jobs);
	if (!jobs[0])
		return gl_errf(err, GL_EUSAGE, "--retry-failed resubmits through Slurm; %s ran locally: run a "
			       "task again with 'gpulab sweep task %s I'", dir, dir);
	for (long i = 0; i < n; i++)
		if (t[i].state == T_FAILED || t[i].state == T_LOST) {
			snprintf(path, sizeof path, "%s/status/task-%ld", dir, i);
			unlink(path);
			len += (size_t)snprintf(list + len, sizeof list > len ? sizeof list - len : 0, "%s%ld",
						len ? "," : "", i);
		}
	if (!list[0]) {
		printf("no failed tasks to resubmit\n");
		return GL_OK;
	}
	snprintf(path, sizeof path, "%s/sweep.sbatch", dir);
	return sbatch(dir, path, list, err);
}

static long queued(const struct task *t, long n)
{
	long q = 0;
	for (long i = 0; i < n; i++)
		q += t[i].state == T_PENDING || t[i].state == T_RUNNING;
	return q;
}

int gl_sweep_collect(const char *dir, const char *into, bool wait, bool again, struct gl_err *err)
{
	struct task *t;
	long n;
	int rc = load_states(dir, &t, &n, err);
	while (rc == GL_OK && wait && queued(t, n)) {
		sleep(1);
		task_states(dir, t, n);
	}
	if (rc)
		return rc;
	char **shards = gl_xcalloc((size_t)n + 1, sizeof *shards);
	int nshards = 0;
	long failed = 0, unverified = 0;
	for (long i = 0; i < n; i++) {
		if (t[i].state == T_DONE && t[i].code == GL_EVERIFY) {
			unverified++;
			printf("task %ld: a variant failed verification or the sanitizer found errors (stored; log "
			       "%s/logs/task-%ld.log)\n", i, dir, i);
		}
		if (t[i].state == T_DONE) {
			shards[nshards] = gl_xmalloc(PATH_MAX);
			snprintf(shards[nshards++], PATH_MAX, "%s/shard-%ld.db", dir, i);
		} else if (t[i].state == T_FAILED || t[i].state == T_LOST) {
			char why[48];
			if (t[i].slurm[0])
				snprintf(why, sizeof why, "Slurm: %s", t[i].slurm);
			else if (t[i].state == T_LOST)
				snprintf(why, sizeof why, "ended without a status");
			else
				snprintf(why, sizeof why, "exit %d", t[i].code);
			failed++;
			printf("task %ld failed (%s): log %s/logs/task-%ld.log\n", i, why, dir, i);
			show_log_tail(dir, i);
		}
	}
	if (nshards)
		rc = gl_merge_shards((const char *const *)shards, nshards, into, stdout, err);
	if (rc == GL_OK && queued(t, n))
		printf("%ld task%s still queued: collect again when they end (or pass --wait)\n", queued(t, n),
		       queued(t, n) == 1 ? " is" : "s are");
	if (rc == GL_OK && again && failed)
		rc = retry(dir, t, n, err);
	else if (rc == GL_OK && failed)
		rc = gl_errf(err, GL_EVERIFY, "%ld of %ld tasks failed (logs above); resubmit them with 'gpulab "
			     "sweep collect %s --retry-failed'", failed, n, dir);
	else if (rc == GL_OK && unverified)
		rc = gl_errf(err, GL_EVERIFY, "%ld of %ld tasks stored runs that failed verification or had "
			     "sanitizer errors (listed above)", unverified, n);
	for (int i = 0; i < nshards; i++)
		free(shards[i]);
	free(shards);
	free(t);
	return rc;
}
