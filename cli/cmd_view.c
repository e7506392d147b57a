/* cmd_view.c — `gpulab view`: step through a recorded trace in the terminal (or print its frames).
 * The views (visualize/) draw from the latest stored trace of the topic/variant/problem; when the
 * database has none, one is recorded first on the simulator and stored like `gpulab run --trace`. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "run_options.h"
#include "common/util.h"
#include "visualize/view.h"
#include "visualize/view_states.h"

static const struct gl_cmd *self(void);

enum {
	OPT_TOPIC = 1, OPT_VARIANT, OPT_SIZE, OPT_FRAMES, OPT_PLAY, OPT_BLOCK, OPT_RUN, OPT_LAUNCH, OPT_PARAM, OPT_STEP,
	OPT_THREAD
};

#define MAX_PARAM_OPTS GL_RUN_MAX_PARAM_OPTS

struct view_opts {
	const char *what, *topic, *variant, *size;
	const char *param_names[MAX_PARAM_OPTS], *param_values[MAX_PARAM_OPTS];
	int nparams;
	long frames, block;
	long thread; /* --thread T: gemm's selected thread (-1: thread 0) */
	long step; /* --step K (1-based); 0: the first step that shows the view's point */
	long run, launch; /* --run N [--launch K]: a stored launch, of any kernel (0: not given) */
	bool play;
};

static int handle_option(struct gl_ctx *ctx, const struct gl_optval *a, struct view_opts *o)
{
	switch (a->opt->code) {
	case OPT_TOPIC: o->topic = a->value; return GL_OK;
	case OPT_VARIANT: o->variant = a->value; return GL_OK;
	case OPT_SIZE: o->size = a->value; return GL_OK;
	case OPT_PLAY: o->play = true; return GL_OK;
	case OPT_FRAMES: o->frames = gl_optval_long(a); return GL_OK;
	case OPT_STEP: o->step = gl_optval_long(a); return GL_OK;
	case OPT_BLOCK: o->block = gl_optval_long(a); return GL_OK;
	case OPT_THREAD: o->thread = gl_optval_long(a); return GL_OK;
	case OPT_RUN: o->run = gl_optval_long(a); return GL_OK;
	case OPT_LAUNCH: o->launch = gl_optval_long(a); return GL_OK;
	case OPT_PARAM:
		if (o->nparams >= MAX_PARAM_OPTS)
			return gl_usage_error(ctx, self(), "too many topic parameters (at most %d)", MAX_PARAM_OPTS);
		o->param_names[o->nparams] = a->opt->name;
		o->param_values[o->nparams++] = a->value;
		return GL_OK;
	default: return gl_errf(&ctx->err, GL_EINTERNAL, "unhandled option --%s", a->opt->name);
	}
}

static int parse(struct gl_ctx *ctx, int argc, char **argv, struct view_opts *o)
{
	struct gl_opt params[MAX_PARAM_OPTS + 1];
	struct gl_args args;
	gl_topic_param_options(params, MAX_PARAM_OPTS + 1, OPT_PARAM);
	int rc = gl_cmd_parse_extra(ctx, self(), params, argc, argv, &args);
	if (rc)
		return rc;
	o->block = -1;
	o->thread = -1;
	for (int i = 0; i < args.nopts; i++)
		if ((rc = handle_option(ctx, &args.opts[i], o)))
			return rc;
	o->what = args.pos[0];
	return GL_OK;
}

