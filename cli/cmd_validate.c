/* cmd_validate.c — `gpulab validate [TOPIC]` (GPU only): every variant on the simulator and on the
 * GPU, the simulator's count beside CUPTI's and their ratio, per metric; both runs are stored.
 * Requests, sectors and shared-memory instructions and wavefronts should agree exactly; the
 * hardware bank-conflict counter is known to read high, so wavefronts are shown beside it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/json.h"
#include "common/metrics.h"
#include "common/util.h"
#include "kernels/registry.h"
#include "profiler/profiler.h"
#include "store/store.h"
#include "render/render.h"
#include "run_options.h" /* gl_cli_session_env */
#include "session/session.h"

enum { SIM, GPU, NSIDES };

struct side {
	const struct gl_backend *b;
	void *ctx;
	struct gl_device_info info;
	struct gl_session *session; /* its launches, stored as one run */
};

struct validate {
	const char *topic;              /* NULL: every topic */
	int device;
	bool strict;                    /* exit 1 when an exact row differs */
	struct side side[NSIDES];
	int failures;
	struct gl_vcount rows;
	struct gl_json json;
	bool as_json;
};

static const struct gl_cmd *self(void);

/* ---- options */

static int parse(struct gl_ctx *ctx, int argc, char **argv, struct validate *v)
{
	struct gl_args args;
	int rc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (rc)
		return rc;
	v->strict = gl_args_has(&args, "strict");
	v->device = (int)gl_args_long(&args, "device", 0);
	v->topic = args.npos ? args.pos[0] : NULL;
	return GL_OK;
}

/* ---- backends */

static int open_sides(struct validate *v, const struct gl_session_env *env)
{
	struct gl_err *err = env->err;
	struct gl_backend_opts sim = {0}, gpu = {.device = v->device, .metrics = "sim", .repeat = 1};
	v->side[SIM] = (struct side){.b = &gl_backend_sim};
	v->side[GPU] = (struct side){.b = &gl_backend_cuda};
	int rc = v->side[SIM].b->open(&sim, &v->side[SIM].ctx, err);
	if (rc == GL_OK)
		rc = v->side[GPU].b->open(&gpu, &v->side[GPU].ctx, err);
	for (int s = 0; s < NSIDES && rc == GL_OK; s++)
		if ((rc = v->side[s].b->describe(v->side[s].ctx, &v->side[s].info, err)) == GL_OK)
			v->side[s].session = gl_session_new(env, v->side[s].b->name, &v->side[s].info);
	return rc;
}

static void close_sides(struct validate *v)
{
	for (int s = 0; s < NSIDES; s++) {
		if (v->side[s].ctx)
			v->side[s].b->close(v->side[s].ctx);
		gl_session_free(v->side[s].session);
	}
}

/* ---- comparing the two */

static const char *wavefronts_of(const char *conflict_metric)
{
	return strcmp(conflict_metric, GL_M_SLD_CONF) == 0 ? GL_M_SLD_WF : GL_M_SST_WF;
}

static double value_of(const struct gl_launch_record *r, const char *name)
{
	return gl_validate_value(&r->metrics, name);
}

static double ratio_of(double sim, double gpu)
{
	if (isnan(sim) || isnan(gpu))
		return NAN;
	if (sim == 0)
		return gpu == 0 ? 1.0 : NAN;
	return gpu / sim;
}

static void remark(const struct gl_launch_record *r[NSIDES], const char *name, char *buf, size_t n)
{
	double sim = value_of(r[SIM], name), gpu = value_of(r[GPU], name);
	enum gl_vrow row = gl_validate_row(name, sim, gpu);
	buf[0] = '\0';
	if (row == GL_VROW_NOT_COLLECTED)
		snprintf(buf, n, "not collected on the GPU");
	else if (gl_validate_kind(name) == GL_VKIND_CONFLICT)
		snprintf(buf, n, "counter reads high on hardware; wavefronts: sim %.0f, cupti %.0f",
			 value_of(r[SIM], wavefronts_of(name)), value_of(r[GPU], wavefronts_of(name)));
	else if (gl_validate_kind(name) == GL_VKIND_INFO)
		snprintf(buf, n, "%s", gl_validate_info_remark(r[SIM]->note));
	else if (row == GL_VROW_DIFFERS)
		snprintf(buf, n, "DIFFERS: should agree exactly");
}

