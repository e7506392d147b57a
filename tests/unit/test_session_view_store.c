/* test_session_view_store.c — a trace recorded by the simulator, stored and read back for the views: the
 * recomputed costs equal the simulator's, every event's address falls in the buffer (and base) the
 * simulator named, and the latest traced launch is found by topic/variant/params. */
#include <stdlib.h>

#include "session/session_int.h"
#include "tests/unit/check.h"
#include "visualize/view_trace.h"

static long record(struct gl_store *s, const char *topic, const char *variant, long size, struct gl_launch_record *rec)
{
	const struct gl_topic *t = gl_topic_find(topic);
	const struct gl_variant *v = gl_variant_find(t, variant);
	struct gl_problem p;
	gl_topic_view_problem(t, &p);
	for (int i = 0; i < t->nparams; i++)
		if (t->params[i].is_size)
			p.v[i] = size;
	struct gl_backend_opts o = {.trace = true, .repeat = 1, .threads = 2};
	struct gl_err err = {0};
	void *ctx = NULL;
	struct gl_device_info dev = {0};
	struct gl_variant_outcome out;
	CHECK_EQ(gl_backend_sim.open(&o, &ctx, &err), GL_OK);
	CHECK_EQ(gl_backend_sim.describe(ctx, &dev, &err), GL_OK);
	CHECK_EQ(gl_session_variant(&gl_backend_sim, ctx, &dev, t, v, &p, rec, &out, &err), GL_OK);
	gl_backend_sim.close(ctx);
	struct gl_run_info info = {.backend = "sim", .argv = "test"};
	long run = 0, launch = 0;
	CHECK_EQ(gl_store_save_run(s, &info, rec, 1, "ok", &run, &launch, &err), GL_OK);
	if (err.msg[0])
		fprintf(stderr, "%s\n", err.msg);
	return launch;
}

static void check_round_trip(struct gl_store *s, const char *topic, const char *variant, long size)
{
	struct gl_launch_record rec;
	long id = record(s, topic, variant, size, &rec);
	CHECK(rec.ntrace > 0);
	struct view_trace tr;
	struct gl_err err = {0};
	CHECK_EQ(view_load(s, id, &tr, &err), GL_OK);
	/* the memory accesses, in order, go to tr.ev; the barriers and shuffles to tr.sync (the store numbers
	 * the events of the launch in order: event i is seq i) */
	struct gl_trace_event *mem = calloc(rec.ntrace, sizeof *mem);
	uint32_t nmem = 0, nsync = 0, unmatched = 0;
	for (uint32_t i = 0; i < rec.ntrace; i++) {
		if (gl_trace_is_memory(&rec.trace[i])) {
			mem[nmem++] = rec.trace[i];
			continue;
		}
		nsync++;
		bool found = false;
		for (uint32_t k = 0; k < tr.nsync && !found; k++)
			found = tr.sync[k].block == rec.trace[i].block && tr.sync[k].seq == i &&
				tr.sync[k].op == rec.trace[i].op;
		unmatched += !found;
	}
	CHECK_EQ(tr.n, nmem);
	CHECK_EQ(tr.nsync, nsync);
	CHECK_EQ(unmatched, 0);
	CHECK_STR(tr.topic, topic);
	uint32_t bad_cost = 0, bad_base = 0;
	for (uint32_t i = 0; i < tr.n && i < nmem; i++) {
		const struct gl_trace_event *e = &tr.ev[i], *want = &mem[i];
		bad_cost += e->cost != want->cost;
		struct view_loc loc;
		uint64_t a = e->addrs[__builtin_ctz(e->mask)];
		bool ok = view_locate(&tr, e, a, &loc) && loc.buf->base == want->buffer_base &&
		          strcmp(loc.buf->name, want->buffer) == 0;
		bad_base += !ok;
	}
	CHECK_EQ(bad_cost, 0);
	CHECK_EQ(bad_base, 0);
	free(mem);
	view_trace_free(&tr);
	gl_launch_record_free(&rec);
}