/* "coalesce, banks, gemm, conv": the view table's names, for messages. */
static void view_names(char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (const struct view_entry *v = view_table; v->name && len < n; v++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", v == view_table ? "" : ", ", v->name);
}

static int unknown_view(struct gl_ctx *ctx, const char *what)
{
	const char *names[64];
	size_t n = 0;
	for (const struct view_entry *v = view_table; v->name; v++)
		names[n++] = v->name;
	for (const struct gl_topic *const *t = gl_topics; *t && n < GL_ARRAY_LEN(names); t++)
		names[n++] = (*t)->name;
	const char *near = gl_suggest(what, names, n);
	if (near)
		return gl_usage_error(ctx, self(), "no view or topic '%s' (did you mean '%s'?)", what, near);
	char views[256];
	view_names(views, sizeof views);
	return gl_usage_error(ctx, self(), "no view or topic '%s': views are %s; topics in 'gpulab list'", what, views);
}

/* "banks"/"coalesce"/"gemm" name a view; a topic name picks that topic's natural view. */
static int resolve(struct gl_ctx *ctx, const struct view_opts *o, enum gl_topic_view *kind, const struct gl_topic **t)
{
	const char *topic = o->topic;
	const struct view_entry *named = view_find(o->what);
	if (named) {
		*kind = named->kind;
		if (!topic)
			topic = named->topic;
	} else {
		if (!gl_topic_find(o->what))
			return unknown_view(ctx, o->what);
		if (o->topic && strcmp(o->topic, o->what) != 0)
			return gl_usage_error(ctx, self(), "two topics given: '%s' and --topic %s", o->what, o->topic);
		topic = o->what;
		const struct gl_topic *tt = gl_topic_find(topic);
		*kind = tt->view;
	}
	if (*kind == GL_VIEW_GEMM && topic && strcmp(topic, "gemm") != 0)
		return gl_usage_error(ctx, self(), "the gemm view shows the gemm topic, not %s", topic);
	if (*kind == GL_VIEW_MMA && topic && strcmp(topic, "hgemm") != 0)
		return gl_usage_error(ctx, self(), "the mma view shows the hgemm topic, not %s", topic);
	if (*kind == GL_VIEW_CONV && topic && strcmp(topic, "conv2d") != 0)
		return gl_usage_error(ctx, self(), "the conv view shows the conv2d topic, not %s", topic);
	if (*kind == GL_VIEW_FLASH && topic && strcmp(topic, "attention") != 0)
		return gl_usage_error(ctx, self(), "the flash view shows the attention topic, not %s", topic);
	if (*kind == GL_VIEW_REDUCE && topic && strcmp(topic, "reduce") != 0)
		return gl_usage_error(ctx, self(), "the reduce view shows the reduce topic, not %s (any kernel's trace: "
				      "--run N)", topic);
	if (!topic)
		return gl_usage_error(ctx, self(), "view %s needs --topic T (e.g. --topic transpose --variant %s)",
		                      o->what, *kind == GL_VIEW_BANKS ? "coalesced" : "naive");
	return gl_topic_lookup(topic, t, &ctx->err);
}

/* --size N / --PARAM V over the views' small defaults; *explicit says whether any was given. */
static int build_problem(struct gl_ctx *ctx, const struct gl_topic *t, const struct view_opts *o, struct gl_problem *p,
                         bool *explicit)
{
	gl_topic_view_problem(t, p);
	*explicit = o->size || o->nparams;
	return gl_problem_apply_options(ctx, self(), t, o->size, o->param_names, o->param_values, o->nparams, p);
}

/* The latest matching stored trace, read without writing; *found false when there is none (or no
 * database yet). */
static int find_stored(struct gl_ctx *ctx, const char *path, const struct gl_topic *t, const struct gl_variant *v,
                       const struct gl_problem *p, bool explicit, struct view_trace *tr, bool *found)
{
	struct stat st;
	struct gl_store *store = NULL;
	*found = false;
	if (stat(path, &st) != 0 || st.st_size == 0)
		return GL_OK;
	char *json = gl_problem_json(t, p);
	long id = 0;
	int rc = gl_store_open(path, 1, &store, &ctx->err);
	if (rc == GL_OK)
		rc = gl_store_find_traced_launch(store, t->name, v->name, explicit ? json : NULL, &id, &ctx->err);
	if (rc == GL_OK && id) {
		rc = view_load(store, id, tr, &ctx->err);
		*found = rc == GL_OK;
	}
	gl_store_close(store);
	free(json);
	return rc;
}

/* Compute a trace on the simulator, in memory: nothing is stored until the view has accepted it. */
static int compute(struct gl_ctx *ctx, const struct gl_topic *t, const struct gl_variant *v,
                   const struct gl_problem *p, struct gl_device_info *dev, struct gl_launch_record *rec,
                   struct view_trace *tr)
{
	char *json = gl_problem_json(t, p);
	gl_note(ctx, "no stored trace of %s %s %s; recording one on the simulator", t->name, v->name, json);
	free(json);
	struct gl_session_env env = gl_cli_session_env(ctx);
	int rc = gl_session_compute_trace(&env, t, v, p, dev, rec);
	return rc == GL_OK ? view_from_record(rec, tr, &ctx->err) : rc;
}

static int store(struct gl_ctx *ctx, const char *path, const struct gl_device_info *dev,
                 struct gl_launch_record *rec, struct view_trace *tr)
{
	struct gl_store *s = NULL;
	struct gl_session_env env = gl_cli_session_env(ctx);
	int rc = gl_store_open(path, 0, &s, &ctx->err);
	if (rc == GL_OK)
		rc = gl_session_store_trace(&env, s, dev, rec, &tr->launch_id, &tr->run_id);
	gl_store_close(s);
	if (rc == GL_OK)
		snprintf(tr->origin, sizeof tr->origin,
		         "no stored trace: recorded now on the simulator (run %ld, launch %ld)", tr->run_id,
		         tr->launch_id);
	return rc;
}

/* The view table's name of a kind of view. */
static const char *view_kind_name(enum gl_topic_view kind)
{
	for (const struct view_entry *v = view_table; v->name; v++)
		if (v->kind == kind)
			return v->name;
	return "?";
}

/* --thread is gemm's: refused for the other views before anything is computed. */
static int thread_for_gemm(struct gl_ctx *ctx, enum gl_topic_view kind, const struct view_opts *o)
{
	if (kind == GL_VIEW_GEMM || o->thread < 0)
		return GL_OK;
	return gl_usage_error(ctx, self(), "--thread selects the thread the gemm view follows; the %s view has none",
	                      view_kind_name(kind));
}

/* gemm's --thread: a thread of the CTA, selected before the view opens; frees the view when there is none. */
static int select_thread(struct gl_ctx *ctx, long thread, struct view_any *vs)
{
	struct view_gemm *g = &vs->u.ge;
	if (thread >= g->nthreads) {
		int n = g->nthreads;
		view_any_free(vs);
		return gl_usage_error(ctx, self(), "no thread %ld in a CTA of %d threads (--thread 0 to %d)", thread, n,
		                      n - 1);
	}
	g->ui->thread = (int)thread;
	return GL_OK;
}

/* Build the view's steps from the trace: this refuses a CTA outside the trace, a thread outside the CTA
 * and a variant without the accesses the view shows. */
static int build(struct gl_ctx *ctx, enum gl_topic_view kind, const struct view_trace *tr, const struct view_opts *o,
                 struct view_any *vs)
{
	int rc = view_any_build(vs, kind, tr, o->block, &ctx->err);
	if (rc || kind != GL_VIEW_GEMM || o->thread < 0)
		return rc;
	return select_thread(ctx, o->thread, vs);
}

static int show(struct gl_ctx *ctx, const struct view_any *vs, const struct view_opts *o)
{
	if (o->frames)
		return view_print_frames_from(vs->ops, vs->state, (int)o->step - 1, (int)o->frames, stdout);
	view_tui_color((int)ctx->color_mode); /* GL_COLOR_AUTO, _ALWAYS, _NEVER in that order */
	return view_tui_run_at(vs->ops, vs->state, o->play, (int)o->step - 1, &ctx->err);
}

/* Everything that can refuse the request is checked before anything is written: the terminal, the view,
 * topic, variant and sizes, the database (gl_store_check writes nothing), and the view built from the
 * trace (CTA in range, the accesses it shows); only then is a newly computed trace stored. */
static int view_trace_run(struct gl_ctx *ctx, enum gl_topic_view kind, const struct gl_topic *t,
                          const struct gl_variant *v, const struct gl_problem *p, bool explicit,
                          const struct view_opts *o)
{
	char path[PATH_MAX];
	struct view_trace tr;
	struct view_any vs;
	struct gl_device_info dev;
	struct gl_launch_record rec;
	bool found = false, built = false;
	memset(&tr, 0, sizeof tr);
	memset(&rec, 0, sizeof rec);
	int rc = gl_store_check(ctx->db_path, path, sizeof path, &ctx->err);
	if (rc == GL_OK)
		rc = find_stored(ctx, path, t, v, p, explicit, &tr, &found);
	if (rc == GL_OK && !found)
		rc = compute(ctx, t, v, p, &dev, &rec, &tr);
	if (rc == GL_OK)
		rc = build(ctx, kind, &tr, o, &vs);
	built = rc == GL_OK;
	if (rc == GL_OK && !found)
		rc = store(ctx, path, &dev, &rec, &tr);
	if (rc == GL_OK)
		rc = show(ctx, &vs, o);
	if (built)
		view_any_free(&vs);
	gl_launch_record_free(&rec);
	view_trace_free(&tr);
	return rc;
}

/* --run N [--launch K]: view a stored launch as it is, whatever kernel recorded it (gpulab run --trace,
 * gpulab sim --trace); nothing is computed or written. */
static int view_stored_launch(struct gl_ctx *ctx, const struct view_opts *o)
{
	const struct view_entry *named = view_find(o->what);
	if (!named)
	{
		char views[256];
		view_names(views, sizeof views);
		return gl_usage_error(ctx, self(), "with --run, say which view: %s (not '%s')", views, o->what);
	}
	int rc = thread_for_gemm(ctx, named->kind, o);
	if (rc)
		return rc;
	if (o->topic || o->variant || o->size || o->nparams)
		return gl_usage_error(ctx, self(), "--run shows a stored launch as it was recorded: no --topic, "
		                      "--variant, --size or topic parameters with it");
	if (!o->frames && view_tui_check(&ctx->err))
		return ctx->err.status;
	struct gl_store *store = NULL;
	struct view_trace tr;
	struct view_any vs;
	long id = o->launch;
	memset(&tr, 0, sizeof tr);
	rc = gl_store_open(ctx->db_path, 1, &store, &ctx->err);
	if (rc == GL_OK)
		rc = gl_store_find_run_launch(store, o->run, o->launch, &id, &ctx->err);
	if (rc == GL_OK)
		rc = view_load(store, id, &tr, &ctx->err);
	gl_store_close(store);
	if (rc == GL_OK && (rc = build(ctx, named->kind, &tr, o, &vs)) == GL_OK) {
		rc = show(ctx, &vs, o);
		view_any_free(&vs);
	}
	view_trace_free(&tr);
	return rc;
}

/* Does the variant's kernel access shared memory?  Read from its PTX entry: ld/st/atom.shared or ldmatrix. */
static bool uses_shared(const struct gl_topic *t, const struct gl_variant *v)
{
	char head[160];
	snprintf(head, sizeof head, ".entry %s(", v->entry);
	const char *body = t->ptx ? strstr(t->ptx, head) : NULL;
	if (!body)
		return false;
	const char *end = strstr(body + strlen(head), ".entry ");
	size_t len = end ? (size_t)(end - body) : strlen(body);
	static const char *const ops[] = {"ld.shared", "st.shared", "atom.shared", "ldmatrix", "cp.async"};
	for (size_t i = 0; i < GL_ARRAY_LEN(ops); i++) {
		const char *hit = strstr(body, ops[i]);
		if (hit && (size_t)(hit - body) < len)
			return true;
	}
	return false;
}

/* The variant shown without --variant: the named view's own default; for the banks view the topic's
 * first variant that touches shared memory (a banks view of a kernel without shared accesses has nothing
 * to show); else the topic's first. */
static const char *default_variant(const struct view_opts *o, enum gl_topic_view kind, const struct gl_topic *t)
{
	const struct view_entry *named = view_find(o->what);
	for (const struct view_entry *v = view_table; !named && v->name; v++)
		if (v->kind == t->view)
			named = v;
	if (named && named->variant && gl_variant_find(t, named->variant))
		return named->variant;
	for (int i = 0; kind == GL_VIEW_BANKS && i < t->nvariants; i++)
		if (uses_shared(t, &t->variants[i]))
			return t->variants[i].name;
	return t->variants[0].name;
}

static int exec_view(struct gl_ctx *ctx, int argc, char **argv)
{
	struct view_opts o;
	memset(&o, 0, sizeof o);
	int rc = parse(ctx, argc, argv, &o);
	if (rc)
		return rc;
	if (o.launch && !o.run)
		return gl_usage_error(ctx, self(), "--launch K picks a launch of --run N; give --run too");
	if (o.run)
		return view_stored_launch(ctx, &o);
	enum gl_topic_view kind = GL_VIEW_COALESCE;
	const struct gl_topic *t;
	const struct gl_variant *v;
	struct gl_problem p;
	bool explicit;
	if ((rc = resolve(ctx, &o, &kind, &t)) ||
	    (rc = gl_variant_lookup(t, o.variant ? o.variant : default_variant(&o, kind, t), &v, &ctx->err)) ||
	    (rc = build_problem(ctx, t, &o, &p, &explicit)))
		return rc;
	if ((rc = thread_for_gemm(ctx, kind, &o)))
		return rc;
	if (kind == GL_VIEW_FLASH && strncmp(v->name, "flash", 5) != 0)
		return gl_usage_error(ctx, self(), "the flash view steps through flash1, flash2 or flash2_mma, not %s "
		                      "(its traffic: gpulab run attention --variant %s)", v->name, v->name);
	if (!o.frames && (rc = view_tui_check(&ctx->err)))
		return rc;
	return view_trace_run(ctx, kind, t, v, &p, explicit, &o);
}

static const struct gl_opt view_opts[] = {
	GL_STR("topic", "T", OPT_TOPIC, "the topic (banks, coalesce; gemm implies gemm)"),
	GL_STR("variant", "V", OPT_VARIANT, "the variant (default: the topic's first; banks: its first with shared accesses)"),
	GL_STR("size", "N", OPT_SIZE, "set every size parameter"),
	GL_NUM("block", "B", 0, 1L << 40, OPT_BLOCK,
	       "only CTA B (traces keep the first 2 CTAs; gemm shows the first by default)"),
	GL_NUM("thread", "T", 0, 1023, OPT_THREAD, "gemm: the thread whose register tile and reads are shown (default 0)"),
	GL_NUM("frames", "N", 1, 1000000, OPT_FRAMES,
	       "print N frames as text from the step the view opens on (80 columns, each 'step K/TOTAL')"),
	GL_NUM("step", "K", 1, 1L << 30, OPT_STEP,
	       "open on step K (default: the first that shows the point; mma and flash: step 1)"),
	GL_FLAG("play", OPT_PLAY, "start playing instead of paused"),
	GL_NUM("run", "N", 1, 1L << 62, OPT_RUN, "show a stored launch of run N as it was recorded"),
	GL_NUM("launch", "K", 1, 1L << 62, OPT_LAUNCH, "with --run: the launch (default: its first traced)"),
	{0},
};

const struct gl_cmd gl_cmd_view_entry = {
	.topic_params = true,
	.no_formats = GL_TEXT_ONLY,
	.complete = "view",
    .name = "view",
    .usage = "gemm|mma|banks|coalesce|conv|flash|reduce|TOPIC [--topic T] [--variant V] [--size N | --PARAM V ...] [--frames N] [--play]\n"
             "       gpulab view gemm|mma|banks|coalesce|conv|flash|reduce --run N [--launch K] [--frames N] [--play]",
    .summary = "step through a recorded memory trace: GEMM tiles, shared-memory banks, global coalescing, reductions",
    .help = "views:\n"
            "  gemm        one k per step: the grid of CTA tiles over C, the K slab of A and B, As/Bs as filled,\n"
            "              every warp's C elements, the selected thread's register tile and what it reads at k\n"
            "  mma         hgemm on tensor cores: the m16n8k16 fragment map (a step per lane), each ldmatrix of a\n"
            "              warp beside its swizzled counterpart, the CTA's K loop down to its warps' mma tiles\n"
            "  banks       one warp's shared-memory access per step: 32 banks, the wavefront serving each lane\n"
            "  coalesce    one warp's global access per step: its lanes, 32-byte sectors and 128-byte lines\n"
            "  flash       a FlashAttention CTA (--variant flash1|flash2|flash2_mma, default flash2): the Q and K/V\n"
            "              blocks combined per step, running max m and sum l before/after, O's rescale, traffic\n"
            "  conv        conv2d's implicit GEMM, one warp load of x per step, by output tile: the pixels its\n"
            "              lanes read, the im2col elements A(m, kk) that are a pixel, the loads so far\n"
            "  reduce      a reduction (--variant atomic|shared_tree|warp_shuffle|two_stage, default shared_tree)\n"
            "              step by step between barriers: the shared-memory tree's levels with their active lanes,\n"
            "              banks and idle warps, the shuffle rounds' lane pairs, the two-stage grid reduction\n"
            "  TOPIC       shorthand: gemm -> gemm, hgemm -> mma, smem_patterns -> banks, conv2d -> conv,\n"
            "              attention -> flash, reduce -> reduce, others -> coalesce\n"
            "--PARAM V sets one topic parameter (default: small sizes, e.g. gemm 256).  --run shows a launch of\n"
            "any kernel as it was recorded (gpulab run --trace, gpulab sim --trace).\n"
            "The latest stored trace of the topic/variant (and sizes, when given) is shown; without one, the variant\n"
            "runs on the simulator with --trace first and that run is stored.\n"
            "Each view has one point, which ] [ find: banks an access with bank conflicts; coalesce one with more\n"
            "sectors than ideal; gemm a new K step; mma an ldmatrix or K step with bank conflicts; flash a K/V\n"
            "block that raises a row's max (O rescaled); conv a load that re-reads pixels of its tile; reduce a\n"
            "step with idle warps or bank conflicts.  A view opens on its first point; mma and flash open on\n"
            "step 1 (the fragment map, the first block).\n"
            "keys: space play/pause, n/p step, Home/End first/last, ] [ next/previous step that shows the point,\n"
            "} { next/previous group (banks, coalesce: warp; conv: output tile; reduce: barrier interval), +/-\n"
            "speed, g go to step, ? help, q or Esc quit; a frame larger than the terminal scrolls: PgDn/PgUp a\n"
            "page, j/k a row, > < across (the top row says which rows are shown); gemm fits itself instead: z\n"
            "zoom (one C element per cell), H J K L pan, t/T thread, v next page\n",
    .opts = view_opts,
    .min_args = 1,
    .max_args = 1,
    .args_missing = "view needs what to show: a view (gemm, mma, banks, coalesce, conv, flash, reduce) or a TOPIC",
    .args_name = "one view or TOPIC",
    .exec = exec_view,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_view_entry;
}
