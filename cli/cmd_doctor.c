/* cmd_doctor.c — `gpulab doctor`: checks the GPU path ahead of a run, one line each (ok, warn,
 * fail) with the fix: libcuda, a device, CUPTI and its version, CUPTI's host API, profiling
 * permission, nvcc, and a writable results database.  Exit 3 when any check fails. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "common/json.h"
#include "profiler/cuda_doctor.h"
#include "store/store.h"

static const struct gl_cmd *self(void);

static const char *status_word(enum gl_check s)
{
	return s == GL_CHECK_OK ? "ok" : s == GL_CHECK_WARN ? "warn" : "fail";
}

/* The nearest existing directory at or above `path`'s directory. */
static void existing_dir(const char *path, char *dir, size_t n)
{
	struct stat st;
	snprintf(dir, n, "%s", path);
	for (;;) {
		char *slash = strrchr(dir, '/');
		if (!slash) {
			snprintf(dir, n, ".");
			return;
		}
		*slash = '\0';
		if (!*dir) {
			snprintf(dir, n, "/");
			return;
		}
		if (stat(dir, &st) == 0)
			return;
	}
}

/* Writable without creating anything: the file (if present) and its nearest existing directory. */
static void check_db(const char *db_path, struct gl_doctor_check *out)
{
	char path[1024], dir[1024];
	struct gl_err err = {0};
	out->name = "database";
	if (gl_store_path(db_path, path, sizeof path, &err) != GL_OK) {
		out->status = GL_CHECK_FAIL;
		snprintf(out->detail, sizeof out->detail, "%s", err.msg);
		return;
	}
	existing_dir(path, dir, sizeof dir);
	bool exists = access(path, F_OK) == 0;
	if ((exists && access(path, W_OK) != 0) || access(dir, W_OK) != 0) {
		out->status = GL_CHECK_FAIL;
		snprintf(out->detail, sizeof out->detail, "%.800s is not writable (%s); pass --db PATH or set GPULAB_DB",
			 exists ? path : dir, strerror(errno));
		return;
	}
	out->status = GL_CHECK_OK;
	snprintf(out->detail, sizeof out->detail, "%.900s %s", path, exists ? "is writable" : "can be created");
}

static void print_checks(struct gl_ctx *ctx, const struct gl_doctor_check *checks, size_t n)
{
	if (ctx->format != GL_FMT_JSON) {
		for (size_t i = 0; i < n; i++)
			printf("%-5s %-12s %s\n", status_word(checks[i].status), checks[i].name, checks[i].detail);
		return;
	}
	struct gl_json j;
	bool ok = true;
	gl_json_init(&j, stdout);
	gl_json_begin_object(&j, NULL);
	gl_json_begin_array(&j, "checks");
	for (size_t i = 0; i < n; i++) {
		gl_json_begin_object(&j, NULL);
		gl_json_string(&j, "name", checks[i].name);
		gl_json_string(&j, "status", status_word(checks[i].status));
		gl_json_string(&j, "detail", checks[i].detail);
		gl_json_end_object(&j);
		ok = ok && checks[i].status != GL_CHECK_FAIL;
	}
	gl_json_end_array(&j);
	gl_json_bool(&j, "ok", ok);
	gl_json_end_object(&j);
	putchar('\n');
}

static int doctor_exec(struct gl_ctx *ctx, int argc, char **argv)
{
	int c;
	optind = 1;
	while ((c = gl_getopt(ctx, self(), argc, argv, "", NULL)) != -1)
		if (c == 'h' || c == '?')
			return c == 'h' ? 'h' : ctx->err.status;
	if (optind < argc)
		return gl_usage_error(ctx, self(), "unexpected argument '%s'", argv[optind]);
	struct gl_doctor_check checks[GL_DOCTOR_MAX];
	size_t n = gl_cuda_doctor(checks, GL_DOCTOR_MAX - 1);
	check_db(ctx->db_path, &checks[n++]);
	print_checks(ctx, checks, n);
	size_t failed = 0;
	for (size_t i = 0; i < n; i++)
		failed += checks[i].status == GL_CHECK_FAIL;
	if (!failed)
		return GL_OK;
	/* the lines above say what and how to fix; the exit status says "environment" */
	return gl_errf(&ctx->err, GL_EENV, "%zu of %zu checks failed", failed, n);
}

const struct gl_cmd gl_cmd_doctor_entry = {
	.name = "doctor",
	.usage = "[--json]",
	.summary = "check the GPU path: driver, device, CUPTI, profiling permission, nvcc, database",
	.help = "One line per check: ok, warn or fail, with the fix.  Exits 3 when any check fails\n"
		"(on a machine without a GPU the simulator still works: gpulab run --backend sim).\n",
	.exec = doctor_exec,
};

static const struct gl_cmd *self(void) { return &gl_cmd_doctor_entry; }
