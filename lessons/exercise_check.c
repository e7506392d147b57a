/* exercise_check.c — `gpulab exercise check NAME [FILE]`: compile the learner's file once (nvcc, through
 * the PTX cache, with its messages on the learner's lines), find the kernel and check its signature, run
 * it in the simulator at every size of the exercise under the sanitizer and compare with the CPU
 * reference, then run the measured size with a trace, store it as a run (topic "exercise", variant the
 * exercise's id) and evaluate the goals against it with the lessons' check language. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "lessons/exercise.h"
#include "render/render.h"
#include "session/session.h"
#include "store/store.h"
#include "toolchain/toolchain.h"

#define EX_SEED 1 /* exercise_compare builds the reference's inputs with the same seed */
/* Warp instructions per CTA before a kernel is stopped: every exercise's largest CTA needs well under a
 * million, so an endless loop stops within seconds (`gpulab sim`'s default is 20 million). */
#define EX_BUDGET 2000000ull

struct checked {
	struct ptx_module *m;
	const struct ptx_function *fn;
	char *ptx;
};

static bool size_matches(const struct ptx_param *p, const struct ex_param *want)
{
	unsigned bytes = want->pointer ? 8 : (unsigned)gl_dtype_size(want->dtype);
	if (p->size != bytes || p->is_array)
		return false;
	bool f = p->type == PT_F32 || p->type == PT_F64;
	return want->pointer || f == (want->dtype == GL_F32 || want->dtype == GL_F64);
}

static int signature_error(const struct gl_session_env *env, const struct exercise *e, const char *why)
{
	char sig[512];
	exercise_signature(e, sig, sizeof sig);
	return gl_errf(env->err, GL_EUSAGE, "%s; the exercise expects:\n  %s\n(extern \"C\" keeps the name as "
		       "written; 'gpulab exercise start %s --dir DIR' writes a file with it)", why, sig, e->name);
}

/* The kernel named e->kernel with e's parameter list, or a GL_EUSAGE error naming the expected one. */
static int find_kernel(const struct gl_session_env *env, const struct exercise *e, const char *file, struct checked *c)
{
	int rc = gl_simsrc_load(file, NULL, &c->ptx, env->err);
	if (rc)
		return rc;
	size_t n = strlen(file);
	unsigned cuda = n > 3 && strcmp(file + n - 3, ".cu") == 0 ? PTX_PARSE_CUDA_LINES : 0; /* .ptx: as written */
	if ((rc = ptx_parse_ex(c->ptx, file, PTX_PARSE_LAZY | cuda, &c->m, env->err)))
		return rc;
	for (int i = 0; i < c->m->nfuncs; i++)
		if (c->m->funcs[i].is_entry && strcmp(c->m->funcs[i].name, e->kernel) == 0)
			c->fn = &c->m->funcs[i];
	char why[512];
	if (!c->fn) {
		size_t k = (size_t)snprintf(why, sizeof why, "'%s' has no kernel named '%s' (kernels found:", file, e->kernel);
		int found = 0;
		bool mangled = false;
		for (int i = 0; i < c->m->nfuncs && k < sizeof why; i++)
			if (c->m->funcs[i].is_entry) {
				char base[256];
				gl_simsrc_base_name(c->m->funcs[i].name, base, sizeof base);
				mangled |= strcmp(base, e->kernel) == 0;
				k += (size_t)snprintf(why + k, sizeof why - k, " %s", c->m->funcs[i].name), found++;
			}
		if (k < sizeof why)
			snprintf(why + k, sizeof why - k, "%s)%s", found ? "" : " none",
				 mangled ? ": that is a C++ name for it; declare the kernel extern \"C\"" : "");
		return signature_error(env, e, why);
	}
	if (c->fn->nparams != e->nparams) {
		snprintf(why, sizeof why, "kernel '%s' takes %d parameter%s, not %d", e->kernel, c->fn->nparams,
			 c->fn->nparams == 1 ? "" : "s", e->nparams);
		return signature_error(env, e, why);
	}
	for (int i = 0; i < e->nparams; i++)
		if (!size_matches(&c->fn->params[i], &e->params[i])) {
			snprintf(why, sizeof why, "kernel '%s': parameter %d is not '%s'", e->kernel, i + 1,
				 e->params[i].decl);
			return signature_error(env, e, why);
		}
	if ((rc = ptx_check_function(c->m, c->fn, env->err)))
		return rc;
	char nosass[160];
	char *sass = gl_simsrc_sass(c->ptx, nosass, sizeof nosass);
	gl_sim_apply_sass(c->m, sass, nosass);
	free(sass);
	return GL_OK;
}

static void print_findings(FILE *out, const struct gl_sim_result *res)
{
	struct gl_sanitizer_summary s = {res->findings, res->nfindings, res->nerrors, res->findings_total - res->nerrors,
					 res->findings_dropped, res->aborted, true};
	gl_simprint_findings(out, &s, 3);
}