static void print_metric(const struct gl_launch_record *r[NSIDES], const char *name)
{
	double sim = value_of(r[SIM], name), gpu = value_of(r[GPU], name), ratio = ratio_of(sim, gpu);
	char note[160], rtext[16] = "-", gtext[24] = "-";
	remark(r, name, note, sizeof note);
	if (!isnan(ratio))
		snprintf(rtext, sizeof rtext, "%.3f", ratio);
	if (!isnan(gpu))
		snprintf(gtext, sizeof gtext, "%.0f", gpu);
	printf("  %-58s %14.0f %14s %8s  %s\n", name, sim, gtext, rtext, note);
}

static void json_metric(struct gl_json *j, const struct gl_launch_record *r[NSIDES], const char *name)
{
	static const char *const kinds[] = {"exact", "conflict", "info"};
	static const char *const rows[] = {"agree", "differs", "not collected", "shown"};
	double sim = value_of(r[SIM], name), gpu = value_of(r[GPU], name), ratio = ratio_of(sim, gpu);
	gl_json_begin_object(j, NULL);
	gl_json_string(j, "name", name);
	gl_json_number(j, "sim", sim);
	gl_json_number(j, "cupti", gpu); /* null when not collected */
	gl_json_number(j, "ratio", ratio);
	gl_json_string(j, "kind", kinds[gl_validate_kind(name)]);
	gl_json_string(j, "row", rows[gl_validate_row(name, sim, gpu)]);
	gl_json_end_object(j);
}

static void report(struct validate *v, const struct gl_launch_record *r[NSIDES])
{
	size_t n;
	const char *const *names = gl_metric_set_sim(&n);
	if (v->as_json) {
		gl_json_begin_object(&v->json, NULL);
		gl_json_string(&v->json, "topic", r[SIM]->topic);
		gl_json_string(&v->json, "variant", r[SIM]->variant);
		gl_render_json_verdict(&v->json, "verified_sim", r[SIM]->verified);
		gl_render_json_verdict(&v->json, "verified_cuda", r[GPU]->verified);
		gl_json_string(&v->json, "note", r[GPU]->note);
		gl_validate_time_json(&v->json, r[SIM], r[GPU], v->side[GPU].info.name);
		gl_json_begin_array(&v->json, "metrics");
		for (size_t i = 0; i < n; i++)
			json_metric(&v->json, r, names[i]);
		gl_json_end_array(&v->json);
		gl_json_end_object(&v->json);
		return;
	}
	printf("%s/%s: verified on sim %s, on cuda %s%s%s\n", r[SIM]->topic, r[SIM]->variant,
	       gl_render_verdict(r[SIM]->verified), gl_render_verdict(r[GPU]->verified), r[GPU]->note[0] ? "; " : "",
	       r[GPU]->note);
	gl_validate_time_line(stdout, r[SIM], r[GPU], v->side[GPU].info.name);
	printf("  %-58s %14s %14s %8s\n", "metric", "sim", "cupti", "ratio");
	for (size_t i = 0; i < n; i++)
		print_metric(r, names[i]);
}

/* ---- the loop over topics and variants */

static int run_variant(struct validate *v, const struct gl_topic *t, const struct gl_variant *var,
		       struct gl_err *err)
{
	struct gl_problem p;
	gl_problem_defaults(t, &p);
	int rc = t->check ? t->check(&p, err) : GL_OK;
	const struct gl_launch_record *r[NSIDES];
	for (int s = 0; s < NSIDES && rc == GL_OK; s++) /* launch, collect, verify: as `gpulab run` does */
		rc = gl_session_run_variant(v->side[s].session, v->side[s].b, v->side[s].ctx, t, var, &p, &r[s]);
	if (rc != GL_OK)
		return rc;
	v->failures += !r[SIM]->verified + !r[GPU]->verified;
	gl_validate_count(&r[SIM]->metrics, &r[GPU]->metrics, &v->rows);
	report(v, r);
	return GL_OK;
}

static int run_topic(struct validate *v, const struct gl_topic *t, struct gl_err *err)
{
	int rc = GL_OK;
	for (int i = 0; i < t->nvariants && rc == GL_OK; i++)
		rc = run_variant(v, t, &t->variants[i], err);
	return rc;
}

static int run_all(struct validate *v, struct gl_err *err)
{
	const struct gl_topic *only = NULL;
	if (v->topic && gl_topic_lookup(v->topic, &only, err) != GL_OK)
		return err->status;
	int rc = GL_OK;
	for (const struct gl_topic *const *t = gl_topics; *t && rc == GL_OK; t++)
		if (!only || *t == only)
			rc = run_topic(v, *t, err);
	return rc;
}

/* ---- storing both runs, each in its own transaction, through their sessions */