static void test_round_trip(void)
{
	struct gl_store *s = NULL;
	struct gl_err err = {0};
	CHECK_EQ(gl_store_open(":memory:", 0, &s, &err), GL_OK);
	check_round_trip(s, "transpose", "coalesced", 64);
	check_round_trip(s, "transpose", "naive", 48); /* not a tile multiple: guarded edges */
	if (gl_topic_find("gemm")) {
		check_round_trip(s, "gemm", "smem", 64);
		check_round_trip(s, "gemm", "vectorized", 128); /* float4 global, transposed shared stores */
	}

	long id = 0;
	CHECK_EQ(gl_store_find_traced_launch(s, "transpose", "coalesced", NULL, &id, &err), GL_OK);
	CHECK_EQ(id, 1);
	CHECK_EQ(gl_store_find_traced_launch(s, "transpose", "naive", "{\"rows\":48,\"cols\":48}", &id, &err), GL_OK);
	CHECK_EQ(id, 2);
	CHECK_EQ(gl_store_find_traced_launch(s, "transpose", "naive", "{\"rows\":64,\"cols\":64}", &id, &err), GL_OK);
	CHECK_EQ(id, 0);
	CHECK_EQ(gl_store_find_traced_launch(s, "transpose", "padded", NULL, &id, &err), GL_OK);
	CHECK_EQ(id, 0);
	struct view_trace tr;
	CHECK_EQ(view_load(s, 99, &tr, &err), GL_EUSAGE);
	gl_store_close(s);
}

/* A warp_shuffle reduction's trace keeps its shuffles and barriers, stored and read back: each warp's
 * first shuffle (__shfl_down_sync by 16) has lane l read lane l + 16, the upper half its own value (the
 * source is past the warp), and every warp of each traced CTA arrives at the block's barrier. */
static void test_sync_events(void)
{
	struct gl_store *s = NULL;
	struct gl_err err = {0};
	struct gl_launch_record rec;
	CHECK_EQ(gl_store_open(":memory:", 0, &s, &err), GL_OK);
	long id = record(s, "reduce", "warp_shuffle", 4096, &rec); /* 2 CTAs of 8 warps, both traced */
	struct view_trace tr;
	CHECK_EQ(view_load(s, id, &tr, &err), GL_OK);
	int shfl_warps = 0, bar_warps = 0;
	bool first_seen[2][8] = {{false}};
	for (uint32_t i = 0; i < tr.nsync; i++) {
		const struct gl_trace_event *e = &tr.sync[i];
		if (e->op == GL_TRACE_BAR) {
			CHECK_EQ(e->space, GL_TRACE_CTA);
			CHECK_EQ(e->mask, 0xffffffffu);
			bar_warps++;
			continue;
		}
		CHECK_EQ(e->space, GL_TRACE_WARP);
		CHECK_EQ(e->op, GL_TRACE_SHFL);
		if (e->block > 1 || e->warp > 7 || first_seen[e->block][e->warp])
			continue;
		first_seen[e->block][e->warp] = true;
		shfl_warps++;
		for (int l = 0; l < 32; l++)
			CHECK_EQ(e->addrs[l], (uint64_t)(l < 16 ? l + 16 : l));
	}
	CHECK_EQ(shfl_warps, 16);
	CHECK_EQ(bar_warps, 16); /* block_reduce's one __syncthreads, 8 warps x 2 CTAs */
	view_trace_free(&tr);
	gl_launch_record_free(&rec);
	gl_store_close(s);
}

static void test_params(void)
{
	const struct gl_topic *t = gl_topic_find("transpose");
	struct gl_problem p;
	gl_problem_from_json(t, "{\"rows\":48,\"cols\":200}", &p);
	CHECK_EQ(p.v[0], 48);
	CHECK_EQ(p.v[1], 200);
	gl_problem_from_json(t, "{\"cols\": 7}", &p); /* a missing parameter keeps its default */
	CHECK_EQ(p.v[0], t->params[0].def);
	CHECK_EQ(p.v[1], 7);
	long rows = 0, cols = 0;
	p.v[0] = 48;
	CHECK(gl_topic_buffer_shape(t, &p, "out", &rows, &cols));
	CHECK_EQ(rows, 7);
	CHECK_EQ(cols, 48);
	CHECK(!gl_topic_buffer_shape(t, &p, "tile", &rows, &cols));
	gl_topic_view_problem(t, &p);
	CHECK_EQ(p.v[0], 64);
}

int main(void)
{
	test_params();
	test_round_trip();
	test_sync_events();
	CHECK_DONE();
}