static void print_mismatch(FILE *out, const struct ex_mismatch *mm)
{
	fprintf(out, "    first wrong element: %s[%ld]%s: expected %.9g, got %.9g\n", mm->buffer, mm->index, mm->where,
		mm->expected, mm->got);
	fprintf(out, "    %ld element%s outside the tolerance\n", mm->bad, mm->bad == 1 ? "" : "s");
	if (mm->all_zero)
		fprintf(out, "    %s holds only zeros: the kernel wrote nothing to it (is the body still the starter's "
			     "TODO?)\n", mm->buffer);
}

/* Run one size; *ok tells whether it was correct and clean.  res is the caller's to free. */
static int run_size(const struct gl_session_env *env, const struct exercise *e, const struct checked *c, const struct ex_size *s,
		    const struct ex_check_opts *o, bool trace, struct gl_launch *l, struct gl_sim_result *res, bool *ok,
		    FILE *out)
{
	char size[96];
	exercise_size_str(e, s, size, sizeof size);
	int rc = exercise_launch(e, s, EX_SEED, l, env->err);
	if (rc)
		return rc;
	l->module = c->ptx;
	l->module_name = o->file;
	l->entry = c->fn->name;
	struct gl_sim_opts so = {.threads = o->threads, .trace = trace,
				 .max_instructions = o->max_instructions ? o->max_instructions : EX_BUDGET};
	if ((rc = gl_sim_run(c->m, l, &so, res, env->err)))
		return rc;
	struct ex_mismatch mm = {.ok = true};
	if (res->aborted || res->nerrors) {
		*ok = false;
		fprintf(out, "FAIL  %-24s %s\n", size, res->aborted ? "the kernel was stopped" : "sanitizer errors");
		if (res->aborted && res->nfindings && strcmp(res->findings[0].kind, "budget") == 0)
			fprintf(out, "    it ran past the budget of warp instructions per CTA: an endless loop? (a loop "
				     "whose condition never changes, or a barrier some threads skip); --max-instructions "
				     "raises the budget\n");
		print_findings(out, res);
		return GL_OK;
	}
	if ((rc = exercise_compare(e, s, l, &mm, env->err)))
		return rc;
	*ok = mm.ok;
	fprintf(out, "%s  %-24s %s\n", mm.ok ? "ok  " : "FAIL", size, mm.ok ? "matches the reference" : "wrong result");
	if (!mm.ok)
		print_mismatch(out, &mm);
	return GL_OK;
}

/* The sizes in order, up to the first that fails (its findings or first wrong element are what to fix;
 * an endless loop is not run into again at every size); *all_ok when each was correct and clean. */
static int check_sizes(const struct gl_session_env *env, const struct exercise *e, const struct checked *c,
		       const struct ex_check_opts *o, bool *all_ok, FILE *out)
{
	*all_ok = true;
	for (int i = 0; i < e->nsizes; i++) {
		struct gl_launch l = {0};
		struct gl_sim_result res = {0};
		bool ok = false;
		int rc = run_size(env, e, c, &e->sizes[i], o, false, &l, &res, &ok, out);
		gl_sim_result_free(&res);
		gl_launch_free(&l);
		if (rc)
			return rc;
		if (!ok) {
			*all_ok = false;
			if (i + 1 < e->nsizes)
				fprintf(out, "      (%d more size%s not run until this one passes)\n", e->nsizes - i - 1,
					e->nsizes - i - 1 == 1 ? "" : "s");
			break;
		}
	}
	return GL_OK;
}

static void goal_line(FILE *out, const struct exercise *e, const struct ex_check_opts *o, const struct ex_goal *g,
		      const struct lesson_check_result *r, long run_id)
{
	if (r->why[0]) {
		fprintf(out, "FAIL  goal  %s\n    cannot evaluate: %s\n", g->check.text, r->why);
		return;
	}
	fprintf(out, "%s  goal  %s   (measured %.6g, goal %s %.6g)\n", r->passed ? "ok  " : "FAIL", g->check.text,
		r->lhs, lesson_cmp_str(g->check.cmp), r->rhs);
	if (!r->passed && g->view[0]) {
		char args[96], view[2200];
		snprintf(args, sizeof args, "view %s --run %ld", g->view, run_id);
		o->hint(o->hint_user, args, view, sizeof view);
		fprintf(out, "    why: %s    (the measured launch, %s)\n", view, e->id);
	}
}

/* Count what the simulator counted as zero too: a goal on an unused unit (HMMA) reads 0, not nothing. */
static void zero_unused(struct gl_metrics *m)
{
	for (size_t i = 0; gl_sim_metric_name(i); i++) {
		bool have = false;
		for (size_t k = 0; k < m->n; k++)
			have |= strcmp(m->items[k].name, gl_sim_metric_name(i)) == 0;
		if (!have)
			gl_metrics_set(m, gl_sim_metric_name(i), 0, gl_sim_metric_unit(i));
	}
}

