/* cmd_doctor.c — `gpulab doctor`: checks the GPU path ahead of a run, one line each (ok, warn,
 * fail) with the fix: libcuda, a device, CUPTI and its version, CUPTI's host API, profiling
 * permission, nvcc, and a writable results database.  Exit 3 when any check fails. */
#include <stdio.h>
#include <sys/stat.h>

#include "cli.h"
#include "common/json.h"
#include "profiler/profiler.h"
#include "store/store.h"

static const struct gl_cmd *self(void);

static const char *status_word(enum gl_check s)
{
	return s == GL_CHECK_OK ? "ok" : s == GL_CHECK_WARN ? "warn" : "fail";
}

/* The verdict every command that records results reaches (gl_store_check: the open's checks without
 * writing), so a text file, a directory, a damaged, foreign or newer database fail here as they fail
 * there. */
static void check_db(const char *db_path, struct gl_doctor_check *out)
{
	char path[1024];
	struct gl_err err = {0};
	struct stat st;
	out->name = "database";
	if (gl_store_check(db_path, path, sizeof path, &err) != GL_OK) {
		out->status = GL_CHECK_FAIL;
		snprintf(out->detail, sizeof out->detail, "%s", err.msg);
		return;
	}
	out->status = GL_CHECK_OK;
	snprintf(out->detail, sizeof out->detail, "%.900s %s", path,
		 stat(path, &st) == 0 ? "is writable" : "can be created");
}

static void print_checks(struct gl_ctx *ctx, const struct gl_doctor_check *checks, size_t n)
{
	if (ctx->format != GL_FMT_JSON) {
		for (size_t i = 0; i < n; i++)
			printf("%s%-5s%s %-12s %s\n",
			       gl_sgr(checks[i].status == GL_CHECK_OK ? GL_GREEN : checks[i].status == GL_CHECK_WARN ? GL_YELLOW : GL_RED),
			       status_word(checks[i].status), gl_sgr(GL_RESET), checks[i].name, checks[i].detail);
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
	struct gl_args args;
	int prc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (prc)
		return prc;
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
	.no_formats = GL_NO_CSV,
	.name = "doctor",
	.usage = "[--json]",
	.summary = "check the GPU path: driver, device, CUPTI, profiling permission, nvcc, database",
	.help = "One line per check: ok, warn or fail, with the fix.  Exits 3 when any check fails\n"
		"(on a machine without a GPU the simulator still works: gpulab run --backend sim).\n",
	.max_args = 0,
	.exec = doctor_exec,
};

static const struct gl_cmd *self(void) { return &gl_cmd_doctor_entry; }