static int store_all(struct gl_ctx *ctx, const struct validate *v)
{
	char path[1024];
	struct gl_store *st = NULL;
	long run_id;
	int rc = gl_store_path(ctx->db_path, path, sizeof path, &ctx->err);
	if (rc == GL_OK)
		rc = gl_store_open(path, 0, &st, &ctx->err);
	for (int s = 0; s < NSIDES && rc == GL_OK; s++)
		rc = gl_session_store(v->side[s].session, st, &run_id, NULL);
	if (st)
		gl_store_close(st);
	return rc;
}

/* ---- the command */

static void summary(struct validate *v)
{
	if (v->as_json) {
		gl_json_end_array(&v->json);
		gl_json_int(&v->json, "failures", v->failures);
		gl_json_int(&v->json, "disagreements", v->rows.differs);
		gl_json_int(&v->json, "agreements", v->rows.agree);
		gl_json_int(&v->json, "not_collected", v->rows.not_collected);
		gl_json_end_object(&v->json);
		putchar('\n');
		return;
	}
	int d = v->rows.differs;
	printf("%d exact count%s differ%s between the simulator and CUPTI, %d agree%s; %d row%s not collected on "
	       "the GPU; %d verification failure%s\n", d, d == 1 ? "" : "s", d == 1 ? "s" : "", v->rows.agree,
	       v->rows.agree == 1 ? "s" : "", v->rows.not_collected, v->rows.not_collected == 1 ? "" : "s",
	       v->failures, v->failures == 1 ? "" : "s");
}

static int validate_exec(struct gl_ctx *ctx, int argc, char **argv)
{
	struct validate v;
	char why[512];
	memset(&v, 0, sizeof v);
	int rc = parse(ctx, argc, argv, &v);
	if (rc != GL_OK)
		return rc;
	const struct gl_topic *t;
	if (v.topic && gl_topic_lookup(v.topic, &t, &ctx->err) != GL_OK)
		return ctx->err.status;
	if (!gl_backend_cuda.probe(why, sizeof why)) /* before anything is opened or written */
		return gl_errf(&ctx->err, GL_EENV, "validate needs a GPU to compare against: %s (the simulator alone: "
			       "gpulab run TOPIC --backend sim)", why);
	v.as_json = ctx->format == GL_FMT_JSON;
	struct gl_session_env env = gl_cli_session_env(ctx);
	rc = open_sides(&v, &env);
	if (rc == GL_OK && v.as_json) {
		gl_json_init(&v.json, stdout);
		gl_json_begin_object(&v.json, NULL);
		gl_json_string(&v.json, "device", v.side[GPU].info.name);
		gl_json_string(&v.json, "chip", v.side[GPU].info.chip);
		gl_json_begin_array(&v.json, "variants");
	}
	if (rc == GL_OK)
		rc = run_all(&v, &ctx->err);
	if (rc == GL_OK) {
		summary(&v);
		rc = store_all(ctx, &v);
	}
	close_sides(&v);
	if (rc == GL_OK && v.failures)
		return gl_errf(&ctx->err, GL_EVERIFY, "%d variant run%s failed verification (see above)", v.failures,
			       v.failures == 1 ? "" : "s");
	if (rc == GL_OK && v.strict && v.rows.differs)
		return gl_errf(&ctx->err, GL_EVERIFY, "--strict: %d exact count%s differ%s between the simulator and the "
			       "GPU (rows marked DIFFERS above)", v.rows.differs, v.rows.differs == 1 ? "" : "s",
			       v.rows.differs == 1 ? "s" : "");
	return rc;
}

static const struct gl_opt validate_opts[] = {
	GL_NUM("device", "N", 0, 63, 0, "the GPU to use (see 'gpulab devices'), default 0"),
	GL_FLAG("strict", 0, "exit 1 when an exact count differs between the simulator and the GPU"),
	{0},
};

const struct gl_cmd gl_cmd_validate_entry = {
	.no_formats = GL_NO_CSV,
	.complete = "topic",
	.name = "validate",
	.usage = "[TOPIC] [--device N] [--strict] [--json]",
	.summary = "GPU only: every variant on the simulator and the GPU, counts side by side with ratios",
	.opts = validate_opts,
	.max_args = 1,
	.args_name = "one TOPIC at most",
	.help = "Both runs are stored (backend sim and cuda).  Requests, sectors and shared-memory instructions\n"
		"and wavefronts should agree exactly; the hardware bank-conflict counter reads high, so the\n"
		"wavefronts are shown beside it.  Instruction totals are the simulator's estimates of the SASS.\n"
		"A metric the GPU did not collect (no CUPTI metrics, see the note) is 'not collected', never a\n"
		"difference.  Exit 1 when a variant fails verification on either backend, or with --strict\n"
		"when an exact count differs.\n",
	.exec = validate_exec,
};

static const struct gl_cmd *self(void) { return &gl_cmd_validate_entry; }