static int evaluate_goals(const struct gl_session_env *env, const struct exercise *e, const struct ex_check_opts *o,
			  long run_id, bool *met, FILE *out)
{
	struct gl_store *store = NULL;
	int rc = gl_store_open(env->db_path, 1, &store, env->err);
	*met = true;
	for (int i = 0; rc == GL_OK && i < e->ngoals; i++) {
		struct lesson_check_result r;
		if ((rc = lesson_check_eval(store, NULL, 0, &e->goals[i].check, &r, env->err)) == GL_OK) {
			goal_line(out, e, o, &e->goals[i], &r, run_id);
			*met &= r.passed;
		}
	}
	gl_store_close(store);
	return rc;
}

/* {"exercise": NAME, "file": FILE}, what the stored launch was. */
struct measured_params {
	const struct exercise *e;
	const char *file;
};

static void write_params(struct gl_json *j, const void *arg)
{
	const struct measured_params *m = arg;
	gl_json_begin_object(j, NULL);
	gl_json_string(j, "exercise", m->e->name);
	gl_json_string(j, "file", m->file);
	gl_json_end_object(j);
}

/* The measured launch stored as a run of its own through a session (guidance like any run): topic
 * EX_TOPIC, the exercise's id as the variant, every counter the simulator has (zero where unused). */
static int store_measured(const struct gl_session_env *env, const struct exercise *e, const struct checked *c,
			  const struct ex_check_opts *o, const struct gl_launch *l, const struct gl_sim_result *res,
			  bool ok, long *run_id)
{
	struct gl_launch_record rec;
	struct gl_device_info dev;
	gl_sim_record(c->fn, l, res, &rec);
	zero_unused(&rec.metrics);
	snprintf(rec.topic, sizeof rec.topic, "%s", EX_TOPIC);
	snprintf(rec.variant, sizeof rec.variant, "%.31s", e->id);
	rec.params_json = gl_json_to_string(write_params, &(struct measured_params){e, o->file});
	rec.verified = ok;
	gl_session_sim_device(res->threads, &dev);
	struct gl_session *s = gl_session_new(env, "sim", &dev);
	gl_session_add(s, &rec);
	int rc = gl_session_store(s, NULL, run_id, NULL);
	gl_session_free(s);
	return rc;
}

/* The measured size: correct and clean, stored with a trace, then the goals. */
static int measure(const struct gl_session_env *env, const struct exercise *e, const struct checked *c,
		   const struct ex_check_opts *o, bool *met, long *run_id, FILE *out)
{
	struct gl_launch l = {0};
	struct gl_sim_result res = {0};
	bool ok = false;
	char size[96];
	exercise_size_str(e, &e->measure, size, sizeof size);
	fprintf(out, "\nefficiency, measured at %s:\n", size);
	int rc = run_size(env, e, c, &e->measure, o, true, &l, &res, &ok, out);
	if (rc == GL_OK && (rc = store_measured(env, e, c, o, &l, &res, ok, run_id)) == GL_OK) {
		char args[32], report[2200];
		snprintf(args, sizeof args, "report %ld", *run_id);
		o->hint(o->hint_user, args, report, sizeof report);
		fprintf(out, "stored as run %ld (%s)\n", *run_id, report);
	}
	if (rc == GL_OK && ok)
		rc = evaluate_goals(env, e, o, *run_id, met, out);
	*met &= ok;
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	return rc;
}

int ex_check(const struct gl_session_env *env, const struct exercise *e, const struct ex_check_opts *o, FILE *out, long *run_id)
{
	struct checked c = {0};
	*run_id = 0;
	int rc = find_kernel(env, e, o->file, &c);
	bool correct = false, met = false;
	if (rc == GL_OK) {
		fprintf(out, "exercise %s: checking %s (kernel %s)\n\ncorrectness (simulator + sanitizer, against the "
			     "reference '%s'):\n", e->name, o->file, e->kernel, e->reference);
		rc = check_sizes(env, e, &c, o, &correct, out);
	}
	if (rc == GL_OK && correct)
		rc = measure(env, e, &c, o, &met, run_id, out);
	if (rc == GL_OK) {
		if (!correct)
			fprintf(out, "\nnot yet: fix the result first (the goals are measured once every size is right); "
				     "'gpulab exercise hint %s' gives a hint\n", e->name);
		else if (!met)
			fprintf(out, "\ncorrect, but not efficient enough yet: 'gpulab exercise hint %s' gives a hint\n",
				e->name);
		else
			fprintf(out, "\nPASSED: correct at every size and every goal met ('gpulab exercise solution %s' "
				     "shows the reference solution)\n", e->name);
	}
	free(c.ptx);
	ptx_module_free(c.m);
	return rc ? rc : correct && met ? GL_OK : GL_EVERIFY;
}
