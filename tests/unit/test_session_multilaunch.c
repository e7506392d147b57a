/* test_session_multilaunch.c — a variant of two kernel launches through the runner and the store: a test
 * topic transposes `in` into `mid` and `mid` back into `out` (transpose.cu's kernels), so `out` equals
 * `in` only when the second launch ran on the first one's output.  The record holds the total and each
 * launch; the store keeps them as rows part 0, 1, 2 and loads them back nested; the lesson lookup of a
 * variant finds its total. */
#include <stdlib.h>

#include "session/session_int.h"
#include "tests/unit/check.h"

extern const char gl_ptx_transpose[], gl_res_sm80_transpose[], gl_res_sm90_transpose[];

static const struct gl_param params[] = {{"rows", "rows", 40, 1, 1024, true, NULL}, {"cols", "cols", 72, 1, 1024, true, NULL}};
static const struct gl_variant variants[] = {{"twice", "transpose_naive", "transpose, then transpose back"}};

static void describe(struct gl_launch *l, const char *entry, int dst, int src, long rows, long cols)
{
	l->entry = entry;
	gl_launch_arg_buffer(l, dst);
	gl_launch_arg_buffer(l, src);
	gl_launch_arg_scalar(l, (uint32_t)rows, 4);
	gl_launch_arg_scalar(l, (uint32_t)cols, 4);
	l->grid[0] = (unsigned)((cols + 31) / 32);
	l->grid[1] = (unsigned)((rows + 31) / 32);
	l->grid[2] = 1;
	l->block[0] = 32;
	l->block[1] = 8;
	l->block[2] = 1;
}

static int setup(const struct gl_variant *v, const struct gl_problem *p, const struct gl_geometry *g,
		 struct gl_launch *l, struct gl_err *err)
{
	(void)g; /* a topic without a geometry function gets none */
	(void)v;
	long rows = p->v[0], cols = p->v[1];
	size_t n = (size_t)rows * (size_t)cols;
	int out = gl_launch_add_buffer(l, "out", GL_F32, n, 1);
	int in = gl_launch_add_buffer(l, "in", GL_F32, n, 0);
	int mid = gl_launch_add_buffer(l, "mid", GL_F32, n, 1);
	if (gl_launch_check(l, err))
		return err->status;
	gl_fill_random_f32(l->buffers[in].host, n, p->seed);
	describe(l, "transpose_naive", mid, in, rows, cols);
	gl_launch_next(l);
	describe(l, "transpose_padded", out, mid, cols, rows);
	return GL_OK;
}

static int verify(const struct gl_variant *v, const struct gl_problem *p, const struct gl_launch *l,
		  const struct gl_topic *t, struct gl_verify *out, struct gl_err *err)
{
	(void)v;
	(void)err;
	gl_verify_f32(l->buffers[0].host, l->buffers[1].host, (size_t)p->v[0] * (size_t)p->v[1], t->atol, t->rtol, out);
	return GL_OK;
}

static const struct gl_topic topic = {
	.name = "twice", .summary = "test", .ptx = gl_ptx_transpose, .res_sm80 = gl_res_sm80_transpose,
	.res_sm90 = gl_res_sm90_transpose, .params = params, .nparams = 2, .variants = variants, .nvariants = 1,
	.setup = setup, .verify = verify,
};

static double metric(const struct gl_launch_record *l, const char *name)
{
	const double *v = gl_metrics_get(&l->metrics, name);
	return v ? *v : -1;
}

static void check_parts(const struct gl_launch_record *rec)
{
	CHECK_EQ(rec->part, 0);
	CHECK_EQ(rec->nparts, 2);
	CHECK_EQ(rec->verified, 1);
	CHECK_STR(rec->entry, "");
	if (rec->nparts != 2)
		return;
	CHECK_EQ(rec->parts[0].part, 1);
	CHECK_EQ(rec->parts[1].part, 2);
	CHECK_STR(rec->parts[0].entry, "transpose_naive");
	CHECK_STR(rec->parts[1].entry, "transpose_padded");
	CHECK_STR(rec->parts[1].variant, "twice");
	CHECK_EQ(rec->parts[0].grid[0], 3); /* 72 columns in */
	CHECK_EQ(rec->parts[1].grid[0], 2); /* 40 columns in */
	/* each launch reads 40*72 floats in 32-byte sectors (rows of 72 and 40 floats: 9 and 5 sectors) */
	CHECK_EQ(metric(&rec->parts[0], GL_M_GLD_SECT), 40 * 9);
	CHECK_EQ(metric(&rec->parts[1], GL_M_GLD_SECT), 72 * 5);
	CHECK_EQ(metric(rec, GL_M_GLD_SECT), metric(&rec->parts[0], GL_M_GLD_SECT) + metric(&rec->parts[1], GL_M_GLD_SECT));
	CHECK_EQ(metric(rec, GL_M_INST), metric(&rec->parts[0], GL_M_INST) + metric(&rec->parts[1], GL_M_INST));
	/* the padded transpose's shared memory is conflict-free; the naive one has none */
	CHECK(metric(&rec->parts[1], GL_M_SLD_WF) > 0);
	CHECK_EQ(metric(&rec->parts[0], GL_M_SLD_WF), metric(rec, GL_M_SLD_WF) - metric(&rec->parts[1], GL_M_SLD_WF));
}

int main(void)
{
	struct gl_problem p;
	gl_problem_defaults(&topic, &p);
	struct gl_backend_opts o = {.repeat = 1, .threads = 2, .trace = true};
	struct gl_err err = {0};
	void *ctx = NULL;
	struct gl_device_info dev = {0};
	struct gl_variant_outcome out;
	struct gl_launch_record rec;
	CHECK_EQ(gl_backend_sim.open(&o, &ctx, &err), GL_OK);
	CHECK_EQ(gl_backend_sim.describe(ctx, &dev, &err), GL_OK);
	CHECK_EQ(gl_session_variant(&gl_backend_sim, ctx, &dev, &topic, &variants[0], &p, &rec, &out, &err), GL_OK);
	gl_backend_sim.close(ctx);
	if (err.msg[0])
		fprintf(stderr, "%s\n", err.msg);
	CHECK(out.verify.ok);
	check_parts(&rec);
	CHECK(rec.ntrace == 0 && rec.nparts == 2 && rec.parts[0].ntrace > 0 && rec.parts[1].ntrace > 0);

	struct gl_store *s = NULL;
	CHECK_EQ(gl_store_open(":memory:", 0, &s, &err), GL_OK);
	struct gl_run_info info = {.backend = "sim", .argv = "test"};
	long run = 0, launch = 0, latest = 0;
	CHECK_EQ(gl_store_save_run(s, &info, &rec, 1, "ok", &run, &launch, &err), GL_OK);
	struct gl_run_record r;
	CHECK_EQ(gl_store_load_run(s, run, &r, &err), GL_OK);
	CHECK_EQ(r.nlaunches, 1); /* one variant, its launches nested */
	if (r.nlaunches == 1)
		check_parts(&r.launches[0]);
	CHECK_EQ(gl_store_latest_launch(s, "twice", "twice", &latest, &err), GL_OK);
	CHECK_EQ(latest, launch); /* the total, not the last launch */
	long traced = 0;
	CHECK_EQ(gl_store_find_traced_launch(s, "twice", "twice", NULL, &traced, &err), GL_OK);
	CHECK(traced > launch); /* a launch's row holds the trace */
	gl_run_record_free(&r);
	gl_store_close(s);
	gl_launch_record_free(&rec);
	CHECK_DONE();
}
